"""Reads of publishing: what the fixture's page shows of a result."""

from typing import Any

from leagues.models import Fixture, Player
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.publishing.result_layouts import RESULT_LAYOUTS
from scoring.results.fixture_results import MAX_ID


def fixture_result_display(*, fixture: Fixture, result: ResultVersion) -> dict[str, Any] | None:
    """The fixture's current result laid out by its game's layout (RESULT_LAYOUTS):
    {"template": …, "display": …}; None for a game without one, and for a walkover (no game
    was played: its sheet is empty). One query for the players the sheet names."""
    game = fixture.season.game
    layout = RESULT_LAYOUTS.get(game, None)
    if layout is None or result.walkover:
        return None
    sheet = result.sheet or {}
    ids = {pk for pk in get_kind(game).sheet_player_ids(sheet) if 0 < pk < MAX_ID}
    players = Player.objects.in_bulk(ids) if ids else {}
    return {
        "template": layout.template,
        "display": layout.display(
            sheet=sheet, rule_options=fixture.season.rule_options, players=players
        ),
    }
