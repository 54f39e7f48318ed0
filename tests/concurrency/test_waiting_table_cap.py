"""One user opening many waiting tables at once, over real HTTP to a live server on
PostgreSQL: the cap (GAMES_OPEN_TABLES_PER_USER, three) holds, because table_create counts
the user's waiting tables with their user row locked.

Every request is held at a barrier inside the service until all of them have arrived, so they
reach the lock together. The control takes the lock away and holds them after counting: each
counts none, and every one of them opens a table.
"""

import threading

import pytest
from django.conf import settings

from games.live import services
from games.models import Table
from tests.concurrency.conftest import post_json
from tests.factories import UserFactory
from tests.games.conftest import token_for

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

AT_ONCE = 8


def open_tables_at_once(live_server, token: str) -> list[tuple[int, dict]]:
    """AT_ONCE requests for a waiting Корова table (one bot, two seats open), in parallel."""
    answers = []
    lock = threading.Lock()

    def open_one():
        answer = post_json(
            live_server, "/api/tables/", token, {"game": "korova", "players": 4, "bots": [1]}
        )
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=open_one) for _ in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_many_creations_at_once_open_no_more_waiting_tables_than_the_cap(live_server, monkeypatch):
    user = UserFactory()
    token = token_for(user)
    together = threading.Barrier(AT_ONCE, timeout=20)
    count_with_the_lock = services._waiting_tables_count

    def arrive_together_then_count(creator):
        together.wait()
        return count_with_the_lock(creator)

    monkeypatch.setattr(services, "_waiting_tables_count", arrive_together_then_count)

    answers = open_tables_at_once(live_server, token)

    codes = sorted(status for status, _ in answers)
    cap = settings.GAMES_OPEN_TABLES_PER_USER
    assert codes == [201] * cap + [409] * (AT_ONCE - cap), answers
    assert Table.objects.filter(created_by=user, status=Table.Status.WAITING).count() == cap


def test_control_without_the_lock_every_creation_passes_the_cap(live_server, monkeypatch):
    user = UserFactory()
    token = token_for(user)
    counted = threading.Barrier(AT_ONCE, timeout=20)

    def count_without_the_lock(creator):
        waiting = Table.objects.filter(
            created_by=creator, fixture__isnull=True, status=Table.Status.WAITING
        ).count()
        counted.wait()  # every request has counted before any of them writes
        return waiting

    monkeypatch.setattr(services, "_waiting_tables_count", count_without_the_lock)

    answers = open_tables_at_once(live_server, token)

    assert sorted(status for status, _ in answers) == [201] * AT_ONCE
    assert Table.objects.filter(created_by=user).count() == AT_ONCE
