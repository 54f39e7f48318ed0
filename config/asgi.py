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
"""

import os

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


class OneThreadASGIHandler(ASGIHandler):
    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":  # as Django's: no lifespan, no websockets
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # Without Django's ThreadSensitiveContext, thread-sensitive sync code goes to asgiref's
        # single thread of the process.
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
application = OneThreadASGIHandler()
