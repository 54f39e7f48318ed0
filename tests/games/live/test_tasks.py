"""Turn clocks and bots with a real Celery worker on Redis and PostgreSQL (no mocks).

The tests watch the database, not the API: reading a table through the API would expire an
overdue turn itself, and here it is the worker's task (or beat's sweep) that must do it.
"""

import datetime
import re
import time
import uuid

import pytest
import redis
from django.utils import timezone

from config.celery import task_send
from games.engines import get_engine
from games.live import services
from games.live.selectors import clock_health
from games.models import Table, TableMove
from tests.factories import UserFactory

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def humans_at_korova(turn_seconds: int) -> tuple[Table, list]:
    users = [UserFactory.create() for _ in range(4)]
    table = services.table_create(
        game="korova", players=4, options={"turn_seconds": turn_seconds}, bots=[], by=users[0]
    )
    for user in users[1:]:
        services.table_join(table_id=table.pk, by=user)
    table.refresh_from_db()
    return table, users


def wait_for(condition, timeout: float, step: float = 0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"not within {timeout} s")


def turn_of(table_id: int) -> int:
    return Table.objects.values_list("turn", flat=True).get(pk=table_id)


def test_a_turn_expires_within_a_second_of_its_deadline_and_the_game_moves_on(table_worker):
    table, _ = humans_at_korova(turn_seconds=2)
    wait_for(lambda: turn_of(table.pk) == 2, timeout=4)
    lateness = TableMove.objects.filter(table=table).latest("at").at - table.deadline
    assert 0 <= lateness.total_seconds() < 1.0
    assert TableMove.objects.filter(table=table, turn=1, timeout=True).count() == 4
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.deadline > timezone.now()


def test_a_korova_turns_deadline_is_shared_by_every_seat_still_picking(table_worker):
    table, users = humans_at_korova(turn_seconds=2)
    deadline = table.deadline
    eng = get_engine("korova")
    time.sleep(0.8)
    card = eng.view(eng.load(table.state), 1)["hand"][3]
    services.table_move(table_id=table.pk, turn=1, move={"card": card}, by=users[1])
    assert Table.objects.get(pk=table.pk).deadline == deadline  # the pick did not reset it
    wait_for(lambda: turn_of(table.pk) == 2, timeout=4)
    log = list(TableMove.objects.filter(table=table, turn=1).order_by("pk"))
    assert [(entry.seat, entry.timeout) for entry in log] == [
        (1, False), (0, True), (2, True), (3, True)
    ]  # fmt: skip
    timed_out = {entry.at for entry in log if entry.timeout}
    assert len(timed_out) == 1 and 0 <= (timed_out.pop() - deadline).total_seconds() < 1.0


def test_bots_answer_through_the_move_service_after_a_short_think(table_worker):
    user = UserFactory()
    table = services.table_create(
        game="korova", players=4, options={"turn_seconds": 30}, bots=[1, 2, 3], by=user
    )
    wait_for(lambda: TableMove.objects.filter(table=table).count() == 3, timeout=5)
    assert not TableMove.objects.filter(table=table, timeout=True).exists()
    card = get_engine("korova").view(get_engine("korova").load(table.state), 0)["hand"][0]
    services.table_move(table_id=table.pk, turn=1, move={"card": card}, by=user)
    assert turn_of(table.pk) == 2 or Table.objects.get(pk=table.pk).status == "finished"


def test_a_bots_task_for_a_table_deleted_while_it_waited_ends_without_an_error(table_worker):
    user = UserFactory()
    table = services.table_create(
        game="korova", players=4, options={"turn_seconds": 30}, bots=[1, 2, 3], by=user
    )
    wait_for(lambda: TableMove.objects.filter(table=table).count() == 3, timeout=5)
    Table.objects.filter(pk=table.pk).delete()  # as the admin may, with the next task queued
    task_id = f"bots-of-deleted-table-{uuid.uuid4()}"
    task_send("games.play_bots", args=(table.pk, 2, [1, 2, 3]), task_id=task_id)
    outcome = wait_for(
        lambda: re.search(rf"{task_id}\] (succeeded|raised)", table_worker.log.read_text()),
        timeout=10,
    )
    assert outcome[1] == "succeeded", table_worker.log.read_text()[-2000:]


def timeouts_of(table_id: int, turn: int) -> list:
    return list(
        TableMove.objects.filter(table_id=table_id, turn=turn, timeout=True).values_list(
            "at", flat=True
        )
    )


def test_a_worker_killed_mid_game_expires_every_overdue_turn_within_a_sweep_and_a_second_of_its_restart(
    worker_with_beat, settings
):
    settings.GAMES_SWEEP_SECONDS = 1  # the worker's beat sweeps every second (tests/conftest.py)
    bound = datetime.timedelta(seconds=settings.GAMES_SWEEP_SECONDS + 1)
    tables = []
    for _ in range(5):
        table, users = humans_at_korova(turn_seconds=2)
        eng = get_engine("korova")
        for seat, user in enumerate(users):  # the first turn played by the people
            card = eng.view(eng.load(table.state), seat)["hand"][0]
            services.table_move(table_id=table.pk, turn=1, move={"card": card}, by=user)
        tables.append(table.pk)
    assert all(turn_of(table) == 2 for table in tables)
    time.sleep(0.5)  # the worker has taken the turn's expiry tasks (ETA) from the broker
    worker_with_beat.kill()
    latest = max(Table.objects.filter(pk__in=tables).values_list("deadline", flat=True))
    time.sleep(max(0.0, (latest - timezone.now()).total_seconds()) + 1)
    assert all(turn_of(table) == 2 for table in tables)  # nobody expired them meanwhile

    worker_with_beat.start()
    restarted = timezone.now()
    # The killed worker's tasks are lost (unacknowledged for the broker's hour-long visibility
    # timeout): only the restarted worker's sweep can expire these turns.
    wait_for(lambda: all(turn_of(table) >= 3 for table in tables), timeout=15)
    for table in tables:
        assert max(timeouts_of(table, turn=2)) <= restarted + bound
    # and the clocks run on: each next turn expires by its own task, within the bound too
    wait_for(lambda: all(turn_of(table) >= 4 for table in tables), timeout=15)
    for table in tables:
        turn_3_deadline = max(timeouts_of(table, turn=2)) + datetime.timedelta(seconds=2)
        assert max(timeouts_of(table, turn=3)) <= turn_3_deadline + bound
    health = clock_health()
    assert health["overdue_turns"] == 0 and health["ok"], health


def test_the_sweep_sends_again_a_bot_task_the_broker_lost(worker_with_beat):
    """A broker restart loses the bots' tasks (here: the worker is down and the broker's data
    goes); once the worker and beat are back, the sweep wakes the bots well before the clock."""
    worker_with_beat.kill()
    table = services.table_create(
        game="korova", players=4, options={"turn_seconds": 60}, bots=[1, 2, 3], by=UserFactory()
    )
    redis.Redis.from_url(worker_with_beat.broker).flushdb()  # every task sent is lost
    worker_with_beat.start()
    wait_for(lambda: TableMove.objects.filter(table=table).count() == 3, timeout=15, step=0.1)
    assert not TableMove.objects.filter(table=table, timeout=True).exists()
    assert sorted(TableMove.objects.filter(table=table).values_list("seat", flat=True)) == [1, 2, 3]
