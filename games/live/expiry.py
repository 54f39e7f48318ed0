"""The turn clock's writes: expire the overdue turn of a table locked by its caller, expire a
due turn with the others due by then (the expiry task's), sweep overdue turns whose task was
lost, and wake bots whose task was lost (docs/live-tables.md).

Each batch of turns is one transaction that locks the tables it expires first; of the tables
that fall due together, one that another transaction holds (a move, another batch) is skipped,
not waited for: whoever holds it deals with its turn, or the next sweep does.
"""

import datetime
import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engines import get_engine
from games.models import ClockSweep, Table

from . import turns
from .fixture_tables import fixture_table_hold_if_deserted, table_finished_for_fixture
from .push import table_changed_on_commit
from .table_setup import locked_table

logger = logging.getLogger(__name__)

# Turns one transaction expires at most: enough that a burst costs few commits, few enough
# that the first of them is not kept from the players for long.
EXPIRY_BATCH = 20


def due_turns_expire(*, table_id: int, turn: int) -> bool:
    """The expiry task's write: table_turn_expire, and in the same transaction the turns of
    other tables that are due by now and that no other transaction holds, up to EXPIRY_BATCH
    in all. Returns whether it expired `turn`.

    Turns that fall due together (a burst) then cost a few transactions instead of one each:
    the first tasks to run expire them, and the later tasks find their turn gone with the
    unlocked read they make first (games.live.tasks.expire_turn).
    """
    with transaction.atomic():
        try:
            table = locked_table(table_id)
        except Table.DoesNotExist:
            return False
        if table.turn != turn or not turns.is_overdue(table, timezone.now()):
            return False
        others = _locked_due_tables(limit=EXPIRY_BATCH - 1, other_than=table_id)
        expired = _expire_each(tables=[table, *others])
    return table_id in expired


def overdue_turns_sweep() -> int:
    """Expire every overdue turn (its task was lost: a worker crash, a broker restart), in
    transactions of up to EXPIRY_BATCH tables, then record that the sweep ran (the health
    endpoint reads it). Returns how many turns it expired."""
    expired = 0
    while True:
        with transaction.atomic():
            batch = _expire_each(tables=_locked_due_tables(limit=EXPIRY_BATCH))
        expired += len(batch)
        if len(batch) < EXPIRY_BATCH:
            break
    ClockSweep.objects.update_or_create(pk=ClockSweep.ONLY, defaults={"ran_at": timezone.now()})
    return expired


def _locked_due_tables(*, limit: int, other_than: int | None = None) -> list[Table]:
    """Up to `limit` tables whose turn is due, oldest deadline first, locked until the
    transaction ends; a table that another transaction holds (a move, another batch) is
    skipped, not waited for: whoever holds it deals with its turn, or the next sweep does."""
    due = (
        Table.objects.select_for_update(skip_locked=True)
        .prefetch_related("seats")
        .filter(status=Table.Status.PLAYING, deadline__lte=timezone.now())
        .exclude(pk__in=[] if other_than is None else [other_than])
        .order_by("deadline")
    )
    tables = list(due[:limit])
    for table in tables:
        table_changed_on_commit(table)
    return tables


def _expire_each(*, tables: list[Table]) -> set[int]:
    """Expire the overdue turn of each locked table: their log entries in one INSERT, the
    tables in one UPDATE. A table that cannot be expired (logged) leaves the others' clocks
    running. A fixture's table is saved under a savepoint of its own, with the fixture's
    result when it finishes or its hold when a seat is away (both read the saved log): should
    that fail, nothing of it stays and the next sweep tries again. Returns the ids it expired."""
    batch, fixture_tables, expired = turns.Writes(), [], set()
    for table in tables:
        turn = table.turn
        try:
            writes = turns.time_out(table=table, state=_state_of(table), now=timezone.now())
        except Exception:
            logger.exception("could not expire table %s turn %s", table.pk, turn)
            continue
        if table.fixture_id is not None:
            fixture_tables.append((table, turn, writes))
        else:
            batch.extend(writes)
            expired.add(table.pk)
    batch.save()
    for table, turn, writes in fixture_tables:
        try:
            with transaction.atomic():
                writes.save()
                table_finished_for_fixture(table=table)
                fixture_table_hold_if_deserted(table=table)
        except Exception:
            logger.exception("could not expire table %s turn %s", table.pk, turn)
            continue
        expired.add(table.pk)
    return expired


def overdue_turn_expire(*, table: Table, now: datetime.datetime) -> None:
    """Time out the overdue turn of a table its caller has locked, with what follows at a
    fixture's table: its result when the game ends, its hold when a seat is away."""
    turns.expire(table=table, state=_state_of(table), now=now)
    table_finished_for_fixture(table=table)
    fixture_table_hold_if_deserted(table=table)


def _state_of(table: Table) -> Any:
    """The engine's state of a table whose game is on (a playing table has been dealt)."""
    if table.state is None:
        raise ValueError(f"table {table.pk} is playing but has not been dealt")
    return get_engine(table.game).load(table.state)


def stalled_bots_wake() -> int:
    """Send again the task of every bot still to act in an open turn that opened longer ago
    than a bot thinks (its task was lost: a broker restart, a worker crash). Returns how many
    bot seats it woke. A bot task for a turn that moved on meanwhile does nothing."""
    now = timezone.now()
    lost_after = datetime.timedelta(seconds=turns.bot_lost_after_seconds())
    playing_with_bots = Table.objects.filter(
        status=Table.Status.PLAYING, deadline__gt=now, seats__bot=True
    ).distinct()
    # Runs every sweep: decide on the clock alone first, and load the game only for tables
    # whose turn is old enough to have lost a bot's task.
    stalled = [
        pk
        for pk, deadline, options in playing_with_bots.values_list("pk", "deadline", "options")
        if deadline is not None
        and deadline - datetime.timedelta(seconds=options["turn_seconds"]) <= now - lost_after
    ]
    woken = 0
    for table in Table.objects.filter(pk__in=stalled).prefetch_related("seats"):
        assert table.state is not None, "a playing table has been dealt"
        eng = get_engine(table.game)
        to_act = eng.to_act(eng.load(table.state))
        bot_seats = [seat.seat for seat in table.seats.all() if seat.bot and seat.seat in to_act]
        if bot_seats:
            turns.wake_lost_bots(table_id=table.pk, turn=table.turn, bot_seats=bot_seats)
            woken += len(bot_seats)
    return woken
