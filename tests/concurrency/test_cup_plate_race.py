"""The last two first-round results of a cup of eight with a plate (ties 1 and 3, which feed
different semi-finals) arrive at the same moment, over real HTTP, on PostgreSQL: the plate is
drawn exactly once, with the four losers.

Each result is settled inside its own transaction (scoring.cups.services.cup_tie_settle, on
result_recorded), and the plate is drawn by whichever settles the round's last tie. The cup's
row is locked first (services._cup_locked), so the second waits for the first to commit and
then sees the round complete. The control takes the lock away (a plain read) and holds both
requests, inside the server, until each has put its own winner through, and again until each
has looked for a complete round: neither then sees the other's winner, and no plate is drawn
at all.
"""

import threading

import pytest

from leagues.models import Cup, CupTie
from scoring.cups import services
from scoring.cups.services import cup_draw
from tests.concurrency.conftest import post_json
from tests.games.conftest import token_for
from tests.scoring.cups.cups import (
    HOME_WINS,
    admin_user,
    first_round_at,
    korova_sheet,
    make_cup,
    play,
)

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

CUPS = 3  # how many times the two results collide


def _first_round(cup):
    return CupTie.objects.filter(round__cup=cup, round__number=1).select_related("fixture")


def _both_results_at_once(live_server, token, cup) -> list[int]:
    ties = list(_first_round(cup).filter(position__in=[1, 3]))
    start = threading.Barrier(len(ties))
    statuses: list[int] = []

    def post(tie):
        body = {"sheet": korova_sheet(tie.fixture, HOME_WINS), "based_on_version": 0}
        start.wait(timeout=10)
        status, _ = post_json(live_server, f"/api/fixtures/{tie.fixture_id}/result/", token, body)
        statuses.append(status)

    threads = [threading.Thread(target=post, args=(tie,)) for tie in ties]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


def _drawn_cups(count):
    """Cups of eight with ties 2 and 4 played: ties 1 and 3 complete the first round."""
    admin = admin_user()
    cups = []
    for number in range(count):
        cup = make_cup(8, with_plate=True, names=[f"Cup {number} team {i}" for i in range(8)])
        cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
        for tie in _first_round(cup).filter(position__in=[2, 4]):
            play(tie.fixture, HOME_WINS, by=admin)
        cups.append(cup)
    return cups


def test_the_plate_is_drawn_once_with_both_losers(live_server):
    token = token_for(admin_user())
    for cup in _drawn_cups(CUPS):
        assert _both_results_at_once(live_server, token, cup) == [201, 201]
        plates = Cup.objects.filter(plate_of=cup)
        assert plates.count() == 1
        losers = {tie.away_id for tie in CupTie.objects.filter(round__cup=cup, round__number=1)}
        assert set(plates.get().teams.values_list("pk", flat=True)) == losers
        assert CupTie.objects.filter(round__cup=plates.get(), fixture__isnull=False).count() == 2


def test_control_without_the_cup_lock_no_plate_is_drawn(live_server, monkeypatch):
    both_settled = threading.Barrier(2)
    plate_draw = services._plate_draw_when_ready

    def plain_read(cup_id):
        return Cup.objects.select_related("season__league").get(pk=cup_id)

    def after_both_settled(*, cup):
        both_settled.wait(timeout=10)  # each request has put its own winner through
        plate_draw(cup=cup)
        # ... and has looked at the round before either commits: otherwise the later look
        # (a statement of its own, under READ COMMITTED) could see the other's winner committed
        # and draw the plate, as the lock makes it do.
        both_settled.wait(timeout=10)

    token = token_for(admin_user())
    (cup,) = _drawn_cups(1)
    monkeypatch.setattr(services, "_cup_locked", plain_read)
    monkeypatch.setattr(services, "_plate_draw_when_ready", after_both_settled)
    assert _both_results_at_once(live_server, token, cup) == [201, 201]
    assert not Cup.objects.filter(plate_of=cup).exists()  # the plate the lock saves
