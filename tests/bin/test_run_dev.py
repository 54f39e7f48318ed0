"""bin/run-dev (`make run`): with PORT set, every address it prints and serves uses PORT; a
worker or beat that dies comes back, the web server dying or Ctrl-C stops everything."""

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNSET = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL",
         "CELERY_RESULT_BACKEND", "DJANGO_SETTINGS_MODULE", "SITE_URL"}  # fmt: skip
CHILDREN = {"worker": "Celery worker", "beat": "Celery beat", "config.asgi": "web server"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, *, timeout: float, why):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, why()
        time.sleep(0.2)
    return value


def is_running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class MakeRun:
    """bin/run-dev as `make run` starts it, in its own session as a terminal would hold it."""

    def __init__(self, var_dir: Path, log: Path):
        self.port = free_port()
        env = {key: value for key, value in os.environ.items() if key not in UNSET}
        env.update(PORT=str(self.port), ROUNDEL_VAR_DIR=str(var_dir))
        self.log = log
        self.process = subprocess.Popen(
            ["bin/run-dev"], cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        wait_for(lambda: self.says("Roundel is at"), timeout=240, why=self.output)

    def output(self) -> str:
        return self.log.read_text()

    def says(self, text: str) -> bool:
        assert self.process.poll() is None or text in self.output(), self.output()
        return text in self.output()

    def children(self) -> dict[str, int]:
        """The worker, beat and web server that run-dev started: {CHILDREN value: pid}."""
        found = {}
        for entry in Path("/proc").iterdir():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                args = (entry / "cmdline").read_bytes().decode().split("\0")
            except (OSError, ValueError):
                continue
            if parent == self.process.pid and is_running(int(entry.name)):
                found.update(
                    {name: int(entry.name) for arg, name in CHILDREN.items() if arg in args}
                )
        return found

    def serves(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/accounts/login/") as page:
                return page.status == 200
        except OSError:
            return False

    def ctrl_c(self) -> int:
        """What the terminal does on Ctrl-C: SIGINT to the foreground process group."""
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def var_dir(tmp_path_factory) -> Path:
    """One site for the module's runs: the first migrates and loads the demo, the rest start
    quickly."""
    return tmp_path_factory.mktemp("var")


@pytest.fixture
def make_run(var_dir, tmp_path):
    started = MakeRun(var_dir, tmp_path / "run-dev.log")
    try:
        yield started
    finally:
        if started.process.poll() is None:
            started.ctrl_c()


def test_make_run_prints_and_serves_the_port_given(make_run):
    output = make_run.output()
    assert f"Demo logins (http://127.0.0.1:{make_run.port}/accounts/login/)" in output
    assert f"Roundel is at http://127.0.0.1:{make_run.port}/" in output
    assert ":8000" not in output
    wait_for(make_run.serves, timeout=60, why=make_run.output)  # the web server may take a moment


def test_the_emailed_notices_link_to_the_port_given_when_site_url_is_unset(make_run):
    """The worker sends the notices (scoring.match_night): their links use SITE_URL."""
    worker = wait_for(
        lambda: make_run.children().get("Celery worker"), timeout=30, why=make_run.output
    )
    environ = Path(f"/proc/{worker}/environ").read_bytes().split(b"\0")
    assert f"SITE_URL=http://127.0.0.1:{make_run.port}".encode() in environ


@pytest.mark.parametrize("name", ["Celery worker", "Celery beat"])
def test_a_worker_or_beat_that_dies_is_restarted_and_the_terminal_says_so(make_run, name):
    first = wait_for(lambda: make_run.children().get(name), timeout=30, why=make_run.output)
    os.killpg(first, signal.SIGKILL)  # itself and whatever it forked
    wait_for(
        lambda: make_run.says(f"The {name} stopped (exit 137); restarting it."),
        timeout=30,
        why=make_run.output,
    )
    again = wait_for(lambda: make_run.children().get(name), timeout=30, why=make_run.output)
    assert again != first
    time.sleep(3)  # it stays up: it was started as before, not into an error
    assert is_running(again), make_run.output()
    assert make_run.children().keys() == set(CHILDREN.values())
    assert wait_for(make_run.serves, timeout=60, why=make_run.output)


def test_ctrl_c_stops_the_worker_beat_and_web_server(make_run):
    children = wait_for(
        lambda: len(found := make_run.children()) == 3 and found, timeout=30, why=make_run.output
    )
    assert make_run.ctrl_c() == 0
    wait_for(lambda: not any(map(is_running, children.values())), timeout=30, why=make_run.output)
    assert "restarting" not in make_run.output()


def test_the_web_server_dying_stops_everything(make_run):
    children = wait_for(
        lambda: len(found := make_run.children()) == 3 and found, timeout=30, why=make_run.output
    )
    os.killpg(children["web server"], signal.SIGKILL)
    assert make_run.process.wait(timeout=60) == 137
    assert "The web server stopped (exit 137); stopping Roundel." in make_run.output()
    wait_for(lambda: not any(map(is_running, children.values())), timeout=30, why=make_run.output)
