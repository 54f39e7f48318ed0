"""What every new table needs, casual or a fixture's: its clocks, its rules checked by the
engine, a seed, the names on its seats, and the lock every table write takes first."""

import secrets

from django.utils.translation import gettext_lazy

from games.engines import get_engine
from games.engines.options import CLAIM_AFTER, TABLE_CLOCK_NAMES, TIME_BANK, TURN_CLOCK
from games.models import Table

from .exceptions import TableInvalid
from .push import table_changed_on_commit
from .table_reads import table_with_seats

BOT_NAMES = ("Daisy", "Buttercup", "Clover", "Bluebell", "Primrose", "Heather", "Poppy", "Ivy",
             "Willow")  # fmt: skip


def locked_table(table_id: int) -> Table:
    """The table row, locked until the transaction ends: the one lock of every table write
    (with its seats, which the writes read and only table_join changes, under this lock), and
    the announcement of the change to the table's pages after commit (games.live.push)."""
    table = table_with_seats(table_id, lock=True)
    # Whatever the write does, its pages hear of it once it commits (a refusal rolls back and
    # says nothing; a write that changed nothing costs each page a 304).
    table_changed_on_commit(table)
    return table


_CLOCK_SENTENCES = {
    TURN_CLOCK.name: gettext_lazy(
        "The turn clock is a whole number of seconds from %(minimum)d to %(maximum)d."
    ),
    TIME_BANK.name: gettext_lazy(
        "The time bank is a whole number of seconds from %(minimum)d (none) to %(maximum)d."
    ),
    CLAIM_AFTER.name: gettext_lazy(
        "A seat may be claimed after %(minimum)d to %(maximum)d of its turns played by the clock."
    ),
}


def clock_options_from(*, options: dict, defaults: dict) -> dict[str, int]:
    """The table's clocks: each of TABLE_CLOCK_OPTIONS (the turn clock, the time bank, when an
    away seat may be claimed) from `options`, else the defaults' (a season's rule options),
    else its own default. Raises TableInvalid naming the first one out of its bounds; no
    engine has a say in them."""
    clocks = {}
    for option in (TURN_CLOCK, TIME_BANK, CLAIM_AFTER):
        value = options.get(option.name, defaults.get(option.name, option.default))
        try:
            clocks[option.name] = option.check(value)
        except ValueError:
            raise TableInvalid(
                errors={
                    f"options.{option.name}": str(_CLOCK_SENTENCES[option.name])
                    % {"minimum": option.minimum, "maximum": option.maximum}
                }
            ) from None
    return clocks


def without_clocks(options: dict) -> dict:
    """The game's own options: `options` without the table's clocks."""
    return {name: value for name, value in options.items() if name not in TABLE_CLOCK_NAMES}


def _sentence(error: Exception) -> str:
    text = str(error)
    return f"{text[:1].upper()}{text[1:]}."


def check_engine_options(*, game: str, players: int, options: dict) -> None:
    """Raise TableInvalid naming the field when the engine refuses the players or options."""
    eng = get_engine(game)
    try:
        eng.new_game(players=players, seed=0, options={})
    except ValueError as exc:
        raise TableInvalid(errors={"players": _sentence(exc)}) from exc
    try:
        eng.new_game(players=players, seed=0, options=options)
    except ValueError as exc:
        raise TableInvalid(errors={"options": _sentence(exc)}) from exc


def new_seed() -> int:
    """A seed nobody can guess: it fixes every shuffle of the game and never leaves the server."""
    return secrets.randbits(62)


def seat_name(user) -> str:
    """A player's league name when the user is one, else their full name or username."""
    player = getattr(user, "player", None)
    if player is not None:
        return player.name
    return user.get_full_name() or user.get_username()
