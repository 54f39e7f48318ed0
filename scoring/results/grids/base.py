"""The staff entry grid that every game's grid builds on (scoring/results/grids/<game>.py, registered in ENTRY_GRIDS).

A grid reads what staff typed, leniently, and lays it out as blocks of cells (a round, a
single, a game). Every input is named by the path of its place in the sheet ("rounds.2.1",
"singles.0.deals.4", "games.0.convoys.home"), which is also how validation names a problem,
so each message lands next to its field without any mapping table. A grid holds no rule of
the game: scoring.results.preview.grid_check runs the very validation Save runs and hands the
messages back through `add_errors`; the grid's own `preview` only adds what the game shows
while staff type (running totals, the next deal's value, games won so far).
"""

import re
from dataclasses import dataclass, field

from django.core.exceptions import NON_FIELD_ERRORS

from scoring.kinds import get_kind

# More rounds or deals than any real sheet, few enough that a tampered form costs nothing.
MAX_GRID_ROWS = 120
# Digits read from an input's index ("rounds.12.0"): enough for any row, and never a number
# too long for int() (a tampered name of 5000 digits is simply not one of our inputs).
INDEX_DIGITS = 6
# Where a row drawn as a <template> for the browser (a round or deal added without the network,
# static/entry_offline_rows.js) has its index (from 0) and its number (from 1).
NEW_INDEX, NEW_NUMBER = "__index__", "__number__"
_INTEGER = re.compile(r"-?\d{1,9}")


@dataclass
class Cell:
    """One input: its name (the sheet path), label, raw value and the message about it."""

    name: str
    label: str
    value: str = ""
    error: str = ""

    @property
    def input_id(self) -> str:
        return "cell-" + self.name.replace(".", "-")

    @property
    def slot_id(self) -> str:
        """The id of the element that holds this input's message (always on the page)."""
        return "err-" + self.name.replace(".", "-")


@dataclass
class Block:
    """A row of inputs (a round, a game, a single) and a message about it as a whole."""

    path: str
    title: str
    cells: list = field(default_factory=list)
    error: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def slot_id(self) -> str:
        return "err-" + self.path.replace(".", "-")


def cell_value(raw: str):
    """What a typed cell means on a sheet: None if blank, an int if it is one, else the text."""
    text = (raw or "").strip()
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    return text


def text(value) -> str:
    return "" if value is None else str(value)


def post_indexes(post, pattern: re.Pattern) -> dict[tuple, str]:
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
    """What every game's grid shares: the fixture, the season's options, the messages.

    Templates: `template` is the whole page, `partial` what htmx redraws after a change;
    `partial_holds_cells` says whether the partial redraws the inputs themselves (Conquian's
    deal lists) or only a summary beside them (then the messages beside the inputs are
    redrawn out of band, scoring/_error_slots.html).
    """

    game: str = ""
    template = ""
    partial = ""
    partial_holds_cells = False
    top_path = ""  # the sheet's list ("rounds", "singles", "games"): its messages go on top

    def __init__(self, *, fixture, season, lineup):
        self.fixture = fixture
        self.season = season
        self.lineup = lineup
        # The players staff chose for this sheet ({"home": [ids], "away": [ids]}, a reserve
        # standing in), or None for each team's two: the entry page keeps it with the grid.
        self.chosen_lineup: dict[str, list[int]] | None = None
        self.general_errors: list[str] = []
        self.notices: list[str] = []
        try:
            self.options = self.kind.options(season.rule_options)
        except ValueError:  # validation says so, in the general messages
            self.options = self.kind.options({})

    @property
    def max_rows(self) -> int:
        """The most rounds or deals a sheet holds (the page adds none past it offline either)."""
        return MAX_GRID_ROWS

    @property
    def status_templates(self) -> tuple[str, str]:
        """The game's own status line, else the generic one (a new game may have none yet)."""
        return (f"scoring/{self.game}/_status.html", "scoring/_status.html")

    @property
    def kind(self):

        return get_kind(self.game)

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

    def preview(self) -> dict:
        """What the game shows while staff type, besides the messages and the outcome."""
        return {}

    # --- messages -----------------------------------------------------------------------

    def add_errors(self, errors: dict) -> None:
        """Put each message of SheetInvalid.errors next to its input, its block, or on top."""
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

    def messages(self) -> list[str]:
        """Every message, once, in the order of the page: on top, then block by block."""
        found = list(self.general_errors)
        for block in self.blocks():
            found += [message for message in [block.error] if message]
            found += [cell.error for cell in block.cells if cell.error]
        return found

    def describe(self, path: str) -> str:
        names = {player.pk: player.name for player in self.lineup.players}
        teams = (self.fixture.home_team, self.fixture.away_team)
        sheet = self.sheet()
        try:
            label = self.kind.describe_path(path.split("."), names=names, sheet=sheet, teams=teams)
        except (ValueError, IndexError):
            label = None
        return label or path


def _longest_prefix(path: str, blocks: dict):
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        block = blocks.get(".".join(parts[:end]))
        if block is not None:
            return block
    return None
