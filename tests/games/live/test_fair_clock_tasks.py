"""Fair clocks with a real Celery worker on Redis and PostgreSQL: the expiry task draws on the
time banks before it plays the clock's move, a paused table is left alone by it, and a bot
that takes a claimed seat plays there. The tests watch the database, not the API (reading a
table would expire an overdue turn itself; here the worker must)."""

import time

import pytest

from games.engines import get_engine
from games.live import services
from games.models import Seat, Table, TableMove
from tests.factories import UserFactory
from tests.games.live.test_tasks import turn_of, wait_for

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def two_at_korova(**options) -> tuple[Table, list]:
    users = [UserFactory.create() for _ in range(2)]
    table = services.table_create(game="korova", players=2, options=options, bots=[], by=users[0])
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    return table, users


def pick(table: Table, seat: int, user) -> None:
    eng = get_engine("korova")
    table.refresh_from_db()
    assert table.state is not None, "a dealt table"
    card = eng.view(eng.load(table.state), seat)["hand"][0]
    services.table_move(table_id=table.pk, turn=table.turn, move={"card": card}, by=user)


def test_the_clock_plays_only_once_the_banks_are_spent(table_worker):
    table, _ = two_at_korova(turn_seconds=2, time_bank_seconds=2)
    own_clock_out = table.deadline
    wait_for(lambda: Table.objects.get(pk=table.pk).bank_since is not None, timeout=3)
    assert turn_of(table.pk) == 1 and not TableMove.objects.filter(table=table).exists()
    wait_for(lambda: turn_of(table.pk) == 2, timeout=4)
    timed_out = list(TableMove.objects.filter(table=table, turn=1, timeout=True))
    assert len(timed_out) == 2
    for entry in timed_out:  # two seconds of bank after the turn's own two, within a second
        assert 2.0 <= (entry.at - own_clock_out).total_seconds() < 3.0
    assert all(seat.bank_seconds < 0.05 for seat in Seat.objects.filter(table=table))
    second = Table.objects.get(pk=table.pk)
    assert second.bank_since is None and second.deadline > own_clock_out


def test_a_paused_table_is_not_expired_and_goes_on_with_the_time_it_had_left(table_worker):
    table, users = two_at_korova(turn_seconds=3)
    for user in users:
        services.table_pause(table_id=table.pk, by=user)
    paused = Table.objects.get(pk=table.pk)
    assert paused.deadline is None and paused.paused_left.total_seconds() > 2
    time.sleep(4)  # past the deadline the turn had: neither its task nor a read expires it
    assert turn_of(table.pk) == 1 and not TableMove.objects.filter(table=table).exists()
    services.table_unpause(table_id=table.pk, by=users[1])
    resumed_at = Table.objects.get(pk=table.pk).deadline
    wait_for(lambda: turn_of(table.pk) == 2, timeout=5)
    entry = TableMove.objects.filter(table=table, turn=1).latest("at")
    assert entry.timeout and 0 <= (entry.at - resumed_at).total_seconds() < 1.0


def test_a_bot_that_takes_a_claimed_seat_plays_its_turns(table_worker):
    table, users = two_at_korova(turn_seconds=2, claim_after_timeouts=1)
    pick(table, 0, users[0])  # seat 1 has gone to the bar for good
    wait_for(lambda: turn_of(table.pk) == 2, timeout=4)
    assert Seat.objects.get(table=table, seat=1).timeouts_in_a_row == 1
    services.table_claim(table_id=table.pk, seat=1, by=users[0])
    # The bot plays the seat's next turn (turn 2, or turn 3 when turn 2 is seat 0's choice
    # of a row) itself, within its think delay: the clock does not play it.
    wait_for(lambda: TableMove.objects.filter(table=table, seat=1, turn__gte=2).exists(), timeout=6)
    first = TableMove.objects.filter(table=table, seat=1, turn__gte=2).earliest("pk")
    assert not first.timeout
    assert Seat.objects.get(table=table, seat=1).bot
