"""Rating work leaves the request: saving a result queues it on commit, and a real Celery
worker on Redis computes it (scoring.ratings.queue, scoring.ratings.tasks)."""

import datetime
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from config import celery_app
from leagues.models import Game, TeamMember
from scoring.models import PlayerRating, RatingRun
from scoring.ratings import tasks
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)


def _korova_fixture():
    return FixtureFactory(
        season=SeasonFactory(league=LeagueFactory(game=Game.KOROVA)),
        home_team=TeamFactory(),
        away_team=TeamFactory(),
        starts_at=timezone.now() - datetime.timedelta(hours=2),
    )


def _sheet(fixture):
    players = [
        member.player_id
        for team in (fixture.home_team, fixture.away_team)
        for member in TeamMember.objects.filter(team=team).order_by("position")
    ]
    # Home player 1 reaches 80 heads: the home pair took 100, the away pair 60.
    return {"players": players, "rounds": [[20, 5, 10, 5]] * 4}


def _post_result(fixture, user):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(
        f"/api/fixtures/{fixture.pk}/result/",
        {"sheet": _sheet(fixture), "based_on_version": 0},
        format="json",
    )


@pytest.mark.django_db
def test_saving_a_result_only_queues_the_rating_work(
    django_capture_on_commit_callbacks, monkeypatch
):
    fixture = _korova_fixture()
    admin = UserFactory(is_superuser=True)
    with CaptureQueriesContext(connection) as queries:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            response = _post_result(fixture, admin)
    assert response.status_code == 201, response.content
    rating_tables = ("scoring_playerrating", "scoring_ratingpoint", "scoring_ratingrun")
    assert not [q["sql"] for q in queries if any(t in q["sql"] for t in rating_tables)]

    # What the commit sends: only the broker's side is replaced, to read the message.
    sent = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, **options: sent.append((name, options["kwargs"]))
    )
    for callback in callbacks:
        callback()
    # One message for the new result and one for its fixture turning played: the same work,
    # which the task does once (it skips results it has already rated).
    assert sent and all(
        message == ("scoring.ratings_recompute", {"game": "korova"}) for message in sent
    )
    assert celery_app.tasks["scoring.ratings_recompute"].run is tasks.ratings_recompute.run
    assert not PlayerRating.objects.exists()  # queued, not computed


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_rates_the_players_after_the_request(celery_redis_worker):
    fixture = _korova_fixture()
    admin = UserFactory(is_superuser=True)
    assert _post_result(fixture, admin).status_code == 201

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and PlayerRating.objects.count() < 4:
        time.sleep(0.2)
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(game=Game.KOROVA)}
    h1, h2, a1, a2 = _sheet(fixture)["players"]
    assert len(ratings) == 4, "the worker never rated the result"
    assert ratings[h1].ordinal < ratings[a1].ordinal < ratings[h2].ordinal
    assert RatingRun.objects.get(game=Game.KOROVA).fixtures == 1
