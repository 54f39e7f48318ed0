"""Two answers to the same awaiting result at the same moment, over real HTTP to a live server
on PostgreSQL: two confirmations, and a confirmation against a dispute. Each pair leaves from
its own thread and connection, released together by a barrier; with the fixture row locked
(scoring.results.services._locked_fixture) exactly one takes effect, the other gets 409 with
the current version, and the history holds exactly one answer.

The control takes the lock away (a plain read) and holds both requests, inside the server,
until both have read the current version: both then pass every check against the same
awaiting version and both set out to write the next one, the lost update the lock prevents
(only the unique constraint on (fixture, number) stops the second here, and the service turns
that into the same 409; the spies show how it got there).
"""

import threading
import time

import pytest

from leagues.models import Fixture
from scoring.models import ResultVersion
from scoring.results import confirmation, services
from tests.concurrency.conftest import post_json
from tests.games.conftest import token_for
from tests.scoring.results.match_night import MatchNight, match_night

pytestmark = [pytest.mark.concurrency, pytest.mark.django_db(transaction=True)]

ROUNDS = 4
HOLD_LOCK_SECONDS = 0.4


def awaiting_result() -> MatchNight:
    night = match_night()
    services.result_submit(
        fixture_id=night.fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0]
    )
    return night


def answers(night: MatchNight, kind: str) -> list[tuple[str, str, dict]]:
    """The two answers of a pair: (token, path, body) for each of the away team's players."""
    base = f"/api/fixtures/{night.fixture.pk}/result"
    confirm: tuple[str, dict[str, object]] = (f"{base}/confirm/", {"version": 1})
    dispute = (f"{base}/dispute/", {"version": 1, "reason": "Round 2 was 40"})
    pair = [confirm, confirm] if kind == "two confirmations" else [confirm, dispute]
    return [(token_for(user), path, body) for user, (path, body) in zip(night.away, pair)]


def fire_together(live_server, requests) -> list[tuple[int, dict]]:
    barrier = threading.Barrier(len(requests))
    results: list = [None] * len(requests)

    def send(index, token, path, body):
        barrier.wait(timeout=10)
        results[index] = post_json(live_server, path, token, body)

    threads = [
        threading.Thread(target=send, args=(index, *request))
        for index, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(result is not None for result in results), "a request did not come back"
    return results


@pytest.fixture
def written(monkeypatch):
    """Who passed every check and set out to write the next version, inside the server."""
    record: list[int] = []
    guard = threading.Lock()
    real_next_state = confirmation._next_state

    def next_state(**kwargs):
        with guard:
            record.append(kwargs["current"].number)
        return real_next_state(**kwargs)

    monkeypatch.setattr(confirmation, "_next_state", next_state)
    return record


@pytest.mark.parametrize("kind", ["two confirmations", "a confirmation and a dispute"])
def test_two_answers_at_once_take_effect_exactly_once(live_server, monkeypatch, written, kind):
    real_lock = confirmation._locked_fixture
    lock_log: list[tuple[float, float]] = []

    def locked_fixture_held(fixture_id):
        asked = time.monotonic()
        locked = real_lock(fixture_id)
        lock_log.append((asked, time.monotonic()))
        time.sleep(HOLD_LOCK_SECONDS)  # the other answer must queue behind this one
        return locked

    monkeypatch.setattr(confirmation, "_locked_fixture", locked_fixture_held)
    for _ in range(ROUNDS):
        night = awaiting_result()
        requests = answers(night, kind)
        written.clear()
        lock_log.clear()

        results = fire_together(live_server, requests)

        assert sorted(status for status, _ in results) == [200, 409], results
        (ok,) = [body for status, body in results if status == 200]
        (refused,) = [body for status, body in results if status == 409]
        assert refused["version"] == 2 and refused["detail"]
        # The second answer really was in flight: it asked for the lock while the first
        # held it, and got it only when the first let go.
        (_, first_got), (second_asked, second_got) = sorted(lock_log, key=lambda t: t[1])
        assert second_asked < first_got + HOLD_LOCK_SECONDS <= second_got
        # One answer passed the checks, and the history holds exactly that one.
        assert written == [1]
        history = list(
            ResultVersion.objects.filter(fixture=night.fixture)
            .order_by("number")
            .values_list("number", "confirmation", "is_current")
        )
        assert history == [(1, "awaiting", False), (2, ok["confirmation"], True)]


@pytest.mark.parametrize("kind", ["two confirmations", "a confirmation and a dispute"])
def test_control_without_the_lock_both_answers_pass_the_checks(live_server, written, kind):
    """The race the lock prevents: both answers read the same awaiting version and both
    believe they write the next one."""
    read_together = threading.Barrier(2)
    reads: list[int] = []
    reads_guard = threading.Lock()
    real_current = confirmation.fixture_current_result

    def unlocked_fixture(fixture_id):
        return Fixture.objects.get(pk=fixture_id)  # the same read, without select_for_update

    def current_read_together(*, fixture):
        current = real_current(fixture=fixture)
        with reads_guard:
            reads.append(current.number if current else 0)
            first_two = len(reads) <= 2
        if first_two:  # hold each request until both have read the current version
            read_together.wait(timeout=10)
        return current

    for _ in range(ROUNDS):
        night = awaiting_result()
        requests = answers(night, kind)
        written.clear()
        reads.clear()
        read_together.reset()
        with pytest.MonkeyPatch.context() as unlocked:
            unlocked.setattr(confirmation, "_locked_fixture", unlocked_fixture)
            unlocked.setattr(confirmation, "fixture_current_result", current_read_together)
            results = fire_together(live_server, requests)

        # Both read version 1, awaiting, and both passed every check on it ...
        assert reads[:2] == [1, 1]
        assert written == [1, 1]
        # ... so both set out to write version 2: only the unique constraint refused the
        # second, which the service answered as the conflict it is.
        assert sorted(status for status, _ in results) == [200, 409], results
        assert ResultVersion.objects.filter(fixture=night.fixture).count() == 2
