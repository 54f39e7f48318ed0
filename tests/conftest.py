import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def celery_redis_worker(tmp_path_factory, worker_id, django_db_setup):
    """A real Celery worker on Redis, as a separate process; yields the app configured for it.

    Each xdist worker gets its own Redis database so that parallel test processes never
    pick up each other's tasks. The worker uses the test database, so a task sees what a
    transactional test (`django_db(transaction=True)`) committed.
    """
    from django.conf import settings

    from config.celery import app

    base = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    number = 1 + (int(worker_id[2:]) if worker_id.startswith("gw") else 0)
    url = f"{base}/{number}"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": url,
        "CELERY_RESULT_BACKEND": url,
        "DATABASE_URL": _test_database_url(settings.DATABASES["default"]),
    }
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "threads",
            "--concurrency",
            "2",
            "--loglevel",
            "INFO",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    previous = (app.conf.broker_url, app.conf.result_backend)
    app.conf.broker_url = url
    app.conf.result_backend = url
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "ready" not in log.read_text():
            assert process.poll() is None, log.read_text()
            time.sleep(0.2)
        yield app
    finally:
        process.terminate()
        process.wait(timeout=20)
        app.conf.broker_url, app.conf.result_backend = previous


def _test_database_url(database: dict) -> str:
    """The URL of the test database that pytest-django created (its NAME is the test one)."""
    if database["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{database['NAME']}"
    credentials = database["USER"] + (f":{database['PASSWORD']}" if database["PASSWORD"] else "")
    return (
        f"postgres://{credentials}@{database['HOST']}:{database['PORT'] or 5432}/{database['NAME']}"
    )
