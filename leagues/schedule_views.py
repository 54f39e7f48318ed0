"""Match night's schedule pages for the players of a fixture (docs/match-night.md): propose a
new date, answer the other team's proposal, say whether they can play. Each is a plain form
POST that redirects back (no JavaScript needed); the availability toggle answers htmx with its
own partial. The rules are leagues.services'; refusals come back as the page's message, or
next to the field on the proposal form.
"""

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.errors import DomainError, add_refusal_to_form, page_refusal, refusal_sentence
from config.page_errors import refusal_as_message

from . import schedule_services, selectors
from .models import Fixture, RescheduleProposal


def _next_or_fixture(request: HttpRequest, fixture_id: int) -> str:
    """Where to go back to: a safe `next` (the team page, the needs-you page), else the
    fixture's page."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("fixture-detail", args=[fixture_id])


def _fixture_or_404(pk: int) -> Fixture:
    fixture = (
        Fixture.objects.select_related("home_team", "away_team", "venue", "season__league")
        .filter(pk=pk)
        .first()
    )
    if fixture is None:
        raise Http404("Not found")
    return fixture


class RescheduleForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=gettext_lazy("New date and time"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    message = forms.CharField(
        label=gettext_lazy("Message to the other team"),
        max_length=schedule_services.MESSAGE_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


@login_required
def reschedule_propose_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player of either team proposes a new date for the fixture, with a message."""
    fixture = _fixture_or_404(pk)
    if request.method == "POST":
        form = RescheduleForm(request.POST)
        if form.is_valid():
            try:
                schedule_services.reschedule_propose(
                    fixture_id=fixture.pk,
                    starts_at=form.cleaned_data["starts_at"],
                    message=form.cleaned_data["message"],
                    by=request.user,
                )
            except DomainError as refusal:
                if refusal.errors:
                    add_refusal_to_form(form, refusal)
                else:
                    return page_refusal(
                        request,
                        refusal,
                        template="leagues/reschedule_propose.html",
                        context={"fixture": fixture, "form": None},
                    )
            else:
                messages.success(request, _("New date proposed: the other team will answer."))
                return redirect("fixture-detail", pk=fixture.pk)
        status = 400
    else:
        suggested = timezone.localtime(fixture.starts_at) + datetime.timedelta(days=7)
        form = RescheduleForm(initial={"starts_at": suggested.replace(second=0, microsecond=0)})
        status = 200
    return render(
        request,
        "leagues/reschedule_propose.html",
        {"fixture": fixture, "form": form},
        status=status,
    )


ANSWERS = {
    "accept": (
        schedule_services.reschedule_accept,
        gettext_lazy("Accepted: the fixture has moved."),
    ),
    "decline": (
        schedule_services.reschedule_decline,
        gettext_lazy("Declined: the fixture keeps its date."),
    ),
    "withdraw": (
        schedule_services.reschedule_withdraw,
        gettext_lazy("Your proposal is withdrawn."),
    ),
}


@login_required
@require_POST
def reschedule_answer(request: HttpRequest, pk: int, answer: str) -> HttpResponse:
    """Accept, decline (the other team) or withdraw (the proposing team) a proposal."""
    proposal = RescheduleProposal.objects.filter(pk=pk).first()
    if proposal is None or answer not in ANSWERS:
        raise Http404("Not found")
    service, done = ANSWERS[answer]
    with refusal_as_message(request) as refused:
        service(proposal_id=proposal.pk, by=request.user)
    if not refused:
        messages.success(request, str(done))
    return redirect(_next_or_fixture(request, proposal.fixture_id))


@login_required
@require_POST
def availability_mark(request: HttpRequest, pk: int) -> HttpResponse:
    """The requesting player says whether they can play; htmx gets the toggle back."""
    fixture = _fixture_or_404(pk)
    available = request.POST.get("available")
    refusal = None
    try:
        schedule_services.availability_set(
            fixture_id=fixture.pk,
            available={"yes": True, "no": False}.get(available or "", available),  # type: ignore[arg-type]  # the service refuses anything else
            by=request.user,
        )
    except DomainError as error:
        refusal = error
    if request.htmx:  # type: ignore[attr-defined]  # django-htmx's middleware
        # A 2xx even for a refusal: htmx swaps only those in, and the toggle says why.
        schedule = selectors.fixture_schedule(fixture=fixture, user=request.user)
        context = {
            "fixture": fixture,
            "schedule": schedule,
            "my_mark": schedule.my_mark,
            "next": request.POST.get("next", ""),
            "panel": request.POST.get("panel", ""),
            "refusal": refusal_sentence(refusal) if refusal else "",
        }
        if context["panel"] == "fixture":  # the fixture's page: the marks change with it
            return render(request, "leagues/_fixture_schedule.html", context)
        return render(request, "leagues/_availability_toggle.html", context)
    if refusal is not None:
        messages.error(request, refusal_sentence(refusal))
    else:
        messages.success(request, _("Saved: your team can see it."))
    return redirect(_next_or_fixture(request, fixture.pk))
