"""API sign-in and sign-out: expiring, revocable tokens (django-rest-knox, stored as a hash).

POST /api/auth/token/ with a username and password answers {"token", "expiry"}; send
`Authorization: Token <token>` afterwards. POST /api/auth/logout/ revokes the token it is
sent with, /api/auth/logout-all/ every token of its user; a password change revokes them all
too (config.accounts). The token endpoint is throttled per address (429 with Retry-After) and
sits behind the login lockout (config.accounts: 429 with Retry-After once locked out).
"""

from django.contrib.auth import authenticate, user_logged_in, user_logged_out
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.auth import TokenAuthentication
from knox.models import AuthToken
from rest_framework import parsers, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from config.api_parsers import JSONParser
from config.client_address import ClientAddressScopedRateThrottle

# Django REST framework's own sentence (its catalogues translate it).
WRONG_CREDENTIALS = gettext_lazy("Unable to log in with provided credentials.")


class TokenInputSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(help_text="When the token stops working.")


class TokenErrorOutputSerializer(serializers.Serializer):
    username = serializers.ListField(child=serializers.CharField(), required=False)
    password = serializers.ListField(child=serializers.CharField(), required=False)
    non_field_errors = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Wrong credentials (or an inactive user).",
    )
    detail = serializers.CharField(required=False, help_text="The body is not valid JSON.")


_TOO_MANY = OpenApiResponse(
    ErrorOutputSerializer,
    description="Too many attempts from this address, or this user is locked out here after "
    "failed logins; Retry-After says when to try again",
)


class TokenApi(APIView):
    """POST a username and password; answers a new token and when it expires."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [ClientAddressScopedRateThrottle]
    throttle_scope = "auth-token"
    parser_classes = [JSONParser, parsers.FormParser, parsers.MultiPartParser]

    @extend_schema(
        tags=["auth"],
        summary="Get an API token for a username and password",
        request=TokenInputSerializer,
        responses={
            200: TokenOutputSerializer,
            400: OpenApiResponse(
                TokenErrorOutputSerializer, description="Wrong credentials, or a field missing"
            ),
            429: _TOO_MANY,
        },
    )
    def post(self, request):
        given = TokenInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        # Django's request, not DRF's wrapper: the lockout marks it, and its middleware
        # answers 429 for a locked-out user (config.accounts.lockout_response).
        user = authenticate(
            request=request._request,
            username=given.validated_data["username"],
            password=given.validated_data["password"],
        )
        if user is None:
            return Response(
                {"non_field_errors": [WRONG_CREDENTIALS]}, status=status.HTTP_400_BAD_REQUEST
            )
        instance, token = AuthToken.objects.create(user=user)
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        return Response({"token": token, "expiry": instance.expiry})


class LogoutApi(APIView):
    """Revoke the token this request is sent with."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["auth"],
        summary="Revoke the token sent with this request",
        request=None,
        responses={
            204: OpenApiResponse(description="The token no longer works"),
            401: OpenApiResponse(ErrorOutputSerializer, description="No valid token sent"),
        },
    )
    def post(self, request):
        request.auth.delete()
        user_logged_out.send(
            sender=request.user.__class__, request=request._request, user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllApi(APIView):
    """Revoke every token of the user this request's token belongs to."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["auth"],
        summary="Revoke every token of this token's user",
        request=None,
        responses={
            204: OpenApiResponse(description="None of the user's tokens works any more"),
            401: OpenApiResponse(ErrorOutputSerializer, description="No valid token sent"),
        },
    )
    def post(self, request):
        AuthToken.objects.filter(user=request.user).delete()
        user_logged_out.send(
            sender=request.user.__class__, request=request._request, user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
