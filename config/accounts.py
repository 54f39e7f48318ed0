"""Site-wide login policy: lockout after failed logins, and API tokens revoked with a password.

The lockout itself is django-axes (settings: AXES_*; docs/operations.md says how an admin
unlocks someone); this module holds the two places where Roundel differs from its defaults:
the lockout answer (JSON under /api/, the site's page elsewhere, both 429 with Retry-After)
and a backend that leaves in-process callers without a request alone.
"""

import math

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

LOCKED_OUT = (
    "Too many failed logins for this user from your address. Try again in {minutes} "
    "minutes, or ask a league admin to unlock the account."
)


class LockoutBackend(AxesStandaloneBackend):
    """Refuses a login while its username is locked out at the client's address.

    Every login over HTTP (the login page, the admin's, the API token endpoint) passes the
    request. A caller without one (a management command, a test client's login()) is not
    guessing passwords over the network, so it is let through to the password check instead
    of failing as axes' own backend does.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """429 with Retry-After: the API's error shape under /api/, the login page's look elsewhere."""
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else 3600
    detail = LOCKED_OUT.format(minutes=math.ceil(seconds / 60))
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": detail}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"detail": detail}, status=429)
    response["Retry-After"] = str(seconds)
    return response


class RevokeTokensOnPasswordChange:
    """Listed among AUTH_PASSWORD_VALIDATORS for Django's password_changed() hook only.

    Django calls password_changed() on every validator whenever a user's password is saved
    (the password change and reset pages, the admin, `changepassword`); a stolen API token
    must not outlive the password it was obtained with.
    """

    def validate(self, password, user=None):
        return None

    def password_changed(self, password, user=None):
        if user is not None and user.pk is not None:
            from knox.models import AuthToken  # the app registry is ready by the time this runs

            AuthToken.objects.filter(user=user).delete()

    def get_help_text(self):
        return "Changing your password signs out every API token you hold."
