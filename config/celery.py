"""The Celery app: tasks live in each app's tasks.py and call services."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("roundel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic work is CELERY_BEAT_SCHEDULE in settings (the live tables' sweep).


@app.task(name="roundel.ping")
def ping() -> str:
    """A round trip through the broker and a worker: answers "pong"."""
    return "pong"
