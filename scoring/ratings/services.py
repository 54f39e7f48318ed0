"""Writes of the ratings: a game's ratings replayed from every counted result (docs/ratings.md)."""

import time
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from scoring.kinds import all_kinds
from scoring.models import PlayerRating, RatingPoint, RatingRun
from scoring.ratings.replay import ratings_replay
from scoring.ratings.selectors import rated_fixtures, ratings_results_stamp


@transaction.atomic
def ratings_recompute(*, game: str, when_stale: bool = False) -> RatingRun:
    """Replace the game's ratings with a replay of every counted result (scoring.ratings.replay).

    Run by the Celery task that a saved result queues, never in a request. The game's
    RatingRun row is locked first, so two recomputations of one game run one after the other
    and the second sees the first's results too; with `when_stale` it then does nothing if the
    stored ratings already come from the results there are now (a burst of saves queues one
    task each, and the first does the work). Raises ValueError for an unknown game.
    """
    started = time.perf_counter()
    RatingRun.objects.get_or_create(game=game)
    run = RatingRun.objects.select_for_update().get(game=game)
    stamp = ratings_results_stamp(game=game)
    if when_stale and run.results_stamp == stamp:
        return run
    fixtures = rated_fixtures(game=game)
    replay = ratings_replay(fixtures)
    _rows_replace(
        PlayerRating.objects.filter(game=game),
        key=("player_id",),
        values=("mu", "sigma", "games", "last_played_at"),
        wanted={
            (player_id,): {
                "game": game,
                "player_id": player_id,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": rating.ordinal,
                "games": rating.games,
                "last_played_at": rating.last_played_at,
            }
            for player_id, rating in replay.current.items()
        },
    )
    _rows_replace(
        RatingPoint.objects.filter(game=game),
        key=("player_id", "fixture_id"),
        values=("mu", "sigma", "games", "played_at"),
        wanted={
            (point.player_id, point.fixture_id): {
                "game": game,
                "player_id": point.player_id,
                "fixture_id": point.fixture_id,
                "played_at": point.played_at,
                "mu": point.mu,
                "sigma": point.sigma,
                "ordinal": point.ordinal,
                "games": point.games,
            }
            for point in replay.points
        },
    )
    run.computed_at = timezone.now()
    run.results_stamp = stamp
    run.fixtures = len(fixtures)
    run.matches = replay.matches
    run.seconds = time.perf_counter() - started
    run.save()
    return run


def _rows_replace(
    rows: QuerySet[Any],
    *,
    key: tuple[str, ...],
    values: tuple[str, ...],
    wanted: dict[tuple[Any, ...], dict[str, Any]],
) -> None:
    """Make `rows` hold exactly the `wanted` rows (key tuple -> the row's fields),
    writing only what differs: a new result at the end of the history changes a handful of
    rows, not the tens of thousands a game's history holds. The replay is deterministic, so
    an unchanged rating comes out bit for bit the same and compares equal."""
    stale = []
    for pk, *stored in rows.values_list("pk", *key, *values):
        row_key, row_values = tuple(stored[: len(key)]), stored[len(key) :]
        new = wanted.get(row_key)
        if new is not None and [new[name] for name in values] == row_values:
            del wanted[row_key]
        else:
            stale.append(pk)
    for start in range(0, len(stale), 5000):
        rows.model.objects.filter(pk__in=stale[start : start + 5000]).delete()
    rows.model.objects.bulk_create(
        (rows.model(**fields) for fields in wanted.values()), batch_size=2000
    )


def ratings_refresh_stale() -> list[str]:
    """Recompute every game whose counted results changed since its ratings were computed.

    The periodic safety net behind the task queued on commit: it catches a task lost with the
    broker and a fixture voided or restored outside scoring. Returns the games recomputed.
    """
    computed = dict(RatingRun.objects.values_list("game", "results_stamp"))
    stale = [
        game
        for game in (kind.game for kind in all_kinds())
        if computed.get(game, "") != ratings_results_stamp(game=game)
    ]
    for game in stale:
        ratings_recompute(game=game)
    return stale
