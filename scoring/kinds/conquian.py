"""Conquian: two singles per fixture (home 1 v away 1, home 2 v away 2), deal by deal.

Sheet: {"singles": [{"home_player": id, "away_player": id, "deals": ["home"|"away"|"draw",
...]}, ...]}. Each deal is worth 1 plus what drawn deals carried over (the season's
carry_over); a single ends with the deal that takes a player to the target. More singles
won takes the fixture, then more deal points. The entry grid is scoring/results/grids/conquian.py.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

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
    unit = cast(str, gettext_lazy("deal points"))  # a lazy string: read in each page's language
    score_for_label = gettext_lazy("Deal points won in the team's singles")
    score_against_label = gettext_lazy("Deal points won by their opponents")
    standings_columns = (
        StandingsColumn(
            "won",
            pgettext_lazy("standings column: won", "W"),
            gettext_lazy("Fixtures won: more singles won, or level and more points."),
        ),
        StandingsColumn(
            "drawn",
            pgettext_lazy("standings column: drawn", "D"),
            gettext_lazy("Fixtures drawn: level on singles and on deal points."),
        ),
        StandingsColumn(
            "lost", pgettext_lazy("standings column: lost", "L"), gettext_lazy("Fixtures lost.")
        ),
        StandingsColumn(
            "singles_won",
            pgettext_lazy("standings column: singles won", "SW"),
            gettext_lazy("Singles won by the team's two players."),
            from_sheet=True,
        ),
        StandingsColumn(
            "score_for",
            pgettext_lazy("standings column: deal points for", "PF"),
            gettext_lazy("Deal points for: won in the team's singles."),
        ),
        StandingsColumn(
            "score_against",
            pgettext_lazy("standings column: deal points against", "PA"),
            gettext_lazy("Deal points against: won by their opponents."),
        ),
    )
    rule_labels = {
        "target": (gettext_lazy("Single ends at"), gettext_lazy("deal points")),
        "carry_over": (gettext_lazy("Drawn deals"), ""),
    }
    rule_value_words = {
        "carry_over": {
            "double": gettext_lazy("double the next deal"),
            "add": gettext_lazy("add one to the next deal"),
            "none": gettext_lazy("do not carry over"),
        }
    }

    # --- the sheet --------------------------------------------------------------------

    def check_sheet(self, sheet, context, errors) -> dict:
        unknown_keys(sheet, ("singles",), "", errors)
        singles = sheet.get("singles")
        home, away = context.team("home"), context.team("away")
        if not isinstance(singles, list) or len(singles) != SINGLES:
            errors["singles"] = _(
                "Enter the two singles: %(home)s player 1 against %(away)s player 1, "
                "then the two players 2."
            ) % {"home": possessive(home), "away": possessive(away)}
            return {}
        clean = []
        playing: dict[int, int] = {}  # player id -> the single (from 1) they play
        for number, single in enumerate(singles, 1):
            path = f"singles.{number - 1}"
            if not isinstance(single, Mapping):
                errors[path] = _("Single %(number)s must list its two players and its deals.") % {
                    "number": number
                }
                continue
            unknown_keys(single, ("home_player", "away_player", "deals"), path, errors)
            names = {}
            entry: dict[str, int | list | None] = {}
            for side in SIDES:
                field = f"{path}.{side}_player"
                label = _("%(team)s player in single %(number)s") % {
                    "team": possessive(context.team(side)),
                    "number": number,
                }
                pk = player_id(single.get(f"{side}_player"), field, label, errors)
                if pk is not None:
                    if pk in playing:
                        name = context.player(pk, _("Player %(pk)s") % {"pk": pk})
                        errors[field] = _("%(player)s already plays single %(number)s.") % {
                            "player": name,
                            "number": playing[pk],
                        }
                    else:
                        playing[pk] = number
                        check_team(pk, side, context, field, errors)
                entry[f"{side}_player"] = pk
                names[side] = context.player(
                    pk,
                    _("%(team)s player %(number)s")
                    % {"team": possessive(context.team(side)), "number": number},
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
            return _("A draw: singles %(singles)s, deal points %(points)s") % {
                "singles": f"{outcome.home_games}–{outcome.away_games}",
                "points": f"{outcome.home_score}–{outcome.away_score}",
            }
        names = {"home": home_team, "away": away_team}
        loser = "away" if outcome.winner == "home" else "home"
        return _("%(team)s win, singles %(singles)s, deal points %(points)s") % {
            "team": names[outcome.winner],
            "singles": f"{outcome.games_for(outcome.winner)}–{outcome.games_for(loser)}",
            "points": f"{outcome.score_for(outcome.winner)}–{outcome.score_for(loser)}",
        }

    def describe_path(self, parts, *, names, sheet, teams):
        if parts[0] != "singles" or len(parts) < 2:
            return None
        number = int(parts[1]) + 1
        if len(parts) >= 4 and parts[2] == "deals":
            return _("Single %(number)s, deal %(deal)s") % {
                "number": number,
                "deal": int(parts[3]) + 1,
            }
        if len(parts) == 3 and parts[2].endswith("_player"):
            side = parts[2].removesuffix("_player")
            team = teams[SIDES.index(side)].name if teams and side in SIDES else side
            return _("Single %(number)s, %(team)s player") % {
                "number": number,
                "team": possessive(team),
            }
        return _("Single %(number)s") % {"number": number}

    def describe_value(self, parts, value, *, names, sheet, teams):
        if "deals" in parts and len(parts) == 4:
            singles = sheet.get("singles") or []
            index = int(parts[1]) if parts[1].isdigit() else -1
            single = singles[index] if 0 <= index < len(singles) else {}
            if value in SIDES:
                pk = single.get(f"{value}_player")
                return _("won by %(player)s") % {"player": names.get(pk) or value}
            if value == "draw":
                return _("drawn")
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
            PlayerFigure("singles_won", _("Singles won"), won, _("Singles the player won.")),
            PlayerFigure("singles_lost", _("Singles lost"), lost, _("Singles the player lost.")),
            PlayerFigure(
                "points_for", _("Deal points won"), points_for, _("In the player's singles.")
            ),
            PlayerFigure(
                "points_against",
                _("Deal points conceded"),
                points_against,
                _("To their opponents."),
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
        errors[f"{path}.deals"] = _("Enter the deals of single %(number)s, in order.") % {
            "number": number
        }
        return []
    if len(deals) > MAX_DEALS:
        errors[f"{path}.deals"] = _("A single holds at most %(most)s deals.") % {"most": MAX_DEALS}
        return []
    for index, result in enumerate(deals):
        if result not in DEAL_RESULTS:
            errors[f"{path}.deals.{index}"] = _(
                "Deal %(deal)s of single %(number)s must be won by %(home)s or %(away)s, "
                "or drawn; not %(value)s."
            ) % {
                "deal": index + 1,
                "number": number,
                "home": names["home"],
                "away": names["away"],
                "value": shown(result),
            }
    if options is None or any(result not in DEAL_RESULTS for result in deals):
        return list(deals)
    target = options["target"]
    status = single_status(deals, target, options["carry_over"])
    if status.ended_at is None:
        errors[f"{path}.deals"] = _(
            "Single %(number)s is not finished: nobody has reached %(target)s points yet "
            "(%(home)s has %(home_points)s, %(away)s %(away_points)s)."
        ) % {
            "number": number,
            "target": target,
            "home": names["home"],
            "home_points": status.home_points,
            "away": names["away"],
            "away_points": status.away_points,
        }
    elif status.ended_at < len(deals):
        errors[f"{path}.deals.{status.ended_at}"] = _(
            "Deal %(deal)s comes after the single was won (%(player)s reached %(target)s points)."
        ) % {"deal": status.ended_at + 1, "player": names[status.winner], "target": target}
    return list(deals)


KIND = ConquianKind()
