"""Template tags for the pages of other apps that show live play: the fixture page's link to
its tables (templates/games/_fixture_link.html)."""

import datetime

from django import template

from scoring.results.selectors import fixture_day_to_come

register = template.Library()


@register.simple_tag
def tables_open_on(fixture) -> datetime.date | None:
    """The day a fixture's live tables open while it is still to come, else None: the fixture's
    day, as for entering its result (games/live/fixture_tables.py)."""
    return fixture_day_to_come(fixture=fixture)
