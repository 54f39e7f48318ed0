"""Staff pages: the fixtures to score, the result-entry sheet of each game, and its history.

One view answers a sheet page and its htmx partials: a plain GET shows the sheet, a POST with
action "save" (the default) submits it through scoring.results.services.result_submit, and any other
action ("preview", "add_round", "add:0:home", ...) only redraws the sheet, whole or (for htmx)
just the partial that changed. Nothing here decides a rule or names a game: the fixture's
game kind (scoring.kinds) gives the grid, which reads what was typed, and every change runs
the validation Save runs (scoring.results.preview.grid_check), so the preview shows Save's messages.

Match night (docs/match-night.md): the same sheet page serves a player of either team (the QR
code on the printed sheet leads here); their result awaits the other team. A player of the
other team, while it awaits, gets the entered sheet to dispute with their own account, and
answers on the fixture page (result_answer); staff settle a dispute on result_decide's page.
"""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods

from config.errors import Conflict, DomainError, Invalid, add_refusal_to_form, refusal_sentence
from config.page_errors import refusal_as_message
from leagues.models import Fixture
from leagues.permissions import can_enter_results
from scoring.kinds import SheetInvalid, get_kind
from scoring.models import ResultVersion
from scoring.results import confirmation, conflicts, fixture_day, selectors, services, walkovers
from scoring.results.forms import (
    LINEUP_PLACES,
    AnswerForm,
    DecideForm,
    EntryForm,
    WalkoverForm,
    lineup_field_name,
    lineup_from_data,
    readable_changes,
)
from scoring.results.grids import ENTRY_GRIDS
from scoring.results.preview import grid_check, grid_outcome_if_valid, grid_validate
from scoring.results.sheets import sheet_changes

STAFF_LIST_LENGTH = 30


@login_required
def staff_home(request):
    """Fixtures at the venues the user serves: tonight's, those waiting for a result, recent
    results, and (folded away) the ones coming up."""
    venues = selectors.staff_venue_names(user=request.user)
    if venues == []:
        raise PermissionDenied(_("Only staff of a venue can enter results."))
    sections = selectors.staff_fixture_sections(user=request.user, limit=STAFF_LIST_LENGTH)
    screens = [
        (
            venue,
            token and request.build_absolute_uri(reverse("tv-screen", args=[venue.slug, token])),
        )
        for venue, token in selectors.staff_venue_screens(user=request.user)
    ]
    return render(
        request,
        "scoring/staff_home.html",
        {"venues": venues, "sections": sections, "limit": STAFF_LIST_LENGTH, "screens": screens},
    )


@login_required
@require_http_methods(["GET", "POST"])
def result_entry(request, pk: int):
    """The sheet of the fixture's game: enter a result, or correct it (a new version). Three
    flows: a GET shows the sheet, a POST with an action other than "save" redraws it, a save
    submits it."""
    fixture = _fixture_or_404(pk)
    current = selectors.fixture_current_result(fixture=fixture)
    actions = selectors.fixture_result_actions(fixture=fixture, result=current, user=request.user)
    disputing = actions.may_answer and not actions.staff
    if not (actions.staff or actions.may_enter or disputing):
        if actions.player_team_id is None:
            raise PermissionDenied(services.NOT_FIXTURE_PLAYER)
        return _unavailable(request, fixture, _player_refusal(fixture, current), status=409)
    # What the sheet page offers: staff's entry, a player's, or a disputer's.
    request.result_actions = actions
    if fixture.status == Fixture.Status.VOID:
        return _unavailable(request, fixture, _("This fixture is void: it takes no result."))
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
        return _conflict_page(
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
    return _sheet_page(
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
            return selectors.lineup_choice_check(fixture=fixture, chosen=sent), None
        except Invalid as refused:
            return None, refusal_sentence(refused)
    saved = current.lineup if current is not None else {}
    if saved and saved.get("substitutes"):
        return {"home": list(saved["home"]), "away": list(saved["away"])}, None
    return None, None


def _grid_context(fixture, chosen):
    """What a grid is built from: the fixture, its season and who plays; None when a game
    whose sheet names the players finds a team without its two."""
    lineup = selectors.fixture_lineup(fixture=fixture, chosen=chosen)
    if get_kind(fixture.season.game).needs_lineup and not lineup.complete:
        return None
    return {"fixture": fixture, "season": fixture.season, "lineup": lineup}


def _incomplete(request, fixture):
    return _unavailable(
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
    fixture = _staff_fixture(request, pk)
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
        return render(request, grid.partial, _sheet_context(grid=grid, form=None, **extra))
    form = EntryForm(
        initial={
            "based_on_version": request.POST.get("based_on_version", ""),
            "note": request.POST.get("note", ""),
            "before_fixture_day": bool(request.POST.get("before_fixture_day")),
        }
    )
    return _sheet_page(
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
        return _sheet_page(
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
        return _conflict_page(
            request,
            grid=grid,
            mine=mine,
            current=conflict.current,
            based_on=conflict.based_on_version,
            note=form.cleaned_data.get("note", ""),
        )
    except SheetInvalid as invalid:
        grid.add_errors(invalid.errors)
        return _sheet_page(request, grid=grid, form=form, current=current, status=400)
    except Invalid as invalid:  # the note, the submission key
        add_refusal_to_form(form, invalid)
        return _sheet_page(request, grid=grid, form=form, current=current, status=400)
    except fixture_day.BeforeFixtureDay as early:
        # The day is checked before the sheet: check the sheet too, so that the page says
        # all that stands in the way, as the preview does (the API's 409 stays as it is).
        outcome = grid_check(grid)
        form.add_error(None, str(early))
        return _sheet_page(
            request, grid=grid, form=form, current=current, outcome=outcome, status=409
        )
    except services.FixtureNotOpen as closed:
        return _unavailable(request, fixture, str(closed), status=409)
    except Conflict as refusal:  # a rule above results refused the result (a cup's bracket)
        form.add_error(None, refusal_sentence(refusal))
        return _sheet_page(request, grid=grid, form=form, current=current, status=409)
    except services.ResultSettled as settled:  # the other team answered meanwhile
        return _unavailable(request, fixture, str(settled), status=409)

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
    return redirect(_after_save_url(fixture))


def _after_save_url(fixture: Fixture) -> str:
    """Where a saved result leads: the fixture's public page (the staff list without it)."""
    try:
        return reverse("fixture-detail", args=[fixture.pk])
    except NoReverseMatch:
        return reverse("staff-home")


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
        return _sheet_page(request, grid=grid, form=form, current=current, status=400)
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
        return _sheet_page(request, grid=grid, form=form, current=current, status=400)
    except Invalid as invalid:  # the reason, which is the note here
        form.add_error("note", refusal_sentence(invalid))
        return _sheet_page(request, grid=grid, form=form, current=current, status=400)
    except DomainError as refusal:
        return _unavailable(request, fixture, refusal_sentence(refusal), status=refusal.status)
    messages.success(request, _("Result disputed: the venue's staff will decide."))
    return redirect("fixture-detail", pk=fixture.pk)


@login_required
@require_http_methods(["POST"])
def result_answer(request, pk: int):
    """A player of the team that did not enter the awaiting result confirms it, or disputes it
    with a reason (the fixture page's two forms); back to the fixture page."""
    fixture = _fixture_or_404(pk)
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
    fixture = _staff_fixture(request, pk)
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
    lineup = selectors.fixture_lineup(fixture=fixture)
    names = selectors.sheet_player_names(
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


@dataclass(frozen=True)
class HistoryEntry:
    """One version on the history page, with the version before it (None for the first) and
    what changed from it, in words (scoring.results.forms.readable_changes)."""

    version: ResultVersion
    previous: ResultVersion | None
    readable_changes: list[dict]


@login_required
@require_http_methods(["GET"])
def result_history(request, pk: int):
    """Every version of the fixture's result: who, when, from where, and what changed."""
    fixture = _staff_fixture(request, pk)
    versions = selectors.fixture_result_history(fixture=fixture)  # newest first
    lineup = selectors.fixture_lineup(fixture=fixture)
    names = selectors.sheet_player_names(
        game=fixture.season.game, lineup=lineup, sheets=[version.sheet for version in versions]
    )
    teams = (fixture.home_team, fixture.away_team)
    game = fixture.season.game
    entries = []
    for index, version in enumerate(versions):
        previous = versions[index + 1] if index + 1 < len(versions) else None
        before = previous.sheet if previous else None
        entries.append(
            HistoryEntry(
                version=version,
                previous=previous,
                readable_changes=readable_changes(
                    game,
                    sheet_changes(before, version.sheet) if previous else [],
                    before=before,
                    after=version.sheet,
                    names=names,
                    teams=teams,
                ),
            )
        )
    return render(
        request,
        "scoring/history.html",
        {
            "fixture": fixture,
            "season": fixture.season,
            "versions": entries,
            "fixture_changes": selectors.fixture_audit_trail(fixture=fixture),
        },
    )


# --- pieces ----------------------------------------------------------------------------------


def _fixture_or_404(pk: int) -> Fixture:
    return get_object_or_404(
        Fixture.objects.select_related(
            "season__league", "home_team", "away_team", "venue", "season"
        ),
        pk=pk,
    )


def _player_refusal(fixture: Fixture, current) -> str:
    """Why a player of the fixture has nothing to enter here."""
    if fixture.status == Fixture.Status.VOID:
        return _("This fixture is void: it takes no result.")
    if current is not None and current.confirmation == current.Confirmation.DISPUTED:
        return _("This result is disputed: staff of the venue or a league admin decide it.")
    if current is not None and current.confirmation == current.Confirmation.AWAITING:
        return _("Your team entered this result: it awaits the other team's answer.")
    return _(
        _("This result is confirmed: only staff of the venue or a league admin can correct it now.")
    )


def _staff_fixture(request, pk: int) -> Fixture:
    """The fixture, if the user serves its venue (403 otherwise, 404 if there is none)."""
    fixture = _fixture_or_404(pk)
    if not can_enter_results(user=request.user, venue_id=fixture.venue_id):
        raise PermissionDenied(_("You can only enter results for fixtures at a venue you serve."))
    return fixture


def _sheet_context(*, grid, form, current=None, outcome=None, **extra) -> dict:
    fixture = grid.fixture
    squads = selectors.fixture_squads(fixture=fixture)
    chosen = grid.chosen_lineup or {
        "home": [player.pk for player in grid.lineup.home],
        "away": [player.pk for player in grid.lineup.away],
    }
    walkover_open = current is None or bool(current.walkover)
    return {
        "lineup_places": _lineup_places(fixture, squads, chosen),
        "lineup_chosen": grid.chosen_lineup,
        "has_reserves": any(len(squad) > 2 for squad in squads.values()),
        "walkover_form": (
            WalkoverForm(fixture=fixture) if walkover_open and form is not None else None
        ),
        "fixture": grid.fixture,
        "season": grid.season,
        "lineup": grid.lineup,
        "grid": grid,
        "blocks": grid.blocks(),
        "preview": {**grid.preview(), "outcome": outcome},
        "form": form,
        "current": current,
        "entry_url": reverse("result-entry", args=[grid.fixture.pk]),
        "walkover_url": reverse("result-walkover", args=[grid.fixture.pk]),
        "saved_url": _after_save_url(grid.fixture),
        "day_to_come": selectors.fixture_day_to_come(fixture=grid.fixture),
        **extra,
    }


def _lineup_places(fixture, squads, chosen) -> list[dict]:
    """The lineup's four places for the page's choice: each team's place 1 and 2, the squad to
    choose from (its two, then its reserves), and who is chosen now."""
    teams = {"home": fixture.home_team, "away": fixture.away_team}
    places = []
    for side, index in LINEUP_PLACES:
        ids = chosen.get(side, [])
        places.append(
            {
                "name": lineup_field_name(side, index),
                "team": teams[side],
                "number": index + 1,
                "squad": list(squads[side].items()),
                "chosen": ids[index] if index < len(ids) else None,
            }
        )
    return places


def _sheet_page(request, *, grid, form, current, status=200, focus_last=False, **extra):
    if extra.get("walkover_form") is None:
        extra.pop("walkover_form", None)
    # The key of the save this page answers: a sheet kept on the phone with that key has had
    # its answer (entry_offline.js lets it go).
    answered = request.POST.get("submission_key", "") if request.method == "POST" else ""
    context = _sheet_context(
        grid=grid, form=form, current=current, focus_last=focus_last, answered_key=answered, **extra
    )
    context["actions"] = getattr(request, "result_actions", None)
    return render(request, grid.template, context, status=status)


def _conflict_page(
    request, *, grid, mine, current, based_on, note, status=409, proposal=None
):  # fmt: skip
    """Someone saved meanwhile: their version with my own changes (`mine`, begun from version
    `based_on`) merged in, field by field, and the fields we both changed side by side for a
    choice (scoring.results.conflicts). With a `proposal`, `mine` is that proposal's sheet."""
    base = selectors.fixture_result_version(fixture=grid.fixture, number=based_on)
    theirs = current.sheet if current else None
    sheets = [mine, theirs, base.sheet if base else None]
    names = selectors.sheet_player_names(game=grid.game, lineup=grid.lineup, sheets=sheets)
    merged = conflicts.conflict_merge(
        game=grid.game,
        base=base.sheet if base else None,
        mine=mine,
        theirs=theirs,
        names=names,
        teams=(grid.fixture.home_team, grid.fixture.away_team),
    )
    merged_grid = type(grid).from_sheet(
        merged.merge.sheet, fixture=grid.fixture, season=grid.season, lineup=grid.lineup
    )
    merged_grid.chosen_lineup = grid.chosen_lineup
    rebased = EntryForm(
        initial={"based_on_version": current.number if current else 0, "note": note}
    )
    return _sheet_page(
        request,
        grid=merged_grid,
        form=rebased,
        current=current,
        outcome=grid_outcome_if_valid(merged_grid),
        status=status,
        conflict={
            "proposal": proposal,
            "current": current,
            "based_on": based_on,
            "applied": merged.applied,
            "theirs": merged.theirs if base is not None else [],
            "clashes": merged.clashes,
        },
    )


def _unavailable(request, fixture, message: str, status: int = 200):
    return render(
        request,
        "scoring/unavailable.html",
        {"fixture": fixture, "season": fixture.season, "message": message},
        status=status,
    )
