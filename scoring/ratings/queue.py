"""Queueing rating work: a saved or voided result asks Celery to recompute, after commit.

The request that saves a result never computes ratings: it queues the game's recomputation
(the task scoring.ratings_recompute, by name, so that no module here imports the tasks) for
when its transaction commits, so the worker sees the new result. If the broker cannot be
reached the result still stands; the periodic scoring.ratings_refresh catches up.
"""

import logging
from functools import partial

from django.db import transaction

from config.celery import task_send
from leagues.models import Fixture

RECOMPUTE_TASK = "scoring.ratings_recompute"
REFRESH_TASK = "scoring.ratings_refresh"

log = logging.getLogger(__name__)


def ratings_recompute_on_commit(*, game: str) -> None:
    """Queue the recomputation of `game`'s ratings once the current transaction commits."""
    transaction.on_commit(partial(_send, game))


def _send(game: str) -> None:
    try:
        task_send(RECOMPUTE_TASK, kwargs={"game": game})
    except Exception:  # the broker is down: the periodic refresh recomputes later
        log.warning("Could not queue the %s ratings; the periodic refresh will.", game)


def result_recorded(sender, *, game: str, **kwargs) -> None:
    """A result was saved (scoring.results.services.result_recorded): its game's ratings are
    recomputed once the transaction commits."""
    ratings_recompute_on_commit(game=game)


def fixture_saved(sender, instance: Fixture, **kwargs) -> None:
    """A played fixture moved or a fixture voided (in leagues' services or the admin): its
    result may count differently now, so its game's ratings are recomputed."""
    if instance.status in (Fixture.Status.PLAYED, Fixture.Status.VOID):
        ratings_recompute_on_commit(game=instance.season.league.game)
