"""Site-wide login policy: lockout after failed logins, and API tokens revoked with a password.

The lockout itself is django-axes (settings: AXES_*; docs/operations.md says how an admin
unlocks someone); this module holds the two places where Roundel differs from its defaults:
the lockout answer (JSON under /api/, the site's page elsewhere, both 429 with Retry-After)
and a backend that leaves in-process callers without a request alone. It also keeps password
reset to where mail can go out (settings.PASSWORD_RESET_BY_MAIL), keeps the pages of
logged-in users out of shared caches, and sends staff to their fixtures after logging in.
"""

import math
from functools import wraps

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def locked_out_sentence(minutes: int) -> str:
    """The lockout's answer, in the requester's language."""
    return ngettext(
        "Too many failed logins for this user from your address. Try again in %(minutes)d "
        "minute, or ask a league admin to unlock the account.",
        "Too many failed logins for this user from your address. Try again in %(minutes)d "
        "minutes, or ask a league admin to unlock the account.",
        minutes,
    ) % {"minutes": minutes}


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
    detail = locked_out_sentence(math.ceil(seconds / 60))
    response: HttpResponse
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
        return _("Changing your password signs out every API token you hold.")


class StaffFirstLoginView(LoginView):
    """Django's login page; after it, a member of a venue's staff lands on the staff page
    (their fixtures), everyone else on settings.LOGIN_REDIRECT_URL. A safe `next` wins."""

    def get_default_redirect_url(self) -> str:
        user = self.request.user  # signed in by now
        if not isinstance(user, AnonymousUser) and user.venues_served.exists():
            return reverse("staff-home")
        return super().get_default_redirect_url()


def mail_context(request) -> dict:
    """Templates offer "Forgot your password?" only where the reset mail can be sent."""
    return {"password_reset_by_mail": settings.PASSWORD_RESET_BY_MAIL}


def needs_mail(view):
    """404 for a password reset page where no mail can go out: it would "succeed" and send
    nothing (an admin sets a new password in the admin instead)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not settings.PASSWORD_RESET_BY_MAIL:
            raise Http404(_("Password reset by mail is not available here."))
        return view(request, *args, **kwargs)

    return wrapped


class PrivatePagesMiddleware:
    """Cache-Control: private on staff pages and on any page shown to a logged-in user.

    They carry a user's name, their venues' fixtures, forms with CSRF tokens: a shared cache
    (a proxy, a CDN) must not keep them for the next visitor. The admin marks its own pages.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.path.startswith("/staff/") or (user is not None and user.is_authenticated):
            patch_cache_control(response, private=True)
        return response
