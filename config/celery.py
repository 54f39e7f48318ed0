"""The Celery app: tasks live in each app's tasks.py (live play's in games/live/) and call
services."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_ready
from django.db import close_old_connections
from kombu.transport import TRANSPORT_ALIASES

from config.heap import startup_heap_freeze

# filesystem:// (the embedded default) means our transport, which writes each message whole
# before a worker can take it (config/filesystem_broker.py); redis:// (production) means
# kombu's with one redis-py client per channel (config/redis_broker.py).
TRANSPORT_ALIASES["filesystem"] = "config.filesystem_broker:Transport"
TRANSPORT_ALIASES["redis"] = "config.redis_broker:Transport"

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("roundel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The live tables' tasks live in games/live/tasks.py, not games/tasks.py where the default looks.
app.autodiscover_tasks(["games.live"])

# Periodic work is CELERY_BEAT_SCHEDULE in settings (the live tables' sweep).


def task_send(name: str, **options: Any) -> None:
    """Send the task `name` (Celery's `send_task` options) that nobody waits for the result of:
    the one way the services send tasks. Without `ignore_result`, the Redis result backend
    subscribes the sender to the task's result channel and unsubscribes when the result is
    dropped: Redis commands for nothing on every send. (The `task_ignore_result` setting does
    not reach `send_task`.)"""
    app.send_task(name, ignore_result=True, **options)


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(**_) -> None:
    """A task is to a worker what a request is to a web process: before and after it, close
    a connection older than CONN_MAX_AGE or broken (CELERY_DB_REUSE_MAX in settings)."""
    close_old_connections()


@worker_ready.connect
def freeze_startup_heap(**_) -> None:
    """A worker's start-up heap is kept out of full collections, as a web process's is: a bot's
    move or a time-out waited behind one (config/heap.py)."""
    startup_heap_freeze()


@app.task(name="roundel.ping")
def ping() -> str:
    """A round trip through the broker and a worker: answers "pong"."""
    return "pong"
