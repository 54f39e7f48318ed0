"""A table page's conditional fetch that finds nothing new is answered 304 before any session,
user or template work (docs/play-pages.md, decision 1).

The ETag of a table's live part is its version (games.live.versions, one small query) and
its viewer; the viewer is named by their session cookie as sent, not by their user, so that
the answer needs no session read: a cookie names one session, and so one user. A new login
(a new session key) or logging out (no cookie) makes a new ETag, and the page is read in
full. The cookie is mixed in through an HMAC with the site's secret key, so the ETag gives
nothing of it away.
"""

import json
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.crypto import salted_hmac

from games.models import Table

from .versions import table_version

_TABLE_PAGE = re.compile(r"^/tables/(?P<table_id>\d+)/$")


def table_etag(*, table_id: int, viewer: str) -> str:
    """The ETag of what `viewer` (a session cookie, or "" for none) sees of the table now; a
    fresh one for an overdue turn, so that its fetch is read in full (and the turn expired)
    rather than answered 304. Raises Table.DoesNotExist."""
    return version_etag(version=table_version(table_id=table_id), viewer=viewer)


def version_etag(*, version: dict[str, Any], viewer: str) -> str:
    """table_etag of a version already read (games.live.versions)."""
    overdue = version["deadline"] is not None and version["deadline"] <= timezone.now()
    key = json.dumps([version, viewer, overdue and timezone.now()], default=str)
    return '"' + salted_hmac("roundel.table-etag", key, algorithm="sha256").hexdigest()[:32] + '"'


def viewer_of(request: HttpRequest) -> str:
    return request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


class UnchangedTablePollMiddleware:
    """Stands before the session middleware: an htmx fetch of a table page whose If-None-Match
    is still the table's ETag for this cookie is answered here, as the view would answer it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        asked = request.headers.get("If-None-Match")
        page = _TABLE_PAGE.match(request.path_info)
        if asked and page and request.method == "GET" and "HX-Request" in request.headers:
            try:
                etag = table_etag(table_id=int(page["table_id"]), viewer=viewer_of(request))
            except Table.DoesNotExist:
                etag = None  # the view says so, in the reader's language
            if etag == asked:
                response = HttpResponseNotModified()
                response["ETag"] = etag
                response["Cache-Control"] = "no-store"
                return response
            request.table_etag = etag  # type: ignore[attr-defined]  # the view's, read once
        return self.get_response(request)
