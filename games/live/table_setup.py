"""What every new table needs, casual or a fixture's: its clock, its rules checked by the
engine, a seed, the names on its seats, and the lock every table write takes first."""

import secrets

from games.engines import get_engine
from games.engines.options import TURN_CLOCK
from games.models import Table

from .exceptions import TableInvalid
from .push import table_changed_on_commit

BOT_NAMES = ("Daisy", "Buttercup", "Clover", "Bluebell", "Primrose", "Heather", "Poppy", "Ivy",
             "Willow")  # fmt: skip


def locked_table(table_id: int) -> Table:
    """The table row, locked until the transaction ends: the one lock of every table write
    (with its seats, which the writes read and only table_join changes, under this lock), and
    the announcement of the change to the table's pages after commit (games.live.push)."""
    table = Table.objects.select_for_update().prefetch_related("seats").get(pk=table_id)
    # Whatever the write does, its pages hear of it once it commits (a refusal rolls back and
    # says nothing; a write that changed nothing costs each page a 304).
    table_changed_on_commit(table)
    return table


def turn_seconds_from(*, options: dict, defaults: dict) -> int:
    """The table's clock: `options["turn_seconds"]`, else the defaults' (a season's rule
    options), else 30. Raises TableInvalid unless it is a whole number of seconds within
    TURN_CLOCK's bounds (2 to 3600); no engine has a say in it."""
    name = TURN_CLOCK.name
    value = options.get(name, defaults.get(name, TURN_CLOCK.default))
    try:
        return TURN_CLOCK.check(value)
    except ValueError:
        raise TableInvalid(
            errors={
                f"options.{name}": f"The turn clock is a whole number of seconds from "
                f"{TURN_CLOCK.minimum} to {TURN_CLOCK.maximum}."
            }
        ) from None


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
