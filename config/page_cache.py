"""Public pages for anonymous visitors, kept in the shared cache (docs/performance.md, "A pub
night").

A league page is the same for every anonymous visitor who reads it in one language, yet it
costs 10–35 ms of CPU to build; on a pub night two hundred visitors ask for them while fifty
phones play, on the same cores. A view marked `@public_page` is built once per address and
language and served from the cache (CACHE_URL, shared by the web processes and the Celery
worker) until either

- something the pages show is written: any save or delete of a league or scoring row bumps
  a generation number once the transaction commits, and every key carries it, so the next
  visitor gets a page built after the write; or
- PAGE_CACHE_SECONDS pass, which bounds what no signal announces (a bulk update, the date
  turning over while "tonight" is shown).

An address is kept only with the query parameters its view declares it reads
(`@public_page(query=("division",))`): any other parameter is built afresh and not kept, so
made-up parameters cannot fill the cache with copies of one page.

Only a GET from someone without a session (no session cookie, so certainly anonymous, and no
flash message waiting) is served or kept; a logged-in reader's page names them and is never
cached. The one per-visitor part of a public page is its CSRF token (the language switcher's
form, htmx's header): the page is kept with a placeholder where the token goes, and each
visitor's answer gets their own token there, as Django's own {% csrf_token %} would have.

Without a shared cache (the embedded default's in-process one, which the worker does not
share) PAGE_CACHE_SECONDS is 0 and nothing is cached.
"""

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token

CSRF_PLACEHOLDER = "page_cache_csrf_token_placeholder"
GENERATION_KEY = "page-cache:generation"
CACHED_APPS = ("leagues", "scoring")
# Cookies that change nothing a public page shows to an anonymous visitor: the CSRF cookie
# (its token is put in per answer) and the language (part of the key).
_HARMLESS_COOKIES = {settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME}
_KEY_ATTRIBUTE = "_page_cache_key"


View = Callable[..., HttpResponse]


def public_page(view: View | None = None, /, *, query: tuple[str, ...] = ()) -> Any:
    """Marks a view whose page is the same for every anonymous visitor in a language, for
    each value of the query parameters it reads (`query`). An address with any other
    parameter is built afresh and not kept: made-up parameters (?x=1, ?x=2, …) would
    otherwise each fill the cache with a copy of one page."""

    def mark(view: View) -> View:
        view.public_page = frozenset(query)  # type: ignore[attr-defined]
        return view

    return mark(view) if view is not None else mark


def csrf_placeholder(request: HttpRequest) -> dict[str, str]:
    """A context processor: on a page being kept, the token's place rather than a token."""
    if getattr(request, _KEY_ATTRIBUTE, None):
        return {"csrf_token": CSRF_PLACEHOLDER}
    return {}


def generation_bump() -> None:
    """Every cached page is old from now on (after the current transaction commits)."""

    def bump() -> None:
        try:
            cache.incr(GENERATION_KEY)
        except ValueError:  # not there yet, or evicted: any new value is a new generation
            cache.set(GENERATION_KEY, 1, timeout=None)

    if settings.PAGE_CACHE_SECONDS:
        transaction.on_commit(bump)


def _bump_on_write(sender: type[Model], **kwargs: Any) -> None:
    if sender._meta.app_label in CACHED_APPS:
        generation_bump()


def connect_signals() -> None:
    """Called once at start-up (config.apps): every league and scoring model, the history
    and through tables included."""
    post_save.connect(_bump_on_write, dispatch_uid="page-cache-save")
    post_delete.connect(_bump_on_write, dispatch_uid="page-cache-delete")
    m2m_changed.connect(_bump_on_write, dispatch_uid="page-cache-m2m")


class PublicPageCacheMiddleware:
    """Serves and keeps the pages of `@public_page` views (see the module's docstring).

    It stands after the CSRF, session, auth and message middleware, so that on the way out
    they see the answer as if the view had built it: the CSRF cookie is set for a first
    visit, the language and Vary headers added, Cache-Control left for the anonymous."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        key = getattr(request, _KEY_ATTRIBUTE, None)
        if key is None:
            return response
        if response.status_code == 200 and not response.streaming and not response.cookies:
            cache.set(
                key,
                (response.content, response.headers.get("Content-Type")),
                timeout=settings.PAGE_CACHE_SECONDS,
            )
        response.content = _with_token(request, response.content)
        return response

    def process_view(self, request: HttpRequest, view, view_args, view_kwargs):
        reads = getattr(view, "public_page", None)
        if reads is None or not set(request.GET) <= reads or not _anonymous_read(request):
            return None
        generation = cache.get(GENERATION_KEY, 0)
        path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]
        key = f"page-cache:{generation}:{request.LANGUAGE_CODE}:{path}"
        kept = cache.get(key)
        if kept is None:
            setattr(request, _KEY_ATTRIBUTE, key)
            return None
        content, content_type = kept
        return HttpResponse(_with_token(request, content), content_type=content_type)


def _anonymous_read(request: HttpRequest) -> bool:
    return (
        settings.PAGE_CACHE_SECONDS > 0
        and request.method == "GET"
        and "HX-Request" not in request.headers
        and set(request.COOKIES) <= _HARMLESS_COOKIES
    )


def _with_token(request: HttpRequest, content: bytes) -> bytes:
    if CSRF_PLACEHOLDER.encode() not in content:
        return content
    return content.replace(CSRF_PLACEHOLDER.encode(), get_token(request).encode())
