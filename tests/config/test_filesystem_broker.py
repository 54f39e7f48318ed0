"""config.filesystem_broker: a worker polling the embedded default's queue folder never takes a
message before it is complete. Another process reads every message file it sees while this
one sends thousands; kombu's own transport, as the control, lets it read empty ones."""

import multiprocessing
import os
import subprocess
import sys

import pytest
from kombu import Connection

from tests.conftest import ROOT

OURS = "config.filesystem_broker:Transport"
KOMBUS_OWN = "kombu.transport.filesystem:Transport"
MESSAGES = 3000


@pytest.fixture(scope="module")
def control_folder(tmp_path_factory):
    """Where kombu keeps each exchange's bindings ("control" in the working directory, the
    checkout, unless told otherwise). kombu remembers in its process-wide broker state that a
    queue is bound and does not write the file again, so every send here shares one folder."""
    return tmp_path_factory.mktemp("kombu-control")


def _read_every_message(folder: str, stop, found) -> None:
    empty = read = 0
    while not stop.is_set():
        for name in os.listdir(folder):
            if not name.endswith(".msg"):
                continue
            try:
                with open(os.path.join(folder, name), "rb") as message:
                    content = message.read()
            except OSError:  # taken meanwhile
                continue
            read += 1
            empty += not content
    found.put((read, empty))


def empty_messages_seen(folder, transport, control_folder) -> int:
    """Sends MESSAGES through `transport` while another process reads the queue folder;
    returns how many messages that process found empty."""
    forked = multiprocessing.get_context("fork")
    stop, found = forked.Event(), forked.Queue()
    reader = forked.Process(target=_read_every_message, args=(str(folder), stop, found))
    reader.start()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(control_folder),
    }
    try:
        with Connection("filesystem://", transport=transport, transport_options=options) as broker:
            queue = broker.SimpleQueue("expiries")
            for number in range(MESSAGES):
                queue.put({"table": number, "turn": 1})
    finally:
        stop.set()
        read, empty = found.get(timeout=30)
        reader.join(timeout=30)
    assert read > 0, "the reader saw no message: the test proves nothing"
    return empty


def test_a_reader_never_sees_a_message_before_it_is_written(tmp_path, control_folder):
    assert empty_messages_seen(tmp_path, OURS, control_folder) == 0


def test_control_kombus_own_transport_shows_empty_messages(tmp_path, control_folder):
    """The race the transport closes: kombu creates the file, then writes it. Each round
    usually shows it several times, but on a machine busy with other tests the reader can go
    unscheduled through a whole round (five rounds once missed it in CI): up to twenty."""
    seen = 0
    for round_number in range(20):
        folder = tmp_path / str(round_number)
        folder.mkdir()
        seen += empty_messages_seen(folder, KOMBUS_OWN, control_folder)
        if seen:
            break
    assert seen > 0


def test_the_embedded_default_uses_it(tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith("CELERY_")}
    env.update(DEBUG="1", ROUNDEL_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from config.celery import app; "
         "kind = type(app.connection_for_write().transport); "
         "print(f'{kind.__module__}:{kind.__name__}')"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert shown.stdout.strip() == OURS
