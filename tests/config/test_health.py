"""GET /health/: when the turn clocks' sweep last ran and how many turns are overdue beyond
its bound; 503 when either says the clocks have stopped."""

import datetime

import pytest
from django.utils import timezone

from games.live import services
from games.models import ClockSweep, Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def sweep_ran(seconds_ago: float) -> None:
    ClockSweep.objects.update_or_create(
        pk=ClockSweep.ONLY,
        defaults={"ran_at": timezone.now() - datetime.timedelta(seconds=seconds_ago)},
    )


def table_overdue_by(seconds: float) -> Table:
    table = services.table_create(
        game="korova", players=4, options={}, bots=[1, 2, 3], by=UserFactory.create()
    )
    deadline = timezone.now() - datetime.timedelta(seconds=seconds)
    Table.objects.filter(pk=table.pk).update(deadline=deadline)
    return table


def test_the_clocks_are_healthy_when_the_sweep_ran_just_now_and_no_turn_is_overdue(
    client, settings
):
    settings.GAMES_SWEEP_SECONDS = 2
    table_overdue_by(0.5)  # its task is on the way: within the sweep interval and a second
    sweep_ran(seconds_ago=1)
    answer = client.get("/health/")
    assert answer.status_code == 200
    health = answer.json()
    assert health == {
        "sweep_last_ran": health["sweep_last_ran"],
        "seconds_since_sweep": health["seconds_since_sweep"],
        "overdue_turns": 0,
        "ok": True,
    }
    assert health["sweep_last_ran"].endswith("Z") and health["seconds_since_sweep"] >= 1
    assert "no-cache" in answer["Cache-Control"]


def test_a_sweep_that_never_ran_is_unhealthy(client):
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.json() == {
        "sweep_last_ran": None, "seconds_since_sweep": None, "overdue_turns": 0, "ok": False,
    }  # fmt: skip


def test_a_sweep_missed_for_five_intervals_is_unhealthy(client, settings):
    settings.GAMES_SWEEP_SECONDS = 2
    sweep_ran(seconds_ago=11)
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.json()["ok"] is False and answer.json()["overdue_turns"] == 0


def test_turns_overdue_beyond_the_sweep_interval_and_a_second_are_counted_and_unhealthy(
    client, settings
):
    settings.GAMES_SWEEP_SECONDS = 2
    table_overdue_by(3.5)
    table_overdue_by(60)
    sweep_ran(seconds_ago=0)
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.json()["overdue_turns"] == 2 and answer.json()["ok"] is False


def test_health_is_two_small_queries_whatever_the_tables(client, django_assert_num_queries):
    for _ in range(3):
        table_overdue_by(60)
    sweep_ran(seconds_ago=0)
    with django_assert_num_queries(2) as queries:
        client.get("/health/")
    assert not any("state" in query["sql"] for query in queries.captured_queries)
