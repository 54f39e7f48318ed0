"""API error bodies: every refusal is JSON that names the field and the problem.

Holds the exception handler (Django's ValidationError and PermissionDenied as DRF answers), the
shapes of the error bodies as the schema documents them, the JSON 404 for an address under
/api/ that no endpoint serves (or that lacks its trailing slash), and Django's error views (400, 403, 404, 413, 500) that
answer JSON under /api/.
"""

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, RequestDataTooBig
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import DomainError, not_found_sentence
from config.game_words import refusal_text
from games.engines import IllegalMove


def exception_handler(exc, context):
    """Every refusal as JSON: the domain's (config.errors), an engine's illegal move, a row
    that does not exist, and Django's own validation and permission errors."""
    if isinstance(exc, DomainError):
        return Response(exc.as_json(), status=exc.status)
    if isinstance(exc, IllegalMove):
        return Response({"detail": refusal_text(exc)}, status=400)  # in the reader's language
    if isinstance(exc, ObjectDoesNotExist):
        return Response({"detail": not_found_sentence(exc)}, status=404)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)


class ErrorOutputSerializer(serializers.Serializer):
    """A refusal that concerns no one field: 401, 403, 404, 409."""

    detail = serializers.CharField()


# {"round": ["Enter a whole number."]}: each field (a filter, an input) with its problems.
FIELD_ERRORS_SCHEMA = {
    "type": "object",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
    "description": 'Problems by field name, e.g. {"round": ["Enter a whole number."]}.',
}


@csrf_exempt  # it writes nothing: a POST to a wrong address gets this 404, not a CSRF page
def not_found(request, *args, **kwargs):
    """No endpoint at this address (a misspelt path, an id that is not a whole number, a
    missing trailing slash).

    An address that lacks only its slash is not redirected, as pages are (APPEND_SLASH): a
    redirect drops a POST's body (and under DEBUG Django raises instead), so the client is
    told the address it meant, whatever the method, in DEBUG and production alike.
    """
    if not request.path_info.endswith("/") and _is_endpoint(f"{request.path_info}/"):
        return _json_error(
            _("No such address: did you mean %(path)s/?") % {"path": request.path}, 404
        )
    return _json_error(
        _("There is no API endpoint at this address; the list is at /api/docs/."), 404
    )


def _is_endpoint(path_info: str) -> bool:
    try:
        return resolve(path_info).func is not not_found
    except Resolver404:
        return False


# ---- Errors raised outside the API's views -------------------------------------------------
# DRF answers in JSON for what happens inside an API view. What happens before (a body over the
# upload limit, a malformed request) or escapes it (a bug: 500) is Django's to answer, and it
# answers with HTML pages; under /api/ these answer the same {"detail": …} as everything else.


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def _json_error(detail: str, status: int) -> JsonResponse:
    return JsonResponse({"detail": detail}, status=status)


class ApiBodyLimitMiddleware:
    """413 for a request under /api/ that declares a body over DATA_UPLOAD_MAX_MEMORY_SIZE.

    Refused before anything reads it: Django enforces the limit only when request.POST or
    request.body is read (as a 400 page), and DRF's JSON parser reads the stream past it.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if _is_api(request) and limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                return _json_error(_("The Content-Length header is not a number."), 400)
            if length > limit:
                return _json_error(
                    _("The request body is over the limit of %(limit)d bytes.") % {"limit": limit},
                    413,
                )
        return self.get_response(request)


def bad_request(request, exception, template_name=defaults.ERROR_400_TEMPLATE_NAME):
    if not _is_api(request):
        return defaults.bad_request(request, exception, template_name)
    if isinstance(exception, RequestDataTooBig):
        return _json_error(_("The request body is over the upload limit."), 413)
    return _json_error(_("The request could not be read."), 400)


def permission_denied(request, exception, template_name=defaults.ERROR_403_TEMPLATE_NAME):
    if not _is_api(request):
        return defaults.permission_denied(request, exception, template_name)
    return _json_error(str(exception) or _("You do not have permission to do this."), 403)


def page_not_found(request, exception, template_name=defaults.ERROR_404_TEMPLATE_NAME):
    if not _is_api(request):
        return defaults.page_not_found(request, exception, template_name)
    return not_found(request)


def server_error(request, template_name=defaults.ERROR_500_TEMPLATE_NAME):
    if not _is_api(request):
        return defaults.server_error(request, template_name)
    return _json_error(_("Something went wrong on our side; it has been logged."), 500)
