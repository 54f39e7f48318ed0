"""The process's one thread for synchronous code (config/asgi.py), taking its work earliest
deadline first rather than in order of arrival.

Each ASGI process runs every request's synchronous code on one thread, so that its database
connection is kept (config/asgi.py). asgiref's executor for that thread takes work as it
comes: on a busy night a move waited behind every page read and every event stream's drawing
queued before it, although a player is waiting on the move and the others can wait a little.
Here each piece of work says how long it may wait (a move 25 ms, a read 300 ms) and the one
whose deadline is nearest goes next, one at a time, so the order is this scheduler's and not
the executor's queue. Work whose caller has gone (a closed connection) and has not started is
dropped; work that has started runs to its end on the thread.
"""

import asyncio
import functools
import heapq
import itertools
import time
import weakref
from collections.abc import Callable
from contextvars import Context, copy_context
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from rest_framework.permissions import SAFE_METHODS

T = TypeVar("T")
# deadline, order of arrival, the caller's future, the call, the caller's context
_Work = tuple[float, int, "asyncio.Future[Any]", Callable[[], Any], Context]

ACTION_SECONDS = 0.025  # a move, a form, an API write: someone waits on its answer
# A page, a poll, a stream's drawing of the live part. 0.3 rather than 0.1: in bursts reads
# queue longer than 100 ms, and a move then waited for all of them (see
# docs/performance.md "Earliest deadline first on the sync thread").
READ_SECONDS = 0.3


def request_seconds(method: str) -> float:
    """How long a request of this HTTP method may wait for the thread."""
    return READ_SECONDS if method.upper() in SAFE_METHODS else ACTION_SECONDS


class SyncThread:
    """The work waiting for the thread of one event loop, by deadline."""

    def __init__(self) -> None:
        self._waiting: list[_Work] = []
        self._order = itertools.count()  # equal deadlines keep their order of arrival
        self._busy = False

    async def run(self, seconds: float, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`fn(*args, **kwargs)` on the thread, once the work with nearer deadlines is done;
        `seconds` is how long it may wait from now."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        call = functools.partial(fn, *args, **kwargs)
        # The caller's context goes with the work (its active language, its request's locals):
        # sync_to_async takes it from the task that runs it.
        work: _Work = (time.monotonic() + seconds, next(self._order), future, call, copy_context())
        heapq.heappush(self._waiting, work)
        self._start_next()
        return await future

    def _start_next(self) -> None:
        while not self._busy and self._waiting:
            *_, future, call, context = heapq.heappop(self._waiting)
            if future.done():  # its caller went away while it waited
                continue
            self._busy = True
            loop = asyncio.get_running_loop()
            task = loop.create_task(sync_to_async(call)(), context=context)
            task.add_done_callback(functools.partial(self._finished, future))

    def _finished(self, future: asyncio.Future[Any], task: asyncio.Future[Any]) -> None:
        self._busy = False
        if not future.done():
            if task.cancelled():
                future.cancel()
            elif (error := task.exception()) is not None:
                future.set_exception(error)
            else:
                future.set_result(task.result())
        elif not task.cancelled():
            task.exception()  # retrieved: a caller that went away does not want it logged
        self._start_next()


_threads: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SyncThread]" = (
    weakref.WeakKeyDictionary()
)


def sync_thread() -> SyncThread:
    """The running event loop's scheduler for the sync thread."""
    loop = asyncio.get_running_loop()
    if loop not in _threads:
        _threads[loop] = SyncThread()
    return _threads[loop]


def in_turn(seconds: float, fn: Callable[..., T]) -> Callable[..., Any]:
    """`fn` as an async callable that waits its turn on the sync thread (`seconds`, as `run`)."""

    async def call(*args: Any, **kwargs: Any) -> T:
        return await sync_thread().run(seconds, fn, *args, **kwargs)

    return call
