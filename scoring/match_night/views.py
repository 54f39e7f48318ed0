"""The "what needs you" page (login): what waits for the person, and their notices setting."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues.profile_services import profile_email_notices_set
from scoring.match_night.selectors import needs_you


@login_required
def needs_you_page(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/needs_you.html", {"needs": needs_you(user=request.user)})


@login_required
@require_POST
def email_notices_set(request: HttpRequest) -> HttpResponse:
    """Turn the person's notices by email on ("on") or off (anything else)."""
    on = request.POST.get("email_notices") == "on"
    profile_email_notices_set(user=request.user, email_notices=on)
    messages.success(
        request,
        _("You will get these by email.") if on else _("No more emails: this page keeps the list."),
    )
    return redirect("needs-you")
