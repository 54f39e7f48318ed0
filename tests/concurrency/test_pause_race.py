"""The last two players asking for a pause at the same moment, over real HTTP to a live server
on PostgreSQL: the table pauses, because each ask reads the others' asks under the table's
row lock (games.live.fair_clocks.pause_ask, under games.live.services.table_pause).

Both requests are held at a barrier just before the lock, so they reach it together. The
control reads the table without the lock and holds them after reading: each sees the other's
seat not asking yet, both asks are stored, and the clock never stops.
"""

import threading

import pytest

from games.live import services
from games.models import Seat, Table
from tests.concurrency.conftest import post_json
from tests.factories import UserFactory
from tests.games.conftest import token_for

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]


def korova_for_two() -> tuple[Table, list]:
    users = [UserFactory.create() for _ in range(2)]
    table = services.table_create(
        game="korova", players=2, options={"turn_seconds": 600}, bots=[], by=users[0]
    )
    services.table_join(table_id=table.pk, by=users[1])
    return table, users


def ask_together(live_server, table: Table, users) -> list[tuple[int, dict]]:
    tokens = [token_for(user) for user in users]
    answers, lock = [], threading.Lock()

    def ask(token: str) -> None:
        answer = post_json(live_server, f"/api/tables/{table.pk}/pause/", token, {})
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=ask, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_two_last_asks_at_once_pause_the_table(live_server, monkeypatch):
    table, users = korova_for_two()
    together = threading.Barrier(2, timeout=20)
    lock_the_table = services.locked_table

    def arrive_together_then_lock(table_id: int) -> Table:
        together.wait()
        return lock_the_table(table_id)

    monkeypatch.setattr(services, "locked_table", arrive_together_then_lock)

    answers = ask_together(live_server, table, users)

    assert sorted(status for status, _ in answers) == [200, 200], answers
    table.refresh_from_db()
    assert table.paused and table.deadline is None
    assert Seat.objects.filter(table=table, pause_asked=True).count() == 2


def test_control_without_the_lock_both_ask_and_the_clock_runs_on(live_server, monkeypatch):
    table, users = korova_for_two()
    read = threading.Barrier(2, timeout=20)

    def read_without_the_lock(table_id: int) -> Table:
        unlocked = Table.objects.prefetch_related("seats").get(pk=table_id)
        list(unlocked.seats.all())
        read.wait()  # both have read the seats before either writes its ask
        return unlocked

    monkeypatch.setattr(services, "locked_table", read_without_the_lock)

    answers = ask_together(live_server, table, users)

    assert sorted(status for status, _ in answers) == [200, 200], answers
    table.refresh_from_db()
    assert Seat.objects.filter(table=table, pause_asked=True).count() == 2
    assert not table.paused and table.deadline is not None  # everyone asked, yet no pause
