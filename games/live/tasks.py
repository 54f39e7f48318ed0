"""Celery tasks of live tables: each wakes up and calls a service; the database decides.

The expiry task is sent with an ETA at its turn's deadline (games.live.turns); the bots' task
after a short think delay; the sweep runs from beat (config/celery.py) for turns and bots
whose task was lost.
"""

import contextlib
import random

from celery import shared_task
from django.utils import timezone

from games.models import Table

from .expiry import due_turns_expire, overdue_turns_sweep, stalled_bots_wake
from .selectors import open_turn_deadline
from .services import table_bots_move


@shared_task(name="games.expire_turn", ignore_result=True)
def expire_turn(table_id: int, turn: int) -> None:
    """Expire (table, turn), with the other turns due by now (a burst is expired in batches),
    if it is still open and due; if the broker woke us early, wait. The read comes first and
    takes no lock: most tasks of a burst find their turn already expired by a batch."""
    deadline = open_turn_deadline(table_id=table_id, turn=turn)
    if deadline is None:
        return
    if deadline > timezone.now():
        expire_turn.apply_async(args=(table_id, turn), eta=deadline)
        return
    due_turns_expire(table_id=table_id, turn=turn)


@shared_task(name="games.sweep_overdue_turns", ignore_result=True)
def sweep_overdue_turns() -> int:
    """What the broker lost: expire overdue turns, then wake bots whose task never came."""
    expired = overdue_turns_sweep()
    stalled_bots_wake()
    return expired


@shared_task(name="games.play_bots", ignore_result=True)
def play_bots(table_id: int, turn: int, seats: list[int]) -> None:
    """The practice bots in `seats` play their moves of `turn` together (table_bots_move); a
    turn that moved on meanwhile (the clock, the game's end) is simply left alone, and so is a
    table deleted while the task waited (the admin may delete one), as the expiry task does."""
    with contextlib.suppress(Table.DoesNotExist):
        table_bots_move(table_id=table_id, turn=turn, seats=seats, rng=random.Random())
