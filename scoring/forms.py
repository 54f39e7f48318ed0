"""Result-entry forms: the posted grid of a game's sheet, and the sheet shown back as a grid.

Every input is named by the path of its place in the sheet ("rounds.2.1",
"singles.0.deals.4", "games.0.convoys.home"), which is also how scoring.sheets.validate_sheet
names a problem, so each message lands next to its field without any mapping table. The grids
hold no rule of the game: they read what staff typed, leniently, and ask scoring.sheets and
scoring.outcomes what it means (running totals, the deal value, the end of the game, the
outcome and the league points).

  EntryForm     the fixed fields: the version the form was loaded from, and a note
  KorovaGrid    players × rounds of penalty heads
  ConquianGrid  the two singles, each a list of deals
  ConvoyGrid    each game of the best of N: winner and convoys per side
"""

import re
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS

from games.engines import conquian, korova
from games.engines.options import resolve_options
from leagues.models import Game

from .kinds.conquian import deal_values as conquian_deal_values
from .kinds.conquian import single_status as conquian_single_status
from .kinds.convoy import MAX_GAMES as MAX_CONVOY_GAMES
from .kinds.convoy import games_in_fixture as convoy_games_in_fixture
from .kinds.korova import game_ended_at as korova_game_ended_at
from .kinds.korova import running_totals as korova_running_totals
from .outcomes import league_points, match_outcome
from .selectors import Lineup
from .sheets import SheetInvalid, validate_sheet

# More rounds or deals than any real sheet, few enough that a tampered form costs nothing.
MAX_GRID_ROWS = 120
# Digits read from an input's index ("rounds.12.0"): enough for any row, and never a number
# too long for int() (a tampered name of 5000 digits is simply not one of our inputs).
INDEX_DIGITS = 6
SIDES = ("home", "away")
_INTEGER = re.compile(r"-?\d{1,9}")


class EntryForm(forms.Form):
    """What every sheet page carries besides the grid."""

    based_on_version = forms.IntegerField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages={
            "required": "This form lost track of the version it was loaded from: "
            "reload the page (your entries are shown below, copy them if needed).",
            "invalid": "This form's version marker is damaged: reload the page.",
            "min_value": "This form's version marker is damaged: reload the page.",
        },
    )
    note = forms.CharField(
        max_length=250,
        required=False,
        label="Note (optional)",
        help_text="Why a correction was needed, or anything odd about the match.",
        error_messages={"max_length": "Keep the note to %(limit_value)d characters."},
    )
    before_fixture_day = forms.BooleanField(
        required=False,
        label="Record it before the fixture's day (league admin: a match played early)",
    )


@dataclass
class Cell:
    """One input: its name (the sheet path), label, raw value and the message about it."""

    name: str
    label: str
    value: str = ""
    error: str = ""


@dataclass
class Block:
    """A row of inputs (a round, a game, a single) and a message about it as a whole."""

    path: str
    title: str
    cells: list = field(default_factory=list)
    error: str = ""
    extra: dict = field(default_factory=dict)


def _cell_value(raw: str):
    """What a typed cell means on a sheet: None if blank, an int if it is one, else the text."""
    text = (raw or "").strip()
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    return text


def _text(value) -> str:
    return "" if value is None else str(value)


def _post_indexes(post, pattern: re.Pattern) -> dict[tuple, str]:
    """The posted values whose names match `pattern`, keyed by the pattern's int groups."""
    found = {}
    for name in post:
        match = pattern.fullmatch(name)
        if match:
            key = tuple(int(group) for group in match.groups())
            if all(part < MAX_GRID_ROWS for part in key):
                found[key] = str(post.get(name, ""))[:40]
    return found


class SheetGrid:
    """What the three games' grids share: the season's options, errors, outcome preview."""

    game: str = ""
    engine = None  # the games.engines module whose OPTIONS the season's rule options follow
    template = ""  # the full page
    partial = ""  # what htmx redraws
    top_path = ""  # the sheet's list ("rounds", "singles", "games"): its messages go on top

    def __init__(self, *, fixture, season, lineup: Lineup):
        self.fixture = fixture
        self.season = season
        self.lineup = lineup
        self.general_errors: list[str] = []
        self.notices: list[str] = []
        try:
            self.options = resolve_options(self.engine.OPTIONS, season.rule_options)
        except ValueError as error:
            self.options = resolve_options(self.engine.OPTIONS, {})
            self.general_errors.append(f"The season's rule options are not valid: {error}.")

    # --- building ----------------------------------------------------------------------

    @classmethod
    def from_sheet(cls, sheet: dict | None, **context) -> "SheetGrid":
        raise NotImplementedError

    @classmethod
    def from_post(cls, post, **context) -> "SheetGrid":
        raise NotImplementedError

    def sheet(self) -> dict:
        """The sheet as typed: ints where the cell holds one, the raw text where it does not."""
        raise NotImplementedError

    def blocks(self) -> list[Block]:
        raise NotImplementedError

    def apply_action(self, action: str) -> bool:
        """Change the grid for a button other than save; False if the action is unknown."""
        return False

    # --- errors ------------------------------------------------------------------------

    def add_errors(self, errors: dict) -> None:
        """Put each message of SheetInvalid.errors next to its input, block, or on top."""
        cells = {cell.name: cell for block in self.blocks() for cell in block.cells}
        blocks = {block.path: block for block in self.blocks()}
        for path, message in errors.items():
            message = " ".join(message) if isinstance(message, list) else str(message)
            if path in cells:
                cells[path].error = message
                continue
            block = _longest_prefix(path, blocks)
            if block is not None:
                block.error = f"{block.error} {message}".strip()
            elif path != NON_FIELD_ERRORS and path not in ("players", self.top_path):
                self.general_errors.append(f"{self.describe(path)}: {message}")
            else:
                self.general_errors.append(message)

    @property
    def has_errors(self) -> bool:
        return bool(self.general_errors) or any(
            block.error or any(cell.error for cell in block.cells) for block in self.blocks()
        )

    # --- meaning -----------------------------------------------------------------------

    def validate(self) -> dict:
        """The normalised sheet; SheetInvalid if the rules refuse it."""
        return validate_sheet(
            game=self.game,
            sheet=self.sheet(),
            rule_options=self.season.rule_options,
            fixture_format=self.season.fixture_format,
            home_players=self.lineup.roster("home") or None,
            away_players=self.lineup.roster("away") or None,
        )

    def outcome(self) -> dict | None:
        """Who takes the fixture and the league points each side gets; None if not valid yet."""
        try:
            clean = self.validate()
        except SheetInvalid:
            return None
        return describe_outcome(
            match_outcome(game=self.game, sheet=clean, rule_options=self.season.rule_options),
            fixture=self.fixture,
            season=self.season,
        )

    def normalised(self) -> dict:
        """The validated sheet if it is valid, else the sheet as typed."""
        try:
            return self.validate()
        except SheetInvalid:
            return self.sheet()

    def describe(self, path: str) -> str:
        return describe_path(self.game, path, names=self.names(), sheet=self.sheet())

    def names(self) -> dict[int, str]:
        return {player.pk: player.name for player in self.lineup.players}


def _longest_prefix(path: str, blocks: dict):
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        block = blocks.get(".".join(parts[:end]))
        if block is not None:
            return block
    return None


def describe_outcome(outcome, *, fixture, season) -> dict:
    """The outcome in words and league points, for the page and the conflict view."""
    teams = {"home": fixture.home_team, "away": fixture.away_team}
    return {
        "winner": outcome.winner,
        "winner_team": teams.get(outcome.winner),
        "home_score": outcome.home_score,
        "away_score": outcome.away_score,
        "home_games": outcome.home_games,
        "away_games": outcome.away_games,
        "home_points": league_points(winner=outcome.winner, side="home", season=season),
        "away_points": league_points(winner=outcome.winner, side="away", season=season),
    }


# --- Корова ------------------------------------------------------------------------------


class KorovaGrid(SheetGrid):
    game = Game.KOROVA
    engine = korova
    template = "scoring/korova_sheet.html"
    partial = "scoring/_korova_totals.html"
    top_path = "rounds"
    _pattern = re.compile(rf"rounds\.(\d{{1,{INDEX_DIGITS}}})\.([0-3])")

    def __init__(self, *, rounds: list[list[str]] | None = None, **context):
        super().__init__(**context)
        self.rounds = rounds or [["", "", "", ""]]

    @classmethod
    def from_sheet(cls, sheet, **context):
        rounds = [[_text(cell) for cell in row] for row in (sheet or {}).get("rounds", [])]
        return cls(rounds=rounds or None, **context)

    @classmethod
    def from_post(cls, post, **context):
        found = _post_indexes(post, cls._pattern)
        count = max((index for index, _ in found), default=-1) + 1
        rounds = [[found.get((index, seat), "") for seat in range(4)] for index in range(count)]
        return cls(rounds=rounds or None, **context)

    def sheet(self) -> dict:
        return {
            "players": [player.pk for player in self.lineup.players],
            "rounds": [[_cell_value(cell) for cell in row] for row in self.rounds],
        }

    @property
    def end_score(self) -> int:
        return self.options["end_score"]

    def _played_rounds(self) -> list[list]:
        """The rounds typed so far, without blank rounds at the end."""
        rounds = [list(row) for row in self.rounds]
        while rounds and all(not cell.strip() for cell in rounds[-1]):
            rounds.pop()
        return rounds

    def ended_at(self) -> int | None:
        return korova_game_ended_at(self._played_rounds(), self.end_score)

    def blocks(self) -> list[Block]:
        if not hasattr(self, "_blocks"):
            players = self.lineup.players
            self._blocks = [
                Block(
                    path=f"rounds.{index}",
                    title=f"Round {index + 1}",
                    cells=[
                        Cell(
                            name=f"rounds.{index}.{seat}",
                            label=f"Round {index + 1}, {players[seat].name}",
                            value=value,
                        )
                        for seat, value in enumerate(row)
                    ],
                    extra={"number": index + 1},
                )
                for index, row in enumerate(self.rounds)
            ]
        return self._blocks

    def apply_action(self, action: str) -> bool:
        if action == "add_round":
            ended_at = self.ended_at()
            if ended_at is not None:
                self.notices.append(
                    f"The game ended in round {ended_at}: someone reached {self.end_score}, "
                    f"so there is no round after it."
                )
            elif len(self.rounds) >= MAX_GRID_ROWS:
                self.notices.append("That is as many rounds as a sheet can hold.")
            else:
                self.rounds.append(["", "", "", ""])
            return True
        if action == "remove_round":
            if len(self.rounds) > 1:
                self.rounds.pop()
            return True
        return False

    def preview(self) -> dict:
        """Running totals, team totals, the end of the game and the outcome: _korova_totals."""
        players = self.lineup.players
        played = self._played_rounds()
        running = korova_running_totals(played)
        totals = running[-1] if running else [0, 0, 0, 0]
        totals = [*totals, 0, 0, 0, 0][:4]
        ended_at = korova_game_ended_at(played, self.end_score)
        unreadable = [
            f"Round {index + 1}, {players[seat].name}: “{cell.strip()}” is not a number of "
            f"heads (a whole number, 0 or more)."
            for index, row in enumerate(played)
            for seat, cell in enumerate(row)
            if cell.strip() and not cell.strip().isdigit()
        ]
        problems = []
        outcome = None
        if ended_at is not None and not unreadable:
            try:
                clean = self.validate()
            except SheetInvalid as invalid:
                problems = list(invalid.errors.values())
            else:
                outcome = describe_outcome(
                    match_outcome(game=self.game, sheet=clean, rule_options=self.options),
                    fixture=self.fixture,
                    season=self.season,
                )
        home_total, away_total = totals[0] + totals[1], totals[2] + totals[3]
        return {
            "players": [
                {
                    "name": player.name,
                    "side": "home" if seat < 2 else "away",
                    "total": totals[seat],
                    "reached": totals[seat] >= self.end_score,
                }
                for seat, player in enumerate(players)
            ],
            "home_total": home_total,
            "away_total": away_total,
            "leader": (
                None
                if home_total == away_total
                else self.fixture.home_team
                if home_total < away_total
                else self.fixture.away_team
            ),
            "margin": abs(home_total - away_total),
            "rounds": len(played),
            "running": [{"number": number, "totals": row} for number, row in enumerate(running, 1)],
            "end_score": self.end_score,
            "ended_at": ended_at,
            "highest": max(totals),
            "reached": [
                player.name
                for player, total in zip(players, totals, strict=False)
                if total >= self.end_score
            ],
            "to_go": max(self.end_score - max(totals), 0),
            "after_end": ended_at is not None and len(played) > ended_at,
            "unreadable": unreadable,
            "problems": problems,
            "outcome": outcome,
        }


# --- Conquian ----------------------------------------------------------------------------

DEAL_RESULTS = ("home", "draw", "away")


class ConquianGrid(SheetGrid):
    game = Game.CONQUIAN
    engine = conquian
    template = "scoring/conquian_sheet.html"
    partial = "scoring/_conquian_singles.html"
    top_path = "singles"
    _pattern = re.compile(rf"singles\.([01])\.deals\.(\d{{1,{INDEX_DIGITS}}})")

    def __init__(self, *, deals: list[list[str]] | None = None, **context):
        super().__init__(**context)
        self.deals = deals or [[], []]

    @classmethod
    def from_sheet(cls, sheet, **context):
        singles = (sheet or {}).get("singles") or []
        deals = [[_text(deal) for deal in single.get("deals", [])] for single in singles[:2]]
        return cls(deals=[*deals, [], []][:2], **context)

    @classmethod
    def from_post(cls, post, **context):
        found = _post_indexes(post, cls._pattern)
        deals = []
        for single in range(2):
            count = max((deal for s, deal in found if s == single), default=-1) + 1
            deals.append([found.get((single, deal), "") for deal in range(count)])
        return cls(deals=deals, **context)

    def pairs(self) -> list[tuple]:
        """(home player, away player) of each single: home 1 v away 1, home 2 v away 2."""
        return list(zip(self.lineup.home, self.lineup.away, strict=False))

    def sheet(self) -> dict:
        return {
            "singles": [
                {
                    "home_player": home.pk,
                    "away_player": away.pk,
                    "deals": [deal.strip() for deal in self.deals[index]],
                }
                for index, (home, away) in enumerate(self.pairs())
            ]
        }

    def _status(self, index: int):
        return conquian_single_status(
            [deal.strip() for deal in self.deals[index]],
            self.options["target"],
            self.options["carry_over"],
        )

    def blocks(self) -> list[Block]:
        if not hasattr(self, "_blocks"):
            self._blocks = []
            for index, (home, away) in enumerate(self.pairs()):
                deals = [deal.strip() for deal in self.deals[index]]
                values = conquian_deal_values(deals, self.options["carry_over"])
                status = self._status(index)
                labels = {"home": f"{home.name} won", "draw": "Drawn", "away": f"{away.name} won"}
                self._blocks.append(
                    Block(
                        path=f"singles.{index}",
                        title=f"Single {index + 1}: {home.name} v {away.name}",
                        cells=[
                            Cell(
                                name=f"singles.{index}.deals.{number}",
                                label=f"Deal {number + 1}, worth {values[number]}",
                                value=deal,
                            )
                            for number, deal in enumerate(deals)
                        ],
                        extra={
                            "index": index,
                            "home": home,
                            "away": away,
                            "status": status,
                            "values": values,
                            "labels": labels,
                            "after_end": (
                                status.ended_at is not None and len(deals) > status.ended_at
                            ),
                            "winner": (
                                home
                                if status.winner == "home"
                                else away
                                if status.winner == "away"
                                else None
                            ),
                        },
                    )
                )
        return self._blocks

    def apply_action(self, action: str) -> bool:
        parts = action.split(":")
        if len(parts) < 2 or parts[0] not in ("add", "undo") or parts[1] not in ("0", "1"):
            return False
        index = int(parts[1])
        if parts[0] == "undo":
            if self.deals[index]:
                self.deals[index].pop()
            return True
        if len(parts) != 3 or parts[2] not in DEAL_RESULTS:
            return False
        status = self._status(index)
        if status.finished:
            self.notices.append(
                f"Single {index + 1} is over: a player reached {self.options['target']} points, "
                f"so there is no deal after it."
            )
        elif len(self.deals[index]) >= MAX_GRID_ROWS:
            self.notices.append("That is as many deals as a single can hold.")
        else:
            self.deals[index].append(parts[2])
        return True

    def preview(self) -> dict:
        finished = all(block.extra["status"].finished for block in self.blocks())
        return {
            "target": self.options["target"],
            "carry_over": self.options["carry_over"],
            "finished": finished,
            "outcome": self.outcome() if finished else None,
        }


# --- Convoy ------------------------------------------------------------------------------


CONVOY_WINNERS = ("home", "away", "stalemate")


class ConvoyGrid(SheetGrid):
    game = Game.CONVOY
    engine = None
    template = "scoring/convoy_sheet.html"
    partial = "scoring/_convoy_summary.html"
    top_path = "games"
    _pattern = re.compile(rf"games\.(\d{{1,{INDEX_DIGITS}}})\.(winner|convoys\.home|convoys\.away)")

    def __init__(self, *, games: list[dict] | None = None, **context):
        self.fixture = context["fixture"]
        self.season = context["season"]
        self.lineup = context["lineup"]
        self.general_errors = []
        self.notices = []
        self.options = {}
        try:
            self.best_of = convoy_games_in_fixture(self.season.fixture_format or {})
        except ValueError as error:
            self.best_of = 1
            self.general_errors.append(f"The season's fixture format is not valid: {error}.")
        self.games = [*(games or []), *({} for _ in range(self.best_of))][: self.best_of]

    @classmethod
    def from_sheet(cls, sheet, **context):
        games = [
            {
                "winner": _text(game.get("winner")),
                "home": _text((game.get("convoys") or {}).get("home")),
                "away": _text((game.get("convoys") or {}).get("away")),
            }
            for game in (sheet or {}).get("games", [])[:MAX_CONVOY_GAMES]
        ]
        return cls(games=games, **context)

    @classmethod
    def from_post(cls, post, **context):
        games = {}
        for name in post:
            match = cls._pattern.fullmatch(name)
            if match and int(match.group(1)) < MAX_CONVOY_GAMES:
                key = match.group(2).replace("convoys.", "")
                games.setdefault(int(match.group(1)), {})[key] = str(post.get(name, ""))[:40]
        count = max(games, default=-1) + 1
        return cls(games=[games.get(index, {}) for index in range(count)], **context)

    @staticmethod
    def _blank(game: dict) -> bool:
        return not any((game.get(key) or "").strip() for key in ("winner", "home", "away"))

    def sheet(self) -> dict:
        games = list(self.games)
        while games and self._blank(games[-1]):
            games.pop()
        return {
            "games": [
                {
                    "winner": (game.get("winner") or "").strip() or None,
                    "convoys": {
                        "home": _cell_value(game.get("home", "")),
                        "away": _cell_value(game.get("away", "")),
                    },
                }
                for game in games
            ]
        }

    def blocks(self) -> list[Block]:
        if not hasattr(self, "_blocks"):
            home, away = self.fixture.home_team, self.fixture.away_team
            self._blocks = [
                Block(
                    path=f"games.{index}",
                    title=f"Game {index + 1}" if self.best_of > 1 else "The game",
                    cells=[
                        Cell(
                            name=f"games.{index}.winner",
                            label="Winner",
                            value=(game.get("winner") or "").strip(),
                        ),
                        Cell(
                            name=f"games.{index}.convoys.home",
                            label=f"{home.name} convoys",
                            value=game.get("home", ""),
                        ),
                        Cell(
                            name=f"games.{index}.convoys.away",
                            label=f"{away.name} convoys",
                            value=game.get("away", ""),
                        ),
                    ],
                    extra={"number": index + 1},
                )
                for index, game in enumerate(self.games)
            ]
        return self._blocks

    def preview(self) -> dict:
        won = {"home": 0, "away": 0}
        entered = 0
        for game in self.sheet()["games"]:
            entered += 1
            if game["winner"] in won:
                won[game["winner"]] += 1
        return {
            "best_of": self.best_of,
            "needed": self.best_of // 2 + 1,
            "won": won,
            "entered": entered,
            "outcome": self.outcome(),
        }


GRIDS = {Game.KOROVA: KorovaGrid, Game.CONQUIAN: ConquianGrid, Game.CONVOY: ConvoyGrid}


# --- what changed, in words ----------------------------------------------------------------


def describe_path(game: str, path: str, *, names: dict, sheet: dict | None, teams=None) -> str:
    """A sheet path in words: "rounds.2.1" → "Round 3, Bob"; "singles.0.deals.4" → ..."""
    parts = path.split(".")
    sheet = sheet if isinstance(sheet, dict) else {}
    home_name = getattr(teams[0], "name", "home") if teams else "home"
    away_name = getattr(teams[1], "name", "away") if teams else "away"
    try:
        if game == Game.KOROVA and parts[0] == "rounds" and len(parts) >= 2:
            label = f"Round {int(parts[1]) + 1}"
            if len(parts) == 3:
                players = sheet.get("players") or []
                seat = int(parts[2])
                pk = players[seat] if seat < len(players) else None
                label += f", {names.get(pk) or _seat_name(seat)}"
            return label
        if game == Game.KOROVA and parts[0] == "players" and len(parts) == 2:
            return _seat_name(int(parts[1])).capitalize()
        if game == Game.CONQUIAN and parts[0] == "singles" and len(parts) >= 2:
            label = f"Single {int(parts[1]) + 1}"
            if len(parts) >= 4 and parts[2] == "deals":
                label += f", deal {int(parts[3]) + 1}"
            elif len(parts) == 3 and parts[2].endswith("_player"):
                label += f", {parts[2].replace('_player', '')} player"
            return label
        if game == Game.CONVOY and parts[0] == "games" and len(parts) >= 2:
            label = f"Game {int(parts[1]) + 1}"
            if len(parts) == 3 and parts[2] == "winner":
                label += ", winner"
            elif len(parts) == 4 and parts[2] == "convoys":
                label += f", {home_name if parts[3] == 'home' else away_name} convoys"
            return label
    except (ValueError, IndexError):
        pass
    return path


def _seat_name(seat: int) -> str:
    return f"{SIDES[seat // 2] if seat < 4 else 'extra'} player {seat % 2 + 1}"


def describe_value(game: str, path: str, value, *, names: dict, sheet: dict | None, teams=None):
    """A sheet value in words, for the history and the conflict page."""
    if value is None:
        return "—"
    parts = path.split(".")
    sheet = sheet if isinstance(sheet, dict) else {}
    if game == Game.CONQUIAN and "deals" in parts and len(parts) == 4:
        singles = sheet.get("singles") or []
        index = int(parts[1]) if parts[1].isdigit() else -1
        single = singles[index] if 0 <= index < len(singles) else {}
        if value in SIDES:
            pk = single.get(f"{value}_player")
            return f"won by {names.get(pk) or value}"
        if value == "draw":
            return "drawn"
    if game == Game.CONVOY and parts[-1] == "winner" and teams:
        return {"home": teams[0].name, "away": teams[1].name, "stalemate": "stalemate"}.get(
            value, str(value)
        )
    if path.endswith("_player") or (game == Game.KOROVA and parts[0] == "players"):
        if isinstance(value, list):  # the whole list of players, against none before
            return ", ".join(_player_name(pk, names) for pk in value) or "—"
        return _player_name(value, names)
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items())
    return str(value)


def _player_name(pk, names: dict) -> str:
    return names.get(pk, str(pk)) if isinstance(pk, int) else str(pk)


def readable_changes(
    game: str, changes: list, *, before: dict | None, after: dict | None, names: dict, teams
) -> list[dict]:
    """scoring.sheets.sheet_changes in words: label, old value, new value."""
    readable = []
    for path, old, new in changes:
        readable.append(
            {
                "path": path,
                "label": describe_path(game, path, names=names, sheet=after or before, teams=teams),
                "before": describe_value(
                    game, path, old, names=names, sheet=before or after, teams=teams
                ),
                "after": describe_value(
                    game, path, new, names=names, sheet=after or before, teams=teams
                ),
            }
        )
    return readable
