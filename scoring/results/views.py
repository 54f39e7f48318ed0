"""The result-entry page: the sheet of each fixture's game (scoring.results.entry_pages draws
it), the walkover awarded from it, and the service worker that keeps it on the phone.

One view answers a sheet page and its htmx partials: a plain GET shows the sheet, a POST with
action "save" (the default) submits it through scoring.results.services.result_submit, and any other
action ("preview", "add_round", "add:0:home", ...) only redraws the sheet, whole or (for htmx)
just the partial that changed. Nothing here decides a rule or names a game: the fixture's
game kind (scoring.kinds) gives the grid, which reads what was typed, and every change runs
the validation Save runs (scoring.results.preview.grid_check), so the preview shows Save's messages.

Match night (docs/match-night.md): the same sheet page serves a player of either team (the QR
code on the printed sheet leads here); their result awaits the other team. A player of the
other team, while it awaits, gets the entered sheet to dispute with their own account, and
answers on the fixture page (scoring.results.confirmation_views.result_answer); staff settle a
dispute on result_decide's page. The staff home is scoring.results.staff_home_views, a result's
history scoring.results.history_views.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods

from config.errors import Conflict, DomainError, Invalid, add_refusal_to_form, refusal_sentence
from leagues.models import Fixture
from leagues.permissions import can_enter_results
from scoring.kinds import SheetInvalid, get_kind
from scoring.results import (
    confirmation,
    conflicts,
    fixture_day,
    lineup_selectors,
    page_fixtures,
    selectors,
    services,
    walkovers,
)
from scoring.results.entry_pages import (
    after_save_url,
    conflict_page,
    sheet_context,
    sheet_page,
    unavailable_page,
)
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.forms import EntryForm, WalkoverForm, lineup_from_data
from scoring.results.grids import ENTRY_GRIDS
from scoring.results.preview import grid_check, grid_outcome_if_valid, grid_validate


@login_required
@require_http_methods(["GET", "POST"])
def result_entry(request, pk: int):
    """The sheet of the fixture's game: enter a result, or correct it (a new version). Three
    flows: a GET shows the sheet, a POST with an action other than "save" redraws it, a save
    submits it."""
    fixture = page_fixtures.fixture_or_404(pk)
    current = selectors.fixture_current_result(fixture=fixture)
    actions = selectors.fixture_result_actions(fixture=fixture, result=current, user=request.user)
    disputing = actions.may_answer and not actions.staff
    if not (actions.staff or actions.may_enter or disputing):
        if actions.player_team_id is None:
            raise PermissionDenied(services.NOT_FIXTURE_PLAYER)
        return unavailable_page(request, fixture, _player_refusal(fixture, current), status=409)
    # What the sheet page offers: staff's entry, a player's, or a disputer's.
    request.result_actions = actions
    if fixture.status == Fixture.Status.VOID:
        return unavailable_page(request, fixture, _("This fixture is void: it takes no result."))
    if request.method == "GET":
        return _entry_get(request, fixture)
    action = str(request.POST.get("action", "save"))
    if action == "keep_current":
        services.result_proposals_dismiss(fixture_id=fixture.pk, by=request.user)
        messages.success(request, _("The saved result stands; the proposed one is set aside."))
        return redirect("result-entry", pk=fixture.pk)
    chosen, lineup_error = _chosen_lineup(request.POST, fixture, current)
    if lineup_error is not None:
        return _entry_get(request, fixture, lineup_error=lineup_error, status=400)
    context = _grid_context(fixture, chosen)
    if context is None:
        return _incomplete(request, fixture)
    grid = ENTRY_GRIDS.get(fixture.season.game).from_post(
        conflicts.with_clash_choices(request.POST), **context
    )
    grid.chosen_lineup = chosen
    if action != "save":
        return _entry_redraw(request, grid, current, action)
    if disputing:
        return _entry_dispute(request, grid, current)
    return _entry_save(request, grid, current)


def _entry_get(request, fixture, *, walkover_form=None, lineup_error=None, status=200):
    """The sheet as saved (or blank) for the lineup asked for (GET ?home_1=…), or the open
    proposal's conflict page; `walkover_form` a refused walkover to show with its messages."""
    current = selectors.fixture_current_result(fixture=fixture)
    chosen, error = _chosen_lineup(request.GET, fixture, current)
    context = _grid_context(fixture, chosen)
    if context is None:
        return _incomplete(request, fixture)
    grid_class = ENTRY_GRIDS.get(fixture.season.game)
    staff = can_enter_results(user=request.user, venue_id=fixture.venue_id)
    proposal = selectors.fixture_open_proposal(fixture=fixture) if staff else None
    if proposal is not None and walkover_form is None:
        # A result that came in meanwhile (a live table's): the conflict page, with the
        # proposal in the place of what this user typed, for staff to choose; its sheet
        # says who played (a reserve seated at the tables), unless a lineup was asked for.
        played = get_kind(fixture.season.game).sheet_lineup(proposal.sheet)
        if played is not None and lineup_from_data(request.GET) is None:
            chosen = played
            context = _grid_context(fixture, chosen) or context
        proposed = grid_class.from_sheet(proposal.sheet, **context)
        proposed.chosen_lineup = chosen
        return conflict_page(
            request,
            grid=proposed,
            mine=proposal.sheet,
            current=current,
            based_on=proposal.based_on_version,
            note="",
            status=200,
            proposal=proposal,
        )
    sheet = current.sheet if current is not None and not current.walkover else None
    grid = grid_class.from_sheet(sheet, **context)
    grid.chosen_lineup = chosen
    form = EntryForm(initial={"based_on_version": current.number if current else 0})
    return sheet_page(
        request,
        grid=grid,
        form=form,
        current=current,
        outcome=grid_outcome_if_valid(grid),
        status=status,
        walkover_form=walkover_form,
        lineup_error=lineup_error or error,
    )


def _chosen_lineup(data, fixture, current):
    """(the lineup chosen for the sheet, or None for the teams' two; a refusal's sentence or
    None). Sent with the page (home_1 … away_2) it is checked against the squads; else the
    saved result's lineup when a reserve played it."""
    sent = lineup_from_data(data)
    if sent is not None:
        try:
            return lineup_selectors.lineup_choice_check(fixture=fixture, chosen=sent), None
        except Invalid as refused:
            return None, refusal_sentence(refused)
    saved = current.lineup if current is not None else {}
    if saved and saved.get("substitutes"):
        return {"home": list(saved["home"]), "away": list(saved["away"])}, None
    return None, None


def _grid_context(fixture, chosen):
    """What a grid is built from: the fixture, its season and who plays; None when a game
    whose sheet names the players finds a team without its two."""
    lineup = lineup_selectors.fixture_lineup(fixture=fixture, chosen=chosen)
    if get_kind(fixture.season.game).needs_lineup and not lineup.complete:
        return None
    return {"fixture": fixture, "season": fixture.season, "lineup": lineup}


def _incomplete(request, fixture):
    return unavailable_page(
        request,
        fixture,
        _(
            "This fixture cannot be scored here: each team needs its two players "
            "(positions 1 and 2). Ask a league admin to complete the teams."
        ),
    )


@login_required
@require_http_methods(["POST"])
def result_walkover(request, pk: int):
    """Award a walkover from the entry page: the team that turned up gets the fixture."""
    fixture = page_fixtures.staff_fixture(request, pk)
    form = WalkoverForm(request.POST, fixture=fixture)
    if not form.is_valid():
        return _entry_get(request, fixture, walkover_form=form, status=400)
    try:
        walkovers.result_walkover_award(
            fixture_id=fixture.pk,
            team=form.cleaned_data["team"],
            by=request.user,
            note=form.cleaned_data["note"],
        )
    except (Invalid, Conflict) as refused:
        add_refusal_to_form(form, refused)
        return _entry_get(
            request,
            fixture,
            walkover_form=form,
            status=409 if isinstance(refused, Conflict) else 400,
        )
    winner = fixture.home_team if form.cleaned_data["team"] == "home" else fixture.away_team
    messages.success(request, _("Walkover awarded to %(team)s.") % {"team": winner.name})
    return redirect(reverse("fixture-detail", args=[fixture.pk]))


def _entry_redraw(request, grid, current, action: str):
    """A button other than save ("preview", "add_round", "add:0:home", ...): the grid changed
    and checked as Save would check it; for htmx only the partial that changed."""
    known = action == "preview" or grid.apply_action(action)
    outcome = grid_check(grid)  # the messages Save would give, beside their fields
    if request.htmx:
        extra = {"outcome": outcome, "checked": True, "oob": True}
        return render(request, grid.partial, sheet_context(grid=grid, form=None, **extra))
    form = EntryForm(
        initial={
            "based_on_version": request.POST.get("based_on_version", ""),
            "note": request.POST.get("note", ""),
            "before_fixture_day": bool(request.POST.get("before_fixture_day")),
        }
    )
    return sheet_page(
        request,
        grid=grid,
        form=form,
        current=current,
        outcome=outcome,
        checked=True,
        focus_last=action in ("add_round",),
        status=200 if known else 400,
    )


def _entry_save(request, grid, current):
    """Submit the sheet through result_submit; each refusal is shown where it belongs."""
    fixture = grid.fixture
    form = EntryForm(request.POST)
    if not form.is_valid():
        outcome = grid_check(grid)
        return sheet_page(
            request, grid=grid, form=form, current=current, outcome=outcome, status=400
        )
    try:
        version = services.result_submit(
            fixture_id=fixture.pk,
            lineup=grid.chosen_lineup,
            sheet=grid.sheet(),
            based_on_version=form.cleaned_data["based_on_version"],
            by=request.user,
            source="staff",
            note=form.cleaned_data["note"],
            before_fixture_day=form.cleaned_data["before_fixture_day"],
            submission_key=form.cleaned_data["submission_key"],
        )
    except services.ResultConflict as conflict:
        try:
            mine = grid_validate(grid)
        except SheetInvalid:
            mine = grid.sheet()
        return conflict_page(
            request,
            grid=grid,
            mine=mine,
            current=conflict.current,
            based_on=conflict.based_on_version,
            note=form.cleaned_data.get("note", ""),
        )
    except SheetInvalid as invalid:
        grid.add_errors(invalid.errors)
        return sheet_page(request, grid=grid, form=form, current=current, status=invalid.status)
    except Invalid as invalid:  # the note, the submission key
        add_refusal_to_form(form, invalid)
        return sheet_page(request, grid=grid, form=form, current=current, status=invalid.status)
    except fixture_day.BeforeFixtureDay as early:
        # The day is checked before the sheet: check the sheet too, so that the page says
        # all that stands in the way, as the preview does (the API's 409 stays as it is).
        outcome = grid_check(grid)
        form.add_error(None, str(early))
        return sheet_page(
            request, grid=grid, form=form, current=current, outcome=outcome, status=early.status
        )
    except FixtureNotOpen as closed:
        return unavailable_page(request, fixture, str(closed), status=closed.status)
    except services.ResultSettled as settled:  # the other team answered meanwhile
        return unavailable_page(request, fixture, str(settled), status=settled.status)
    except Conflict as refusal:  # a rule above results refused the result (a cup's bracket)
        form.add_error(None, refusal_sentence(refusal))
        return sheet_page(request, grid=grid, form=form, current=current, status=refusal.status)

    # A submission sent again (its key already saved a version) is told what the first one
    # was told: the version it wrote.
    names = {"home": fixture.home_team, "away": fixture.away_team, "number": version.number}
    if version.number == 1:
        messages.success(request, _("Result saved: %(home)s v %(away)s.") % names)
    else:
        messages.success(
            request, _("Result corrected (version %(number)s): %(home)s v %(away)s.") % names
        )
    if version.confirmation == version.Confirmation.AWAITING:
        messages.info(
            request,
            _("It counts once a player of the other team confirms it, or at %(when)s.")
            % {
                "when": dateformat.format(
                    timezone.localtime(version.confirm_by),
                    pgettext("date format", "D j M, H:i"),
                )
            },
        )
    return redirect(after_save_url(fixture))


@require_http_methods(["GET"])
def entry_service_worker(request):
    """The service worker that keeps entry pages and their files on the phone
    (docs/result-entry.md "Offline entry"). Served from /staff/ so that its scope covers the
    entry pages; open to anyone, as a static file is: it holds no data, and its update checks
    must not be sent to the login page when a session has ended."""
    response = render(request, "scoring/entry_sw.js", content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def _entry_dispute(request, grid, current):
    """A player of the team that did not enter the awaiting result saves the sheet as their
    account of it: a dispute, the note its reason (scoring.results.confirmation.result_dispute)."""
    fixture = grid.fixture
    form = EntryForm(request.POST)
    if not form.is_valid():
        return sheet_page(request, grid=grid, form=form, current=current, status=400)
    try:
        confirmation.result_dispute(
            fixture_id=fixture.pk,
            version=form.cleaned_data["based_on_version"],
            reason=form.cleaned_data["note"],
            sheet=grid.sheet(),
            by=request.user,
        )
    except SheetInvalid as invalid:
        grid.add_errors(invalid.errors)
        return sheet_page(request, grid=grid, form=form, current=current, status=400)
    except Invalid as invalid:  # the reason, which is the note here
        form.add_error("note", refusal_sentence(invalid))
        return sheet_page(request, grid=grid, form=form, current=current, status=400)
    except DomainError as refusal:
        return unavailable_page(request, fixture, refusal_sentence(refusal), status=refusal.status)
    messages.success(request, _("Result disputed: the venue's staff will decide."))
    return redirect("fixture-detail", pk=fixture.pk)


def _player_refusal(fixture: Fixture, current) -> str:
    """Why a player of the fixture has nothing to enter here."""
    if fixture.status == Fixture.Status.VOID:
        return _("This fixture is void: it takes no result.")
    if current is not None and current.confirmation == current.Confirmation.DISPUTED:
        return _("This result is disputed: staff of the venue or a league admin decide it.")
    if current is not None and current.confirmation == current.Confirmation.AWAITING:
        return _("Your team entered this result: it awaits the other team's answer.")
    return _(
        "This result is confirmed: only staff of the venue or a league admin can correct it now."
    )
