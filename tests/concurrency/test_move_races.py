"""A move and the clock race for the same turn, over real HTTP to a live server on PostgreSQL
with a real Celery worker on Redis: exactly one of them takes effect.

Each trial is a Conquian table whose turn is set to expire at the same instant T for every
table; the expiry task is sent to the worker with its ETA at T, and the player's move is
posted from its own thread a few milliseconds either side of T. Whoever takes the table's
row lock first wins: the move (200), or the clock (the move gets 409); the log holds exactly
one entry for the turn and it says which.

The control takes the lock away (a plain read) and holds both inside the code until both have
read the table: then both pass their checks against the same turn, and the turn is played
twice, the lost update that the lock prevents.
"""

import datetime
import random
import threading
import time

import pytest
from celery import current_app
from django.db import connection
from django.utils import timezone

from games.engines import get_engine
from games.live import services
from games.models import Table, TableMove
from tests.concurrency.conftest import post_json
from tests.factories import UserFactory
from tests.games.conftest import token_for

pytestmark = [
    pytest.mark.concurrency,
    pytest.mark.celery,
    pytest.mark.django_db(transaction=True),
]

TRIALS = 24
# A request spends a while in the server before the move service reads the clock (more so on
# a busy machine): the moves leave from well before T to just after it, so that some arrive in
# time and some do not, and the ones close to T race the expiry task for the lock.
EARLIEST_MS, LATEST_MS = -400, 20


def conquian_table() -> tuple[Table, str, dict]:
    """A started Conquian table: its row, the token of the seat to act, and a legal move."""
    first, second = UserFactory.create(), UserFactory.create()
    table = services.table_create(
        game="conquian", players=2, options={"turn_seconds": 3600}, bots=[], by=first
    )
    services.table_join(table_id=table.pk, by=second)
    table.refresh_from_db()
    eng = get_engine("conquian")
    assert table.state is not None, "a started table has a state"
    state = eng.load(table.state)
    seat = eng.to_act(state)[0]
    mover = table.seats.get(seat=seat).user
    return table, token_for(mover), eng.legal_moves(state, seat)[0]


def turn_one_entries(table: Table) -> list[TableMove]:
    return list(TableMove.objects.filter(table=table, turn=1))


def sleep_until(moment: datetime.datetime) -> None:
    time.sleep(max(0.0, (moment - timezone.now()).total_seconds()))


def test_a_move_and_the_clock_racing_for_a_turn_exactly_one_takes_effect(live_server, table_worker):
    trials = [conquian_table() for _ in range(TRIALS)]
    expires_at = timezone.now() + datetime.timedelta(seconds=1.5)
    Table.objects.filter(pk__in=[table.pk for table, _, _ in trials]).update(deadline=expires_at)
    for table, _, _ in trials:
        current_app.send_task("games.expire_turn", args=(table.pk, 1), eta=expires_at)
    answers = {}

    def play(table, token, move, offset_ms):
        sleep_until(expires_at + datetime.timedelta(milliseconds=offset_ms))
        answers[table.pk] = post_json(
            live_server, f"/api/tables/{table.pk}/moves/", token, {"turn": 1, "move": move}
        )

    rng = random.Random(9)
    threads = [
        threading.Thread(target=play, args=(*trial, rng.uniform(EARLIEST_MS, LATEST_MS)))
        for trial in trials
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    time.sleep(1.0)  # let any expiry task that lost the race finish its (empty) work

    won_by_move = won_by_clock = 0
    for table, _, _ in trials:
        status, body = answers[table.pk]
        entries = turn_one_entries(table)
        assert len(entries) == 1, (status, body, entries)
        if status == 200:
            assert not entries[0].timeout
            won_by_move += 1
        else:
            assert status == 409 and body["turn"] == 2 and entries[0].timeout
            won_by_clock += 1
        table.refresh_from_db()
        assert table.turn == 2
    print(f"moves won {won_by_move}, the clock won {won_by_clock} of {TRIALS}")


def test_control_without_the_lock_both_take_effect(live_server, monkeypatch):
    trials = [conquian_table() for _ in range(6)]
    barriers = {table.pk: threading.Barrier(2, timeout=10) for table, _, _ in trials}

    def unlocked_table(table_id):  # the lock removed: a plain read, then wait for the rival
        table = Table.objects.get(pk=table_id)
        barriers[table_id].wait()
        return table

    monkeypatch.setattr(services, "locked_table", unlocked_table)
    expires_at = timezone.now() + datetime.timedelta(seconds=1)
    Table.objects.filter(pk__in=[table.pk for table, _, _ in trials]).update(deadline=expires_at)
    answers = {}

    def move(table, token, legal_move):
        answers[table.pk] = post_json(
            live_server, f"/api/tables/{table.pk}/moves/", token, {"turn": 1, "move": legal_move}
        )

    def clock(table):
        sleep_until(expires_at + datetime.timedelta(milliseconds=5))
        try:
            services.table_turn_expire(table_id=table.pk, turn=1)
        finally:
            connection.close()  # this thread's own database connection

    threads = []
    for table, token, legal_move in trials:
        threads += [
            threading.Thread(target=move, args=(table, token, legal_move)),
            threading.Thread(target=clock, args=(table,)),
        ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    for table, _, _ in trials:
        assert answers[table.pk][0] == 200  # the move was accepted...
        entries = turn_one_entries(table)
        assert sorted(entry.timeout for entry in entries) == [False, True]  # ...and timed out
