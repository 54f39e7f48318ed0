"""Reads of each game's own figures, for the public pages: a season's table with the columns
its game adds, and a player's own figures per game.

The shapes (documented in docs/scoring.md, "Each game's own columns and figures"):

  season_table(season=...) -> SeasonTable
      .columns  the game's StandingsColumn list (key, short label, explanation)
      .rows     TableRow per team, best first: .row (the StandingRow: team, position,
                played, points, form, ...) and .cells (the columns' values, in order)
  player_figures_by_game(player=...) -> list[PlayerGameFigures]
      .game, .label (the game's name), .figures (PlayerFigure: key, label, value,
      explanation), .note (what the figures are when not the player's own: Convoy's are the
      pair's), for each game the player has a current result in

Both go through the game's kind (scoring.kinds); a template renders them without knowing
the game.
"""

from dataclasses import dataclass

from django.db.models import Q

from leagues.models import Division, Player, Reserve, Season, TeamMember
from scoring.kinds import PlayerFigure, PlayerResult, StandingsColumn, all_kinds, get_kind
from scoring.models import ResultVersion
from scoring.standings.selectors import season_standings
from scoring.standings.table import StandingRow


@dataclass(frozen=True)
class TableRow:
    row: StandingRow
    cells: list[int]


@dataclass(frozen=True)
class SeasonTable:
    columns: list[StandingsColumn]
    rows: list[TableRow]
    unit: str  # the game's unit: "convoys", "heads", "deal points"
    lower_is_better: bool
    division: Division | None = None


@dataclass(frozen=True)
class PlayerGameFigures:
    game: str
    label: str
    figures: list[PlayerFigure]
    note: str = ""


def season_table(
    *, season: Season, division: Division | None = None, use_cache: bool = True
) -> SeasonTable:
    """A division's table (the top division's without `division`) with the columns its game
    adds (scoring.standings.selectors.season_standings underneath: the same rows, order and
    cache)."""
    kind = get_kind(season.game)
    columns = list(kind.standings_columns)
    rows = season_standings(season=season, division=division, use_cache=use_cache)
    return SeasonTable(
        columns=columns,
        rows=[TableRow(row=row, cells=[column.value(row) for column in columns]) for row in rows],
        unit=kind.unit,
        lower_is_better=kind.lower_is_better,
        division=division,
    )


def player_figures_by_game(*, player: Player | int) -> list[PlayerGameFigures]:
    """The player's own figures in each game, over the current results of the fixtures they
    played (void fixtures and walkovers left out): those whose lineup (ResultVersion.lineup)
    names them, a reserve's fixtures for the team they stood in for included; a result saved
    before lineups were kept counts for the player's teams. Three queries."""
    player_id = player.pk if isinstance(player, Player) else int(player)
    team_ids = set(TeamMember.objects.filter(player_id=player_id).values_list("team_id", flat=True))
    team_ids |= set(
        Reserve.objects.filter(player_id=player_id).values_list("entry__team_id", flat=True)
    )
    versions = (
        ResultVersion.objects.counted()
        .filter(walkover="")
        .filter(Q(fixture__home_team_id__in=team_ids) | Q(fixture__away_team_id__in=team_ids))
        .values_list(
            "sheet",
            "lineup",
            "fixture__home_team_id",
            "fixture__season__rule_options",
            "fixture__season__league__game",
        )
    )
    by_game: dict[str, list[PlayerResult]] = {}
    for sheet, lineup, home_team_id, rule_options, game in versions:
        side = lineup_side(lineup, player_id)
        if side is None and not (lineup or {}).get("home"):
            side = "home" if home_team_id in team_ids else "away"
        if side is None:  # the team played it without them
            continue
        by_game.setdefault(game, []).append(PlayerResult(sheet, _usable(game, rule_options), side))
    found = []
    for kind in all_kinds():
        if kind.game in by_game:
            figures = kind.player_figures(player_id=player_id, results=by_game[kind.game])
            if figures:
                found.append(
                    PlayerGameFigures(kind.game, kind.label, figures, kind.player_figures_note)
                )
    return found


def lineup_side(lineup: dict | None, player_id: int) -> str | None:
    """The side ("home" / "away") a result's lineup has the player on; None if not in it."""
    for side in ("home", "away"):
        if player_id in (lineup or {}).get(side, []):
            return side
    return None


def _usable(game: str, rule_options) -> dict:
    """The season's rule options if they are valid now, else the defaults: a season's options
    changed after its results were saved must not break a player's page."""
    try:
        get_kind(game).options(rule_options)
    except ValueError:
        return {}
    return rule_options or {}
