"""Per-user rate limits of the live tables' writes: starting a table and making a move.

The API's views use these as DRF throttles (429 with Retry-After); the pages' forms ask the
same classes through `page_wait`, so a user's API requests and form posts draw on one
allowance, counted in the shared cache. The rates are `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`
(config/settings.py: TABLE_CREATE_RATE, TABLE_MOVE_RATE). Bots move through the service, not
through a request, and are never throttled.
"""

import math

from rest_framework.throttling import UserRateThrottle


class TableCreateThrottle(UserRateThrottle):
    scope = "table-create"


class TableMoveThrottle(UserRateThrottle):
    scope = "table-move"


def page_wait(request, throttle_class: type[UserRateThrottle]) -> int | None:
    """Whole seconds the page's (logged-in) user must wait before this request may go ahead,
    or None when it may: the request is counted as the API would count it."""
    throttle = throttle_class()
    # DRF's user throttles never read the view; the pages have none to give.
    if throttle.allow_request(request, view=None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 0))
