"""Conquian: two singles per fixture (home 1 v away 1, home 2 v away 2), deal by deal.

Sheet: {"singles": [{"home_player": id, "away_player": id, "deals": ["home"|"away"|"draw",
...]}, ...]}. Each deal is worth 1 plus what drawn deals carried over (the season's
carry_over); a single ends with the deal that takes a player to the target. More singles
won takes the fixture, then more deal points. The entry grid is scoring/results/grids/conquian.py.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.engines import conquian
from scoring.kinds.base import (
    SIDES,
    FinishedTable,
    GameKind,
    MatchOutcome,
    PlayerFigure,
    PlayerResult,
    StandingsColumn,
    TablePlan,
    check_team,
    player_id,
    possessive,
    shown,
    unknown_keys,
    winner_by,
)

SINGLES = 2
DEAL_RESULTS = ("home", "away", "draw")
MAX_DEALS = 500  # no real single comes near; a malformed request cannot make us loop


@dataclass(frozen=True)
class SingleStatus:
    """Where a single stands after its deals so far."""

    home_points: int
    away_points: int
    next_value: int  # what the next deal is worth
    winner: str | None  # "home" or "away" once someone reached the target, else None
    ended_at: int | None  # the number (from 1) of the deal that won the single, else None
    values: list[int]  # the value each deal (up to ended_at) was played for

    @property
    def finished(self) -> bool:
        return self.winner is not None


def deal_values(deals: Sequence, carry_over: str = "double") -> list[int]:
    """The value each deal was played for: 1, and carried over drawn deals by `carry_over`."""
    values = []
    value = 1
    for result in deals:
        values.append(value)
        value = conquian.next_deal_value(value, result not in SIDES, carry_over)
    return values


def single_status(
    deals: Sequence, target: int = conquian.DEFAULT_TARGET, carry_over: str = "double"
) -> SingleStatus:
    """Points per side, the next deal's value and the winner of a single after `deals`.

    Deals after the one that reached the target are left out (a sheet with any is refused);
    anything but "home" or "away" counts as a drawn deal.
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


class ConquianKind(GameKind):
    game = "conquian"
    label = "Conquian"
    unit = "deal points"
    score_for_label = "Deal points won in the team's singles"
    score_against_label = "Deal points won by their opponents"
    standings_columns = (
        StandingsColumn("won", "W", "Fixtures won: more singles won, or level and more points."),
        StandingsColumn("drawn", "D", "Fixtures drawn: level on singles and on deal points."),
        StandingsColumn("lost", "L", "Fixtures lost."),
        StandingsColumn(
            "singles_won", "SW", "Singles won by the team's two players.", from_sheet=True
        ),
        StandingsColumn("score_for", "PF", "Deal points for: won in the team's singles."),
        StandingsColumn("score_against", "PA", "Deal points against: won by their opponents."),
    )
    rule_labels = {"target": ("Single ends at", "deal points"), "carry_over": ("Drawn deals", "")}
    rule_value_words = {
        "carry_over": {
            "double": "double the next deal",
            "add": "add one to the next deal",
            "none": "do not carry over",
        }
    }

    # --- the sheet --------------------------------------------------------------------

    def check_sheet(self, sheet, context, errors) -> dict:
        unknown_keys(sheet, ("singles",), "", errors)
        singles = sheet.get("singles")
        home, away = context.team("home"), context.team("away")
        if not isinstance(singles, list) or len(singles) != SINGLES:
            errors["singles"] = (
                f"Enter the two singles: {possessive(home)} player 1 against {possessive(away)} "
                f"player 1, "
                f"then the two players 2."
            )
            return {}
        clean = []
        playing: dict[int, int] = {}  # player id -> the single (from 1) they play
        for number, single in enumerate(singles, 1):
            path = f"singles.{number - 1}"
            if not isinstance(single, Mapping):
                errors[path] = f"Single {number} must list its two players and its deals."
                continue
            unknown_keys(single, ("home_player", "away_player", "deals"), path, errors)
            names = {}
            entry: dict[str, int | list | None] = {}
            for side in SIDES:
                field = f"{path}.{side}_player"
                label = f"{possessive(context.team(side))} player in single {number}"
                pk = player_id(single.get(f"{side}_player"), field, label, errors)
                if pk is not None:
                    if pk in playing:
                        name = context.player(pk, f"Player {pk}")
                        errors[field] = f"{name} already plays single {playing[pk]}."
                    else:
                        playing[pk] = number
                        check_team(pk, side, context, field, errors)
                entry[f"{side}_player"] = pk
                names[side] = context.player(
                    pk, f"{possessive(context.team(side))} player {number}"
                )
            entry["deals"] = _deals(
                single.get("deals"), number, path, names, context.options, errors
            )
            clean.append(entry)
        return {"singles": clean}

    def outcome(self, *, sheet, rule_options) -> MatchOutcome:
        options = self.options(rule_options)
        games = []
        won = {"home": 0, "away": 0}
        for number, single in enumerate(sheet["singles"], 1):
            status = single_status(single["deals"], options["target"], options["carry_over"])
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
        winner = winner_by(won["home"], won["away"])
        if winner == "draw":
            winner = winner_by(home, away)
        return MatchOutcome(home, away, winner, won["home"], won["away"], games)

    def summary(self, outcome, *, home_team, away_team) -> str:
        if outcome.winner == "draw":
            return (
                f"A draw: singles {outcome.home_games}–{outcome.away_games}, "
                f"deal points {outcome.home_score}–{outcome.away_score}"
            )
        names = {"home": home_team, "away": away_team}
        loser = "away" if outcome.winner == "home" else "home"
        return (
            f"{names[outcome.winner]} win, singles "
            f"{outcome.games_for(outcome.winner)}–{outcome.games_for(loser)}, deal points "
            f"{outcome.score_for(outcome.winner)}–{outcome.score_for(loser)}"
        )

    def describe_path(self, parts, *, names, sheet, teams):
        if parts[0] != "singles" or len(parts) < 2:
            return None
        label = f"Single {int(parts[1]) + 1}"
        if len(parts) >= 4 and parts[2] == "deals":
            label += f", deal {int(parts[3]) + 1}"
        elif len(parts) == 3 and parts[2].endswith("_player"):
            side = parts[2].removesuffix("_player")
            team = teams[SIDES.index(side)].name if teams and side in SIDES else side
            label += f", {possessive(team)} player"
        return label

    def describe_value(self, parts, value, *, names, sheet, teams):
        if "deals" in parts and len(parts) == 4:
            singles = sheet.get("singles") or []
            index = int(parts[1]) if parts[1].isdigit() else -1
            single = singles[index] if 0 <= index < len(singles) else {}
            if value in SIDES:
                pk = single.get(f"{value}_player")
                return f"won by {names.get(pk) or value}"
            if value == "draw":
                return "drawn"
        if parts[-1].endswith("_player"):
            return names.get(value, str(value))
        return None

    def sheet_lineup(self, sheet: Mapping) -> dict[str, list[int]] | None:
        # Single 1 is the players 1, single 2 the players 2: a substitute takes the position
        # of the player they stand in for by playing that player's single.
        return {side: [single[f"{side}_player"] for single in sheet["singles"]] for side in SIDES}

    def walkover_scores(self, *, rule_options, fixture_format) -> tuple[int, int]:
        """Both singles won to the target, none of the deal points to the absent team."""
        try:
            target = self.options(rule_options)["target"]
        except ValueError:
            target = self.options({})["target"]
        return SINGLES * target, 0

    def sheet_player_ids(self, sheet) -> set[int]:
        singles = sheet.get("singles") if isinstance(sheet, Mapping) else None
        if not isinstance(singles, list):  # any JSON may come: the sheet's check says what
            return set()
        return {
            pk
            for single in singles
            if isinstance(single, Mapping)
            for key in ("home_player", "away_player")
            if isinstance(pk := single.get(key), int) and not isinstance(pk, bool)
        }

    # --- standings and player pages -----------------------------------------------------

    def fixture_figures(self, outcome, side) -> dict[str, int]:
        return {"singles_won": outcome.games_for(side)}

    def player_figures(self, *, player_id, results: list[PlayerResult]) -> list:
        won = lost = points_for = points_against = 0
        for result in results:
            outcome = self.outcome(sheet=result.sheet, rule_options=result.rule_options)
            for game in outcome.games:
                for side in SIDES:
                    if game[f"{side}_player"] != player_id:
                        continue
                    opponent = "away" if side == "home" else "home"
                    won += game["winner"] == side
                    lost += game["winner"] == opponent
                    points_for += game[side]
                    points_against += game[opponent]
        if not won + lost:
            return []
        return [
            PlayerFigure("singles_won", "Singles won", won, "Singles the player won."),
            PlayerFigure("singles_lost", "Singles lost", lost, "Singles the player lost."),
            PlayerFigure("points_for", "Deal points won", points_for, "In the player's singles."),
            PlayerFigure(
                "points_against", "Deal points conceded", points_against, "To their opponents."
            ),
        ]

    # --- live tables ------------------------------------------------------------------

    def fixture_table_plans(self, *, fixture_format, home_player_ids, away_player_ids):
        return [
            TablePlan(number=number, sides=((home,), (away,)))
            for number, (home, away) in enumerate(
                zip(home_player_ids[:SINGLES], away_player_ids[:SINGLES]), 1
            )
        ]

    def sheet_from_final_state(
        self, *, tables, fixture_format, rule_options, home_player_ids, away_player_ids
    ):
        plans = self.fixture_table_plans(
            fixture_format=fixture_format,
            home_player_ids=home_player_ids,
            away_player_ids=away_player_ids,
        )
        finished = {table.number: table for table in tables if self.engine.is_over(table.state)}
        if any(plan.number not in finished for plan in plans):
            return None
        return {"singles": [self._single(finished[plan.number], plan) for plan in plans]}

    def _single(self, table: FinishedTable, plan: TablePlan) -> dict:
        """A single's sheet entry from its finished game: each deal's winner by side."""
        (home,), (away,) = plan.sides
        side_of_seat = ["home" if pk == home else "away" for pk in table.seat_players]
        results = self.engine.dump(table.state)["deal_results"]
        return {
            "home_player": home,
            "away_player": away,
            "deals": ["draw" if seat is None else side_of_seat[seat] for seat in results],
        }


def _deals(deals, number: int, path: str, names: dict, options, errors: dict) -> list:
    if not isinstance(deals, list) or not deals:
        errors[f"{path}.deals"] = f"Enter the deals of single {number}, in order."
        return []
    if len(deals) > MAX_DEALS:
        errors[f"{path}.deals"] = f"A single holds at most {MAX_DEALS} deals."
        return []
    for index, result in enumerate(deals):
        if result not in DEAL_RESULTS:
            errors[f"{path}.deals.{index}"] = (
                f"Deal {index + 1} of single {number} must be won by {names['home']} or "
                f"{names['away']}, or drawn; not {shown(result)}."
            )
    if options is None or any(result not in DEAL_RESULTS for result in deals):
        return list(deals)
    target = options["target"]
    status = single_status(deals, target, options["carry_over"])
    if status.ended_at is None:
        errors[f"{path}.deals"] = (
            f"Single {number} is not finished: nobody has reached {target} points yet "
            f"({names['home']} has {status.home_points}, {names['away']} {status.away_points})."
        )
    elif status.ended_at < len(deals):
        errors[f"{path}.deals.{status.ended_at}"] = (
            f"Deal {status.ended_at + 1} comes after the single was won "
            f"({names[status.winner]} reached {target} points)."
        )
    return list(deals)


KIND = ConquianKind()
