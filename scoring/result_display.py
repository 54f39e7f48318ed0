"""A fixture's current result laid out for its public page, per game.

The sheet was validated when it was saved; this only reads it.
"""

from dataclasses import dataclass, field

from games.engines import get_engine
from games.engines.options import resolve_options
from leagues.models import Fixture, Game, Player, Season

from .kinds.conquian import single_status as conquian_single_status
from .models import ResultVersion


@dataclass
class ConvoyGameLine:
    number: int
    winner: str  # "home", "away" or "stalemate"
    home_convoys: int
    away_convoys: int


@dataclass
class KorovaPlayerLine:
    side: str  # "home" or "away"
    player: Player | None
    name: str
    heads: list[int]
    total: int


@dataclass
class ConquianDealLine:
    number: int
    won_by: str  # "home", "away" or "draw"
    value: int


@dataclass
class ConquianSingleLine:
    number: int
    home_player: Player | None
    home_name: str
    away_player: Player | None
    away_name: str
    deals: list[ConquianDealLine]
    home_points: int
    away_points: int
    winner: str  # "home", "away" or "" while neither has reached the target


@dataclass
class ResultSummary:
    """What the public fixture page shows of a result sheet, per game."""

    game: str
    convoy_games: list[ConvoyGameLine] = field(default_factory=list)
    korova_players: list[KorovaPlayerLine] = field(default_factory=list)
    korova_rounds: int = 0
    korova_team_totals: dict = field(default_factory=dict)
    conquian_singles: list[ConquianSingleLine] = field(default_factory=list)


def _players_by_id(ids) -> dict[int, Player]:
    ids = {pk for pk in ids if isinstance(pk, int) and not isinstance(pk, bool)}
    return Player.objects.in_bulk(ids) if ids else {}


def _name(players: dict[int, Player], pk) -> str:
    player = players.get(pk)
    return player.name if player else "Unknown player"


def fixture_result_summary(*, fixture: Fixture, result: ResultVersion) -> ResultSummary:
    """The current result of `fixture` laid out for display (one query for player names).

    The sheet was validated when it was saved; this only reads it.
    """
    game = fixture.season.game
    sheet = result.sheet or {}
    summary = ResultSummary(game=game)
    if game == Game.CONVOY:
        for number, played in enumerate(sheet.get("games", []), 1):
            convoys = played.get("convoys", {})
            summary.convoy_games.append(
                ConvoyGameLine(
                    number=number,
                    winner=played.get("winner", ""),
                    home_convoys=convoys.get("home", 0),
                    away_convoys=convoys.get("away", 0),
                )
            )
    elif game == Game.KOROVA:
        player_ids = list(sheet.get("players", []))
        rounds = sheet.get("rounds", [])
        players = _players_by_id(player_ids)
        totals = {"home": 0, "away": 0}
        for index, pk in enumerate(player_ids):
            side = "home" if index < 2 else "away"
            heads = [row[index] for row in rounds if index < len(row)]
            totals[side] += sum(heads)
            summary.korova_players.append(
                KorovaPlayerLine(
                    side=side,
                    player=players.get(pk),
                    name=_name(players, pk),
                    heads=heads,
                    total=sum(heads),
                )
            )
        summary.korova_rounds = len(rounds)
        summary.korova_team_totals = totals
    elif game == Game.CONQUIAN:
        singles = sheet.get("singles", [])
        players = _players_by_id(
            [single.get(key) for single in singles for key in ("home_player", "away_player")]
        )
        options = _resolved_options(fixture.season)
        for number, single in enumerate(singles, 1):
            deals = list(single.get("deals", []))
            status = conquian_single_status(
                deals, options.get("target", 5), options.get("carry_over", "double")
            )
            values = status.values
            summary.conquian_singles.append(
                ConquianSingleLine(
                    number=number,
                    home_player=players.get(single.get("home_player")),
                    home_name=_name(players, single.get("home_player")),
                    away_player=players.get(single.get("away_player")),
                    away_name=_name(players, single.get("away_player")),
                    deals=[
                        ConquianDealLine(number=n, won_by=won_by, value=value)
                        for n, (won_by, value) in enumerate(zip(deals, values, strict=False), 1)
                    ],
                    home_points=status.home_points,
                    away_points=status.away_points,
                    winner=status.winner or "",
                )
            )
    return summary


def _resolved_options(season: Season) -> dict:
    """The season's rule options with the engine's defaults filled in (as stored if invalid)."""
    try:
        return resolve_options(get_engine(season.game).options, season.rule_options)
    except ValueError:
        return dict(season.rule_options or {})
