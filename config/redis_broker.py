"""The production broker: kombu's Redis transport, with one redis-py client per channel for
its commands rather than one per command.

kombu builds a redis-py client for every publish, acknowledgement and unacked-message
bookkeeping (`Channel.conn_or_acquire` calls `_create_client` each time), and redis-py builds
its table of response callbacks anew for every client: 84 µs a client on our machine, about
as long as the command's round trip to Redis (docs/performance.md; kombu's transport was a
third of the Celery worker's Python time on a busy night). A redis-py client is thread-safe (each command takes a connection from
the pool), so the channel keeps one on its pool, and builds another only when kombu has
replaced the pool (after a fork or a lost connection).
"""

from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    _commands_client: Any = None

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:  # the consumer's own (BRPOP, pub/sub): kombu caches that one itself
            return super()._create_client(asynchronous=True)
        client = self._commands_client
        if client is None or client.connection_pool is not self.pool:
            client = self._commands_client = super()._create_client()
        return client


class Transport(redis.Transport):
    Channel = Channel
