"""config.redis_broker: the production broker delivers and acknowledges every message as
kombu's own Redis transport does, on one redis-py client per channel for its commands rather
than one per command (kombu's own, the control, builds one for every message)."""

import os
import uuid

import pytest
import redis
from kombu import Connection

OURS = "config.redis_broker:Transport"
KOMBUS_OWN = "kombu.transport.redis:Transport"
MESSAGES = 50


@pytest.fixture
def broker_url() -> str:
    return os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379") + "/14"


@pytest.fixture
def clients_built(monkeypatch) -> list[int]:
    """How many redis-py clients were built meanwhile: one counter."""
    built = [0]
    build = redis.Redis.__init__

    def counted(self, *args, **kwargs):
        built[0] += 1
        build(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    return built


def send_and_take(url: str, transport: str) -> tuple[list[int], int]:
    """Sends MESSAGES through `transport`, takes and acknowledges each; returns what was taken
    and how many messages the broker still holds unacknowledged."""
    with Connection(url, transport=transport) as broker:
        queue = broker.SimpleQueue(f"expiries-{uuid.uuid4().hex}")
        for number in range(MESSAGES):
            queue.put({"table": number, "turn": 1})
        taken = []
        for _ in range(MESSAGES):
            message = queue.get(timeout=5)
            taken.append(message.payload["table"])
            message.ack()
        channel = queue.channel
        unacked = channel.client.hlen(channel.unacked_key)
        queue.queue.delete()
        queue.close()
    return taken, unacked


@pytest.mark.parametrize("transport", [OURS, KOMBUS_OWN])
def test_every_message_is_delivered_once_and_acknowledged(broker_url, transport):
    taken, unacked = send_and_take(broker_url, transport)
    assert taken == list(range(MESSAGES))
    assert unacked == 0


def test_one_client_serves_a_channels_commands_where_kombu_builds_one_a_message(
    broker_url, clients_built
):
    send_and_take(broker_url, KOMBUS_OWN)
    kombus = clients_built[0]
    clients_built[0] = 0
    send_and_take(broker_url, OURS)
    assert kombus >= 2 * MESSAGES
    assert clients_built[0] <= 3


def test_a_new_pool_gets_a_new_client(broker_url):
    """kombu replaces a channel's pools after a fork or a lost connection: the client used
    afterwards is on the new pool, not the disconnected one."""
    with Connection(broker_url, transport=OURS) as broker:
        channel = broker.default_channel
        with channel.conn_or_acquire() as before:
            assert before.ping()
        channel._disconnect_pools()
        with channel.conn_or_acquire() as after:
            assert after.ping()
            assert after.connection_pool is channel.pool
        assert after is not before


def test_the_celery_app_sends_through_it(broker_url):
    from config.celery import app
    from config.redis_broker import Transport

    with app.connection_for_write(broker_url) as broker:
        assert isinstance(broker.transport, Transport)
