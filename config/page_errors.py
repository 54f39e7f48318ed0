"""The HTML pages' side of the one error model (config.errors): what a view lets escape, and
what a form post does with a refusal.

- `PageErrorMiddleware` answers what escapes a page's view: a row that does not exist
  (`ObjectDoesNotExist`) or a `NotFound` with the 404 page, a `Forbidden` with the 403 page,
  an `Invalid` with the 400 page, each through Django's own handlers (config.urls' handler404,
  handler403, handler400), so a view never catches them to re-raise them as Http404 or
  PermissionDenied. The API's views never reach it: DRF answers their exceptions first
  (config.api_errors.exception_handler).
- `refusal_as_message` runs a form post's service: a refusal becomes the page's error message
  (in the reader's language) and the view redirects back, as a page without script expects.
"""

from types import TracebackType
from typing import Self

from django.contrib import messages
from django.core.exceptions import BadRequest, ObjectDoesNotExist, PermissionDenied
from django.core.handlers.exception import response_for_exception
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

from config.errors import (
    DomainError,
    Forbidden,
    Invalid,
    NotFound,
    not_found_sentence,
    refusal_sentence,
)


def page_exception(exc: BaseException) -> Exception | None:
    """The exception Django's handlers answer with an error page, for one a view let escape;
    None for anything else (a conflict, a bug: those are not the pages' to map)."""
    if isinstance(exc, NotFound):
        return Http404(exc.detail)
    if isinstance(exc, Forbidden):
        return PermissionDenied(exc.detail)
    if isinstance(exc, Invalid):
        return BadRequest(exc.detail)
    if isinstance(exc, ObjectDoesNotExist):
        return Http404(not_found_sentence(exc))
    return None


class PageErrorMiddleware(MiddlewareMixin):
    """The 404, 403 and 400 pages for what a view lets escape (see the module's docstring)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        answer = page_exception(exception)
        if answer is None:
            return None
        return response_for_exception(request, answer)


class refusal_as_message:  # lower case: it reads as a function, as contextlib.suppress does
    """A form post's service run inside `with refusal_as_message(request) as refused:`.

    A refusal of one of `kinds` (every refusal unless told) is swallowed and shown as the
    page's error message (`refusal_sentence`); `refused` is then true and holds it
    (`refused.refusal`), so the view redirects back. Anything else passes on: a row that does
    not exist, or a refusal of a kind not named (a page that answers Forbidden with the 403
    page names only Invalid and Conflict), reaches `PageErrorMiddleware`.
    """

    def __init__(
        self, request: HttpRequest, *, kinds: tuple[type[DomainError], ...] = (DomainError,)
    ) -> None:
        self.request = request
        self.kinds = kinds
        self.refusal: DomainError | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool:
        if not isinstance(exc, self.kinds):
            return False
        self.refusal = exc
        messages.error(self.request, refusal_sentence(exc))
        return True

    def __bool__(self) -> bool:
        return self.refusal is not None
