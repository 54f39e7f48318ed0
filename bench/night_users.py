"""The people of bench/night.py, as locust users (gevent): visitors reading league pages and
phones playing a Корова table each. Their requests go through locust's FastHttp client, so
locust's own table counts them; the figures the script prints come from their own lists
(Figures), timed the same way."""

import json
import random
import re
import socket
import time
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

import gevent
from gevent.event import Event
from locust import FastHttpUser, constant, task
from locust.env import Environment
from locust.exception import StopUser
from requests.cookies import create_cookie


@dataclass
class Figures:
    push_ms: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    page_ms: list[float] = field(default_factory=list)
    fetch_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    # table, turn, seat, move (JSON) of every move answered 200
    accepted: list[tuple[int, int, int, str]] = field(default_factory=list)
    events: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of web server and worker
    # each web process's, busiest first: the one gunicorn's, or the pages' and the tables'
    web_processes: list[list[float]] = field(default_factory=list)


@dataclass
class Night:
    """What the users share, set by night.py before the load starts."""

    figures: Figures = field(default_factory=Figures)
    pages: list[tuple[str, str]] = field(default_factory=list)  # (URL name, address)
    tables: list[tuple[int, str]] = field(default_factory=list)  # (table id, session key)
    port: int = 0  # the tables' (the pages' too, unless the tables have a gunicorn apart)
    play_host: str = ""  # the tables' gunicorn when apart: the lobby's page is read there
    action_host: str = ""  # the tables' forms' gunicorn when apart: moves are posted there
    browse_think: float = 10.0
    play_think: float = 1.0
    stop: float = 0.0  # time.monotonic() when the load ends


NIGHT = Night()
EVERY_STATUS = frozenset(range(100, 600))


class Person(FastHttpUser):
    abstract = True
    network_timeout = connection_timeout = 600.0  # a saturated server is slow, not broken
    max_retries = 1  # a keep-alive connection the server closed is opened again
    concurrency = 1

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        # Every status is an answer to read (a refused move's 409 carries the live part, as in a
        # browser); which ones count as failures in locust's table is said per request below.
        self.client.client.valid_response_codes = EVERY_STATUS  # type: ignore[misc]


class Visitor(Person):
    """Anonymous: a league page at random, then reads it --browse-think seconds on average
    (exponential). People arrive over the first --browse-think seconds."""

    arriving = False

    def wait_time(self) -> float:
        if self.arriving:
            self.arriving = False
            return random.uniform(0, NIGHT.browse_think)
        return random.expovariate(1 / NIGHT.browse_think)

    def on_start(self) -> None:
        self.arriving = True

    @task
    def read_page(self) -> None:
        if time.monotonic() >= NIGHT.stop:
            raise StopUser()
        if self.arriving:  # the first wait is the arrival
            return
        figures = NIGHT.figures
        name, path = random.choice(NIGHT.pages)
        if path.startswith("/tables/"):  # the proxy sends the lobby where the tables are
            path = NIGHT.play_host + path
        with self.client.get(path, name=name, catch_response=True) as response:
            if response.status_code == 0:
                figures.errors.append(f"page {path}: {response.error!r}")
                return
            figures.page_ms.append(response.request_meta["response_time"])
            if response.status_code != 200:
                figures.errors.append(f"page {path}: {response.status_code}")
                response.failure(f"status {response.status_code}")


ETAG = re.compile(r'data-etag="([^"]+)"')
TURN = re.compile(r'<input type="hidden" name="turn" value="(\d+)">')
SHOWN_TURN = re.compile(r'data-turn="(\d+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ROW = re.compile(
    r"""<button type="submit" name="move" value='(\{"row": \d+\})' class="take-row">"""
)
FINISHED = 'data-status="finished"'
NEW_TABLE = re.compile(r"/tables/(\d+)/$")
CARD = re.compile(
    r'<button type="button" class="playing-card" data-card="(\d+)" aria-pressed="false">'
)


class Phone(Person):
    """A player's phone at their own table: the page once (its CSRF token and ETag), then the
    table's event stream in a greenlet of its own, named with the page's id as the page's
    script names it (and its moves); as the page does, each event's live part (as this player
    sees it) is shown at once, unless a move is under way: then, as after a bare event (a
    stream that could not draw), the live part is fetched with If-None-Match once the move's
    answer is in. When the page offers a move, a think of 0.5 to 1.5 × --play-think seconds
    and the move posted through the page's form, whose answer is the table. When the
    game is over the player starts another against three bots through the lobby's form, as
    the lobby offers, so that a long run plays all along (a game lasts a minute or two)."""

    fixed_count = 0  # night.py sets it to --players: each phone takes one prepared table
    wait_time = constant(0)

    def on_start(self) -> None:
        self.page = f"{random.getrandbits(96):024x}"
        self.moving = False  # a move posted, its answer not yet back
        self.stale = False  # a change came that the page has not shown: fetch
        table_id, self.session = NIGHT.tables.pop()
        self.client.cookiejar.set_cookie(create_cookie("sessionid", self.session))
        self.changed = Event()
        self.listener: gevent.Greenlet | None = None
        self.open_table(table_id)

    def open_table(self, table_id: int) -> None:
        """The table's page and its event stream (the last table's stream closed)."""
        if self.listener is not None:
            self.listener.kill(block=False)
        self.table_id, self.url = table_id, f"/tables/{table_id}/"
        self.changed.clear()
        self.stale = False
        with self.client.get(self.url, name="table page", catch_response=True) as response:
            if response.status_code != 200:
                NIGHT.figures.errors.append(f"table page {self.table_id}: {response.status_code}")
                response.failure(f"status {response.status_code}")
                raise StopUser()
            self.html = response.text or ""
        self.csrf = CSRF.search(self.html)[1]  # type: ignore[index]
        self.etag = ETAG.search(self.html)[1]  # type: ignore[index]
        self.listener = gevent.spawn(self.listen)

    def on_stop(self) -> None:
        if self.listener is not None:
            self.listener.kill(block=False)

    @task
    def play(self) -> None:
        if time.monotonic() >= NIGHT.stop:
            raise StopUser()
        if self.stale:
            self.stale = False
            self.fetch()
        if FINISHED in self.html:
            self.start_another()
            return
        if self.maybe_move():
            return  # its answer is the table now: a move may be offered again at once
        if not self.changed.wait(timeout=max(0.1, NIGHT.stop - time.monotonic())):
            raise StopUser()
        self.changed.clear()

    def listen(self) -> None:
        """The event stream, on a socket of its own (HTTP/1.1, chunked): each event's `at`,
        stamped by the writer right after commit, to its receipt here is the push latency,
        also reported to locust as a request of type SSE."""
        figures, started = NIGHT.figures, time.perf_counter()
        try:
            with socket.create_connection(("127.0.0.1", NIGHT.port)) as sock:
                sock.sendall(
                    f"GET {self.url}events/?page={self.page}&shown={quote(self.etag)} HTTP/1.1\r\n"
                    "Host: 127.0.0.1\r\n"
                    f"Accept: text/event-stream\r\nCookie: sessionid={self.session}\r\n\r\n".encode()
                )
                stream = sock.makefile("rb")
                status = stream.readline().split()
                if len(status) < 2 or status[1] != b"200":
                    raise ConnectionError(f"event stream answered {status!r}")
                while stream.readline().strip():
                    pass  # the headers
                self.fire_sse("open", (time.perf_counter() - started) * 1000, 0)
                buffer = ""
                while True:
                    size = int(stream.readline().split(b";")[0] or b"0", 16)
                    if size == 0:
                        raise ConnectionError("the event stream ended")
                    buffer += stream.read(size + 2)[:-2].decode()
                    while "\n\n" in buffer:
                        block, buffer = buffer.split("\n\n", 1)
                        data = [line[5:] for line in block.splitlines() if line.startswith("data:")]
                        if not data or "event: ping" in block:
                            continue
                        event = json.loads("".join(data))
                        if "at" in event:
                            latency = (time.time() - event["at"]) * 1000
                            figures.push_ms.append(latency)
                            self.fire_sse("push", latency, len(block))
                        figures.events += 1
                        if "html" in event and self.older_turn(event["html"]):
                            continue  # as the page: a late part of an earlier turn is dropped
                        if "html" in event and not self.moving:
                            self.take(event["html"])
                        elif "html" in event or "etag" not in event:
                            self.stale = True
                        else:
                            continue  # the page shows it already: nothing to do
                        self.changed.set()
        except (OSError, ValueError) as error:
            if time.monotonic() < NIGHT.stop:
                figures.errors.append(f"stream {self.table_id}: {error!r}")
                self.fire_sse("push", 0, 0, error)

    def start_another(self) -> None:
        """The lobby's form: Корова, four players, three bots, 30 s a turn; its answer is the
        way to the new table."""
        form = {"csrfmiddlewaretoken": self.csrf, "game": "korova", "players": "4", "bots": "3",
                "turn_seconds": "30", "time_bank_seconds": "0"}  # fmt: skip
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        with self.client.post(
            f"{NIGHT.action_host}/tables/new/", data=urlencode(form), headers=headers,
            name="start a table", allow_redirects=False, catch_response=True,
        ) as response:  # fmt: skip
            new_table = NEW_TABLE.search(response.headers.get("Location", "") or "")
            if response.status_code != 302 or new_table is None:
                NIGHT.figures.errors.append(f"start a table: {response.status_code}")
                response.failure(f"status {response.status_code}")
                raise StopUser()
        self.open_table(int(new_table[1]))

    def fire_sse(self, name: str, ms: float, length: int, error: Exception | None = None) -> None:
        self.environment.events.request.fire(
            request_type="SSE", name=f"event stream: {name}", response_time=ms,
            response_length=length, exception=error, context={},
        )  # fmt: skip

    def fetch(self) -> None:
        headers = {"HX-Request": "true", "If-None-Match": self.etag, "X-Table-Page": self.page}
        with self.client.get(
            self.url, headers=headers, name="live part", catch_response=True
        ) as response:
            if response.status_code == 0:
                NIGHT.figures.errors.append(f"fetch {self.table_id}: {response.error!r}")
                return
            NIGHT.figures.fetch_ms.append(response.request_meta["response_time"])
            if response.status_code == 200:
                self.take(response.text)
            elif response.status_code != 304:
                NIGHT.figures.errors.append(f"fetch {self.table_id}: {response.status_code}")
                response.failure(f"status {response.status_code}")

    def take(self, html: str | None) -> None:
        self.html = html or ""
        found = ETAG.search(self.html)
        if found:
            self.etag = found[1]

    def older_turn(self, html: str) -> bool:
        drawn, shown = SHOWN_TURN.search(html), SHOWN_TURN.search(self.html)
        return bool(drawn and shown and int(drawn[1]) < int(shown[1]))

    def offered_move(self) -> str | None:
        row = ROW.search(self.html)
        if row:
            return row[1]
        cards = CARD.findall(self.html)
        return (
            json.dumps({"card": int(cards[0])}) if cards and "data-template" in self.html else None
        )

    def maybe_move(self) -> bool:
        """The offered move, after a think, if the page offers one: whether it was sent."""
        if self.offered_move() is None or time.monotonic() >= NIGHT.stop:
            return False
        gevent.sleep(random.uniform(0.5, 1.5) * NIGHT.play_think)
        # What the page offers now: a change may have been shown while the player thought.
        move, turn = self.offered_move(), TURN.search(self.html)
        if move is None or turn is None or time.monotonic() >= NIGHT.stop:
            return False
        form = {"csrfmiddlewaretoken": self.csrf, "turn": turn[1], "move": move}
        headers = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
                   "X-CSRFToken": self.csrf, "X-Table-Page": self.page}  # fmt: skip
        figures = NIGHT.figures
        self.moving = True
        with self.client.post(
            f"{NIGHT.action_host}{self.url}move/", data=urlencode(form), headers=headers,
            name="move", catch_response=True,
        ) as response:  # fmt: skip
            self.moving = False
            if response.status_code == 0:
                figures.errors.append(f"move {self.table_id}: {response.error!r}")
                return True
            figures.move_ms.append(response.request_meta["response_time"])
            if response.status_code == 200:
                figures.accepted.append((self.table_id, int(turn[1]), 0, move))
            elif response.status_code == 409:
                figures.refused += 1  # the table moved on first: refused, not an error
            else:
                figures.errors.append(f"move {self.table_id}: {response.status_code}")
                response.failure(f"status {response.status_code}")
            self.take(response.text)
        return True
