"""Celery tasks of results: a few lines each, calling services."""

from celery import shared_task

from scoring.results import confirmation

CONFIRM_OVERDUE_TASK = "scoring.results_confirm_overdue"


@shared_task(name=CONFIRM_OVERDUE_TASK)
def results_confirm_overdue() -> list[int]:
    """Beat's call: confirm the awaiting results whose window passed without a dispute."""
    return confirmation.results_confirm_overdue()
