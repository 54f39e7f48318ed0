"""The turn mechanics of a locked table, shared by every write in games.live.services and
games.live.expiry.

Callers hold the table row's lock (games.live.table_setup.locked_table) and pass the loaded
engine state in; these functions apply moves and time-outs, write the log, keep the turn and its
deadline by the turn rule (docs/live-tables.md), and ask the broker, once the transaction has
committed, to wake the expiry task and the bots. Nothing here commits or locks on its own.
"""

import datetime
import logging
import random
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F

from config.celery import app as celery_app
from config.celery import task_send
from games.engines import Engine, Move, get_engine
from games.models import Seat, Table, TableMove

from .table_setup import without_clocks

logger = logging.getLogger(__name__)

EXPIRE_TASK = "games.expire_turn"
BOT_TASK = "games.play_bots"
BOT_TASK_MARGIN_SECONDS = 2.0
TABLE_FIELDS = ["state", "status", "turn", "deadline", "finished_at", "bank_since"]
# Less than this left of a seat's time bank is none: a timer's lateness would only draw it
# out in slivers.
BANK_EMPTY_SECONDS = 0.05


def engine_options(table: Table) -> dict[str, Any]:
    """The table's options without its clocks, which are the table's and not the engine's."""
    return without_clocks(table.options)


def open_first_turn(*, table: Table, now: datetime.datetime) -> None:
    """Deal: the engine's new game from the table's seed and options, turn 1 and its clock."""
    eng = get_engine(table.game)
    state = eng.new_game(players=table.players, seed=table.seed, options=engine_options(table))
    table.state = eng.dump(state)
    table.status = Table.Status.PLAYING
    table.turn = 1
    table.deadline = now + datetime.timedelta(seconds=table.turn_seconds)
    table.save(update_fields=["state", "status", "turn", "deadline"])
    # Every seat's time bank is full at the deal (the seats are only now all taken).
    table.seats.update(bank_seconds=table.time_bank_seconds)
    for seat in table.seats.all():
        seat.bank_seconds = table.time_bank_seconds
    _wake_on_commit(new_turns=[(table, eng.to_act(state))])


def clock_restart(*, table: Table, now: datetime.datetime, seconds: float | None = None) -> None:
    """Give the open turn a clock from `now`: a fresh turn's (a held fixture table going on),
    or the `seconds` it had left (a paused table going on). The seats to act, bots included,
    are woken as for a new turn."""
    eng = get_engine(table.game)
    left = table.turn_seconds if seconds is None else seconds
    table.deadline = now + datetime.timedelta(seconds=left)
    if seconds is None:
        table.bank_since = None  # a fresh turn's clock runs before any bank is drawn on
    table.save(update_fields=["deadline", "bank_since"])
    assert table.state is not None, "a held or paused table has been dealt"
    _wake_on_commit(new_turns=[(table, eng.to_act(eng.load(table.state)))])


def seats_to_act(table: Table) -> list[int]:
    """The seats to act in the open turn of a dealt table."""
    assert table.state is not None, "a dealt table"
    eng = get_engine(table.game)
    return list(eng.to_act(eng.load(table.state)))


def is_overdue(table: Table, now: datetime.datetime) -> bool:
    return (
        table.status == Table.Status.PLAYING
        and table.deadline is not None
        and table.deadline <= now
    )


def play(
    *, table: Table, state: Any, seat: int, move: Move, now: datetime.datetime,
    writes: "Writes | None" = None,
) -> Any:  # fmt: skip
    """Apply one seat's move (IllegalMove from the engine leaves everything as it was). The
    writes are saved at once, or added to `writes` for the caller to save with others' (the
    bots of a table, who move together)."""
    eng = get_engine(table.game)
    new_state = eng.apply(state, seat, move)
    turn_before = table.turn
    own_writes = writes is None
    writes = Writes() if writes is None else writes
    if table.bank_since is not None:  # the mover drew on their bank until now
        _charge_banks(table=table, seats=[seat], now=now, writes=writes)
    _record(table=table, eng=eng, before=state, after=new_state, seat=seat, move=move, now=now,
            writes=writes)  # fmt: skip
    _save(table=table, eng=eng, state=new_state, turn_before=turn_before, writes=writes)
    if own_writes:
        writes.save()
    return new_state


def expire(*, table: Table, state: Any, now: datetime.datetime) -> None:
    """Time out every seat still to act in the current turn (the turn is overdue)."""
    time_out(table=table, state=state, now=now).save()


def time_out(*, table: Table, state: Any, now: datetime.datetime) -> "Writes":
    """expire's work without its writes, which the caller saves (with other tables' in a
    batch). Whatever the engine raises comes before anything is to be written.

    A seat with time left in its bank is not timed out: it draws on the bank, and the turn's
    deadline moves to when the smallest bank of the seats still to act runs out (the turn
    stays open; at that deadline the banks are charged again)."""
    eng = get_engine(table.game)
    turn_before = table.turn
    writes = Writes()
    banked = _draw_on_banks(table=table, to_act=eng.to_act(state), now=now, writes=writes)
    for seat in eng.to_act(state):
        if seat in banked:
            continue
        if table.turn != turn_before or eng.is_over(state) or seat not in eng.to_act(state):
            break  # the turn closed: seats of the next turn get their own clock
        move = eng.timeout_move(state, seat)
        new_state = eng.timeout(state, seat)
        _record(
            table=table, eng=eng, before=state, after=new_state, seat=seat, move=move, now=now,
            timeout=True, writes=writes,
        )  # fmt: skip
        state = new_state
    still_banked = [seat for seat in banked if seat in eng.to_act(state)]
    if table.turn == turn_before and table.status == Table.Status.PLAYING and still_banked:
        rows = _seat_rows(table)
        smallest = min(rows[seat].bank_seconds for seat in still_banked)
        table.bank_since = now
        table.deadline = now + datetime.timedelta(seconds=smallest)
        writes.extended.append(table)
    _save(table=table, eng=eng, state=state, turn_before=turn_before, writes=writes)
    return writes


def _seat_rows(table: Table) -> dict[int, Seat]:
    """The table's seats by number (prefetched with the table's lock)."""
    return {row.seat: row for row in table.seats.all()}


def _charge_banks(
    *, table: Table, seats: list[int], now: datetime.datetime, writes: "Writes"
) -> None:
    """Take the time since the banks were last charged (`bank_since`, or the deadline when
    the turn's own clock has just run out) from the banks of `seats`."""
    since = table.bank_since or table.deadline
    used = 0.0 if since is None else max(0.0, (now - since).total_seconds())
    rows = _seat_rows(table)
    for seat in seats:
        row = rows[seat]
        if row.bank_seconds > 0:
            row.bank_seconds = max(0.0, row.bank_seconds - used)
            writes.banks.append(row)


def _draw_on_banks(
    *, table: Table, to_act: list[int], now: datetime.datetime, writes: "Writes"
) -> set[int]:
    """The turn ran out at its deadline: charge the banks of the seats to act, and return
    those with time still in their bank (the others are timed out)."""
    if table.time_bank_seconds <= 0:
        return set()
    _charge_banks(table=table, seats=to_act, now=now, writes=writes)
    rows = _seat_rows(table)
    return {seat for seat in to_act if rows[seat].bank_seconds >= BANK_EMPTY_SECONDS}


class Writes:
    """What moves and time-outs write, held until save(): the log entries in one INSERT
    however many tables there are (a batch of expiries), an UPDATE per table (cheaper in
    Python than bulk_update's CASE expressions, measured), and after commit the wake-ups of
    the turns they opened."""

    def __init__(self) -> None:
        self.moves: list[TableMove] = []
        self.tables: list[Table] = []
        self.new_turns: list[tuple[Table, list[int]]] = []  # with the seats to act in each
        self.extended: list[Table] = []  # open turns whose deadline a time bank moved
        self.banks: list[Seat] = []  # seats whose bank was drawn on (few: slow turns only)
        self.away: list[int] = []  # seats (pk) the clock just played for
        self.back: list[int] = []  # seats (pk) that moved after the clock played for them

    def extend(self, other: "Writes") -> None:
        self.moves += other.moves
        self.tables += other.tables
        self.new_turns += other.new_turns
        self.extended += other.extended
        self.banks += other.banks
        self.away += other.away
        self.back += other.back

    def save(self) -> None:
        TableMove.objects.bulk_create(self.moves)
        for table in self.tables:
            table.save(update_fields=TABLE_FIELDS)
        # One UPDATE for all the seats a batch timed out (the rows are counted in memory too).
        if self.away:
            Seat.objects.filter(pk__in=self.away).update(
                timeouts_in_a_row=F("timeouts_in_a_row") + 1
            )
        if self.back:
            Seat.objects.filter(pk__in=self.back).update(timeouts_in_a_row=0)
        for seat in self.banks:
            seat.save(update_fields=["bank_seconds"])
        if self.new_turns or self.extended:
            _wake_on_commit(new_turns=self.new_turns, extended=self.extended)


def _record(
    *,
    table: Table,
    eng: Engine[Any, Any],
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
    _count_away(table=table, seat=seat, timeout=timeout, writes=writes)
    if eng.is_over(after):
        table.status = Table.Status.FINISHED
        table.deadline = None
        table.bank_since = None
        table.finished_at = now
        return
    if eng.simultaneous:
        acting_before, acting_after = set(eng.to_act(before)), set(eng.to_act(after))
        if acting_after and acting_after < acting_before:
            return
    table.turn += 1
    table.deadline = now + datetime.timedelta(seconds=table.turn_seconds)
    table.bank_since = None


def _count_away(*, table: Table, seat: int, timeout: bool, writes: "Writes") -> None:
    """Count the turns in a row the clock played for `seat` (claims and holds read it): one
    more for a time-out, back to 0 with a move of its own."""
    row = _seat_rows(table)[seat]
    if timeout:
        row.timeouts_in_a_row += 1
        writes.away.append(row.pk)
    elif row.timeouts_in_a_row:
        row.timeouts_in_a_row = 0
        writes.back.append(row.pk)


def _save(
    *, table: Table, eng: Engine[Any, Any], state: Any, turn_before: int, writes: Writes
) -> None:
    table.state = eng.dump(state)
    if table not in writes.tables:  # several moves at one table: one UPDATE
        writes.tables.append(table)
    if table.status == Table.Status.PLAYING and table.turn != turn_before:
        writes.new_turns.append((table, eng.to_act(state)))


def _wake_on_commit(
    *, new_turns: list[tuple[Table, list[int]]], extended: list[Table] | None = None
) -> None:
    """After commit: for each new turn (a table and the seats to act in it) the expiry task at
    the deadline, keyed by (table, turn), and the task of the bots to act, after one think
    delay for them all; for each turn a time bank `extended`, the expiry task at its new
    deadline. One producer sends them all
    in one batch (a pipeline on Redis): a batch of expiries opens many turns at once. If the
    broker is away the sweep still expires the turns."""
    tasks: list[dict[str, Any]] = [
        {
            "name": EXPIRE_TASK,
            "args": (table.pk, table.turn),
            "eta": table.deadline,
            "task_id": f"table-{table.pk}-turn-{table.turn}-bank-{table.deadline:%H%M%S%f}",
        }
        for table in extended or []
    ]
    for table, to_act in new_turns:
        tasks.append(
            {
                "name": EXPIRE_TASK,
                "args": (table.pk, table.turn),
                "eta": table.deadline,
                "task_id": f"table-{table.pk}-turn-{table.turn}-expire",
            }
        )
        bot_seats = [seat.seat for seat in table.seats.all() if seat.bot and seat.seat in to_act]
        if bot_seats:  # the bots to act think together: one task, one change of the table
            tasks.append(
                {
                    "name": BOT_TASK,
                    "args": (table.pk, table.turn, bot_seats),
                    "countdown": bot_think_seconds(table),
                }
            )

    def send() -> None:
        try:
            with celery_app.producer_or_acquire() as producer, producer.batch():
                for task in tasks:
                    task_send(**task, producer=producer)
        except Exception:  # the broker is down: the sweep (beat) still expires the turns
            logger.exception(
                "could not reach the broker for turns %s",
                ", ".join(
                    f"{table.pk}/{table.turn}"
                    for table in [table for table, _ in new_turns] + (extended or [])
                ),
            )

    transaction.on_commit(send)


def wake_bot_on_commit(*, table: Table, seat: int) -> None:
    """After commit, the task of a bot that has just taken `seat` (a claim) and is to act in
    the open turn, after a think delay as for a new turn."""
    countdown = bot_think_seconds(table)
    args = (table.pk, table.turn, [seat])

    def send() -> None:
        try:
            task_send(BOT_TASK, args=args, countdown=countdown)
        except Exception:  # the broker is down: the sweep wakes stalled bots
            logger.exception("could not reach the broker for table %s turn %s", *args[:2])

    transaction.on_commit(send)


def wake_lost_bots(*, table_id: int, turn: int, bot_seats: list[int]) -> None:
    """Send the bots' task again, at once, for bots whose task the broker lost. The task expires
    if no worker takes it soon: the next sweep sends a fresh one rather than let them pile up
    while the workers are away (the task leaves a turn that moved on alone anyway)."""
    try:
        task_send(BOT_TASK, args=(table_id, turn, bot_seats), expires=bot_lost_after_seconds())
    except Exception:  # the broker is down: the next sweep tries again
        logger.exception("could not reach the broker for table %s turn %s", table_id, turn)


def bot_think_seconds(table: Table) -> float:
    """A bot's think delay (GAMES_BOT_THINK_SECONDS), at most half the table's clock, so that
    it answers well inside the clock however short that is."""
    low, high = settings.GAMES_BOT_THINK_SECONDS
    return min(random.uniform(low, high), max(0.0, table.turn_seconds / 2))


def bot_lost_after_seconds() -> float:
    """How long after its turn opened a bot that has not moved has lost its task: the longest
    think delay (_wake_on_commit) and a margin for a busy worker."""
    return max(settings.GAMES_BOT_THINK_SECONDS) + BOT_TASK_MARGIN_SECONDS
