"""Pushed table changes: a committed move reaches a page's event stream, served by the ASGI
server in the test process (tests/asgi_server.py), through Redis pub/sub (production) and
through the database watch (no Redis, the embedded default); each stream's events carry the
live part as its own viewer sees it (never another seat's hand), or its ETag alone when the
page showed that part already."""

import http.client
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from html import escape, unescape
from urllib.parse import urlencode, urlsplit

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

EVENT_KEYS = {"table", "turn", "at", "etag", "html"}
DEALT = re.compile(r'data-card="(\d+)"')


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

    def __init__(
        self, server: AsgiLiveServer, table_id: int, *, cookie: str = "", page="", shown=""
    ):
        address = urlsplit(server.url)
        self.connection = http.client.HTTPConnection(
            address.hostname or "127.0.0.1", address.port, timeout=10
        )
        headers = {"Accept": "text/event-stream"}
        if cookie:
            headers["Cookie"] = cookie
        query = urlencode(
            {key: value for key, value in (("page", page), ("shown", shown)) if value}
        )
        path = reverse("table-events", args=[table_id]) + (f"?{query}" if query else "")
        self.connection.request("GET", path, headers=headers)
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


def shown_etag(event: dict) -> str:
    """The event's ETag as the live part's HTML holds it (data-etag)."""
    return f'data-etag="{escape(event["etag"])}"'


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
            first, _ = stream.next()  # at once, the whole live part: a page that connects is
            assert (first["table"], first["turn"]) == (table.pk, 1)  # up to date
            assert 'data-turn="1"' in first["html"] and shown_etag(first) in first["html"]

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


def test_each_stream_carries_its_own_viewers_part_and_no_other_hand(asgi_server, feed):
    """A whole two-seat Корова game: every event of Ada's stream holds her own cards only
    (those she was dealt), a spectator's none, and neither the deck, the seed nor Bea's
    hand."""
    table, ada, bea = korova_for_two()
    eng = get_engine("korova")
    dealt = eng.load(table.state).hands
    ada_cards, bea_cards = {str(card) for card in dealt[0]}, {str(card) for card in dealt[1]}
    ada_stream = EventStream(asgi_server, table.pk, cookie=session_cookie(ada))
    spectator = EventStream(asgi_server, table.pk)
    events: dict[str, list[dict]] = {"ada": [], "spectator": []}
    try:
        users = [ada, bea]
        for _ in range(12):
            table.refresh_from_db()
            seat = eng.to_act(eng.load(table.state))[0]
            play_a_card(table, users[seat], seat)
        table.refresh_from_db()
        for name, stream in (("ada", ada_stream), ("spectator", spectator)):
            while True:
                event, _ = stream.next(timeout=5)
                events[name].append(event)
                if event.get("turn") == table.turn:
                    break
    finally:
        ada_stream.close()
        spectator.close()
    every = events["ada"] + events["spectator"]
    assert every and all(set(event) <= EVENT_KEYS for event in every)
    ada_shown = {card for event in events["ada"] for card in DEALT.findall(event.get("html", ""))}
    assert ada_shown and ada_shown <= ada_cards and not ada_shown & bea_cards
    assert not any(DEALT.findall(event.get("html", "")) for event in events["spectator"])
    raw = ada_stream.raw + spectator.raw
    assert str(table.seed) not in raw and "seed" not in raw and "deck" not in raw
    assert eng.view(eng.load(table.state), 1)["hand"], "Bea still holds cards"


def test_a_pages_own_move_is_left_to_its_answer(asgi_server, settings, worker_id):
    """Ada's page moves through its form, naming itself: the move's answer is her new live
    part, and her page's stream sends nothing for that change (no second drawing); Bea's move
    after it comes drawn. (Through Redis, where the announcement names the moving page; the
    database watch cannot tell, and draws it.)"""
    settings.LIVE_PUSH_URL = table_worker_broker_url(worker_id)
    table, ada, bea = korova_for_two()
    page = "ada-phone-page-1"
    client = Client()  # Ada's phone: the page's requests and its stream share her session
    client.force_login(ada)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    stream = EventStream(asgi_server, table.pk, cookie=cookie, page=page)
    try:
        stream.next()
        eng = get_engine("korova")
        move = eng.legal_moves(eng.load(table.state), 0)[0]
        answer = client.post(
            reverse("table-move", args=[table.pk]),
            {"turn": table.turn, "move": json.dumps(move)},
            headers={"HX-Request": "true", "X-Table-Page": page},
        )
        assert (
            answer.status_code == 200 and "<strong>You</strong> played" in answer.content.decode()
        )

        table.refresh_from_db()
        play_a_card(table, bea, seat=1)
        event, _ = stream.change(turn=2)  # the next change: none named turn 1 came (Ada's)
        assert event["turn"] == 2 and shown_etag(event) in event["html"]
        assert "page" not in event
    finally:
        stream.close()


def test_a_page_that_connects_showing_the_table_as_it_is_gets_no_drawing(asgi_server, feed):
    """The page names the ETag it was loaded with: the stream's first event is that ETag
    alone while nothing changed, and the next change comes drawn."""
    table, ada, bea = korova_for_two()
    client = Client()
    client.force_login(ada)
    page = client.get(reverse("table-detail", args=[table.pk])).content.decode()
    loaded_with = unescape(re.search(r'data-etag="([^"]+)"', page)[1])
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    stream = EventStream(asgi_server, table.pk, cookie=cookie, shown=loaded_with)
    try:
        first, _ = stream.next()
        assert first["etag"] == loaded_with and "html" not in first
        play_a_card(table, bea, seat=1)
        event, _ = stream.change(turn=1)
        assert shown_etag(event) in event["html"] and event["etag"] != loaded_with
    finally:
        stream.close()


def test_another_pages_move_is_drawn_for_this_page(asgi_server, settings, worker_id):
    """A move from Ada's other tab (another page id) is drawn for this one."""
    settings.LIVE_PUSH_URL = table_worker_broker_url(worker_id)
    table, ada, _ = korova_for_two()
    client = Client()
    client.force_login(ada)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    stream = EventStream(asgi_server, table.pk, cookie=cookie, page="ada-tab-one")
    try:
        stream.next()
        move = get_engine("korova").legal_moves(get_engine("korova").load(table.state), 0)[0]
        client.post(
            reverse("table-move", args=[table.pk]),
            {"turn": table.turn, "move": json.dumps(move)},
            headers={"HX-Request": "true", "X-Table-Page": "ada-tab-two"},
        )
        event, _ = stream.change(turn=1)
        assert "<strong>You</strong> played" in event["html"] and "page" not in event
    finally:
        stream.close()


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
