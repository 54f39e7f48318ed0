"""The compiled reads of every move and drawing (games.live.table_reads) give what the ORM's
querysets give: the same table, its seats as a prefetch leaves them (no query more to read
them), the last moves in order; a table that is gone is said so. They run on SQLite as well
(make test's second run), whose datetimes and JSON come back as text."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.live.table_reads import last_moves, table_with_seats
from games.models import Table
from tests.games.live.test_push import korova_for_two, play_a_card

pytestmark = pytest.mark.django_db


def a_korova_table_with_moves() -> Table:
    table, ada, bea = korova_for_two()
    play_a_card(table, ada, 0)
    table.refresh_from_db()
    play_a_card(table, bea, 1)
    return Table.objects.get(pk=table.pk)


FIELDS = ("id", "game", "status", "turn", "deadline", "state", "seed", "cut", "created_at")


@pytest.mark.parametrize("lock", [False, True], ids=["read", "locked"])
def test_a_table_and_its_seats_read_compiled_are_what_the_orm_reads(lock):
    expected = a_korova_table_with_moves()
    with transaction.atomic():
        table = table_with_seats(expected.pk, lock=lock)
        with CaptureQueriesContext(connection) as queries:
            seats = list(table.seats.all())
            tables = {seat.table.pk for seat in seats}
    assert {name: getattr(table, name) for name in FIELDS} == {
        name: getattr(expected, name) for name in FIELDS
    }
    assert [(seat.seat, seat.user_id, seat.name) for seat in seats] == [
        (seat.seat, seat.user_id, seat.name) for seat in expected.seats.all()
    ]
    assert tables == {expected.pk} and len(queries) == 0  # seats and their table: no query


def test_the_last_moves_are_the_logs_tail_in_order():
    table = a_korova_table_with_moves()
    log = list(table.moves.order_by("pk"))
    assert len(log) >= 2
    assert [(move.pk, move.move, move.at) for move in last_moves(table, count=1)] == [
        (log[-1].pk, log[-1].move, log[-1].at)
    ]
    assert [move.pk for move in last_moves(table, count=50)] == [move.pk for move in log]


@pytest.mark.parametrize("table_id", [987654, 2**63, -(2**63) - 1], ids=["gone", "past", "below"])
def test_a_table_that_is_gone_or_cannot_exist_is_not_read(table_id):
    """An id past the database's integers (an API's path may carry one) is no table either,
    as the ORM's lookups say, rather than SQLite's OverflowError."""
    with pytest.raises(Table.DoesNotExist):
        table_with_seats(table_id)
    assert last_moves(Table(pk=table_id), count=6) == []
