"""Two answers to one proposed date at the same moment, over real HTTP, on PostgreSQL.

The other team's two players both press accept (or one accepts while the other declines),
each on their own connection, released together by a threading.Barrier. With the fixture and
the proposal locked by leagues.schedule_services._locked_proposal, exactly one answer takes
effect and the other is told the proposal is already decided (409).

The control takes the lock away (a plain read) and holds both requests, inside the server,
until both have read the proposal: both then find it still open and both answer it — an
accepted proposal that is then declined while the fixture has moved, the race the lock
prevents.
"""

import datetime
import threading
import time

import pytest
from django.utils import timezone
from knox.models import AuthToken

from leagues import schedule_services
from leagues.models import Fixture, RescheduleProposal
from tests.concurrency.conftest import post_json
from tests.factories import FixtureFactory, team_player_user

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

ROUNDS = 3
HOLD_LOCK_SECONDS = 0.5


@pytest.fixture
def fixture():
    return FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=1))


@pytest.fixture
def tokens(fixture):
    """The home captain's user, and an API token for each of the away team's two players."""
    home = team_player_user(fixture.home_team, 1)
    away = [team_player_user(fixture.away_team, position) for position in (1, 2)]
    return home, [AuthToken.objects.create(user)[1] for user in away]


def _new_proposal(fixture, home, number: int) -> RescheduleProposal:
    starts_at = timezone.now().replace(microsecond=0) + datetime.timedelta(days=7 + number)
    return schedule_services.reschedule_propose(fixture_id=fixture.pk, starts_at=starts_at, by=home)


def _answer_together(live_server, proposal, tokens, answers) -> list[tuple[int, dict]]:
    barrier = threading.Barrier(len(tokens))
    results: list[tuple[int, dict]] = []

    def answer(token, verb):
        barrier.wait(timeout=10)
        results.append(post_json(live_server, f"/api/reschedules/{proposal.pk}/{verb}/", token, {}))

    threads = [
        threading.Thread(target=answer, args=pair) for pair in zip(tokens, answers, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == len(tokens), "a request did not come back"
    return results


@pytest.mark.parametrize("answers", [("accept", "accept"), ("accept", "decline")])
def test_two_answers_at_once_take_effect_once(live_server, fixture, tokens, answers, monkeypatch):
    home, away_tokens = tokens
    real_lock = schedule_services._locked_proposal
    lock_log: list[tuple[float, float]] = []

    def locked_proposal_held(proposal_id):
        asked = time.monotonic()
        locked = real_lock(proposal_id)
        lock_log.append((asked, time.monotonic()))
        time.sleep(HOLD_LOCK_SECONDS)  # hold the lock: the other answer must queue behind it
        return locked

    monkeypatch.setattr(schedule_services, "_locked_proposal", locked_proposal_held)

    for number in range(ROUNDS):
        lock_log.clear()
        proposal = _new_proposal(fixture, home, number)
        before = Fixture.objects.get(pk=fixture.pk).starts_at

        results = _answer_together(live_server, proposal, away_tokens, answers)

        assert sorted(status for status, _ in results) == [200, 409], results
        won = next(body for status, body in results if status == 200)
        lost = next(body for status, body in results if status == 409)
        assert "already been" in lost["detail"]
        # The second answer really was in flight: it asked for the lock while the first held it.
        (first_asked, first_got), (second_asked, second_got) = sorted(lock_log, key=lambda t: t[1])
        assert second_asked < first_got + HOLD_LOCK_SECONDS
        assert second_got >= first_got + HOLD_LOCK_SECONDS
        proposal.refresh_from_db()
        assert proposal.status == won["status"]
        moved = Fixture.objects.get(pk=fixture.pk).starts_at
        assert moved == (proposal.starts_at if won["status"] == "accepted" else before)
        assert proposal.history.count() == 2  # proposed, then one answer


def test_control_without_the_lock_both_answers_pass(live_server, fixture, tokens, monkeypatch):
    """The race the lock prevents: without it, an acceptance and a declining both succeed."""
    home, away_tokens = tokens
    read_together = threading.Barrier(2)

    def unlocked_proposal(proposal_id):
        proposal = RescheduleProposal.objects.get(pk=proposal_id)  # no select_for_update
        fixture = Fixture.objects.get(pk=proposal.fixture_id)
        read_together.wait(timeout=10)  # both requests have read it before either writes
        return proposal, fixture

    monkeypatch.setattr(schedule_services, "_locked_proposal", unlocked_proposal)

    for number in range(ROUNDS):
        read_together.reset()
        proposal = _new_proposal(fixture, home, number)

        results = _answer_together(live_server, proposal, away_tokens, ("accept", "decline"))

        assert [status for status, _ in results] == [200, 200], results
        assert {body["status"] for _, body in results} == {"accepted", "declined"}
        # Both answers were written: the history holds two decisions for one proposal, and the
        # fixture moved to the proposed date whichever answer was saved last.
        proposal.refresh_from_db()
        assert proposal.history.count() == 3
        assert Fixture.objects.get(pk=fixture.pk).starts_at == proposal.starts_at
