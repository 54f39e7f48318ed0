"""Convoy: the fixture's two pairs play one 2-v-2 game, or a best of N (the season's
fixture format {"games": N}).

Sheet: {"games": [{"winner": "home"|"away"|"stalemate", "convoys": {"home": n, "away": n}},
...]}. A game is won with the third convoy (docs/rules.md), though the counter that ends it may
complete several at once; more games won takes the fixture. The entry grid is results' (scoring/results/grids/convoy.py).
"""

from collections.abc import Mapping
from typing import cast

from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from config.values import whole_number
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
        raise ValueError(
            _("the fixture format's games must be a whole number from 1 to %(most)s")
            % {"most": MAX_GAMES}
        )
    return games


def games_needed(best_of: int) -> int:
    """Games a side must win to take a best of `best_of`."""
    return best_of // 2 + 1


class ConvoyKind(GameKind):
    game = "convoy"
    label = "Convoy"
    unit = cast(str, gettext_lazy("convoys"))  # a lazy string: read in each page's language
    draw_word = cast(str, gettext_lazy("stalemate"))
    points_words = gettext_lazy("win %(win)s, stalemate %(draw)s, loss %(loss)s")
    score_for_label = gettext_lazy("Convoys the team made")
    score_against_label = gettext_lazy("Convoys their opponents made")
    needs_lineup = False
    player_figures_note = cast(
        str,
        gettext_lazy(
            "Convoy results are recorded per pair, not per player: these are the pair's games."
        ),
    )
    standings_columns = (
        StandingsColumn(
            "won",
            pgettext_lazy("standings column: won", "W"),
            gettext_lazy("Fixtures won: more games won (one game: that game)."),
        ),
        StandingsColumn(
            "drawn",
            pgettext_lazy("standings column: stalemates", "S"),
            gettext_lazy("Stalemates: fixtures level on games won."),
        ),
        StandingsColumn(
            "lost", pgettext_lazy("standings column: lost", "L"), gettext_lazy("Fixtures lost.")
        ),
        StandingsColumn(
            "score_for",
            pgettext_lazy("standings column: convoys for", "CF"),
            gettext_lazy("Convoys for: convoys the team made."),
        ),
        StandingsColumn(
            "score_against",
            pgettext_lazy("standings column: convoys against", "CA"),
            gettext_lazy("Convoys against: convoys their opponents made."),
        ),
    )

    fixture_format_options = (Option("games", 1, int, minimum=1, maximum=MAX_GAMES),)
    rule_labels = {"games": (gettext_lazy("Games in a fixture (best of)"), "")}

    def check_fixture_format(self, fixture_format) -> dict:
        if not isinstance(fixture_format, Mapping):
            raise ValueError(_('the fixture format is an object such as {"games": 3}'))
        unknown = sorted(map(str, set(fixture_format) - {"games"}))
        if unknown:
            raise ValueError(_('unknown key %(key)s; only "games"') % {"key": repr(unknown[0])})
        return {"games": games_in_fixture(fixture_format)}

    def rule_lines(self, *, rule_options, fixture_format) -> list[tuple[str, str]]:
        try:
            games = games_in_fixture(fixture_format or {})
        except ValueError:
            return []
        words = (
            _("one game")
            if games == 1
            else ngettext("best of %(games)s game", "best of %(games)s games", games)
            % {"games": games}
        )
        return [(pgettext("a season's rule: the fixture's games", "Fixture"), words)]

    # --- the sheet --------------------------------------------------------------------

    def check_sheet(self, sheet, context, errors) -> dict:
        unknown_keys(sheet, ("games",), "", errors)
        try:
            best_of = games_in_fixture(context.fixture_format)
        except ValueError as error:
            errors[NON_FIELD_ERRORS] = _("The season's fixture format is not valid: %(error)s.") % {
                "error": error
            }
            return {}
        games = sheet.get("games")
        if not isinstance(games, list) or not games:
            errors["games"] = (
                _("Enter the game's result.")
                if best_of == 1
                else _("Enter the result of each game.")
            )
            return {}
        if len(games) > MAX_GAMES:
            errors["games"] = ngettext(
                "A fixture has at most %(most)s game.",
                "A fixture has at most %(most)s games.",
                best_of,
            ) % {"most": best_of}
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
                errors[f"games.{index}"] = _(
                    "Game %(number)s is not needed: %(team)s already won the best of %(best_of)s."
                ) % {"number": index + 1, "team": context.team(decided[0]), "best_of": best_of}
                break
            if index >= best_of:
                errors[f"games.{index}"] = _(
                    "Game %(number)s is not needed: the fixture is the best of %(best_of)s."
                ) % {"number": index + 1, "best_of": best_of}
                break
            if game["winner"] in won:
                won[game["winner"]] += 1
        else:
            if len(clean) < best_of and max(won.values()) < needed:
                errors["games"] = _(
                    "Game %(number)s is missing: nobody has won the best of %(best_of)s yet "
                    "(%(home)s %(home_won)s, %(away)s %(away_won)s)."
                ) % {
                    "number": len(clean) + 1,
                    "best_of": best_of,
                    "home": context.team("home"),
                    "home_won": won["home"],
                    "away": context.team("away"),
                    "away_won": won["away"],
                }
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
            figures = {
                "games": f"{outcome.home_games}–{outcome.away_games}",
                "convoys": f"{outcome.home_score}–{outcome.away_score}",
            }
            if several:
                return _("A stalemate: games %(games)s, convoys %(convoys)s") % figures
            return _("A stalemate, convoys %(convoys)s") % figures
        names = {"home": home_team, "away": away_team}
        winner, loser = outcome.winner, other(outcome.winner)
        figures = {
            "team": names[winner],
            "games": f"{outcome.games_for(winner)}–{outcome.games_for(loser)}",
            "convoys": f"{outcome.score_for(winner)}–{outcome.score_for(loser)}",
        }
        if several:
            return _("%(team)s win, games %(games)s, convoys %(convoys)s") % figures
        return _("%(team)s win, convoys %(convoys)s") % figures

    def describe_path(self, parts, *, names, sheet, teams):
        if parts[0] != "games" or len(parts) < 2:
            return None
        number = int(parts[1]) + 1
        if len(parts) == 3 and parts[2] == "winner":
            return _("Game %(number)s, winner") % {"number": number}
        if len(parts) == 4 and parts[2] == "convoys" and parts[3] in SIDES:
            team = teams[SIDES.index(parts[3])].name if teams else parts[3]
            return _("Game %(number)s, %(team)s convoys") % {"number": number, "team": team}
        return _("Game %(number)s") % {"number": number}

    def describe_value(self, parts, value, *, names, sheet, teams):
        if parts[-1] == "winner" and teams:
            words = {"home": teams[0].name, "away": teams[1].name, "stalemate": _("stalemate")}
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
            PlayerFigure("games", _("Games"), games, _("Convoy games played in fixtures.")),
            PlayerFigure("games_won", _("Games won"), won, _("Games the player's pair won.")),
            PlayerFigure("convoys", _("Convoys"), convoys, _("Convoys the player's pair made.")),
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
        errors[path] = _("Game %(number)s needs its winner and the convoys of each team.") % {
            "number": number
        }
        return None
    unknown_keys(game, ("winner", "convoys"), path, errors)
    team = context.team
    winner = game.get("winner")
    ok = True
    if winner not in WINNERS:
        errors[f"{path}.winner"] = _(
            "Game %(number)s: choose the winner: %(home)s, %(away)s or stalemate."
        ) % {"number": number, "home": team("home"), "away": team("away")}
        ok = False
    convoys = game.get("convoys")
    if not isinstance(convoys, Mapping):
        errors[f"{path}.convoys"] = _("Game %(number)s: enter the convoys of each team.") % {
            "number": number
        }
        return None
    unknown_keys(convoys, SIDES, f"{path}.convoys", errors)
    counts = {}
    for side in SIDES:
        field = f"{path}.convoys.{side}"
        value = convoys.get(side)
        count = whole_number(value, padded=True)
        if blank(value):
            errors[field] = _("Game %(number)s: enter %(team)s convoys (0 if none).") % {
                "number": number,
                "team": possessive(team(side)),
            }
        elif count is None or count < 0:
            errors[field] = _(
                "Game %(number)s: %(team)s convoys are a whole number (0 if none), not %(value)s."
            ) % {"number": number, "team": possessive(team(side)), "value": shown(value)}
        elif count > MOST_CONVOYS:
            errors[field] = _(
                "Game %(number)s: %(team)s cannot have %(count)s convoys: the game ends at the "
                "third (and one counter completes at most %(most)s at once)."
            ) % {"number": number, "team": team(side), "count": count, "most": len(SHAPE_NAMES)}
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
            errors[f"{path}.convoys.home"] = _(
                "Game %(number)s is a stalemate, so both teams have the same number of convoys "
                "(not %(home)s %(home_convoys)s and %(away)s %(away_convoys)s)."
            ) % {
                "number": number,
                "home": team("home"),
                "home_convoys": home,
                "away": team("away"),
                "away_convoys": away,
            }
        elif home >= CONVOYS_TO_WIN:
            errors[f"{path}.convoys.home"] = _(
                "Game %(number)s: a team with %(convoys)s convoys has won, so it cannot be "
                "a stalemate."
            ) % {"number": number, "convoys": CONVOYS_TO_WIN}
        return
    loser = other(winner)
    if counts[loser] >= CONVOYS_TO_WIN:
        errors[f"{path}.convoys.{loser}"] = _(
            "Game %(number)s: %(winner)s won, so %(loser)s had fewer than %(most)s convoys "
            "(the game ends at the third), not %(count)s."
        ) % {
            "number": number,
            "winner": team(winner),
            "loser": team(loser),
            "most": CONVOYS_TO_WIN,
            "count": counts[loser],
        }
    elif counts[winner] <= counts[loser]:
        errors[f"{path}.convoys.{winner}"] = _(
            "Game %(number)s: %(winner)s won, so %(winner)s made more convoys than %(loser)s "
            "(not %(winner_convoys)s against %(loser_convoys)s)."
        ) % {
            "number": number,
            "winner": team(winner),
            "loser": team(loser),
            "winner_convoys": counts[winner],
            "loser_convoys": counts[loser],
        }


KIND = ConvoyKind()
