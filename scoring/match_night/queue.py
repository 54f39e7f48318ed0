"""Queueing notices: a proposal made or answered, or a result version saved, asks Celery to
send what is due, once its transaction commits (so the worker sees it).

The task is sent by name (no module here imports the tasks), and a broker that cannot be
reached costs only time: beat's periodic run sends the notices later.
"""

import logging

from django.db import transaction

from config.celery import task_send

NOTICES_TASK = "scoring.match_night_notices_send"

log = logging.getLogger(__name__)


def notices_send_on_commit(sender, **kwargs) -> None:
    """A receiver of post_save for RescheduleProposal and ResultVersion."""
    transaction.on_commit(_send)


def _send() -> None:
    try:
        task_send(NOTICES_TASK)
    except Exception:  # the broker is down: beat's periodic run sends them
        log.warning("Could not queue the match night notices; the periodic run will.")
