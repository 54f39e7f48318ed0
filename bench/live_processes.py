"""The processes bench/live_tables.py measures, as production runs them: gunicorn, two Celery
workers and beat, each in its own process group so that it can be killed whole (or timed: the
CPU its group used)."""

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


class Processes:
    """gunicorn, two workers and beat, each in its own process group."""

    def __init__(
        self, *, root: Path, env: dict[str, str], web_workers: int, log_dir: Path, pool: str,
        concurrency: int,
    ):  # fmt: skip
        self.root, self.env = root, env
        self.web_workers, self.log_dir = web_workers, log_dir
        self.pool, self.concurrency = pool, concurrency
        self.port = 8190 + os.getpid() % 100
        self.running: dict[str, subprocess.Popen] = {}
        # A bench stopped halfway (Ctrl-C, kill) stops its servers too: a Celery worker left
        # running would take the next run's tasks.
        atexit.register(self.stop)
        signal.signal(signal.SIGTERM, _exit_on_terminate)

    def start(self, name: str, command: list[str], ready: str) -> None:
        log = self.log_dir / f"{name}.log"
        log.write_text("")
        process = subprocess.Popen(
            command, cwd=self.root, env=self.env, stdout=log.open("a"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while ready not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{name} did not start:\n{log.read_text()}")
            time.sleep(0.1)
        self.running[name] = process

    def start_worker(self, name: str, *, nice: int = 0) -> None:
        """A Celery worker; `nice` above 0 gives the web processes the cores first (as the
        worker unit's Nice= in docs/operations.md)."""
        self.start(
            name,
            [*(["nice", "-n", str(nice)] if nice else []),
             sys.executable, "-m", "celery", "-A", "config", "worker", "-n", f"{name}@bench",
             "--pool", self.pool, "--concurrency", str(self.concurrency), "--loglevel", "INFO",
             "--without-gossip", "--without-mingle"],
            "ready.",
        )  # fmt: skip

    def start_all(self) -> None:
        self.start(
            "gunicorn",
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-w", str(self.web_workers),
             "--worker-class", "gthread", "--threads", "4",
             "-b", f"127.0.0.1:{self.port}", "--log-level", "info"],
            "Booting worker",
        )  # fmt: skip
        self.start_worker("worker-a")
        self.start_worker("worker-b")
        self.start(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
             "--schedule", str(self.log_dir / "beat-schedule")],
            "beat: Starting",
        )  # fmt: skip

    def cpu_seconds(self, *names: str) -> float:
        """CPU time (user and system) used so far by the named processes' groups (Linux)."""
        return sum(sum(self.cpu_seconds_by_process(name).values()) for name in names)

    def cpu_seconds_by_process(self, name: str) -> dict[int, float]:
        """CPU time (user and system) used so far by each process of the named group, by pid
        (Linux): how evenly gunicorn's workers share the load."""
        group = self.running[name].pid
        return _cpu_seconds_where(lambda _name, fields: int(fields[2]) == group)

    def kill(self, name: str) -> None:
        os.killpg(self.running.pop(name).pid, signal.SIGKILL)

    def stop(self) -> None:
        stopping, self.running = list(self.running.values()), {}
        for process in stopping:
            with contextlib.suppress(ProcessLookupError):  # it had ended by itself
                os.killpg(process.pid, signal.SIGTERM)
        for process in stopping:
            process.wait(timeout=30)


def _exit_on_terminate(signum: int, _frame: object) -> None:
    """SIGTERM ends the bench as Ctrl-C does: through its `finally` and `atexit` cleanups."""
    sys.exit(128 + signum)


def cpu_seconds_by_program(program: str) -> dict[int, float]:
    """CPU time (user and system) used so far by each process whose name starts with
    `program`, by pid (Linux): PostgreSQL's backends, Redis, which the bench did not start."""
    return _cpu_seconds_where(lambda name, _fields: name.startswith(program))


def _cpu_seconds_where(matches: Callable[[str, list[str]], bool]) -> dict[int, float]:
    """CPU time (user and system) used so far by each process, by pid, that `matches` its
    name and the fields of /proc/<pid>/stat after the name (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for entry in Path("/proc").iterdir():
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except (OSError, ValueError):
            continue
        fields = tail.split()
        if matches(head.split("(", 1)[-1], fields):
            used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    return used


def database_create_if_missing(url: str) -> None:
    """The PostgreSQL database `url` names, created if it is not there (the benches fill
    databases of their own)."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(url)
    with psycopg.connect(
        host=config["HOST"], port=config["PORT"] or 5432, user=config["USER"], dbname="postgres",
        autocommit=True,
    ) as admin:  # fmt: skip
        exists = admin.execute(
            "select 1 from pg_database where datname = %s", (config["NAME"],)
        ).fetchone()
        if not exists:
            admin.execute(f'create database "{config["NAME"]}"')
