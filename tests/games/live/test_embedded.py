"""The embedded default, as `make run` runs it: SQLite and Celery's filesystem broker, a worker
with beat and the web server (gunicorn's ASGI worker) as separate processes. A table's clock
and its bots work there too: bots answer, the open turn expires about when its deadline says,
and the game goes on; and the table's event stream pushes those changes without Redis.
"""

import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime

import pytest

from tests.bin.test_run_dev import free_port
from tests.conftest import ROOT

pytestmark = pytest.mark.celery

UNSET = {"DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND",
         "DJANGO_SETTINGS_MODULE", "TEST_DATABASE_URL"}  # fmt: skip


@pytest.fixture
def embedded(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    env.update(DEBUG="1", ROUNDEL_VAR_DIR=str(tmp_path), GAMES_BOT_THINK_MIN="0.1",
               GAMES_BOT_THINK_MAX="0.2", GAMES_SWEEP_SECONDS="1")  # fmt: skip
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [*manage, "shell", "-c", "from django.contrib.auth.models import User; "
         "User.objects.create_user('ada', password='a-long-test-password')"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    port = free_port()
    log = (tmp_path / "processes.log").open("w")
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--beat", "--pool",
             "threads", "--concurrency", "4", "--loglevel", "INFO",
             "--schedule", str(tmp_path / "beat")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi", "--worker-class", "asgi",
             "--bind", f"127.0.0.1:{port}", "--graceful-timeout", "1"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        ),
    ]  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while "ready" not in (tmp_path / "processes.log").read_text():
            assert time.monotonic() < deadline, (tmp_path / "processes.log").read_text()
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}", tmp_path / "roundel.sqlite3"
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)


def call(url: str, method: str = "GET", body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(request) as response:
                return json.loads(response.read())
        except urllib.error.URLError as error:
            # urllib wraps a refused connection: the web server is still starting.
            if not isinstance(error.reason, ConnectionError):
                raise
            assert time.monotonic() < deadline
            time.sleep(0.2)


def test_bots_and_the_clock_work_on_sqlite_and_the_filesystem_broker(embedded):
    site, database = embedded
    token = call(f"{site}/api/auth/token/", "POST",
                 {"username": "ada", "password": "a-long-test-password"})["token"]  # fmt: skip
    table = call(f"{site}/api/tables/", "POST",
                 {"game": "korova", "players": 4, "options": {"turn_seconds": 3},
                  "bots": [1, 2, 3]}, token)  # fmt: skip
    deadline = datetime.fromisoformat(table["deadline"])

    def rows(query: str):  # the worker's doing, read straight from the database file
        with sqlite3.connect(database) as db:
            return db.execute(query, (table["id"],)).fetchall()

    time.sleep(2)
    bots = rows("select seat, timeout from games_tablemove where table_id = ? order by id")
    assert sorted(bots) == [(1, 0), (2, 0), (3, 0)]  # the bots picked, Ada has not
    while rows("select turn from games_table where id = ?") == [(1,)]:
        assert (datetime.now(deadline.tzinfo) - deadline).total_seconds() < 3
        time.sleep(0.05)
    (expired_at,) = rows("select at from games_tablemove where table_id = ? and timeout = 1")[0]
    lateness = datetime.fromisoformat(expired_at).replace(tzinfo=deadline.tzinfo) - deadline
    assert 0 <= lateness.total_seconds() < 1.5


def test_the_event_stream_pushes_the_bots_and_the_clock_without_redis(embedded):
    """Without Redis the web process watches its streams' tables in the database: the bots'
    picks (turn 1) and the clock's time-out (turn 2), both written by the worker, reach it,
    each drawn as this (anonymous) reader sees the table."""
    site, _ = embedded
    token = call(f"{site}/api/auth/token/", "POST",
                 {"username": "ada", "password": "a-long-test-password"})["token"]  # fmt: skip
    table = call(f"{site}/api/tables/", "POST",
                 {"game": "korova", "players": 4, "options": {"turn_seconds": 3},
                  "bots": [1, 2, 3]}, token)  # fmt: skip
    turns = []
    with urllib.request.urlopen(f"{site}/tables/{table['id']}/events/", timeout=10) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        while 2 not in turns:
            line = stream.readline().decode()
            if line.startswith("data:"):
                event = json.loads(line[5:])
                assert set(event) == {"table", "turn", "etag", "html"}, event
                assert f'data-turn="{event["turn"]}"' in event["html"]
                turns.append(event["turn"])
    assert turns[0] == 1 and turns[-1] == 2
