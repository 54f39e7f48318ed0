"""The site under an ASGI server in the test process, as production serves it (gunicorn's ASGI
worker): the table pages' event streams need one (a WSGI server answers them 204).

It is gunicorn's own HTTP protocol (`gunicorn.asgi.protocol.ASGIProtocol`, what its `asgi`
worker serves each connection with) on an event loop in a thread of the test process, so that
it sees the test's settings and database as pytest-django's `live_server` does; gunicorn's
arbiter and worker processes are left out (they want the main thread and their own
processes). The stand-in for the worker carries what the protocol reads of it.
"""

import asyncio
import socket
import sys
import threading
import types

from asgiref.sync import sync_to_async
from django.db import connections
from django.test.utils import modify_settings
from gunicorn.asgi.protocol import ASGIProtocol  # type: ignore[import-untyped]
from gunicorn.config import Config  # type: ignore[import-untyped]
from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from config.asgi import application


class AsgiLiveServer:
    """`url`, and `stop()`; `_live_server_modified_settings` is what pytest-django's
    `_live_server_helper` enables around each test that uses a `live_server`."""

    def __init__(self, host: str = "127.0.0.1"):
        with socket.socket() as probe:
            probe.bind((host, 0))
            port = probe.getsockname()[1]
        self.url = f"http://{host}:{port}"
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        self.loop = asyncio.new_event_loop()
        config = Config()
        config.set("keepalive", 5)
        self.worker = types.SimpleNamespace(
            cfg=config, log=Logger(config), asgi=application, loop=self.loop,
            alive=True, nr=0, max_requests=sys.maxsize, nr_conns=0, state={},
        )  # fmt: skip
        ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(host, port, ready), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _serve(self, host: str, port: int, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            self.loop.create_server(lambda: ASGIProtocol(self.worker), host, port)
        )
        ready.set()
        self.loop.run_forever()

    def stop(self) -> None:
        async def close():
            self.server.close()
            # The connection of the thread the sync code ran on (config.asgi), before the test
            # database goes.
            await sync_to_async(connections.close_all)()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def __str__(self) -> str:
        return self.url
