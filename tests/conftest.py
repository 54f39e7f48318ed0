import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import kombu.pools
import pytest
import redis

ROOT = Path(__file__).resolve().parent.parent
TABLE_WORKER_OFFSET = 8  # Redis database numbers of table_worker: 8 + the xdist worker's number


@pytest.fixture(scope="session")
def celery_redis_worker(tmp_path_factory, worker_id, django_db_setup):
    """A real Celery worker on Redis, as a separate process; yields the app configured for it.

    Each xdist worker gets its own Redis database so that parallel test processes never
    pick up each other's tasks. The worker uses the test database, so a task sees what a
    transactional test (`django_db(transaction=True)`) committed.
    """
    from config.celery import app

    base = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    number = 1 + (int(worker_id[2:]) if worker_id.startswith("gw") else 0)
    url = f"{base}/{number}"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": url,
        "CELERY_RESULT_BACKEND": url,
        "DATABASE_URL": _test_database_url(),
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
    try:
        with _tasks_to(url):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and "ready" not in log.read_text():
                assert process.poll() is None, log.read_text()
                time.sleep(0.2)
            yield app
    finally:
        process.terminate()
        process.wait(timeout=20)


class WorkerProcess:
    """A real Celery worker (optionally with beat) on this test process's Redis database and
    test database, as a separate process that a test can kill with SIGKILL and restart."""

    def __init__(self, *, broker: str, database: str, var_dir, beat: bool):
        self.broker, self.database, self.var_dir, self.beat = broker, database, var_dir, beat
        self.process: subprocess.Popen[bytes] | None = None
        self.log = var_dir / "worker.log"

    def start(self) -> None:
        command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "threads",
                   "--concurrency", "4", "--loglevel", "INFO", "--without-gossip",
                   "--without-mingle", "--without-heartbeat"]  # fmt: skip
        if self.beat:
            command += ["--beat", "--schedule", str(self.var_dir / "beat-schedule")]
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "CELERY_BROKER_URL": self.broker,
            "CELERY_RESULT_BACKEND": self.broker,
            "ROUNDEL_VAR_DIR": str(self.var_dir),
            "GAMES_BOT_THINK_MIN": "0.05",
            "GAMES_BOT_THINK_MAX": "0.1",
            "GAMES_SWEEP_SECONDS": "1",
            "RESULTS_CONFIRM_SWEEP_SECONDS": "1",
            "DEBUG": "1",
            # bots' moves and time-outs are pushed where the test's event streams listen
            "LIVE_PUSH_URL": self.broker,
        }
        marker = self.log.read_text().count("ready.") if self.log.exists() else 0
        # Its own process group: with --beat the worker forks beat, which a SIGKILL of the
        # worker alone would leave running (an orphan sweeping on after the test).
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while self.log.read_text().count("ready.") <= marker:
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.1)

    def wait_until_idle(self, timeout: float = 30) -> None:
        """Until the worker runs no task and holds none that is due (ETA tasks of later turns
        may wait: they find their turn gone)."""
        from config.celery import app

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            inspect = app.control.inspect(timeout=0.5)
            active, reserved = inspect.active(), inspect.reserved()
            if active is not None and not any(active.values()) and not any(reserved.values()):
                return
            time.sleep(0.1)
        raise AssertionError(f"the worker was still busy after {timeout} s: {active} {reserved}")

    def kill(self) -> None:
        """SIGKILL to the worker and its beat: no shutdown, no acknowledgements, the tasks it
        held are lost with it."""
        self._signal_group(signal.SIGKILL)
        self._started().wait(timeout=10)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        self._signal_group(signal.SIGKILL)  # whatever of the group is still there
        self.process.wait(timeout=10)

    def _signal_group(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._started().pid, number)

    def _started(self) -> subprocess.Popen[bytes]:
        assert self.process is not None, "the worker was never started"
        return self.process


def _broker_url(worker_id: str, offset: int) -> str:
    base = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
    number = offset + (int(worker_id[2:]) if worker_id.startswith("gw") else 0)
    return f"{base}/{number}"


def table_worker_broker_url(worker_id: str) -> str:
    """The Redis database of `table_worker`'s broker, which is also where it pushes table
    changes (games.live.push names its channel after the database number)."""
    return _broker_url(worker_id, TABLE_WORKER_OFFSET)


def _test_database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextlib.contextmanager
def _worker(tmp_path_factory, worker_id: str, *, beat: bool, offset: int):
    """A started worker on its own Redis database (`_tasks_to` its broker sends this process's
    tasks to it)."""
    broker = _broker_url(worker_id, offset)
    redis.Redis.from_url(broker).flushdb()
    process = WorkerProcess(
        broker=broker,
        database=_test_database_url(),
        var_dir=tmp_path_factory.mktemp("worker"),
        beat=beat,
    )
    try:
        process.start()
        yield process
    finally:
        process.stop()


@contextlib.contextmanager
def _tasks_to(broker: str):
    """This process's tasks sent to `broker` meanwhile, their results kept there too (as
    production keeps them on its broker's Redis)."""
    from config.celery import app

    previous = (app.conf.broker_url, app.conf.result_backend)
    _point_app_at(app, broker, broker)
    try:
        yield
    finally:
        _point_app_at(app, *previous)


def _point_app_at(app, broker: str, result_backend: str) -> None:
    """Send this process's tasks to `broker` and read results from `result_backend` from now
    on: drop the connections and the result backend the app made for the old ones."""
    kombu.pools.reset()  # kombu keeps producer pools per connection, process-wide
    app._pool = None
    app.amqp._producer_pool = None
    app.conf.broker_url = broker
    app.conf.result_backend = result_backend
    app._local.__dict__.pop("backend", None)


@pytest.fixture(scope="session")
def _session_table_worker(django_db_setup, django_db_blocker, tmp_path_factory, worker_id):
    with _worker(tmp_path_factory, worker_id, beat=False, offset=TABLE_WORKER_OFFSET) as process:
        yield process


@pytest.fixture
def table_worker(_django_db_helper, _session_table_worker):
    """A real Celery worker (no beat: only the expiry tasks and bots) on Redis and the test
    database, started once for the session; only the tests that ask for it send it tasks
    (another test's result would have it recompute ratings while that test's data is emptied).

    After each test it waits for the worker to finish what the test left it (a finished
    fixture's ratings, a bot's last move) before the test database is emptied: a TRUNCATE
    under a running task deadlocks in PostgreSQL. Depending on pytest-django's database
    fixture makes this wait come before that fixture's flush.
    """
    with _tasks_to(_session_table_worker.broker):
        yield _session_table_worker
        _session_table_worker.wait_until_idle()


@pytest.fixture
def worker_with_beat(django_db_setup, tmp_path_factory, worker_id):
    """A worker with beat (the sweeps every second: overdue turns, results whose confirmation
    window passed) that the test may kill and restart."""
    with _worker(tmp_path_factory, worker_id, beat=True, offset=12) as process:
        with _tasks_to(process.broker):
            yield process


@pytest.fixture
def broker_without_worker(worker_id):
    """This process's tasks sent to a Redis database that no worker reads (with results there
    too, as production keeps them): the test reads what was sent from the broker's queue."""
    broker = _broker_url(worker_id, offset=3)
    client = redis.Redis.from_url(broker)
    client.flushdb()
    try:
        with _tasks_to(broker):
            yield client
    finally:
        client.flushdb()


# ---- The admin tests' users and fixtures (tests/leagues/test_admin.py, tests/scoring/test_*admin.py);
# the factories are imported inside, once Django is set up.


@pytest.fixture(autouse=True)
def _english_between_tests():
    """Every test starts in the default language: a request read in Russian or Finnish leaves
    its language active in the thread (LocaleMiddleware activates it and nothing resets it),
    and a service called directly afterwards would answer in it."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def superuser():
    from tests.factories import UserFactory

    return UserFactory(username="league-admin", is_staff=True, is_superuser=True)


@pytest.fixture
def crown_staff():
    """A member of pub staff at The Crown with staff status and no model permissions."""
    from tests.factories import StaffMembershipFactory

    return StaffMembershipFactory(
        user__username="crown-staff", user__is_staff=True, venue__name="The Crown"
    )


@pytest.fixture
def crown_fixture(crown_staff):
    from tests.factories import FixtureFactory, TeamFactory

    return FixtureFactory(home_team=TeamFactory(home_venue=crown_staff.venue))


@pytest.fixture
def anchor_fixture():
    from tests.factories import FixtureFactory, TeamFactory, VenueFactory

    return FixtureFactory(home_team=TeamFactory(home_venue=VenueFactory(name="The Anchor")))
