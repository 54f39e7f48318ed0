"""Celery tasks of match night: a few lines each, calling services."""

from celery import shared_task

from scoring.match_night import services
from scoring.match_night.queue import NOTICES_TASK


@shared_task(name=NOTICES_TASK)
def match_night_notices_send() -> int:
    """Send the notices that are due (queued after a proposal or a result changes, and by beat
    every minute as the safety net)."""
    return services.notices_send()
