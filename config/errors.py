"""One error model: every refusal of a domain rule is a `DomainError`.

A service raises the refusal with what the person needs to know (a sentence, the field it
concerns, and any JSON-safe figures such as the table's current turn); the API's exception
handler (config.api_errors.exception_handler) and the pages' (config.page_errors: the 403 and
404 pages, and a form post's refusal as a message; `page_refusal` for a page of its own) turn
it into an answer. No view maps exceptions to status codes by hand.

The four kinds follow HTTP, because that is what a client acts on:

| class | status | body |
|---|---|---|
| `Invalid` | 400 | `{field: [sentence], …}` (a field per problem); `{"detail"}` without a field |
| `Forbidden` | 403 | `{"detail": sentence}` |
| `NotFound` | 404 | `{"detail": sentence}` |
| `Conflict` | 409 | `{"detail": sentence, …extra}` (e.g. `"turn"`, `"code"`) |

The engines cannot import this module (they import the standard library only): their
`IllegalMove` is answered as an `Invalid` without a field by the handler.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django.apps import apps
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from django.forms import BaseForm


class DomainError(Exception):
    """A refusal: nothing was written. `detail` is a sentence a person understands.

    `errors` maps field names to sentences for a refusal that concerns input fields;
    `extra` holds JSON-safe values the client needs to recover (the current turn or version);
    `code` is a stable machine-readable name for a refusal a client may branch on;
    `page_sentence`, where a kind sets it, is what a page says of every refusal of that kind in
    place of `detail` (which may speak of what only the API sends, such as a turn's number).
    """

    status: ClassVar[int] = 400
    code: ClassVar[str | None] = None
    page_sentence: ClassVar[str | Promise | None] = None

    def __init__(
        self,
        detail: str | Promise = "",
        *,
        errors: Mapping[str, str | list[str]] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.errors: dict[str, list[str]] = {
            field: list(text) if isinstance(text, list) else [text]
            for field, text in (errors or {}).items()
        }
        # A lazy sentence (gettext_lazy) is read now, in the language of the request refused.
        self.detail: str = (
            str(detail)
            if detail
            else "; ".join(f"{field}: {' '.join(texts)}" for field, texts in self.errors.items())
        )
        self.extra = dict(extra or {})
        super().__init__(self.detail)

    def as_json(self) -> dict[str, Any]:
        """The API's body for this refusal."""
        if self.errors:
            return {**self.errors, **self.extra}
        body: dict[str, Any] = {"detail": self.detail}
        if self.code is not None:
            body["code"] = self.code
        return {**body, **self.extra}


class Invalid(DomainError):
    """Bad input (400): the rules or the shape refuse what was sent."""

    status = 400


class Forbidden(DomainError):
    """The person may not do this (403)."""

    status = 403


class NotFound(DomainError):
    """No such thing (404)."""

    status = 404


class Conflict(DomainError):
    """The thing is not in a state that allows this now (409): stale, closed, too early."""

    status = 409


def page_refusal(
    request: HttpRequest,
    refusal: DomainError,
    *,
    template: str,
    context: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """An HTML page answering a refusal: `template` rendered with `refusal` in its context
    (its sentence and its field errors), with the refusal's status code."""
    return TemplateResponse(
        request, template, {**(context or {}), "refusal": refusal}, status=refusal.status
    )


def refusal_sentence(refusal: DomainError) -> str:
    """A refusal as the one line a page's message shows: its fields' sentences (without the
    field names, which the person never typed), else its detail; a kind's own sentence for
    pages first (`page_sentence`)."""
    if refusal.page_sentence is not None:
        return str(refusal.page_sentence)
    if refusal.errors:
        return " ".join(text for texts in refusal.errors.values() for text in texts)
    return refusal.detail


def add_refusal_to_form(form: "BaseForm", refusal: DomainError) -> None:
    """Put a refusal on a Django form: each field's sentences next to that field when the form
    has it, the rest (and a refusal without fields) above the form."""
    if not refusal.errors:
        form.add_error(None, refusal.detail)
        return
    for field, texts in refusal.errors.items():
        form.add_error(field if field in form.fields else None, texts)


def not_found_sentence(exc: ObjectDoesNotExist) -> str:
    """The sentence for a row that does not exist: "No such fixture." (the verbose name of the
    model whose DoesNotExist was raised)."""
    thing = next(
        (
            str(model._meta.verbose_name)
            for model in apps.get_models()
            if type(exc) is getattr(model, "DoesNotExist", None)
        ),
        _("object"),
    )
    return _("No such %(thing)s.") % {"thing": thing}
