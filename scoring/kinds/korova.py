"""Корова 006: the four players of a fixture at one table, penalty heads round by round.

Sheet: {"players": [home 1, home 2, away 1, away 2], "rounds": [[heads per player], ...]}.
A round's heads come from the engine's deck (games.engines.korova), so a sheet is refused
for exactly what the game makes impossible. Fewer heads is better. The entry grid is
scoring/results/grids/korova.py.
"""

from collections.abc import Mapping, Sequence
from typing import cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from config.values import whole_number
from games.engines import korova
from scoring.kinds.base import (
    SIDES,
    FinishedTable,
    GameKind,
    MatchOutcome,
    PlayerFigure,
    PlayerResult,
    SheetContext,
    StandingsColumn,
    TablePlan,
    and_list,
    blank,
    check_team,
    player_id,
    possessive,
    shown,
    unknown_keys,
    winner_by,
)

SEATS = 4
MAX_ROUNDS = 500  # no real sheet comes near; a malformed request cannot make us loop


def round_limits(edition: str = "korova-006", tactical: bool = False) -> tuple[int, int]:
    """Fewest and most heads that four players can take between them in one round.

    Forty cards are played onto four rows started by four more: 44 cards in play. A row
    never ends a round with more than five cards or fewer than one, so at the end between
    4 and 20 cards lie on the table, and between 24 and 40 have been taken. The bounds are
    the heads of the 24 lightest and the 40 heaviest cards that can be in play (with the
    tactical variant exactly cards 1 to 44, otherwise any of the 104).
    """
    in_play = korova.HAND_SIZE * SEATS + korova.ROW_COUNT
    on_table_most = korova.ROW_COUNT * korova.ROW_LIMIT
    cards = korova.CARDS[:in_play] if tactical else korova.CARDS
    weights = sorted(korova.heads(card, edition) for card in cards)
    fewest = sum(weights[: in_play - on_table_most])
    most = sum(weights[-(in_play - korova.ROW_COUNT) :])
    return fewest, most


# --- a sheet being typed: running totals ---------------------------------------------------


def typed_heads(cell) -> int:
    """A cell being typed: a whole number as typed (signed), blank or junk as 0."""
    heads = whole_number(cell, padded=True)
    return 0 if heads is None else heads


def running_totals(rounds: Sequence) -> list[list[int]]:
    """Each player's total after each round: one list per round, in the order of the rounds.

    Tolerant of a sheet still being typed: a blank or unreadable cell counts as 0.
    """
    result: list[list[int]] = []
    running: list[int] = []
    for row in rounds:
        cells = [typed_heads(cell) for cell in row] if isinstance(row, list | tuple) else []
        width = max(len(running), len(cells))
        running = [
            (running[seat] if seat < len(running) else 0)
            + (cells[seat] if seat < len(cells) else 0)
            for seat in range(width)
        ]
        result.append(running)
    return result


def game_ended_at(rounds: Sequence, end_score: int) -> int | None:
    """The number (from 1) of the round in which someone reached the end score; None while
    nobody has. A round after this one is an error on a sheet."""
    for number, totals in enumerate(running_totals(rounds), 1):
        if korova.game_over(totals, end_score):
            return number
    return None


def seat_labels(players: list, context: SheetContext) -> list[str]:
    """Each seat's player by name, or "Roundheads' player 1" when the name is unknown."""
    labels = []
    for seat, pk in enumerate(players):
        side = SIDES[seat // 2]
        labels.append(context.player(pk, seat_fallback(context.team(side), seat)))
    return labels


class KorovaKind(GameKind):
    game = "korova"
    label = "Корова 006"
    lower_is_better = True
    unit = cast(str, gettext_lazy("heads"))  # a lazy string: read in each page's language
    score_for_label = gettext_lazy("Penalty heads taken by the team's players")
    score_against_label = gettext_lazy("Penalty heads taken by their opponents")
    standings_columns = (
        StandingsColumn(
            "won",
            pgettext_lazy("standings column: won", "W"),
            gettext_lazy("Fixtures won: the team took fewer heads."),
        ),
        StandingsColumn(
            "drawn",
            pgettext_lazy("standings column: drawn", "D"),
            gettext_lazy("Fixtures drawn: both teams took the same heads."),
        ),
        StandingsColumn(
            "lost",
            pgettext_lazy("standings column: lost", "L"),
            gettext_lazy("Fixtures lost: the team took more heads."),
        ),
        StandingsColumn(
            "score_for",
            pgettext_lazy("standings column: heads for", "HF"),
            gettext_lazy("Heads for: penalty heads the team's players took."),
        ),
        StandingsColumn(
            "score_against",
            pgettext_lazy("standings column: heads against", "HA"),
            gettext_lazy("Heads against: heads their opponents took."),
        ),
        StandingsColumn(
            "difference",
            pgettext_lazy("standings column: difference", "Diff"),
            gettext_lazy("Heads against minus heads for: fewer heads is better."),
        ),
    )
    rule_labels = {
        "edition": (gettext_lazy("Edition"), ""),
        "end_score": (gettext_lazy("Game ends at"), gettext_lazy("heads")),
    }
    rule_value_words = {
        "edition": {
            "korova-006": gettext_lazy("Корова 006 (55 has 6 heads)"),
            "classic": gettext_lazy("Classic (55 has 7 heads)"),
        }
    }

    # --- the sheet --------------------------------------------------------------------

    def check_sheet(self, sheet, context, errors) -> dict:
        unknown_keys(sheet, ("players", "rounds"), "", errors)
        players = self._players(sheet, context, errors)
        labels = seat_labels(players, context)
        rounds = self._rounds(sheet, labels, context.options, errors)
        if rounds is None or context.options is None or any(k.startswith("rounds") for k in errors):
            return {}
        end_score = context.options["end_score"]
        ended_at = game_ended_at(rounds, end_score)
        totals = running_totals(rounds)
        if ended_at is None:
            high = max(totals[-1])
            leaders = [labels[seat] for seat, total in enumerate(totals[-1]) if total == high]
            errors["rounds"] = _(
                "The game is not finished: nobody has reached %(end_score)s heads yet "
                "(highest: %(leaders)s with %(high)s). Enter the remaining rounds."
            ) % {"end_score": end_score, "leaders": and_list(leaders), "high": high}
        elif ended_at < len(rounds):
            reached = [
                labels[seat]
                for seat, total in enumerate(totals[ended_at - 1])
                if total >= end_score
            ]
            errors[f"rounds.{ended_at}"] = _(
                "Round %(number)s comes after the game ended: %(players)s reached "
                "%(end_score)s in round %(ended_at)s."
            ) % {
                "number": ended_at + 1,
                "players": and_list(reached),
                "end_score": end_score,
                "ended_at": ended_at,
            }
        return {"players": players, "rounds": rounds}

    def _players(self, sheet: Mapping, context: SheetContext, errors: dict) -> list:
        """The four player ids (None where unusable), home pair first."""
        players = sheet.get("players")
        if not isinstance(players, list) or len(players) != SEATS:
            errors["players"] = _("List the four players: %(home)s two, then %(away)s two.") % {
                "home": possessive(context.team("home")),
                "away": possessive(context.team("away")),
            }
            return [None] * SEATS
        clean = []
        seen = set()
        for seat, value in enumerate(players):
            side = SIDES[seat // 2]
            path = f"players.{seat}"
            pk = player_id(value, path, seat_fallback(context.team(side), seat), errors)
            if pk is not None:
                if pk in seen:
                    name = context.player(pk, _("Player %(pk)s") % {"pk": pk})
                    errors[path] = _("%(player)s is listed twice.") % {"player": name}
                else:
                    check_team(pk, side, context, path, errors)
                seen.add(pk)
            clean.append(pk)
        return clean

    def _limits(self, options: dict | None) -> tuple | None:
        if options is None:
            return None
        edition, tactical = options["edition"], options["tactical"]
        in_play = korova.CARDS[: korova.HAND_SIZE * SEATS + korova.ROW_COUNT]
        return (
            korova.deck_heads(edition, in_play if tactical else None),
            *round_limits(edition, tactical),
        )

    def _rounds(self, sheet: Mapping, labels: list[str], options, errors: dict):
        """The rounds as lists of ints; None if any round is unusable (the errors say why)."""
        rounds = sheet.get("rounds")
        if not isinstance(rounds, list):
            errors["rounds"] = _("Enter the heads each player took, round by round.")
            return None
        # A grid on a phone has spare rows: blank rounds at the end are not rounds.
        while rounds and isinstance(rounds[-1], list) and all(blank(cell) for cell in rounds[-1]):
            rounds = rounds[:-1]
        if not rounds:
            errors["rounds"] = _("Enter the heads each player took, round by round.")
            return None
        if len(rounds) > MAX_ROUNDS:
            errors["rounds"] = _("A sheet holds at most %(most)s rounds.") % {"most": MAX_ROUNDS}
            return None
        limits = self._limits(options)
        clean = []
        for number, row in enumerate(rounds, 1):
            path = f"rounds.{number - 1}"
            if not isinstance(row, list) or len(row) != SEATS:
                errors[path] = _("Round %(number)s needs four numbers, one for each player.") % {
                    "number": number
                }
                continue
            cells = []
            for seat, value in enumerate(row):
                heads, problem = _cell(value, number, labels[seat], limits)
                if problem:
                    errors[f"{path}.{seat}"] = problem
                cells.append(heads)
            whole = [heads for heads in cells if heads is not None]
            if len(whole) == len(cells):
                problem = _round_total(whole, number, limits)
                if problem:
                    errors[path] = problem
            clean.append(cells)
        if len(clean) < len(rounds) or any(None in cells for cells in clean):
            return None
        return clean

    def outcome(self, *, sheet, rule_options) -> MatchOutcome:
        rounds = sheet["rounds"]
        totals = running_totals(rounds)[-1] if rounds else [0] * SEATS
        totals = [*totals, *[0] * (SEATS - len(totals))]
        home, away = totals[0] + totals[1], totals[2] + totals[3]
        winner = winner_by(home, away, lower_wins=True)
        players = [
            {"player": pk, "heads": heads}
            for pk, heads in zip(sheet.get("players") or [None] * SEATS, totals)
        ]
        game = {"home": home, "away": away, "winner": winner, "rounds": len(rounds)}
        return MatchOutcome(
            home_score=home,
            away_score=away,
            winner=winner,
            home_games=int(winner == "home"),
            away_games=int(winner == "away"),
            games=[{**game, "players": players}],
        )

    def summary(self, outcome, *, home_team, away_team) -> str:
        if outcome.winner == "draw":
            return _("A draw on %(heads)s heads each") % {"heads": outcome.home_score}
        names = {"home": home_team, "away": away_team}
        loser = "away" if outcome.winner == "home" else "home"
        return _("%(team)s win with fewer heads (%(winner)s v %(loser)s)") % {
            "team": names[outcome.winner],
            "winner": outcome.score_for(outcome.winner),
            "loser": outcome.score_for(loser),
        }

    def describe_path(self, parts, *, names, sheet, teams):
        if parts[0] == "rounds" and len(parts) >= 2:
            number = int(parts[1]) + 1
            if len(parts) == 3:
                players = sheet.get("players") or []
                seat = int(parts[2])
                pk = players[seat] if seat < len(players) else None
                who = names.get(pk) or _seat_name(seat, teams)
                return _("Round %(number)s, %(player)s") % {"number": number, "player": who}
            return _("Round %(number)s") % {"number": number}
        if parts[0] == "players" and len(parts) == 2:
            return _seat_name(int(parts[1]), teams)
        return None

    def describe_value(self, parts, value, *, names, sheet, teams):
        if parts[0] == "players":
            values = value if isinstance(value, list) else [value]
            return ", ".join(names.get(pk, str(pk)) for pk in values) or "—"
        return None

    def sheet_lineup(self, sheet: Mapping) -> dict[str, list[int]] | None:
        players = list(sheet["players"])
        return {"home": players[:2], "away": players[2:]}

    def walkover_scores(self, *, rule_options, fixture_format) -> tuple[int, int]:
        """No heads for the team that turned up, the game's end score for the one that did not."""
        try:
            end_score = self.options(rule_options)["end_score"]
        except ValueError:
            end_score = self.options({})["end_score"]
        return 0, end_score

    def sheet_player_ids(self, sheet) -> set[int]:
        players = sheet.get("players") if isinstance(sheet, Mapping) else None
        if not isinstance(players, list):  # any JSON may come: the sheet's check says what
            return set()
        return {pk for pk in players if isinstance(pk, int) and not isinstance(pk, bool)}

    # --- player pages -----------------------------------------------------------------

    def player_figures(self, *, player_id, results: list[PlayerResult]) -> list:
        games = [
            sum(row[seat] for row in result.sheet.get("rounds", []))
            for result in results
            for seat, pk in enumerate(result.sheet.get("players", []))
            if pk == player_id
        ]
        if not games:
            return []
        return [
            PlayerFigure(
                "games", _("Games"), len(games), _("Games of Корова played in a fixture.")
            ),
            PlayerFigure(
                "heads_per_game",
                _("Heads per game"),
                round(sum(games) / len(games), 1),
                _("Penalty heads taken per game, on average: fewer is better."),
            ),
            PlayerFigure(
                "best_game", _("Best game"), min(games), _("Fewest heads taken in one game.")
            ),
        ]

    # --- live tables ------------------------------------------------------------------

    def fixture_table_plans(self, *, fixture_format, home_player_ids, away_player_ids):
        sides = tuple((pk,) for pk in [*home_player_ids[:2], *away_player_ids[:2]])
        return [TablePlan(number=1, sides=sides)]

    def sheet_from_final_state(
        self, *, tables, fixture_format, rule_options, home_player_ids, away_player_ids
    ):
        finished = [table for table in tables if self.engine.is_over(table.state)]
        if not finished:
            return None
        return self._sheet(finished[0], [*home_player_ids[:2], *away_player_ids[:2]])

    def _sheet(self, table: FinishedTable, players: list[int]) -> dict:
        """The sheet of a finished game: its heads per round, re-ordered from the engine's
        seats (after the cut) to the sheet's order (home 1, home 2, away 1, away 2)."""
        by_player = self.engine.view(table.state, None)["sheet"]
        seat_of = {pk: seat for seat, pk in enumerate(table.seat_players)}
        return {
            "players": list(players),
            "rounds": [[row[seat_of[pk]] for pk in players] for row in by_player],
        }


def _seat_name(seat: int, teams) -> str:
    team = teams[seat // 2].name if teams and seat < SEATS else SIDES[min(seat // 2, 1)]
    return _("%(team)s player %(number)s") % {"team": team, "number": seat % 2 + 1}


def seat_fallback(team: str, seat: int) -> str:
    """A seat's player when the name is unknown: "Roundheads' player 1"."""
    return _("%(team)s player %(number)s") % {"team": possessive(team), "number": seat % 2 + 1}


def _cell(value, number: int, who: str, limits: tuple | None) -> tuple[int | None, str]:
    """(heads, "") for a usable cell, else (None, the sentence that says why not)."""
    heads = whole_number(value, padded=True)
    if blank(value):
        return None, _("Round %(number)s: enter the heads %(player)s took (0 if none).") % {
            "number": number,
            "player": who,
        }
    if heads is None:
        return None, _(
            "Round %(number)s: the heads %(player)s took must be a whole number, not %(value)s."
        ) % {"number": number, "player": who, "value": shown(value)}
    if heads < 0:
        return None, _(
            "Round %(number)s: %(player)s cannot take fewer than 0 heads (not %(heads)s)."
        ) % {"number": number, "player": who, "heads": heads}
    if limits is not None:
        deck, _fewest, most = limits
        if heads > deck:
            return None, _(
                "Round %(number)s: %(player)s cannot take %(heads)s heads; "
                "the deck holds only %(deck)s."
            ) % {"number": number, "player": who, "heads": heads, "deck": deck}
        if heads > most:
            return None, _(
                "Round %(number)s: %(player)s cannot take %(heads)s heads; "
                "at most %(most)s can be taken in one round."
            ) % {"number": number, "player": who, "heads": heads, "most": most}
    return heads, ""


def _round_total(cells: list[int], number: int, limits: tuple | None) -> str:
    """The sentence that says why a round's total is impossible, or ""."""
    if limits is None:
        return ""
    deck, fewest, most = limits
    total = sum(cells)
    if total > deck:
        return _("Round %(number)s has %(total)s heads; the deck holds only %(deck)s.") % {
            "number": number,
            "total": total,
            "deck": deck,
        }
    if total > most:
        return _(
            "Round %(number)s has %(total)s heads; at most %(most)s can be taken in one round "
            "(40 cards at most are taken: each row keeps at least one)."
        ) % {"number": number, "total": total, "most": most}
    if total < fewest:
        return _(
            "Round %(number)s has %(total)s heads; at least %(fewest)s are taken in every round "
            "(24 cards at least are taken: the rows hold 20 at most)."
        ) % {"number": number, "total": total, "fewest": fewest}
    return ""


KIND = KorovaKind()
