"""Pushed table changes: a committed move reaches a page's event stream, served by the ASGI
server in the test process (tests/asgi_server.py), through Redis pub/sub (production) and
through the database watch (no Redis, the embedded default); and the stream carries nothing
but the table's id, turn and time, to players and spectators alike."""

import http.client
import json
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
import redis
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.engines import get_engine
from games.live import services
from games.models import Table
from tests.asgi_server import AsgiLiveServer
from tests.conftest import table_worker_broker_url
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]

EVENT_KEYS = {"table", "turn", "at"}


@pytest.fixture(scope="module")
def asgi_server(django_db_setup):
    server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture(params=["redis", "database"])
def feed(request, settings, worker_id):
    """Each way a web process hears of changes: Redis pub/sub (where `table_worker` pushes the
    bots' moves) or the database watch."""
    if request.param == "redis":
        settings.LIVE_PUSH_URL = table_worker_broker_url(worker_id)
        redis.Redis.from_url(settings.LIVE_PUSH_URL).ping()
    else:
        settings.LIVE_PUSH_URL = ""
    return request.param


class EventStream:
    """A page's EventSource, read by hand: each event's data as JSON, with when it came."""

    def __init__(self, server: AsgiLiveServer, table_id: int, *, cookie: str = ""):
        address = urlsplit(server.url)
        self.connection = http.client.HTTPConnection(
            address.hostname or "127.0.0.1", address.port, timeout=10
        )
        headers = {"Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = cookie
        self.connection.request("GET", reverse("table-events", args=[table_id]), headers=headers)
        self.response = self.connection.getresponse()
        self.raw = ""

    def change(self, *, turn: int, timeout: float = 5) -> tuple[dict, float]:
        """The next event that names `turn` (a feed that has just (re)connected first asks
        every stream to look again, without a turn), with the time it came."""
        deadline = time.monotonic() + timeout
        while True:
            event, came = self.next(timeout=max(0.1, deadline - time.monotonic()))
            if "turn" in event:
                assert event["turn"] == turn, event
                return event, came

    def next(self, *, timeout: float = 10) -> tuple[dict, float]:
        """The next event with data (pings skipped) and the time it came (time.time())."""
        self.connection.sock.settimeout(timeout)
        lines: list[str] = []
        while True:
            line = self.response.readline().decode()
            self.raw += line
            if line.strip():
                lines.append(line.strip())
                continue
            data = [line[5:].strip() for line in lines if line.startswith("data:")]
            if data and not any(line == "event: ping" for line in lines):
                return json.loads("".join(data)), time.time()
            lines = []

    def close(self) -> None:
        self.connection.close()


def korova_for_two():
    ada, bea = UserFactory(username="ada"), UserFactory(username="bea")
    table = services.table_create(game="korova", players=2, options={}, bots=[], by=ada)
    services.table_join(table_id=table.pk, by=bea)
    table.refresh_from_db()
    return table, ada, bea


def play_a_card(table: Table, user, seat: int) -> None:
    assert table.state is not None, "the game is on"
    eng = get_engine("korova")
    move = eng.legal_moves(eng.load(table.state), seat)[0]
    services.table_move(table_id=table.pk, turn=table.turn, move=move, by=user)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def test_a_committed_move_reaches_every_open_stream_of_its_table(asgi_server, feed):
    table, ada, bea = korova_for_two()
    streams = [
        EventStream(asgi_server, table.pk, cookie=session_cookie(ada)),
        EventStream(asgi_server, table.pk, cookie=session_cookie(bea)),
        EventStream(asgi_server, table.pk),  # a spectator
    ]
    try:
        for stream in streams:
            assert stream.response.status == 200
            assert stream.response.getheader("Content-Type") == "text/event-stream"
            first, _ = stream.next()  # at once: a page that connects looks at the table
            assert first == {"table": table.pk, "turn": 1}

        play_a_card(table, ada, seat=0)
        committed = time.time()
        for stream in streams:
            event, came = stream.change(turn=1)
            assert event["table"] == table.pk
            assert set(event) <= EVENT_KEYS
            assert came - committed < 2

        play_a_card(table, bea, seat=1)  # the turn closes: both cards are revealed
        for stream in streams:
            stream.change(turn=2)
    finally:
        for stream in streams:
            stream.close()


def test_a_bots_move_in_the_worker_reaches_the_stream(asgi_server, feed, table_worker):
    """Bots and clocks write from the Celery worker, another process: its changes reach the
    web process's streams too (the worker publishes where the test's feed listens)."""
    ada = UserFactory(username="ada")
    table = services.table_create(game="korova", players=2, options={}, bots=[1], by=ada)
    table.refresh_from_db()
    stream = EventStream(asgi_server, table.pk)
    try:
        stream.next()
        play_a_card(table, ada, seat=0)
        stream.change(turn=1)  # Ada's card
        event, _ = stream.change(turn=2)  # the bot's, which closes the turn
        assert event["table"] == table.pk
        assert table.moves.filter(seat=1).exists()
    finally:
        stream.close()


def test_the_stream_carries_no_hand_or_state_to_anyone(asgi_server, feed):
    """A whole two-seat Корова game: every event every stream got holds the table's id, turn
    and time only, and none of the cards either seat held."""
    table, ada, bea = korova_for_two()
    eng = get_engine("korova")
    ada_stream = EventStream(asgi_server, table.pk, cookie=session_cookie(ada))
    spectator = EventStream(asgi_server, table.pk)
    events = []
    try:
        users = [ada, bea]
        for _ in range(12):
            table.refresh_from_db()
            seat = eng.to_act(eng.load(table.state))[0]
            play_a_card(table, users[seat], seat)
        table.refresh_from_db()
        for stream in (ada_stream, spectator):
            while True:
                event, _ = stream.next(timeout=5)
                events.append(event)
                if event.get("turn") == table.turn:
                    break
    finally:
        ada_stream.close()
        spectator.close()
    assert events and all(set(event) <= EVENT_KEYS for event in events)
    raw = ada_stream.raw + spectator.raw
    for secret in ("hand", "deck", "seed", "state", "rows"):
        assert secret not in raw
    state = eng.load(table.state)
    assert eng.view(state, 1)["hand"], "Bea still holds cards"


def get_from_a_thread_of_its_own(path):
    """The test client runs the async stream view through async_to_sync, which refuses a thread
    whose event loop runs (Playwright's sync API leaves one in a test worker's thread once a
    browser test ran there): ask from a fresh thread, closing its connection after."""

    def get():
        try:
            return Client().get(path)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(get).result()


def test_a_table_that_is_not_there_has_no_stream():
    assert get_from_a_thread_of_its_own(reverse("table-events", args=[999999])).status_code == 404


def test_a_wsgi_server_answers_204_so_that_the_page_polls_instead():
    table, _, _ = korova_for_two()
    response = get_from_a_thread_of_its_own(reverse("table-events", args=[table.pk]))
    assert response.status_code == 204


def test_a_korova_tables_bots_put_their_cards_down_together_one_change(
    asgi_server, feed, table_worker
):
    """Three bots at Ada's table pick in one transaction: her page hears one change for the
    three cards (their log entries share a time), not three fetches' worth."""
    ada = UserFactory(username="ada")
    table = services.table_create(game="korova", players=4, options={}, bots=[1, 2, 3], by=ada)
    stream = EventStream(asgi_server, table.pk, cookie=session_cookie(ada))
    try:
        stream.next()
        stream.change(turn=1)  # the bots' picks
        picks = list(table.moves.filter(turn=1).values_list("seat", "at"))
        assert sorted(seat for seat, _ in picks) == [1, 2, 3]
        assert len({at for _, at in picks}) == 1
        play_a_card(Table.objects.get(pk=table.pk), ada, seat=0)
        stream.change(turn=2)  # Ada's card closes the turn: the next change names turn 2
    finally:
        stream.close()
