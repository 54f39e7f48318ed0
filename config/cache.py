"""A Redis cache that is only ever an optimisation.

The site caches what it can compute (the standings tables) and counts throttled requests in
the cache. When Redis is down, refuses connections or accepts them and never answers, Django's
RedisCache raises (after its socket timeouts) and the page is a 500. This backend treats any
Redis failure as a miss: reads answer the default, writes are dropped, a warning is logged, and
for the next BREATHER_SECONDS the cache is not asked at all, so a silent Redis costs one short
timeout (settings: socket_connect_timeout, socket_timeout) and not one per cache call.
"""

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import Redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

BREATHER_SECONDS = 30.0


class _Outage:
    """When a cache server was last found unreachable (one per server, see _outage_of)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until = 0.0

    def skipping(self) -> bool:
        return time.monotonic() < self._until

    def begin(self, error: BaseException, location: str) -> None:
        with self._lock:
            self._until = time.monotonic() + BREATHER_SECONDS
        logger.warning(
            "Cache at %s unavailable (%s: %s); answering without it for %.0f s.",
            location,
            type(error).__name__,
            error,
            BREATHER_SECONDS,
        )


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


def _outage_of(location: str) -> _Outage:
    """Django makes a cache client per thread; the threads of a process share what they learn."""
    with _outages_lock:
        return _outages.setdefault(location, _Outage())


_clients: dict[tuple[str, str], Redis] = {}
_clients_lock = threading.Lock()


def _shared_client(
    client_class: Any, pool_class: Any, server: str, options: dict[str, Any]
) -> Redis:
    """Django makes a cache client per thread and, under ASGI, per request; each would open
    its own pool, so a new Redis connection per request (and redis-py's driver lookup with
    it), and it makes a redis-py client for every cache call (70 µs, longer than the call's
    round trip to Redis). One pool per server and options, and one client on it, serve every
    cache call of the process: both are thread-safe, and the pool starts afresh in a forked
    child."""
    key = (server, repr(sorted(options.items())))
    with _clients_lock:
        if key not in _clients:
            _clients[key] = client_class(connection_pool=pool_class.from_url(server, **options))
        return _clients[key]


class ForgivingRedisCacheClient(RedisCacheClient):
    def __init__(self, servers, **options):
        super().__init__(servers, **options)
        self._location = ",".join(_without_password(server) for server in servers)
        self._outage = _outage_of(self._location)

    def get_client(self, key=None, *, write=False):
        server = self._servers[self._get_connection_pool_index(write)]
        return _shared_client(self._client, self._pool_class, server, self._pool_options)

    def _attempt(self, operation, *args, fallback):
        if self._outage.skipping():
            return fallback
        try:
            return operation(*args)
        except (RedisError, OSError) as error:
            self._outage.begin(error, self._location)
            return fallback

    def add(self, key, value, timeout):
        return self._attempt(super().add, key, value, timeout, fallback=False)

    def get(self, key, default):
        return self._attempt(super().get, key, default, fallback=default)

    def set(self, key, value, timeout):
        self._attempt(super().set, key, value, timeout, fallback=None)

    def touch(self, key, timeout):
        return self._attempt(super().touch, key, timeout, fallback=False)

    def delete(self, key):
        return self._attempt(super().delete, key, fallback=False)

    def get_many(self, keys):
        return self._attempt(super().get_many, keys, fallback={})

    def has_key(self, key):
        return self._attempt(super().has_key, key, fallback=False)

    def incr(self, key, delta):
        missing = object()
        value = self._attempt(super().incr, key, delta, fallback=missing)
        if value is missing:
            raise ValueError(f"Key {key!r} not found (the cache is unavailable).")
        return value

    def set_many(self, data, timeout):
        self._attempt(super().set_many, data, timeout, fallback=None)

    def delete_many(self, keys):
        self._attempt(super().delete_many, keys, fallback=None)

    def clear(self):
        return self._attempt(super().clear, fallback=False)


class ForgivingRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ForgivingRedisCacheClient


def _without_password(url: str) -> str:
    """redis://user:secret@host:6379/0 → redis://host:6379/0, for the log line."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}" if rest else url
