"""Match night's answers to an awaiting result (docs/match-night.md): a player of the team that
did not enter it confirms or disputes it on the fixture page (result_answer), and staff of the
venue or a league admin settle it on its decide page (result_decide)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.page_errors import refusal_as_message
from scoring.results import confirmation, lineup_selectors, page_fixtures, selectors
from scoring.results.forms import AnswerForm, DecideForm, readable_changes
from scoring.results.sheets import sheet_changes


@login_required
@require_http_methods(["POST"])
def result_answer(request, pk: int):
    """A player of the team that did not enter the awaiting result confirms it, or disputes it
    with a reason (the fixture page's two forms); back to the fixture page."""
    fixture = page_fixtures.fixture_or_404(pk)
    confirmation.result_answer_check(fixture=fixture, by=request.user)  # 403 before the form
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.errors.values()))
        return redirect("fixture-detail", pk=fixture.pk)
    with refusal_as_message(request):
        if form.cleaned_data["answer"] == "confirm":
            confirmation.result_confirm(
                fixture_id=fixture.pk, version=form.cleaned_data["version"], by=request.user
            )
            messages.success(request, _("Result confirmed: it counts in the table now."))
        else:
            confirmation.result_dispute(
                fixture_id=fixture.pk,
                version=form.cleaned_data["version"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
            messages.success(request, _("Result disputed: the venue's staff will decide."))
    return redirect("fixture-detail", pk=fixture.pk)


@login_required
@require_http_methods(["GET", "POST"])
def result_decide(request, pk: int):
    """Staff of the venue and league admins: an awaiting or disputed result, its versions side
    by side (what was entered, and the disputing team's account), and a choice between them."""
    fixture = page_fixtures.staff_fixture(request, pk)
    current = selectors.fixture_current_result(fixture=fixture)
    if request.method == "POST":
        form = DecideForm(request.POST)
        if form.is_valid():
            with refusal_as_message(request) as refused:
                confirmation.result_decide(
                    fixture_id=fixture.pk,
                    version=form.cleaned_data["version"],
                    choose=form.cleaned_data["choose"],
                    by=request.user,
                )
            if refused:
                return redirect("result-decide", pk=fixture.pk)
            messages.success(request, _("Decided: the chosen version counts now."))
            return redirect("fixture-detail", pk=fixture.pk)
        messages.error(request, " ".join(str(e) for e in form.errors.values()))
    versions = selectors.fixture_versions_to_decide(fixture=fixture)
    lineup = lineup_selectors.fixture_lineup(fixture=fixture)
    names = lineup_selectors.sheet_player_names(
        game=fixture.season.game, lineup=lineup, sheets=[v.sheet for v in versions]
    )
    differences = []
    if len(versions) == 2:
        entered, account = versions
        differences = readable_changes(
            fixture.season.game,
            sheet_changes(entered.sheet, account.sheet),
            before=entered.sheet,
            after=account.sheet,
            names=names,
            teams=(fixture.home_team, fixture.away_team),
        )
    return render(
        request,
        "scoring/result_decide.html",
        {
            "fixture": fixture,
            "season": fixture.season,
            "current": current,
            "versions": versions,
            "differences": differences,
            "open": current is not None and current.confirmation != current.Confirmation.CONFIRMED,
        },
    )
