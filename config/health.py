"""GET /health/: whether the site answers and its turn clocks run, for a monitor to poll
(docs/operations.md, "Keeping the clocks running"). 200 when all is well, else 503."""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.live.selectors import clock_health


@never_cache
@require_safe
def health(request):
    clocks = clock_health()
    return JsonResponse(clocks, status=200 if clocks["ok"] else 503)
