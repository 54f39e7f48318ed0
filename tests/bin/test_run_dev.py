"""bin/run-dev (`make run`): with PORT set, every address it prints and serves uses PORT."""

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNSET = {"DEBUG", "SECRET_KEY", "DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL",
         "CELERY_RESULT_BACKEND", "DJANGO_SETTINGS_MODULE"}  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_make_run_prints_and_serves_the_port_given(tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in UNSET}
    env.update(PORT=str(port), ROUNDEL_VAR_DIR=str(tmp_path / "var"))
    log = tmp_path / "run-dev.log"
    process = subprocess.Popen(
        ["bin/run-dev"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while "Roundel is at" not in log.read_text():
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.5)
        output = log.read_text()
        assert f"Demo logins (http://127.0.0.1:{port}/accounts/login/)" in output
        assert f"Roundel is at http://127.0.0.1:{port}/" in output
        assert ":8000" not in output
        while True:  # runserver may take a moment after the banner
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/") as page:
                    assert page.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.5)
    finally:
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
