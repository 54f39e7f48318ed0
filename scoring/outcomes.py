"""From a result sheet to the fixture's outcome, and from the outcome to league points.

Pure Python: no database. `match_outcome` expects a sheet that passed
scoring.sheets.validate_sheet (it never refuses anything itself); the live helpers below it
(`korova_running_totals`, `conquian_single_status`, ...) also take a sheet still being typed,
so that the staff pages can show running totals and the current deal value as staff enter
them. The rule functions come from the engines (games.engines.korova, games.engines.conquian).

Scores are in each game's own units (docs/scoring.md):
  Convoy    convoys, added up over the games of the fixture; more games won takes the fixture
  Корова    penalty heads of the team's two players; fewer heads takes the fixture
  Conquian  deal points over both singles; more singles won takes the fixture, then more points
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engines import conquian, korova
from games.engines.options import resolve_options

SIDES = ("home", "away")


@dataclass(frozen=True)
class MatchOutcome:
    """The outcome of one fixture.

    home_score / away_score: the game's units (convoys / penalty heads / deal points).
    winner: "home", "away" or "draw". home_games / away_games: games (Convoy) or singles
    (Conquian) won; for Корова 1 for the winning team. games: one summary per game or single,
    for display, each with "home", "away" (that game's score) and "winner", plus:
    Convoy "number"; Корова "rounds" and "players" ({"player": id, "heads": n} in seat order);
    Conquian "number", "home_player", "away_player", "deals".
    """

    home_score: int
    away_score: int
    winner: str
    home_games: int = 0
    away_games: int = 0
    games: list[dict] = field(default_factory=list)

    def score_for(self, side: str) -> int:
        return self.home_score if side == "home" else self.away_score


def match_outcome(*, game: str, sheet: dict, rule_options: dict | None) -> MatchOutcome:
    """The outcome of a validated sheet under the season's rule options."""
    if game == "convoy":
        return _convoy_outcome(sheet)
    if game == "korova":
        return _korova_outcome(sheet)
    if game == "conquian":
        options = resolve_options(conquian.OPTIONS, rule_options)
        return _conquian_outcome(sheet, options["target"], options["carry_over"])
    raise ValueError(f"unknown game {game!r}")


def league_points(*, winner: str, side: str, season) -> int:
    """League points for `side` ("home" or "away") of a fixture that `winner` took.

    season: anything with points_win, points_draw and points_loss (a Season).
    """
    if winner == "draw":
        return season.points_draw
    return season.points_win if winner == side else season.points_loss


def _winner_by(home, away, *, lower_wins: bool = False) -> str:
    if home == away:
        return "draw"
    return "home" if (home < away) == lower_wins else "away"


def _convoy_outcome(sheet: dict) -> MatchOutcome:
    games = []
    won = {"home": 0, "away": 0}
    for number, game in enumerate(sheet["games"], 1):
        winner = game["winner"] if game["winner"] in SIDES else "draw"
        if winner in won:
            won[winner] += 1
        home, away = game["convoys"]["home"], game["convoys"]["away"]
        games.append({"number": number, "home": home, "away": away, "winner": winner})
    return MatchOutcome(
        home_score=sum(game["home"] for game in games),
        away_score=sum(game["away"] for game in games),
        winner=_winner_by(won["home"], won["away"]),
        home_games=won["home"],
        away_games=won["away"],
        games=games,
    )


def _korova_outcome(sheet: dict) -> MatchOutcome:
    rounds = sheet["rounds"]
    totals = korova_running_totals(rounds)[-1] if rounds else [0] * 4
    totals += [0] * (4 - len(totals))
    home, away = totals[0] + totals[1], totals[2] + totals[3]
    winner = _winner_by(home, away, lower_wins=True)
    players = [
        {"player": pk, "heads": heads}
        for pk, heads in zip(sheet.get("players") or [None] * 4, totals, strict=False)
    ]
    return MatchOutcome(
        home_score=home,
        away_score=away,
        winner=winner,
        home_games=int(winner == "home"),
        away_games=int(winner == "away"),
        games=[
            {
                "home": home,
                "away": away,
                "winner": winner,
                "rounds": len(rounds),
                "players": players,
            }
        ],
    )


def _conquian_outcome(sheet: dict, target: int, carry_over: str) -> MatchOutcome:
    games = []
    won = {"home": 0, "away": 0}
    for number, single in enumerate(sheet["singles"], 1):
        status = conquian_single_status(single["deals"], target, carry_over)
        if status.winner:
            won[status.winner] += 1
        games.append(
            {
                "number": number,
                "home_player": single["home_player"],
                "away_player": single["away_player"],
                "home": status.home_points,
                "away": status.away_points,
                "winner": status.winner or "draw",
                "deals": len(status.values),
            }
        )
    home = sum(game["home"] for game in games)
    away = sum(game["away"] for game in games)
    winner = _winner_by(won["home"], won["away"])
    if winner == "draw":
        winner = _winner_by(home, away)
    return MatchOutcome(home, away, winner, won["home"], won["away"], games)


# --- Корова, live ---------------------------------------------------------------------------


def _heads(cell) -> int:
    """A cell being typed: an int, a string of digits, or blank/junk (0)."""
    if isinstance(cell, bool):
        return 0
    if isinstance(cell, int):
        return cell
    if isinstance(cell, str) and cell.strip().isdigit() and cell.strip().isascii():
        try:
            return int(cell.strip())
        except ValueError:  # more digits than Python reads (4300): junk like any other
            return 0
    return 0


def korova_running_totals(rounds: Sequence) -> list[list[int]]:
    """Each player's total after each round: one list per round, in the order of the rounds.

    Tolerant of a sheet still being typed: a blank or unreadable cell counts as 0.
    """
    result: list[list[int]] = []
    running: list[int] = []
    for row in rounds:
        cells = [_heads(cell) for cell in row] if isinstance(row, list | tuple) else []
        width = max(len(running), len(cells))
        running = [
            (running[seat] if seat < len(running) else 0)
            + (cells[seat] if seat < len(cells) else 0)
            for seat in range(width)
        ]
        result.append(running)
    return result


def korova_game_ended_at(rounds: Sequence, end_score: int) -> int | None:
    """The number (counting from 1) of the round in which someone reached the end score.

    None while nobody has: the game goes on. A round after this one is an error on a sheet.
    """
    for number, totals in enumerate(korova_running_totals(rounds), 1):
        if korova.game_over(totals, end_score):
            return number
    return None


# --- Conquian, live -------------------------------------------------------------------------


def conquian_deal_values(deals: Sequence, carry_over: str = "double") -> list[int]:
    """The value each deal was played for: 1, and carried over drawn deals by `carry_over`."""
    values = []
    value = 1
    for result in deals:
        values.append(value)
        value = conquian.next_deal_value(value, result not in SIDES, carry_over)
    return values


@dataclass(frozen=True)
class SingleStatus:
    """Where a Conquian single stands after its deals so far."""

    home_points: int
    away_points: int
    next_value: int  # what the next deal is worth
    winner: str | None  # "home" or "away" once someone reached the target, else None
    ended_at: int | None  # the number (from 1) of the deal that won the single, else None
    values: list[int]  # the value each deal (up to ended_at) was played for

    @property
    def finished(self) -> bool:
        return self.winner is not None


def conquian_single_status(
    deals: Sequence, target: int = conquian.DEFAULT_TARGET, carry_over: str = "double"
) -> SingleStatus:
    """Points per side, the next deal's value and the winner of a single after `deals`.

    Deals after the one that reached the target are left out (a sheet with any is refused
    by validate_sheet); anything but "home" or "away" counts as a drawn deal.
    """
    points = {"home": 0, "away": 0}
    values = []
    value = 1
    for number, result in enumerate(deals, 1):
        values.append(value)
        drawn = result not in SIDES
        if not drawn:
            points[result] += value
        value = conquian.next_deal_value(value, drawn, carry_over)
        if not drawn and points[result] >= target:
            return SingleStatus(points["home"], points["away"], value, result, number, values)
    return SingleStatus(points["home"], points["away"], value, None, None, values)
