"""Two league admins roll the same season over at the same moment, each on its own database
connection (a thread each), on PostgreSQL: exactly one next season is created.

scoring.season_rules.services.season_rollover locks the season row before it reads whether the
season was rolled over already; the second admin waits, then finds `next_season` set and is
refused (Conflict). The control takes the lock away (a plain read) and holds both admins,
after that check, until both have made it: both find the season not rolled over and both
create a season — the duplicate the lock prevents.
"""

import datetime
import threading

import pytest
from django.db import connection

from config.errors import Conflict
from leagues.models import Season
from scoring.season_rules import services
from tests.factories import UserFactory
from tests.scoring.division_builders import two_divisions

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

STARTS_ON = datetime.date(2027, 9, 1)
HOLD_SECONDS = 0.5


def roll_over_together(season, admins) -> list[object]:
    """Both admins call season_rollover at once; each outcome is the new season or the
    refusal."""
    start = threading.Barrier(len(admins))
    outcomes: list[object] = [None] * len(admins)

    def admin_rolls_over(index, admin):
        try:
            start.wait(timeout=10)
            outcomes[index] = services.season_rollover(
                season_id=season.pk,
                name=f"Next by {admin.username}",
                slug=f"next-{admin.username}",
                starts_on=STARTS_ON,
                by=admin,
            )
        except Conflict as refusal:
            outcomes[index] = refusal
        finally:
            connection.close()

    threads = [
        threading.Thread(target=admin_rolls_over, args=(index, admin))
        for index, admin in enumerate(admins)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def admins():
    return [UserFactory(username=name, is_staff=True, is_superuser=True) for name in ("ann", "bo")]


def test_two_rollovers_at_once_create_one_season(monkeypatch):
    world = two_divisions()
    plan = services.season_rollover_plan

    def slow_plan(**kwargs):
        # Hold the lock while planning, so that the other admin's request is in flight.
        found = plan(**kwargs)
        threading.Event().wait(HOLD_SECONDS)
        return found

    monkeypatch.setattr(services, "season_rollover_plan", slow_plan)
    outcomes = roll_over_together(world.season, admins())
    created = [outcome for outcome in outcomes if isinstance(outcome, Season)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, Conflict)]
    assert len(created) == 1 and len(refused) == 1, outcomes
    assert "already rolled over" in refused[0].detail
    assert Season.objects.filter(league=world.season.league).count() == 2
    world.season.refresh_from_db()
    assert world.season.next_season == created[0]


def test_control_without_the_lock_both_admins_create_a_season(monkeypatch):
    world = two_divisions()
    both_checked = threading.Barrier(2)

    def unlocked(season_id):
        return Season.objects.select_related("league").get(pk=season_id)

    def wait_for_both(**kwargs):
        # Each admin has found the season not rolled over. (The season has its divisions
        # already: making it whole, which locks the row too, has nothing to do here.)
        both_checked.wait(timeout=10)

    monkeypatch.setattr(services, "season_lock", unlocked)
    monkeypatch.setattr(services, "season_divisions_ensure", wait_for_both)
    outcomes = roll_over_together(world.season, admins())
    assert all(isinstance(outcome, Season) for outcome in outcomes), outcomes
    assert Season.objects.filter(league=world.season.league).count() == 3
