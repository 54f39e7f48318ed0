"""Reads of publishing: what the fixture's page shows of a result."""

from leagues.models import Fixture, Player
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.results.fixture_results import MAX_ID


def fixture_result_display(*, fixture: Fixture, result: ResultVersion) -> dict:
    """What the fixture's page shows of its current result, laid out by the game's kind
    (its template is `kind.result_template`); one query for the players the sheet names."""
    kind = get_kind(fixture.season.game)
    sheet = result.sheet or {}
    ids = {pk for pk in kind.sheet_player_ids(sheet) if 0 < pk < MAX_ID}
    players = Player.objects.in_bulk(ids) if ids else {}
    return kind.result_display(
        sheet=sheet, rule_options=fixture.season.rule_options, players=players
    )
