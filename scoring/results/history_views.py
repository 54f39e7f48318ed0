"""The history page of a fixture's result: every version, who saved it, when and from where, what
changed from the version before, and the fixture's own audit trail."""

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from scoring.models import ResultVersion
from scoring.results import lineup_selectors, page_fixtures, selectors
from scoring.results.forms import readable_changes
from scoring.results.sheets import sheet_changes


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
    fixture = page_fixtures.staff_fixture(request, pk)
    versions = selectors.fixture_result_history(fixture=fixture)  # newest first
    lineup = lineup_selectors.fixture_lineup(fixture=fixture)
    names = lineup_selectors.sheet_player_names(
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
