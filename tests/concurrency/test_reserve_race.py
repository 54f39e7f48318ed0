"""Two league admins register the same player as a reserve of two teams at the same moment,
each on its own database connection, on PostgreSQL: under the season's one_team rule exactly
one registration stands, because reserve_register locks the season row before its check.

The control takes the lock away (a plain read): both checks run before either registration is
written, both pass, and the player ends up in two teams, the race the lock prevents.
"""

import threading
import time

import pytest
from django.db import connection

from config.errors import Invalid
from leagues import squad_services
from leagues.models import Eligibility, Reserve, Season
from tests.factories import PlayerFactory
from tests.scoring.squads import make_squads

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

CHECK_SECONDS = 0.5  # how long each check takes: long enough for the other to arrive


@pytest.fixture
def slow_check(monkeypatch):
    real = squad_services.reserve_register_check

    def check(**kwargs):
        real(**kwargs)
        time.sleep(CHECK_SECONDS)  # the check passed; the other registration arrives now

    monkeypatch.setattr(squad_services, "reserve_register_check", check)


def register_both(squads, player) -> list:
    outcomes: list = []
    start = threading.Barrier(2)

    def register(entry):
        try:
            start.wait()
            outcomes.append(
                squad_services.reserve_register(entry_id=entry.pk, player_id=player.pk, by=None)
            )
        except Invalid as refused:
            outcomes.append(refused)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(entry,)) for entry in squads.entries]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_one_of_two_simultaneous_registrations_stands(slow_check):
    squads = make_squads(eligibility=Eligibility.ONE_TEAM)
    player = PlayerFactory()

    outcomes = register_both(squads, player)

    assert Reserve.objects.filter(player=player).count() == 1
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["Invalid", "Reserve"]


def test_control_without_the_season_lock_both_registrations_pass(slow_check, monkeypatch):
    monkeypatch.setattr(
        squad_services, "season_lock", lambda season_id: Season.objects.get(pk=season_id)
    )
    squads = make_squads(eligibility=Eligibility.ONE_TEAM)
    player = PlayerFactory()

    register_both(squads, player)

    assert Reserve.objects.filter(player=player).count() == 2
