"""Celery tasks of the scoring app: a few lines each, calling services."""

from celery import shared_task

from scoring.ratings import services
from scoring.ratings.queue import RECOMPUTE_TASK, REFRESH_TASK


@shared_task(name=RECOMPUTE_TASK)
def ratings_recompute(game: str) -> int:
    """Recompute one game's ratings unless a recomputation already covers its results."""
    return services.ratings_recompute(game=game, when_stale=True).matches


@shared_task(name=REFRESH_TASK)
def ratings_refresh() -> list[str]:
    """The periodic check: recompute any game whose results changed unnoticed."""
    return services.ratings_refresh_stale()
