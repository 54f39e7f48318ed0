"""The turn mechanics of a locked table, shared by every write in games.live.services.

Callers hold the table row's lock (games.live.services._locked_table) and pass the loaded engine
state in; these functions apply moves and time-outs, write the log, keep the turn and its
deadline by the turn rule (docs/live-tables.md), and ask the broker, once the transaction has
committed, to wake the expiry task and the bots. Nothing here commits or locks on its own.
"""

import datetime
import logging
import random
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction

from games.engines import Engine, Move, get_engine
from games.models import Table, TableMove

logger = logging.getLogger(__name__)

EXPIRE_TASK = "games.expire_turn"
BOT_TASK = "games.play_bot"
BOT_TASK_MARGIN_SECONDS = 2.0
TABLE_FIELDS = ["state", "status", "turn", "deadline", "finished_at"]


def engine_options(table: Table) -> dict[str, Any]:
    """The table's options without its clock, which is the table's and not the engine's."""
    return {name: value for name, value in table.options.items() if name != "turn_seconds"}


def open_first_turn(*, table: Table, now: datetime.datetime) -> None:
    """Deal: the engine's new game from the table's seed and options, turn 1 and its clock."""
    eng = get_engine(table.game)
    state = eng.new_game(players=table.players, seed=table.seed, options=engine_options(table))
    table.state = eng.dump(state)
    table.status = Table.Status.PLAYING
    table.turn = 1
    table.deadline = now + datetime.timedelta(seconds=table.turn_seconds)
    table.save(update_fields=["state", "status", "turn", "deadline"])
    _wake_on_commit(new_turns=[(table, eng.to_act(state))])


def clock_restart(*, table: Table, now: datetime.datetime) -> None:
    """Give the open turn a fresh clock from `now` (a held fixture table going on)."""
    eng = get_engine(table.game)
    table.deadline = now + datetime.timedelta(seconds=table.turn_seconds)
    table.save(update_fields=["deadline"])
    assert table.state is not None, "a held table has been dealt"
    _wake_on_commit(new_turns=[(table, eng.to_act(eng.load(table.state)))])


def is_overdue(table: Table, now: datetime.datetime) -> bool:
    return (
        table.status == Table.Status.PLAYING
        and table.deadline is not None
        and table.deadline <= now
    )


def play(*, table: Table, state: Any, seat: int, move: Move, now: datetime.datetime) -> Any:
    """Apply one seat's move (IllegalMove from the engine leaves everything as it was)."""
    eng = get_engine(table.game)
    new_state = eng.apply(state, seat, move)
    turn_before = table.turn
    writes = Writes()
    _record(table=table, eng=eng, before=state, after=new_state, seat=seat, move=move, now=now,
            writes=writes)  # fmt: skip
    _save(table=table, eng=eng, state=new_state, turn_before=turn_before, writes=writes)
    writes.save()
    return new_state


def expire(*, table: Table, state: Any, now: datetime.datetime) -> None:
    """Time out every seat still to act in the current turn (the turn is overdue)."""
    time_out(table=table, state=state, now=now).save()


def time_out(*, table: Table, state: Any, now: datetime.datetime) -> "Writes":
    """expire's work without its writes, which the caller saves (with other tables' in a
    batch). Whatever the engine raises comes before anything is to be written."""
    eng = get_engine(table.game)
    turn_before = table.turn
    writes = Writes()
    for seat in eng.to_act(state):
        if table.turn != turn_before or eng.is_over(state) or seat not in eng.to_act(state):
            break  # the turn closed: seats of the next turn get their own clock
        move = eng.timeout_move(state, seat)
        new_state = eng.timeout(state, seat)
        _record(
            table=table, eng=eng, before=state, after=new_state, seat=seat, move=move, now=now,
            timeout=True, writes=writes,
        )  # fmt: skip
        state = new_state
    _save(table=table, eng=eng, state=state, turn_before=turn_before, writes=writes)
    return writes


class Writes:
    """What moves and time-outs write, held until save(): the log entries in one INSERT
    however many tables there are (a batch of expiries), an UPDATE per table (cheaper in
    Python than bulk_update's CASE expressions, measured), and after commit the wake-ups of
    the turns they opened."""

    def __init__(self) -> None:
        self.moves: list[TableMove] = []
        self.tables: list[Table] = []
        self.new_turns: list[tuple[Table, list[int]]] = []  # with the seats to act in each

    def extend(self, other: "Writes") -> None:
        self.moves += other.moves
        self.tables += other.tables
        self.new_turns += other.new_turns

    def save(self) -> None:
        TableMove.objects.bulk_create(self.moves)
        for table in self.tables:
            table.save(update_fields=TABLE_FIELDS)
        if self.new_turns:
            _wake_on_commit(new_turns=self.new_turns)


def _record(
    *,
    table: Table,
    eng: Engine[Any],
    before: Any,
    after: Any,
    seat: int,
    move: Move,
    now: datetime.datetime,
    writes: "Writes",
    timeout: bool = False,
) -> None:
    """Log the move (a time-out's: the engine's `timeout_move`, FORFEIT when it plays none)
    and apply the turn rule: the turn goes up, unless the engine's turns are simultaneous and
    the seats left to act are a non-empty proper subset of those that were to act (a Корова
    pick, with others still to pick)."""
    writes.moves.append(
        TableMove(table=table, turn=table.turn, seat=seat, move=move, timeout=timeout, at=now)
    )
    if eng.is_over(after):
        table.status = Table.Status.FINISHED
        table.deadline = None
        table.finished_at = now
        return
    if eng.simultaneous:
        acting_before, acting_after = set(eng.to_act(before)), set(eng.to_act(after))
        if acting_after and acting_after < acting_before:
            return
    table.turn += 1
    table.deadline = now + datetime.timedelta(seconds=table.turn_seconds)


def _save(*, table: Table, eng: Engine[Any], state: Any, turn_before: int, writes: Writes) -> None:
    table.state = eng.dump(state)
    writes.tables.append(table)
    if table.status == Table.Status.PLAYING and table.turn != turn_before:
        writes.new_turns.append((table, eng.to_act(state)))


def _wake_on_commit(*, new_turns: list[tuple[Table, list[int]]]) -> None:
    """After commit: for each new turn (a table and the seats to act in it) the expiry task at
    the deadline, keyed by (table, turn), and a think delay for each bot to act. One producer
    sends them all in one batch (a pipeline on Redis): a batch of expiries opens many turns
    at once. If the broker is away the sweep still expires the turns."""
    low, high = settings.GAMES_BOT_THINK_SECONDS
    tasks: list[dict[str, Any]] = []
    for table, to_act in new_turns:
        tasks.append(
            {
                "name": EXPIRE_TASK,
                "args": (table.pk, table.turn),
                "eta": table.deadline,
                "task_id": f"table-{table.pk}-turn-{table.turn}-expire",
            }
        )
        # A bot answers well inside the clock, however short the table's clock is.
        think_cap = max(0.0, table.turn_seconds / 2)
        tasks += [
            {
                "name": BOT_TASK,
                "args": (table.pk, table.turn, seat.seat),
                "countdown": min(random.uniform(low, high), think_cap),
            }
            for seat in table.seats.all()
            if seat.bot and seat.seat in to_act
        ]

    def send() -> None:
        try:
            with current_app.producer_or_acquire() as producer, producer.batch():
                for task in tasks:
                    current_app.send_task(**task, producer=producer)
        except Exception:  # the broker is down: the sweep (beat) still expires the turns
            logger.exception(
                "could not reach the broker for turns %s",
                ", ".join(f"{table.pk}/{table.turn}" for table, _ in new_turns),
            )

    transaction.on_commit(send)


def wake_lost_bots(*, table_id: int, turn: int, bot_seats: list[int]) -> None:
    """Send the bot task again, at once, for bots whose task the broker lost. The task expires
    if no worker takes it soon: the next sweep sends a fresh one rather than let them pile up
    while the workers are away (the task leaves a turn that moved on alone anyway)."""
    try:
        for seat in bot_seats:
            current_app.send_task(
                BOT_TASK, args=(table_id, turn, seat), expires=bot_lost_after_seconds()
            )
    except Exception:  # the broker is down: the next sweep tries again
        logger.exception("could not reach the broker for table %s turn %s", table_id, turn)


def bot_lost_after_seconds() -> float:
    """How long after its turn opened a bot that has not moved has lost its task: the longest
    think delay (_wake_on_commit) and a margin for a busy worker."""
    return max(settings.GAMES_BOT_THINK_SECONDS) + BOT_TASK_MARGIN_SECONDS
