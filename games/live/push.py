"""Pushed table changes: every open page of a table hears of a change as soon as it commits
(docs/live-tables.md, "Pushed moves").

After a table write commits, `table_changed_on_commit` announces the table's id and turn to
every web process (and, for a move a page sent, that page's id), never a hand or a state.
Each page's stream then draws the live part for its own viewer (their seat's view, in their
language, as their fetch would: a `Draw`) and sends it in the event, so the page shows it
without asking. It does not draw the change its own page's move made (that move's answer
shows it), nor what it sent last. A stream that cannot draw (the table is gone) sends the bare
announcement, and the page fetches its live part as a poll does.

A page's event stream (`table_event_stream`, served by games.live.views.table_events) waits
on the change feed of its web process, one per event loop, fed in one of two ways:

- **Redis pub/sub** (`LIVE_PUSH_URL`, production): writers publish on one channel after
  commit, wherever they run (a web process, a Celery worker's bots and clocks); each web
  process holds one subscription and hands each message to the streams of its table.
- **The database** (no `LIVE_PUSH_URL`, the embedded default of `make run`): each web process
  reads the versions of the tables its streams watch every DATABASE_WATCH_SECONDS, in one
  query, and wakes the streams of those that changed. The writers are in two processes there
  (the web server, and the Celery worker that plays the bots and runs the clocks), so an
  in-process notifier would miss half the changes; SQLite has no LISTEN/NOTIFY, and one query
  a quarter second for all of a process's streams costs SQLite little. A version does not say
  which page moved, so there a page's stream draws its own move's change too (once more than
  needed, on one machine).
"""

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import re
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction

from games.models import Table

from .versions import table_versions

logger = logging.getLogger(__name__)

DATABASE_WATCH_SECONDS = 0.25
# A stream sends a ping this often, so that a page (and any proxy) can tell a quiet table from
# a dead connection; the page falls back to polling after two missed pings.
PING_SECONDS = 15.0
RECONNECT_MILLISECONDS = 2000  # how long a browser waits before opening a dropped stream again
REDIS_TIMEOUT_SECONDS = 0.5
REDIS_RETRY_SECONDS = 1.0

Event = dict[str, Any]
# A table page names itself (a random id) in its stream's address and its moves' requests.
PAGE_HEADER = "X-Table-Page"
_PAGE_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_moving_page: contextvars.ContextVar[str] = contextvars.ContextVar("moving_page", default="")


def table_changed_on_commit(table: Table) -> None:
    """Announce `table` after the current transaction commits (nothing if it rolls back), with
    the turn it has then. Every table write calls this with the table it locked."""
    table_id, page = table.pk, _moving_page.get()
    transaction.on_commit(
        lambda: table_changed_announce(table_id=table_id, turn=table.turn, page=page)
    )


@contextlib.contextmanager
def moves_from_page(page: str) -> Iterator[None]:
    """The table writes made meanwhile are the move of the page `page` (its id, `page_id`):
    their announcement says so, and that page's stream leaves the change to the move's
    answer."""
    token = _moving_page.set(page)
    try:
        yield
    finally:
        _moving_page.reset(token)


def page_id(value: str | None) -> str:
    """A table page's own id as it sent it (static/games/table.js), or "" for none or for
    what is not one."""
    return value if value and _PAGE_ID.match(value) else ""


def table_changed_announce(*, table_id: int, turn: int, page: str = "") -> None:
    """Publish that the table changed (Redis feed only: the database feed sees it by itself).
    If Redis is away the change still stands; pages hear of it at their next look (a
    reconnection, or the fallback poll)."""
    url = settings.LIVE_PUSH_URL
    if not url:
        return
    event: Event = {"table": table_id, "turn": turn, "at": time.time()}
    if page:
        event["page"] = page
    try:
        _publisher(url).publish(channel(url), json.dumps(event))
    except redis.RedisError:
        logger.warning("could not push table %s turn %s to %s", table_id, turn, url)


@functools.cache
def channel(url: str) -> str:
    """The pub/sub channel of table changes. Redis's pub/sub ignores database numbers, so the
    channel carries the URL's: sites (or test runs) on one Redis with their own databases
    hear only their own tables."""
    database = redis.Redis.from_url(url).connection_pool.connection_kwargs.get("db", 0)
    return f"roundel:{database}:tables"


@functools.cache
def _publisher(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
    )


# The viewer's live part now: its ETag, and its HTML unless that ETag is the argument (what
# the stream sent last); None when the table is gone.
Draw = Callable[[str], Awaitable[tuple[str, str | None] | None]]


async def table_event_stream(
    *,
    table_id: int,
    version: dict[str, Any],
    draw: Draw,
    page: str = "",
    shown: str = "",
    ping_seconds: float = PING_SECONDS,
) -> AsyncIterator[str]:
    """A table's server-sent events: first one at once (a page that connects or reconnects
    gets the whole table, so it misses nothing), then one for each change, a ping when quiet.
    `version` is the table's version read before (the database feed's starting point). Each
    event carries the viewer's live part (`html`, from `draw`) and its `etag`, or the `etag`
    alone when the stream sent that part last (or it is `shown`, the ETag of the part the page
    was loaded with); the change a move of the page `page` made is not sent at all (the
    move's answer shows it)."""
    feed = _feed()
    changes = feed.subscribe(table_id, version=version)
    try:
        event: Event = {"table": table_id, "turn": version["turn"]}
        retry = f"retry: {RECONNECT_MILLISECONDS}\n"  # the first event says it
        while True:
            event, shown = await _drawn(event, draw=draw, shown=shown)
            yield retry + _event(event)
            retry = ""
            while True:
                try:
                    event = await asyncio.wait_for(changes.get(), timeout=ping_seconds)
                except TimeoutError:
                    yield "event: ping\ndata: {}\n\n"
                    continue
                if not (page and event.get("page") == page):
                    break
                shown = ""  # the page shows the move's answer, whose ETag the stream has not
            event.pop("page", None)  # another page's id is nobody else's business
    finally:
        feed.unsubscribe(table_id, changes)


async def _drawn(event: Event, *, draw: Draw, shown: str) -> tuple[Event, str]:
    """`event` with the viewer's live part (or its ETag alone), and the ETag shown then."""
    try:
        drawn = await draw(shown)
    except Exception:  # the page fetches its part instead, and meets the error there
        logger.exception("could not draw table %s for its stream", event["table"])
        return event, shown
    if drawn is None:  # the table is gone: the page's fetch finds out (and reloads)
        return event, shown
    etag, html = drawn
    return (
        {**event, "etag": etag} if html is None else {**event, "etag": etag, "html": html}
    ), etag


def _event(event: Event) -> str:
    return f"data: {json.dumps(event)}\n\n"


class ChangeFeed:
    """The streams of one event loop by table, and the task that wakes them."""

    def __init__(self, *, url: str) -> None:
        self.url = url
        self.streams: dict[int, set[asyncio.Queue[Event]]] = {}
        self.versions: dict[int, dict[str, Any] | None] = {}  # the database feed's last look
        source = _redis_source(self, url=url) if url else _database_source(self)
        self.task = asyncio.get_running_loop().create_task(source)

    def subscribe(self, table_id: int, *, version: dict[str, Any]) -> "asyncio.Queue[Event]":
        # One place: changes are "look again", so a stream that has not sent the last one
        # yet needs only the newest.
        queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=1)
        self.streams.setdefault(table_id, set()).add(queue)
        self.versions.setdefault(table_id, version)
        return queue

    def unsubscribe(self, table_id: int, queue: "asyncio.Queue[Event]") -> None:
        streams = self.streams.get(table_id, set())
        streams.discard(queue)
        if not streams:
            self.streams.pop(table_id, None)
            self.versions.pop(table_id, None)

    def deliver(self, table_id: int, event: Event) -> None:
        for queue in self.streams.get(table_id, ()):
            if queue.full():
                queue.get_nowait()
                # It stands for several changes now: drawn, whichever page's move made them.
                queue.put_nowait({key: value for key, value in event.items() if key != "page"})
            else:
                queue.put_nowait(event)

    def deliver_everywhere(self) -> None:
        """After the feed was away: anything may have changed, so every stream looks again."""
        for table_id in list(self.streams):
            self.deliver(table_id, {"table": table_id})


_feeds: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ChangeFeed]" = (
    weakref.WeakKeyDictionary()
)


def _feed() -> ChangeFeed:
    loop = asyncio.get_running_loop()
    feed = _feeds.get(loop)
    if feed is None or feed.task.done() or feed.url != settings.LIVE_PUSH_URL:
        if feed is not None:
            feed.task.cancel()
        feed = _feeds[loop] = ChangeFeed(url=settings.LIVE_PUSH_URL)
    return feed


async def _redis_source(feed: ChangeFeed, *, url: str) -> None:
    """One subscription for the whole process; reconnects after a second if Redis goes, and
    then has every stream look again (what was published meanwhile is lost)."""
    while True:
        client = redis.asyncio.Redis.from_url(url, socket_connect_timeout=REDIS_TIMEOUT_SECONDS)
        try:
            async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                await pubsub.subscribe(channel(url))
                feed.deliver_everywhere()
                async for message in pubsub.listen():
                    try:
                        event = json.loads(message["data"])
                        table_id = event["table"]
                    except (ValueError, KeyError, TypeError):  # not ours: the feed goes on
                        logger.warning("a message on the push channel that is not a change")
                        continue
                    feed.deliver(table_id, event)
        except (redis.RedisError, OSError):
            logger.warning("lost the push feed at %s; trying again", url)
        finally:
            await client.aclose()
        await asyncio.sleep(REDIS_RETRY_SECONDS)


async def _database_source(feed: ChangeFeed) -> None:
    # On the thread the sync views run on, with their connection (Django closes it as usual).
    read = sync_to_async(table_versions)
    while True:
        await asyncio.sleep(DATABASE_WATCH_SECONDS)
        watched = list(feed.streams)
        if not watched:
            continue
        try:
            versions = await read(table_ids=watched)
        except Exception:  # the database is away: look again next time
            logger.warning("could not read table versions for the event streams", exc_info=True)
            continue
        for table_id in watched:
            version = versions.get(table_id)  # None: the table is gone (closed)
            if table_id in feed.versions and feed.versions[table_id] != version:
                feed.versions[table_id] = version
                turn = None if version is None else version["turn"]
                feed.deliver(table_id, {"table": table_id, "turn": turn})
