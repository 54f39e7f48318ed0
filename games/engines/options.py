"""Validation of per-game options: every engine declares its options here.

The turn clock is not one of them: it is the table's, with its time bank and when an away seat
may be claimed (TABLE_CLOCK_OPTIONS). A table (games/live/table_setup.py) and a season's rules
(which set its fixtures' tables) carry them beside the game's options, under the names and
within the bounds declared here; an engine neither checks nor keeps them.
"""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    kind: type  # int, bool or str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {self.name!r} must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"option {self.name!r} must be at most {self.maximum}")
        elif self.kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name!r} must be true or false, not {value!r}")
        elif not isinstance(value, self.kind) or (self.choices and value not in self.choices):
            raise ValueError(
                f"option {self.name!r} must be one of {', '.join(map(str, self.choices))}, "
                f"not {value!r}"
            )
        return value


# The table's clock, in seconds a turn: declared once, here, below both the live tables and
# the seasons' rules that set it.
TURN_CLOCK = Option("turn_seconds", 30, int, minimum=2, maximum=3600)
# Each seat's time bank, in seconds for the whole game: drawn on when a turn's clock runs out,
# before the clock plays the move (0: no bank). Off unless asked for, so that a client that
# knows nothing of banks gets the clock it set; the lobby's form offers 60.
TIME_BANK = Option("time_bank_seconds", 0, int, minimum=0, maximum=3600)
# How many of its own turns in a row a seat lets the clock play before the others may claim
# it (a bot takes it at a casual table; at a fixture's, the table is held for the staff).
CLAIM_AFTER = Option("claim_after_timeouts", 3, int, minimum=1, maximum=20)
# What a table (and a season's rules, for its fixtures' tables) sets beside the game's own
# options: the clocks, never the engine's.
TABLE_CLOCK_OPTIONS = (TURN_CLOCK, TIME_BANK, CLAIM_AFTER)
TABLE_CLOCK_NAMES = frozenset(option.name for option in TABLE_CLOCK_OPTIONS)


def resolve_options(declared: tuple[Option, ...], given: object) -> dict[str, Any]:
    """Defaults overlaid with `given`; ValueError names any unknown option or bad value.

    The table's clock options in `given` (a season's rules, a table's options, a game dumped
    before the clock left the engines) are passed over: they are the table's, not the game's."""
    by_name = {option.name: option for option in declared}
    if given is None:
        given = {}
    elif not isinstance(given, dict):
        raise ValueError(f"options are a mapping of option names to values, not {given!r}")
    unknown = sorted(
        map(repr, set(given) - set(by_name) - TABLE_CLOCK_NAMES)
    )  # names need not be strings
    if unknown:
        raise ValueError(f"unknown option {unknown[0]}; known: {', '.join(sorted(by_name))}")
    return {
        name: option.check(given[name]) if name in given else option.default
        for name, option in by_name.items()
    }
