"""What the result-entry page draws (scoring.results.views): the sheet page with its lineup
choice and walkover form, the conflict page when someone saved meanwhile, the page saying the
fixture takes nothing here, and where a saved result leads."""

from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from leagues.models import Fixture
from scoring.results import conflicts, lineup_selectors, selectors
from scoring.results.forms import LINEUP_PLACES, EntryForm, WalkoverForm, lineup_field_name
from scoring.results.preview import grid_outcome_if_valid


def sheet_context(*, grid, form, current=None, outcome=None, **extra) -> dict:
    fixture = grid.fixture
    squads = lineup_selectors.fixture_squads(fixture=fixture)
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
        "saved_url": after_save_url(grid.fixture),
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


def sheet_page(request, *, grid, form, current, status=200, focus_last=False, **extra):
    if extra.get("walkover_form") is None:
        extra.pop("walkover_form", None)
    # The key of the save this page answers: a sheet kept on the phone with that key has had
    # its answer (entry_offline.js lets it go).
    answered = request.POST.get("submission_key", "") if request.method == "POST" else ""
    context = sheet_context(
        grid=grid, form=form, current=current, focus_last=focus_last, answered_key=answered, **extra
    )
    context["actions"] = getattr(request, "result_actions", None)
    return render(request, grid.template, context, status=status)


def conflict_page(
    request, *, grid, mine, current, based_on, note, status=409, proposal=None
):  # fmt: skip
    """Someone saved meanwhile: their version with my own changes (`mine`, begun from version
    `based_on`) merged in, field by field, and the fields we both changed side by side for a
    choice (scoring.results.conflicts). With a `proposal`, `mine` is that proposal's sheet."""
    base = selectors.fixture_result_version(fixture=grid.fixture, number=based_on)
    theirs = current.sheet if current else None
    sheets = [mine, theirs, base.sheet if base else None]
    names = lineup_selectors.sheet_player_names(game=grid.game, lineup=grid.lineup, sheets=sheets)
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
    return sheet_page(
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


def unavailable_page(request, fixture, message: str, status: int = 200):
    return render(
        request,
        "scoring/unavailable.html",
        {"fixture": fixture, "season": fixture.season, "message": message},
        status=status,
    )


def after_save_url(fixture: Fixture) -> str:
    """Where a saved result leads: the fixture's public page (the staff list without it)."""
    try:
        return reverse("fixture-detail", args=[fixture.pk])
    except NoReverseMatch:
        return reverse("staff-home")
