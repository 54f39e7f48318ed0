"""config.heap: a server process starts its work with its start-up heap frozen, so that the
garbage collector's full collections walk only what came after (each process is a new
interpreter here, as a server's is)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPORT = "import gc, json; print(json.dumps([gc.get_freeze_count(), len(gc.get_objects())]))"


def frozen_and_walked(setup: str) -> tuple[int, int]:
    """After `setup` in a new interpreter: the objects frozen, and those a full collection
    walks."""
    done = subprocess.run(
        [sys.executable, "-c", f"{setup}\n{REPORT}"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    frozen, walked = json.loads(done.stdout.splitlines()[-1])
    return frozen, walked


@pytest.mark.parametrize("module", ["config.asgi", "config.wsgi"])
def test_a_web_process_serves_with_its_start_up_heap_frozen(module):
    frozen, walked = frozen_and_walked(f"import {module}")
    assert frozen > 50_000  # the modules, views and forms the URLconf imported
    assert walked < frozen / 10


def test_a_worker_freezes_its_start_up_heap_once_ready():
    setup = "\n".join([
        "import config.celery, django, gc",
        "from celery.signals import worker_ready",
        "django.setup()",
        "assert gc.get_freeze_count() == 0",
        "worker_ready.send(sender=None)",
    ])  # fmt: skip
    frozen, walked = frozen_and_walked(setup)
    assert frozen > 50_000
    assert walked < frozen / 10
