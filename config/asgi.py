"""The site under an ASGI server (gunicorn's `asgi` worker, docs/operations.md): the pages and
the API as under WSGI, and the live tables' event streams, which only an async server can hold
open by the hundred.

Django's own handler runs each request's synchronous code (the middleware, every view but the
event stream) on a thread made for that request. A database connection belongs to its thread,
so each request then connected to PostgreSQL anew (13 ms at this machine's usual load) and a
connection kept for reuse (CONN_MAX_AGE) was never used again, only left open. This handler
runs that code on the one thread asgiref keeps per process instead, as a sync worker would:
requests of one process take turns there and keep their connection, and the server runs
several processes (`--workers`) for the cores; the event streams wait on the event loop
meanwhile and hold no thread.

It also runs the middleware as a WSGI server would, all of it synchronously on that thread,
in one hop from the event loop. Django's handler runs each middleware in the mode it
offers: ours are synchronous and Django's offer both, so a request crossed between the
event loop and the thread at every change of mode (five crossings a request, each waiting
for a busy loop's turn), which cost more than a cheap page's own work. An async view (the
event stream) is still awaited on the event loop, and its stream is sent from there.

The thread takes its work earliest deadline first (config/sync_thread.py): a move or a form
before the reads that came in a moment earlier.
"""

import os

import django
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

from config.heap import startup_heap_freeze
from config.sync_thread import request_seconds, sync_thread

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class OneThreadASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # A move goes before the page reads that came in just before it (config/sync_thread.py).
        return await sync_thread().run(
            request_seconds(request.method or "GET"), self.get_response, request
        )

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # as Django's: no lifespan, no websockets
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # Without Django's ThreadSensitiveContext, thread-sensitive sync code goes to asgiref's
        # single thread of the process.
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
application = OneThreadASGIHandler()
startup_heap_freeze()
