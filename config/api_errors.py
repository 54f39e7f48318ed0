"""API error bodies: every refusal is JSON that names the field and the problem.

Holds the exception handler (Django's ValidationError and PermissionDenied as DRF answers), the
shapes of the error bodies as the schema documents them, and the JSON 404 for an address under
/api/ that no endpoint serves.
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context):
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
    """No endpoint at this address (a misspelt path, an id that is not a whole number)."""
    return JsonResponse(
        {"detail": "There is no API endpoint at this address; the list is at /api/docs/."},
        status=404,
    )
