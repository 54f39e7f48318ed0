"""Celery tasks of live tables: each wakes up and calls a service; the database decides.

The expiry task is sent with an ETA at its turn's deadline (games.live.turns); the bot task after a
short think delay; the sweep runs from beat (config/celery.py) for turns and bots whose task
was lost.
"""

import random

from celery import shared_task
from django.utils import timezone

from games.bots import bot_move
from games.engines import get_engine
from games.models import Table

from .exceptions import NotYourTurn, TurnConflict
from .expiry import due_turns_expire, overdue_turns_sweep, stalled_bots_wake
from .selectors import open_turn_deadline
from .services import table_move


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


@shared_task(name="games.play_bot", ignore_result=True)
def play_bot(table_id: int, turn: int, seat: int) -> None:
    """A practice bot's move for `seat` in `turn`, through the same move service as people.
    A turn that moved on meanwhile (the clock, the game's end) is simply left alone."""
    table = Table.objects.filter(pk=table_id, turn=turn, status=Table.Status.PLAYING).first()
    if table is None:
        return
    eng = get_engine(table.game)
    assert table.state is not None, "a playing table has been dealt"
    state = eng.load(table.state)
    if seat not in eng.to_act(state):
        return
    move = bot_move(game=table.game, state=state, seat=seat, rng=random.Random())
    try:
        table_move(table_id=table_id, turn=turn, move=move, by=None, bot_seat=seat)
    except (TurnConflict, NotYourTurn):
        return
