"""Convoy: the fixture's two pairs play one 2-v-2 game, or a best of N (the season's
fixture format {"games": N}).

Sheet: {"games": [{"winner": "home"|"away"|"stalemate", "convoys": {"home": n, "away": n}},
...]}. A game is won with the third convoy (docs/rules.md), though the counter that ends it may
complete several at once; more games won takes the fixture. The entry grid is results' (scoring/results/grids/convoy.py).
"""

from collections.abc import Mapping
from typing import cast

from django.core.exceptions import NON_FIELD_ERRORS

from games.engines.convoy import convoys_to_win
from games.engines.convoy_board import SHAPE_NAMES
from games.engines.options import Option
from scoring.kinds.base import (
    SIDES,
    FinishedTable,
    GameKind,
    MatchOutcome,
    PlayerFigure,
    PlayerResult,
    StandingsColumn,
    TablePlan,
    blank,
    other,
    possessive,
    shown,
    unknown_keys,
    whole_number,
    winner_by,
)

# With 2 sides the third convoy ends the game; the counter that ends it may complete
# several convoys at once, one of each shape through its cell.
CONVOYS_TO_WIN = convoys_to_win(2)
MOST_CONVOYS = CONVOYS_TO_WIN - 1 + len(SHAPE_NAMES)
WINNERS = ("home", "away", "stalemate")
MAX_GAMES = 15


def games_in_fixture(fixture_format: Mapping) -> int:
    """N of the season's best of N (default 1); ValueError for anything but 1 to 15."""
    games = fixture_format.get("games", 1)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"the fixture format's games must be a whole number from 1 to {MAX_GAMES}")
    return games


def games_needed(best_of: int) -> int:
    """Games a side must win to take a best of `best_of`."""
    return best_of // 2 + 1


class ConvoyKind(GameKind):
    game = "convoy"
    label = "Convoy"
    unit = "convoys"
    draw_word = "stalemate"
    score_for_label = "Convoys the team made"
    score_against_label = "Convoys their opponents made"
    needs_lineup = False
    player_figures_note = (
        "Convoy results are recorded per pair, not per player: these are the pair's games."
    )
    standings_columns = (
        StandingsColumn("won", "W", "Fixtures won: more games won (one game: that game)."),
        StandingsColumn("drawn", "S", "Stalemates: fixtures level on games won."),
        StandingsColumn("lost", "L", "Fixtures lost."),
        StandingsColumn("score_for", "CF", "Convoys for: convoys the team made."),
        StandingsColumn("score_against", "CA", "Convoys against: convoys their opponents made."),
    )

    fixture_format_options = (Option("games", 1, int, minimum=1, maximum=MAX_GAMES),)
    rule_labels = {"games": ("Games in a fixture (best of)", "")}

    def check_fixture_format(self, fixture_format) -> dict:
        if not isinstance(fixture_format, Mapping):
            raise ValueError('the fixture format is an object such as {"games": 3}')
        unknown = sorted(map(str, set(fixture_format) - {"games"}))
        if unknown:
            raise ValueError(f'unknown key {unknown[0]!r}; only "games"')
        return {"games": games_in_fixture(fixture_format)}

    def rule_lines(self, *, rule_options, fixture_format) -> list[tuple[str, str]]:
        try:
            games = games_in_fixture(fixture_format or {})
        except ValueError:
            return []
        return [("Fixture", "one game" if games == 1 else f"best of {games} games")]

    # --- the sheet --------------------------------------------------------------------

    def check_sheet(self, sheet, context, errors) -> dict:
        unknown_keys(sheet, ("games",), "", errors)
        try:
            best_of = games_in_fixture(context.fixture_format)
        except ValueError as error:
            errors[NON_FIELD_ERRORS] = f"The season's fixture format is not valid: {error}."
            return {}
        games = sheet.get("games")
        if not isinstance(games, list) or not games:
            errors["games"] = (
                "Enter the game's result." if best_of == 1 else "Enter the result of each game."
            )
            return {}
        if len(games) > MAX_GAMES:
            errors["games"] = f"A fixture has at most {best_of} games."
            return {}
        clean = [
            _game(game, index + 1, f"games.{index}", context, errors)
            for index, game in enumerate(games)
        ]
        checked = [game for game in clean if game is not None]
        if len(checked) < len(clean) or any(key.startswith("games.") for key in errors):
            return {"games": clean}
        needed = games_needed(best_of)
        won = {"home": 0, "away": 0}
        for index, game in enumerate(checked):
            decided = [side for side in SIDES if won[side] >= needed]
            if decided:
                errors[f"games.{index}"] = (
                    f"Game {index + 1} is not needed: {context.team(decided[0])} already won "
                    f"the best of {best_of}."
                )
                break
            if index >= best_of:
                errors[f"games.{index}"] = (
                    f"Game {index + 1} is not needed: the fixture is the best of {best_of}."
                )
                break
            if game["winner"] in won:
                won[game["winner"]] += 1
        else:
            if len(clean) < best_of and max(won.values()) < needed:
                errors["games"] = (
                    f"Game {len(clean) + 1} is missing: nobody has won the best of {best_of} "
                    f"yet ({context.team('home')} {won['home']}, "
                    f"{context.team('away')} {won['away']})."
                )
        return {"games": clean}

    def walkover_scores(self, *, rule_options, fixture_format) -> tuple[int, int]:
        """The games needed to take the fixture, each won by three convoys to none."""
        try:
            best_of = games_in_fixture(fixture_format or {})
        except ValueError:
            best_of = 1
        return games_needed(best_of) * CONVOYS_TO_WIN, 0

    def outcome(self, *, sheet, rule_options) -> MatchOutcome:
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
            winner=winner_by(won["home"], won["away"]),
            home_games=won["home"],
            away_games=won["away"],
            games=games,
        )

    def summary(self, outcome, *, home_team, away_team) -> str:
        several = len(outcome.games) > 1
        if outcome.winner == "draw":
            if several:
                return (
                    f"A stalemate: games {outcome.home_games}–{outcome.away_games}, convoys "
                    f"{outcome.home_score}–{outcome.away_score}"
                )
            return f"A stalemate, convoys {outcome.home_score}–{outcome.away_score}"
        names = {"home": home_team, "away": away_team}
        winner, loser = outcome.winner, other(outcome.winner)
        games = f"games {outcome.games_for(winner)}–{outcome.games_for(loser)}, " if several else ""
        return (
            f"{names[winner]} win, {games}convoys "
            f"{outcome.score_for(winner)}–{outcome.score_for(loser)}"
        )

    def describe_path(self, parts, *, names, sheet, teams):
        if parts[0] != "games" or len(parts) < 2:
            return None
        label = f"Game {int(parts[1]) + 1}"
        if len(parts) == 3 and parts[2] == "winner":
            label += ", winner"
        elif len(parts) == 4 and parts[2] == "convoys" and parts[3] in SIDES:
            team = teams[SIDES.index(parts[3])].name if teams else parts[3]
            label += f", {team} convoys"
        return label

    def describe_value(self, parts, value, *, names, sheet, teams):
        if parts[-1] == "winner" and teams:
            words = {"home": teams[0].name, "away": teams[1].name, "stalemate": "stalemate"}
            return words.get(value, str(value))
        return None

    # --- player pages -----------------------------------------------------------------

    def player_figures(self, *, player_id, results: list[PlayerResult]) -> list:
        games = won = convoys = 0
        for result in results:
            for game in result.sheet.get("games", []):
                games += 1
                won += game.get("winner") == result.side
                convoys += game.get("convoys", {}).get(result.side, 0)
        if not games:
            return []
        return [
            PlayerFigure("games", "Games", games, "Convoy games played in fixtures."),
            PlayerFigure("games_won", "Games won", won, "Games the player's pair won."),
            PlayerFigure("convoys", "Convoys", convoys, "Convoys the player's pair made."),
        ]

    # --- live tables ------------------------------------------------------------------

    def fixture_table_plans(self, *, fixture_format, home_player_ids, away_player_ids):
        best_of = games_in_fixture(fixture_format or {})
        sides = (tuple(home_player_ids[:2]), tuple(away_player_ids[:2]))
        return [TablePlan(number=number, sides=sides) for number in range(1, best_of + 1)]

    def sheet_from_final_state(
        self, *, tables, fixture_format, rule_options, home_player_ids, away_player_ids
    ):
        best_of = games_in_fixture(fixture_format or {})
        by_number = {table.number: table for table in tables if self.engine.is_over(table.state)}
        games = []
        won = {"home": 0, "away": 0, "stalemate": 0}
        for number in range(1, best_of + 1):
            if max(won["home"], won["away"]) >= games_needed(best_of):
                break
            if number not in by_number:
                return None
            game = self._game(by_number[number], set(home_player_ids))
            won[game["winner"]] += 1
            games.append(game)
        return {"games": games}

    def _game(self, table: FinishedTable, home_ids: set[int]) -> dict:
        """A finished game's sheet entry. Sides alternate in seat order, so side s holds
        seats s and s + 2; the side whose players are the home team's is home."""
        result = self.engine.outcome(table.state)
        home_side = 0 if table.seat_players[0] in home_ids else 1
        scores = {"home": result["scores"][home_side], "away": result["scores"][1 - home_side]}
        if result["draw"] or not result["winners"]:
            winner = "stalemate"
        else:
            winner = "home" if result["winners"][0] % 2 == home_side else "away"
        return {"winner": winner, "convoys": scores}


def _game(game, number: int, path: str, context, errors: dict) -> dict | None:
    if not isinstance(game, Mapping):
        errors[path] = f"Game {number} needs its winner and the convoys of each team."
        return None
    unknown_keys(game, ("winner", "convoys"), path, errors)
    team = context.team
    winner = game.get("winner")
    ok = True
    if winner not in WINNERS:
        errors[f"{path}.winner"] = (
            f"Game {number}: choose the winner: {team('home')}, {team('away')} or stalemate."
        )
        ok = False
    convoys = game.get("convoys")
    if not isinstance(convoys, Mapping):
        errors[f"{path}.convoys"] = f"Game {number}: enter the convoys of each team."
        return None
    unknown_keys(convoys, SIDES, f"{path}.convoys", errors)
    counts = {}
    for side in SIDES:
        field = f"{path}.convoys.{side}"
        value = convoys.get(side)
        count = whole_number(value)
        if blank(value):
            errors[field] = f"Game {number}: enter {possessive(team(side))} convoys (0 if none)."
        elif count is None or count < 0:
            errors[field] = (
                f"Game {number}: {possessive(team(side))} convoys are a whole number (0 if none), "
                f"not {shown(value)}."
            )
        elif count > MOST_CONVOYS:
            errors[field] = (
                f"Game {number}: {team(side)} cannot have {count} convoys: the game ends at the "
                f"third (and one counter completes at most {len(SHAPE_NAMES)} at once)."
            )
        else:
            counts[side] = count
            continue
        ok = False
    if not ok:
        return None
    # ok means the winner was found among WINNERS, which mypy cannot follow through the flag.
    _check_result(cast(str, winner), counts, number, path, context, errors)
    return {"winner": winner, "convoys": counts}


def _check_result(winner: str, counts: dict, number: int, path: str, context, errors) -> None:
    """Do the convoys agree with the winner? The message goes under the figure that is wrong
    for the chosen winner, and names the teams, the winner's figure first."""
    team = context.team
    if winner == "stalemate":
        home, away = counts["home"], counts["away"]
        if home != away:
            errors[f"{path}.convoys.home"] = (
                f"Game {number} is a stalemate, so both teams have the same number of convoys "
                f"(not {team('home')} {home} and {team('away')} {away})."
            )
        elif home >= CONVOYS_TO_WIN:
            errors[f"{path}.convoys.home"] = (
                f"Game {number}: a team with {CONVOYS_TO_WIN} convoys has won, so it cannot be "
                f"a stalemate."
            )
        return
    loser = other(winner)
    if counts[loser] >= CONVOYS_TO_WIN:
        errors[f"{path}.convoys.{loser}"] = (
            f"Game {number}: {team(winner)} won, so {team(loser)} had fewer than "
            f"{CONVOYS_TO_WIN} convoys (the game ends at the third), not {counts[loser]}."
        )
    elif counts[winner] <= counts[loser]:
        errors[f"{path}.convoys.{winner}"] = (
            f"Game {number}: {team(winner)} won, so {team(winner)} made more convoys than "
            f"{team(loser)} (not {counts[winner]} against {counts[loser]})."
        )


KIND = ConvoyKind()
