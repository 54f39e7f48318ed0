"""Result sheets: check a sheet entered by staff (or sent to the API) against the game's rules.

`validate_sheet` returns the sheet normalised (whole numbers as ints, blank trailing Корова
rounds dropped) or raises `SheetInvalid` with every problem found, each keyed by the path of
the field it concerns ("rounds.6", "singles.0.deals.8", "games.0.convoys.home", "__all__")
and worded for the member of staff holding the score pad. Paths count from 0, as JSON does;
messages count from 1, as people do.

The rules come from the engines (games.engines.korova, games.engines.conquian), so a sheet
is refused for exactly what the game itself makes impossible. Sheet shapes and every rule
are in docs/scoring.md.

Pure Python: no database. SheetInvalid is a Django ValidationError so that forms and the
API (config/api_errors.py) show each message next to its field without further mapping.
"""

from collections.abc import Mapping, Sequence

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from games.engines import conquian, korova
from games.engines.convoy import convoys_to_win
from games.engines.convoy_board import SHAPE_NAMES
from games.engines.options import resolve_options
from scoring.outcomes import (
    conquian_single_status,
    korova_game_ended_at,
    korova_running_totals,
)

# A fixture is always two teams of two: Корова seats the four at one table, Conquian plays
# two singles, Convoy one 2-v-2 game (or a best of N).
KOROVA_SEATS = 4
CONQUIAN_SINGLES = 2
# RULES.md, Convoy "Winning": with 2 sides the third convoy ends the game; but the counter
# that ends it may complete several convoys at once, one of each shape through its cell.
CONVOYS_TO_WIN = convoys_to_win(2)
MOST_CONVOYS = CONVOYS_TO_WIN - 1 + len(SHAPE_NAMES)
CONVOY_OUTCOMES = ("home", "away", "stalemate")
CONQUIAN_DEALS = ("home", "away", "draw")
SIDES = ("home", "away")
# Bounds that no real sheet comes near, so that a malformed request cannot make us loop.
MAX_ROUNDS = 500
MAX_DEALS = 500
MAX_CONVOY_GAMES = 15
MAX_SHOWN = 40  # characters of a bad value quoted back in a message


class SheetInvalid(ValidationError):
    """A sheet the rules do not allow. `errors` maps a field path to one plain sentence."""

    def __init__(self, errors: Mapping[str, str]):
        self.errors = dict(errors)
        super().__init__(self.errors)


def validate_sheet(
    *,
    game: str,
    sheet,
    rule_options: Mapping | None,
    fixture_format: Mapping | None,
    home_players: Mapping[int, str] | Sequence[int] | None = None,
    away_players: Mapping[int, str] | Sequence[int] | None = None,
) -> dict:
    """The normalised sheet; SheetInvalid naming every problem otherwise.

    rule_options: the season's engine options (defaults fill the gaps); fixture_format: the
    season's format (Convoy {"games": N}). home_players / away_players, when given (player id
    → name, or just the ids), refuse players who are not in the fixture's teams and put names
    into the messages; without them, players are called "home player 1" and so on.
    """
    checker = _CHECKERS.get(game)
    if checker is None:
        raise SheetInvalid({NON_FIELD_ERRORS: f"There is no result sheet for the game {game!r}."})
    errors: dict[str, str] = {}
    if not isinstance(sheet, Mapping):
        raise SheetInvalid({NON_FIELD_ERRORS: "The result sheet must be a JSON object."})
    teams = {"home": _names(home_players), "away": _names(away_players)}
    clean = checker(sheet, rule_options or {}, fixture_format or {}, teams, errors)
    if errors:
        raise SheetInvalid(errors)
    return clean


def unstorable_character(text: str) -> str | None:
    """What in `text` no PostgreSQL text or UTF-8 answer can hold ("a null character", "a
    surrogate character (U+D800)"), or None. JSON can carry both ("\\u0000", "\\ud800");
    the API refuses them in a sheet, and the service in a note."""
    if "\x00" in text:
        return "a null character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:  # only lone surrogates cannot be encoded
        return f"a surrogate character (U+{ord(text[error.start]):X})"
    return None


def sheet_changes(before, after, path: str = "") -> list[tuple[str, object, object]]:
    """What changed from one sheet to the next: (field path, old value, new value) per leaf.

    A field only in one of the two has None on the other side. Used for the result history.
    """
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        changes = []
        for key in list(before) + [key for key in after if key not in before]:
            changes += sheet_changes(before.get(key), after.get(key), _join(path, key))
        return changes
    if isinstance(before, list) and isinstance(after, list):
        changes = []
        for index in range(max(len(before), len(after))):
            old = before[index] if index < len(before) else None
            new = after[index] if index < len(after) else None
            changes += sheet_changes(old, new, _join(path, index))
        return changes
    return [] if before == after else [(path, before, after)]


# --- shared pieces -------------------------------------------------------------------------


def _join(*parts) -> str:
    return ".".join(str(part) for part in parts if part != "")


def _names(players) -> dict[int, str | None] | None:
    if players is None:
        return None
    if isinstance(players, Mapping):
        return {int(pk): (str(name) if name else None) for pk, name in players.items()}
    return {int(pk): None for pk in players}


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _whole_number(value) -> int | None:
    """An int from an int or a string of digits (form fields); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("-") else text
        if digits.isdigit() and digits.isascii():
            try:
                return int(text)
            except ValueError:  # more digits than Python reads (4300), as for a JSON number
                return None
    return None


def _shown(value) -> str:
    """A value quoted in a message, cut short: a malformed request may send megabytes."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def _unknown_keys(data: Mapping, known: tuple, path: str, errors: dict) -> None:
    for key in data:
        if key not in known:
            errors[_join(path, key)] = (
                f"Unknown field {key!r}: the sheet holds only {', '.join(known)}."
            )


def _options(declared, given, errors: dict) -> dict | None:
    try:
        return resolve_options(declared, given)
    except ValueError as error:
        errors[NON_FIELD_ERRORS] = f"The season's rule options are not valid: {error}."
        return None


def _player_id(value, path: str, label: str, errors: dict) -> int | None:
    pk = _whole_number(value)
    if pk is None or pk <= 0:
        errors[path] = f"Choose {label}."
        return None
    return pk


def _check_team(pk: int, side: str, teams: dict, path: str, errors: dict) -> None:
    roster = teams[side]
    if roster is not None and pk not in roster:
        errors[path] = f"Player {pk} does not play for the {side} team."


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --- Корова --------------------------------------------------------------------------------


def korova_round_limits(edition: str = "korova-006", tactical: bool = False) -> tuple[int, int]:
    """Fewest and most heads that four players can take between them in one round.

    Forty cards are played onto four rows started by four more: 44 cards in play. A row
    never ends a round with more than five cards or fewer than one, so at the end between
    4 and 20 cards lie on the table, and between 24 and 40 have been taken. The bounds are
    the heads of the 24 lightest and the 40 heaviest cards that can be in play (with the
    tactical variant exactly cards 1 to 44, otherwise any of the 104).
    """
    in_play = korova.HAND_SIZE * KOROVA_SEATS + korova.ROW_COUNT
    on_table_most = korova.ROW_COUNT * korova.ROW_LIMIT
    cards = korova.CARDS[:in_play] if tactical else korova.CARDS
    weights = sorted(korova.heads(card, edition) for card in cards)
    fewest = sum(weights[: in_play - on_table_most])
    most = sum(weights[-(in_play - korova.ROW_COUNT) :])
    return fewest, most


def _korova_labels(players: list, teams: dict) -> list[str]:
    defaults = ["home player 1", "home player 2", "away player 1", "away player 2"]
    labels = []
    for seat, pk in enumerate(players):
        roster = teams[SIDES[seat // 2]] or {}
        labels.append(roster.get(pk) or defaults[seat])
    return labels


def _korova_players(sheet: Mapping, teams: dict, errors: dict) -> list:
    """The four player ids (None where unusable), home pair first."""
    players = sheet.get("players")
    if not isinstance(players, list) or len(players) != KOROVA_SEATS:
        errors["players"] = "List the four players: the two home players, then the two away."
        return [None] * KOROVA_SEATS
    clean = []
    seen = set()
    for seat, value in enumerate(players):
        side = SIDES[seat // 2]
        path = f"players.{seat}"
        pk = _player_id(value, path, f"{side} player {seat % 2 + 1}", errors)
        if pk is not None:
            if pk in seen:
                errors[path] = f"Player {pk} is listed twice."
            else:
                _check_team(pk, side, teams, path, errors)
            seen.add(pk)
        clean.append(pk)
    return clean


def _korova_cell(value, number: int, who: str, limits: tuple | None) -> tuple[int | None, str]:
    """(heads, "") for a usable cell, else (None, the sentence that says why not)."""
    heads = _whole_number(value)
    if _blank(value):
        return None, f"Round {number}: enter the heads {who} took (0 if none)."
    if heads is None:
        return (
            None,
            f"Round {number}: the heads {who} took must be a whole number, not {_shown(value)}.",
        )
    if heads < 0:
        return None, f"Round {number}: {who} cannot take fewer than 0 heads."
    if limits is not None:
        deck, _, most = limits
        if heads > deck:
            return None, (
                f"Round {number}: {who} cannot take {heads} heads; the deck holds only {deck}."
            )
        if heads > most:
            return None, (
                f"Round {number}: {who} cannot take {heads} heads; "
                f"at most {most} can be taken in one round."
            )
    return heads, ""


def _korova_round_total(cells: list[int], number: int, limits: tuple | None) -> str:
    """The sentence that says why a round's total is impossible, or ""."""
    if limits is None:
        return ""
    deck, fewest, most = limits
    total = sum(cells)
    if total > deck:
        return f"Round {number} has {total} heads; the deck holds only {deck}."
    if total > most:
        return (
            f"Round {number} has {total} heads; at most {most} can be taken in one round "
            f"(40 cards at most are taken: each row keeps at least one)."
        )
    if total < fewest:
        return (
            f"Round {number} has {total} heads; at least {fewest} are taken in every round "
            f"(24 cards at least are taken: the rows hold 20 at most)."
        )
    return ""


def _korova_rounds(sheet: Mapping, labels: list[str], options: dict | None, errors: dict):
    """The rounds as lists of ints; None if any round is unusable (the errors say why)."""
    rounds = sheet.get("rounds")
    if not isinstance(rounds, list):
        errors["rounds"] = "Enter the heads each player took, round by round."
        return None
    # A grid on a phone has spare rows: blank rounds at the end are not rounds.
    while rounds and isinstance(rounds[-1], list) and all(_blank(cell) for cell in rounds[-1]):
        rounds = rounds[:-1]
    if not rounds:
        errors["rounds"] = "Enter the heads each player took, round by round."
        return None
    if len(rounds) > MAX_ROUNDS:
        errors["rounds"] = f"A sheet holds at most {MAX_ROUNDS} rounds."
        return None
    limits = None
    if options is not None:
        edition, tactical = options["edition"], options["tactical"]
        in_play = korova.CARDS[: korova.HAND_SIZE * KOROVA_SEATS + korova.ROW_COUNT]
        limits = (
            korova.deck_heads(edition, in_play if tactical else None),
            *korova_round_limits(edition, tactical),
        )
    clean = []
    for number, row in enumerate(rounds, 1):
        path = f"rounds.{number - 1}"
        if not isinstance(row, list) or len(row) != KOROVA_SEATS:
            errors[path] = f"Round {number} needs four numbers, one for each player."
            continue
        cells = []
        for seat, value in enumerate(row):
            heads, problem = _korova_cell(value, number, labels[seat], limits)
            if problem:
                errors[f"{path}.{seat}"] = problem
            cells.append(heads)
        if None not in cells:
            problem = _korova_round_total(cells, number, limits)
            if problem:
                errors[path] = problem
        clean.append(cells)
    if len(clean) < len(rounds) or any(None in cells for cells in clean):
        return None
    return clean


def _korova(sheet, rule_options, fixture_format, teams, errors) -> dict:
    _unknown_keys(sheet, ("players", "rounds"), "", errors)
    options = _options(korova.OPTIONS, rule_options, errors)
    players = _korova_players(sheet, teams, errors)
    labels = _korova_labels(players, teams)
    rounds = _korova_rounds(sheet, labels, options, errors)
    if rounds is None or options is None or any(key.startswith("rounds") for key in errors):
        return {}
    end_score = options["end_score"]
    ended_at = korova_game_ended_at(rounds, end_score)
    totals = korova_running_totals(rounds)
    if ended_at is None:
        high = max(totals[-1])
        leaders = [labels[seat] for seat, total in enumerate(totals[-1]) if total == high]
        errors["rounds"] = (
            f"The game is not finished: nobody has reached {end_score} heads yet "
            f"(highest: {_and(leaders)} with {high}). Enter the remaining rounds."
        )
    elif ended_at < len(rounds):
        reached = [
            labels[seat] for seat, total in enumerate(totals[ended_at - 1]) if total >= end_score
        ]
        errors[f"rounds.{ended_at}"] = (
            f"Round {ended_at + 1} comes after the game ended: {_and(reached)} reached "
            f"{end_score} in round {ended_at}."
        )
    return {"players": players, "rounds": rounds}


# --- Conquian ------------------------------------------------------------------------------


def _conquian(sheet, rule_options, fixture_format, teams, errors) -> dict:
    _unknown_keys(sheet, ("singles",), "", errors)
    options = _options(conquian.OPTIONS, rule_options, errors)
    singles = sheet.get("singles")
    if not isinstance(singles, list) or len(singles) != CONQUIAN_SINGLES:
        errors["singles"] = "Enter the two singles: home 1 against away 1, home 2 against away 2."
        return {}
    clean = []
    playing: dict[int, int] = {}  # player id -> the single (from 1) they play
    for number, single in enumerate(singles, 1):
        path = f"singles.{number - 1}"
        if not isinstance(single, Mapping):
            errors[path] = f"Single {number} must list its two players and its deals."
            continue
        _unknown_keys(single, ("home_player", "away_player", "deals"), path, errors)
        names = {}
        entry = {}
        for side in SIDES:
            field = f"{path}.{side}_player"
            pk = _player_id(single.get(f"{side}_player"), field, f"the {side} player", errors)
            if pk is not None:
                if pk in playing:
                    errors[field] = f"Player {pk} already plays single {playing[pk]}."
                else:
                    playing[pk] = number
                    _check_team(pk, side, teams, field, errors)
            entry[f"{side}_player"] = pk
            names[side] = (teams[side] or {}).get(pk) or side
        entry["deals"] = _conquian_deals(single.get("deals"), number, path, names, options, errors)
        clean.append(entry)
    return {"singles": clean}


def _conquian_deals(deals, number: int, path: str, names: dict, options, errors: dict) -> list:
    if not isinstance(deals, list) or not deals:
        errors[f"{path}.deals"] = f"Enter the deals of single {number}, in order."
        return []
    if len(deals) > MAX_DEALS:
        errors[f"{path}.deals"] = f"A single holds at most {MAX_DEALS} deals."
        return []
    for index, result in enumerate(deals):
        if result not in CONQUIAN_DEALS:
            errors[f"{path}.deals.{index}"] = (
                f"Deal {index + 1} must be won by home or away, or drawn; not {_shown(result)}."
            )
    if options is None or any(result not in CONQUIAN_DEALS for result in deals):
        return list(deals)
    target = options["target"]
    status = conquian_single_status(deals, target, options["carry_over"])
    if status.ended_at is None:
        errors[f"{path}.deals"] = (
            f"Single {number} is not finished: nobody has reached {target} points yet "
            f"({names['home']} {status.home_points}, {names['away']} {status.away_points})."
        )
    elif status.ended_at < len(deals):
        errors[f"{path}.deals.{status.ended_at}"] = (
            f"Deal {status.ended_at + 1} comes after the single was won "
            f"({names[status.winner]} reached {target} points)."
        )
    return list(deals)


# --- Convoy --------------------------------------------------------------------------------


def convoy_games_in_fixture(fixture_format: Mapping) -> int:
    """N of the season's best of N (default 1); ValueError for anything but 1 to 15."""
    games = fixture_format.get("games", 1)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_CONVOY_GAMES:
        raise ValueError(
            f"the fixture format's games must be a whole number from 1 to {MAX_CONVOY_GAMES}"
        )
    return games


def _convoy_game(game, number: int, path: str, errors: dict) -> dict | None:
    if not isinstance(game, Mapping):
        errors[path] = f"Game {number} needs its winner and the convoys of each side."
        return None
    _unknown_keys(game, ("winner", "convoys"), path, errors)
    winner = game.get("winner")
    ok = True
    if winner not in CONVOY_OUTCOMES:
        errors[f"{path}.winner"] = f"Game {number}: choose the winner: home, away or stalemate."
        ok = False
    convoys = game.get("convoys")
    counts = {}
    if not isinstance(convoys, Mapping):
        errors[f"{path}.convoys"] = f"Game {number}: enter the convoys of each side."
        return None
    _unknown_keys(convoys, SIDES, f"{path}.convoys", errors)
    for side in SIDES:
        field = f"{path}.convoys.{side}"
        count = _whole_number(convoys.get(side))
        if _blank(convoys.get(side)):
            errors[field] = f"Game {number}: enter the {side} side's convoys (0 if none)."
        elif count is None or count < 0:
            errors[field] = f"Game {number}: convoys are a whole number (0 if none)."
        elif count > MOST_CONVOYS:
            errors[field] = (
                f"Game {number}: {side} has {count} convoys, but the game ends at the third "
                f"(and one counter completes at most {len(SHAPE_NAMES)} at once)."
            )
        else:
            counts[side] = count
            continue
        ok = False
    if not ok:
        return None
    home, away = counts["home"], counts["away"]
    if winner == "stalemate":
        if home != away:
            errors[f"{path}.convoys.home"] = (
                f"Game {number} is a stalemate, so both sides have the same number of convoys "
                f"(not {home} and {away})."
            )
        elif home >= CONVOYS_TO_WIN:
            errors[f"{path}.convoys.home"] = (
                f"Game {number}: a side with {CONVOYS_TO_WIN} convoys has won, so it cannot be "
                f"a stalemate."
            )
    else:
        loser = "away" if winner == "home" else "home"
        if counts[loser] >= CONVOYS_TO_WIN:
            errors[f"{path}.convoys.{loser}"] = (
                f"Game {number}: {loser} lost, so {loser} had fewer than {CONVOYS_TO_WIN} "
                f"convoys (the game ends at the third)."
            )
        elif counts[winner] <= counts[loser]:
            errors[f"{path}.convoys.{winner}"] = (
                f"Game {number}: {winner} won, so {winner} has more convoys than {loser} "
                f"(not {counts[winner]} against {counts[loser]})."
            )
    return {"winner": winner, "convoys": {"home": home, "away": away}}


def _convoy(sheet, rule_options, fixture_format, teams, errors) -> dict:
    _unknown_keys(sheet, ("games",), "", errors)
    try:
        best_of = convoy_games_in_fixture(fixture_format)
    except ValueError as error:
        errors[NON_FIELD_ERRORS] = f"The season's fixture format is not valid: {error}."
        return {}
    games = sheet.get("games")
    if not isinstance(games, list) or not games:
        errors["games"] = (
            "Enter the game's result." if best_of == 1 else "Enter the result of each game."
        )
        return {}
    if len(games) > MAX_CONVOY_GAMES:
        errors["games"] = f"A fixture has at most {best_of} games."
        return {}
    clean = []
    for index, game in enumerate(games):
        clean.append(_convoy_game(game, index + 1, f"games.{index}", errors))
    if any(game is None for game in clean) or any(key.startswith("games.") for key in errors):
        return {"games": clean}
    needed = best_of // 2 + 1
    won = {"home": 0, "away": 0}
    for index, game in enumerate(clean):
        decided = [side for side in SIDES if won[side] >= needed]
        if decided:
            errors[f"games.{index}"] = (
                f"Game {index + 1} is not needed: {decided[0]} already won the best of {best_of}."
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
                f"Game {len(clean) + 1} is missing: nobody has won the best of {best_of} yet "
                f"(home {won['home']}, away {won['away']})."
            )
    return {"games": clean}


_CHECKERS = {"convoy": _convoy, "korova": _korova, "conquian": _conquian}
