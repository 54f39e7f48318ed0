"""The process's sync thread takes work earliest deadline first (config/sync_thread.py): a move
that comes in behind page reads goes before them, a read that has waited its time is not
passed over, and a caller that went away leaves nothing behind."""

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from config.sync_thread import ACTION_SECONDS, READ_SECONDS, request_seconds, sync_thread


def _in_a_loop_of_its_own(main: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """`asyncio.run(main())` on a thread of its own: a browser test in the same process may
    have left an event loop running on this one."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(main())
        except BaseException as error:  # re-raised on the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(10)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


async def _thread_held(ran: list[str]) -> tuple[threading.Event, "asyncio.Task[None]"]:
    """The sync thread busy with a piece of work that ends when the returned event is set."""
    started, release = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        release.wait(5)
        ran.append("held")

    task = asyncio.create_task(sync_thread().run(ACTION_SECONDS, hold))
    while not started.is_set():
        await asyncio.sleep(0.001)
    return release, task


def _queued(ran: list[str], name: str, seconds: float) -> "asyncio.Task[None]":
    return asyncio.create_task(sync_thread().run(seconds, ran.append, name))


def test_a_move_that_comes_in_behind_page_reads_goes_before_them():
    async def main() -> list[str]:
        ran: list[str] = []
        release, held = await _thread_held(ran)
        waiting = [_queued(ran, "read 1", READ_SECONDS), _queued(ran, "read 2", READ_SECONDS)]
        await asyncio.sleep(0.005)
        waiting.append(_queued(ran, "move", ACTION_SECONDS))
        await asyncio.sleep(0.005)
        release.set()
        await asyncio.gather(held, *waiting)
        return ran

    assert _in_a_loop_of_its_own(main) == ["held", "move", "read 1", "read 2"]


def test_control_asgirefs_own_queue_leaves_the_move_behind_the_reads():
    """Without the scheduler (the executor's queue, in order of arrival) the move waits."""

    async def main() -> list[str]:
        ran: list[str] = []
        release, held = await _thread_held(ran)
        waiting = [
            asyncio.create_task(sync_to_async(ran.append)("read 1")),
            asyncio.create_task(sync_to_async(ran.append)("read 2")),
        ]
        await asyncio.sleep(0.005)
        waiting.append(asyncio.create_task(sync_to_async(ran.append)("move")))
        await asyncio.sleep(0.005)
        release.set()
        await asyncio.gather(held, *waiting)
        return ran

    assert _in_a_loop_of_its_own(main) == ["held", "read 1", "read 2", "move"]


def test_a_read_that_has_waited_its_time_goes_before_a_later_move():
    async def main() -> list[str]:
        ran: list[str] = []
        release, held = await _thread_held(ran)
        read = _queued(ran, "read", READ_SECONDS)
        await asyncio.sleep(READ_SECONDS)  # the read's deadline passes while the thread is held
        move = _queued(ran, "move", ACTION_SECONDS)
        await asyncio.sleep(0.005)
        release.set()
        await asyncio.gather(held, read, move)
        return ran

    assert _in_a_loop_of_its_own(main) == ["held", "read", "move"]


def test_work_whose_caller_went_away_before_its_turn_never_runs():
    async def main() -> list[str]:
        ran: list[str] = []
        release, held = await _thread_held(ran)
        gone = _queued(ran, "gone", ACTION_SECONDS)
        kept = _queued(ran, "kept", READ_SECONDS)
        await asyncio.sleep(0.005)
        gone.cancel()
        release.set()
        await asyncio.gather(held, kept)
        with pytest.raises(asyncio.CancelledError):
            await gone
        return ran

    assert _in_a_loop_of_its_own(main) == ["held", "kept"]


def test_an_error_reaches_its_caller_and_the_thread_goes_on():
    def fail() -> None:
        raise ValueError("no such table")

    async def main() -> str:
        with pytest.raises(ValueError, match="no such table"):
            await sync_thread().run(ACTION_SECONDS, fail)
        return await sync_thread().run(READ_SECONDS, lambda: "next")

    assert _in_a_loop_of_its_own(main) == "next"


def test_the_work_runs_in_its_callers_language():
    async def main() -> str:
        translation.activate("fi")
        return await sync_thread().run(READ_SECONDS, translation.get_language)

    assert _in_a_loop_of_its_own(main) == "fi"


@pytest.mark.parametrize(
    ("method", "seconds"),
    [
        ("GET", READ_SECONDS),
        ("HEAD", READ_SECONDS),
        ("POST", ACTION_SECONDS),
        ("put", ACTION_SECONDS),
    ],
)
def test_a_request_may_wait_a_reads_time_unless_it_changes_something(method, seconds):
    assert request_seconds(method) == seconds
