"""A pub night's load on the production layout: people browsing the league pages while others
each play a Корова table against three practice bots, their pages hearing every change pushed.

    .venv/bin/python bench/night.py [--browsers 200] [--players 50] [--seconds 60]
        [--browse-think 10] [--play-think 1.0] [--web-workers 4] [--concurrency 8]

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/roundel_night_bench) names a database
the bench may fill: it is created if missing, migrated, and given the demo league
(`load_demo --force`) once; static files are collected (DEBUG off). CELERY_BROKER_URL (default redis://127.0.0.1:6379/6) is flushed;
CACHE_URL (default: the broker's Redis, the next database) is the shared cache, and the table
changes are pushed through its Redis (LIVE_PUSH_URL, by default CACHE_URL). The bench starts
the production layout with DEBUG off: gunicorn's ASGI worker (--web-workers processes,
config.asgi), one Celery worker (threads, --concurrency) and beat; then, from this process
(asyncio, plain HTTP/1.1 with keep-alive; locust is not in the lock), after every league
page has been read a few times by each web process (not counted), for --seconds:

- --browsers anonymous visitors each ask for a league page (home, leagues, seasons, fixture
  lists, teams, players, venues, fixtures, the tables' lobby; chosen at random) and then read
  it for --browse-think seconds on average (exponential), as a locust user with a wait time;
- --players logged-in people, each at a Корова table of their own against three bots (30 s a
  turn), as their phone does: the table page once (its CSRF token and ETag), then the
  table's event stream; on each event, the live part with If-None-Match (304 when nothing it
  shows changed); when the page offers a move (a card to put down, a row to take) they
  think --play-think seconds (uniform between half and one and a half of it) and post it
  through the page's form, whose answer is the live part again.

It prints: the push latency (an event's `at`, stamped by the writer right after commit, to
this process reading it: commit to event received), p50 and p95; moves (POST to answer)
p50/p95/p99; league pages p50/p95/p99; live-part fetches p50/p95; errors (5xx, broken
connections, an unexpected 4xx); refused moves (409: the table moved on first); and lost moves:
every move answered 200 looked up in the tables' logs afterwards (table, turn, seat, move).
The machine's load average before and after is printed too (its 2 cores are shared), and the
CPU time the web server and the worker used during the load, by their process groups.
"""

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE_URL = os.environ.setdefault(
    "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/roundel_night_bench"
)
BROKER = os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/6")
_base, _number = BROKER.rsplit("/", 1)
CACHE = os.environ.setdefault("CACHE_URL", f"{_base}/{int(_number) + 1}")
SERVER_ENV = {
    **os.environ,
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-bench-only-secret-key-0123456789",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "CELERY_RESULT_BACKEND": BROKER,
    "LOG_LEVEL": "WARNING",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "PYTHONWARNINGS": "ignore",
}
os.environ.update(SERVER_ENV)


def parse_options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--browsers", type=int, default=200, help="anonymous visitors of the league pages (200)"
    )
    parser.add_argument(
        "--players", type=int, default=50, help="people each playing a Корова table (50)"
    )
    parser.add_argument(
        "--seconds", type=float, default=60, help="how long the load runs (default 60)"
    )
    parser.add_argument(
        "--browse-think",
        type=float,
        default=10.0,
        help="mean seconds a visitor reads a page before the next (default 10)",
    )
    parser.add_argument(
        "--play-think",
        type=float,
        default=1.0,
        help="mean seconds a player takes to move once the page offers it (default 1.0)",
    )
    parser.add_argument(
        "--web-workers", type=int, default=4, help="gunicorn ASGI worker processes (default 4)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="the Celery worker's threads (default 8)"
    )
    return parser.parse_args()


# ---- plain HTTP/1.1 over asyncio streams, keep-alive, no library: the bench's clients


class Http:
    """One keep-alive connection (reopened when the server closes it)."""

    def __init__(self, port: int, cookies: dict[str, str] | None = None):
        self.port, self.cookies = port, dict(cookies or {})
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                return await self._exchange(method, path, headers or {}, body)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method, path, headers, body):
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status, answer = await read_head(self.reader)
        for cookie in answer.get("set-cookie", "").split("\n"):
            if "=" in cookie:
                name, value = cookie.split(";")[0].split("=", 1)
                self.cookies[name.strip()] = value
        content = b""
        if status not in (204, 304):
            if answer.get("transfer-encoding") == "chunked":
                while chunk := await read_chunk(self.reader):
                    content += chunk
            else:
                content = await self.reader.readexactly(int(answer.get("content-length", 0)))
        if answer.get("connection") == "close":
            self.close()
        return status, answer, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    status_line = await reader.readuntil(b"\r\n")
    if not status_line.strip():
        raise ConnectionError("closed")
    headers: dict[str, str] = {}
    while (line := (await reader.readuntil(b"\r\n")).decode().strip()) != "":
        name, value = line.split(":", 1)
        name = name.lower()
        headers[name] = headers[name] + "\n" + value.strip() if name in headers else value.strip()
    return int(status_line.split()[1]), headers


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
    data = await reader.readexactly(size + 2)
    return data[:-2]


# ---- the simulated people


class Figures:
    def __init__(self):
        self.push_ms: list[float] = []
        self.move_ms: list[float] = []
        self.page_ms: list[float] = []
        self.fetch_ms: list[float] = []
        self.errors: list[str] = []
        self.refused = 0
        self.accepted: list[tuple[int, int, int, str]] = []  # table, turn, seat, move (JSON)
        self.events = 0
        self.cpu: dict[str, float] = {}  # CPU seconds the web server and the worker used


async def browse(port: int, pages: list[str], think: float, stop: float, figures: Figures):
    http = Http(port)
    await asyncio.sleep(random.uniform(0, think))  # people arrive over the first minutes
    while time.monotonic() < stop:
        path = random.choice(pages)
        started = time.perf_counter()
        try:
            status, _, _ = await http.request("GET", path)
        except (OSError, asyncio.IncompleteReadError) as error:
            figures.errors.append(f"page {path}: {error!r}")
            http.close()
        else:
            figures.page_ms.append((time.perf_counter() - started) * 1000)
            if status != 200:
                figures.errors.append(f"page {path}: {status}")
        await asyncio.sleep(random.expovariate(1 / think))
    http.close()


ETAG = re.compile(r'data-etag="([^"]+)"')
TURN = re.compile(r'<input type="hidden" name="turn" value="(\d+)">')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ROW = re.compile(
    r"""<button type="submit" name="move" value='(\{"row": \d+\})' class="take-row">"""
)
CARD = re.compile(
    r'<button type="button" class="playing-card" data-card="(\d+)" aria-pressed="false">'
)


class Phone:
    """A player's phone at their table: the page, its event stream, fetches and moves."""

    def __init__(self, port: int, table_id: int, session: str, figures: Figures, think: float):
        self.port, self.table_id, self.figures, self.think = port, table_id, figures, think
        self.http = Http(port, {"sessionid": session})
        self.url = f"/tables/{table_id}/"
        self.etag = self.csrf = ""
        self.html = ""
        self.changed = asyncio.Event()

    async def play(self, stop: float) -> None:
        status, _, content = await self.http.request("GET", self.url)
        assert status == 200, status
        self.html = content.decode()
        self.csrf = CSRF.search(self.html)[1]  # type: ignore[index]
        self.etag = ETAG.search(self.html)[1]  # type: ignore[index]
        listening = asyncio.create_task(self.listen(stop))
        try:
            while time.monotonic() < stop:
                await self.maybe_move(stop)
                try:
                    await asyncio.wait_for(
                        self.changed.wait(), timeout=max(0.1, stop - time.monotonic())
                    )
                except TimeoutError:
                    break
                self.changed.clear()
                await self.fetch()
        finally:
            listening.cancel()
            self.http.close()

    async def listen(self, stop: float) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(
            f"GET {self.url}events/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: sessionid={self.http.cookies['sessionid']}\r\n\r\n".encode()
        )
        await writer.drain()
        try:
            status, _ = await read_head(reader)
            assert status == 200, status
            buffer = ""
            while True:
                buffer += (await read_chunk(reader)).decode()
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    data = [line[5:] for line in block.splitlines() if line.startswith("data:")]
                    if not data or "event: ping" in block:
                        continue
                    event = json.loads("".join(data))
                    if "at" in event:
                        self.figures.push_ms.append((time.time() - event["at"]) * 1000)
                    self.figures.events += 1
                    self.changed.set()
        except (OSError, asyncio.IncompleteReadError) as error:
            if time.monotonic() < stop:
                self.figures.errors.append(f"stream {self.table_id}: {error!r}")
        finally:
            writer.close()

    async def fetch(self) -> None:
        started = time.perf_counter()
        headers = {"HX-Request": "true", "If-None-Match": self.etag}
        try:
            status, _, content = await self.http.request("GET", self.url, headers)
        except (OSError, asyncio.IncompleteReadError) as error:
            self.figures.errors.append(f"fetch {self.table_id}: {error!r}")
            return
        self.figures.fetch_ms.append((time.perf_counter() - started) * 1000)
        if status == 200:
            self.take(content.decode())
        elif status != 304:
            self.figures.errors.append(f"fetch {self.table_id}: {status}")

    def take(self, html: str) -> None:
        self.html = html
        found = ETAG.search(html)
        if found:
            self.etag = found[1]

    def offered_move(self) -> str | None:
        row = ROW.search(self.html)
        if row:
            return row[1]
        cards = CARD.findall(self.html)
        return (
            json.dumps({"card": int(cards[0])}) if cards and "data-template" in self.html else None
        )

    async def maybe_move(self, stop: float) -> None:
        move, turn = self.offered_move(), TURN.search(self.html)
        if move is None or turn is None or time.monotonic() >= stop:
            return
        await asyncio.sleep(random.uniform(0.5, 1.5) * self.think)
        form = {"csrfmiddlewaretoken": self.csrf, "turn": turn[1], "move": move}
        body = urlencode(form).encode()
        headers = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded",
                   "X-CSRFToken": self.csrf}  # fmt: skip
        started = time.perf_counter()
        try:
            status, _, content = await self.http.request("POST", f"{self.url}move/", headers, body)
        except (OSError, asyncio.IncompleteReadError) as error:
            self.figures.errors.append(f"move {self.table_id}: {error!r}")
            return
        self.figures.move_ms.append((time.perf_counter() - started) * 1000)
        if status == 200:
            self.figures.accepted.append((self.table_id, int(turn[1]), 0, move))
        elif status == 409:
            self.figures.refused += 1
        else:
            self.figures.errors.append(f"move {self.table_id}: {status}")
        self.take(content.decode())


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def line(name: str, values: list[float], *shares: float) -> str:
    parts = [f"p50 {statistics.median(values):.1f}" if values else "p50 -"]
    parts += [f"p{round(share * 100)} {percentile(values, share):.1f}" for share in shares]
    return f"{name}: {', '.join(parts)} ms over {len(values)}"


def main() -> None:
    options = parse_options()  # before connecting: --help needs no database
    import django
    import psycopg
    import redis

    ensure_database(psycopg)
    django.setup()
    from live_processes import Processes  # bench/ is the script's own folder, first on sys.path

    redis.Redis.from_url(BROKER).flushdb()
    redis.Redis.from_url(CACHE).flushdb()
    pages = league_pages()
    tables = player_tables(options.players)
    log_dir = Path(tempfile.mkdtemp(prefix="night-"))
    processes = Processes(root=ROOT, env=SERVER_ENV, web_workers=options.web_workers,
                          log_dir=log_dir, pool="threads", concurrency=options.concurrency)  # fmt: skip
    processes.start(
        "gunicorn",
        [sys.executable, "-m", "gunicorn", "config.asgi", "--worker-class", "asgi",
         "-w", str(options.web_workers), "-b", f"127.0.0.1:{processes.port}",
         "--graceful-timeout", "2", "--log-level", "info"],
        "Booting worker",
    )  # fmt: skip
    processes.start_worker("worker")
    processes.start(
        "beat",
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
         "--schedule", str(log_dir / "beat-schedule")],
        "beat: Starting",
    )  # fmt: skip
    time.sleep(2)
    load_before = os.getloadavg()
    figures = Figures()
    try:
        asyncio.run(run_load(processes.port, pages, tables, options, figures, processes))
    finally:
        processes.stop()
    load_after = os.getloadavg()
    report(figures, options, load_before, load_after, log_dir)


def ensure_database(psycopg) -> None:
    import dj_database_url

    config = dj_database_url.parse(DATABASE_URL)
    with psycopg.connect(
        host=config["HOST"], port=config["PORT"] or 5432, user=config["USER"], dbname="postgres",
        autocommit=True,
    ) as admin:  # fmt: skip
        exists = admin.execute(
            "select 1 from pg_database where datname = %s", (config["NAME"],)
        ).fetchone()
        if not exists:
            admin.execute(f'create database "{config["NAME"]}"')
    for command in (["migrate"], ["collectstatic", "--noinput"]):  # DEBUG off: the manifest
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v0"], cwd=ROOT, env=SERVER_ENV, check=True
        )


def league_pages() -> list[str]:
    from django.urls import reverse

    from leagues.models import Fixture, League, Player, Season, Team, Venue

    if not Season.objects.exists():
        subprocess.run(
            [sys.executable, "manage.py", "load_demo", "--force"], cwd=ROOT, env=SERVER_ENV,
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    pages = ["/", reverse("table-lobby")]
    pages += [
        reverse("league-detail", args=[slug])
        for slug in League.objects.values_list("slug", flat=True)
    ]
    for season in Season.objects.select_related("league"):
        pages += [reverse(name, args=[season.league.slug, season.slug])
                  for name in ("season-detail", "season-fixtures")]  # fmt: skip
    pages += [
        reverse("team-detail", args=[slug])
        for slug in Team.objects.values_list("slug", flat=True)[:20]
    ]
    pages += [
        reverse("player-detail", args=[slug])
        for slug in Player.objects.values_list("slug", flat=True)[:30]
    ]
    pages += [
        reverse("venue-detail", args=[slug])
        for slug in Venue.objects.values_list("slug", flat=True)
    ]
    pages += [
        reverse("fixture-detail", args=[pk])
        for pk in Fixture.objects.values_list("pk", flat=True)[:30]
    ]
    return pages


def player_tables(count: int) -> list[tuple[int, str]]:
    """A new Корова table against three bots for each player (through the service, so no
    throttle counts them), with a session of their own: [(table id, session key)]."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games.live import services
    from games.models import Table

    # The tables of earlier runs would go on playing (bots and clocks) beside this one's.
    Table.objects.filter(created_by__username__startswith="night-player-").delete()
    tables = []
    for number in range(count):
        user, _ = get_user_model().objects.get_or_create(username=f"night-player-{number}")
        table = services.table_create(
            game="korova", players=4, options={"turn_seconds": 30}, bots=[1, 2, 3], by=user
        )
        client = Client()
        client.force_login(user)
        tables.append((table.pk, client.cookies["sessionid"].value))
    return tables


async def warm_up(port: int, pages: list[str], workers: int) -> None:
    """Every page a few times per web process before the clock starts (not counted): a
    process's first request of each kind compiles templates and fills caches, seconds at
    this machine's load, and a short run would otherwise measure mostly that."""
    clients = [Http(port) for _ in range(2 * workers)]

    async def read_all(http: Http) -> None:
        for path in random.sample(pages, len(pages)):
            await http.request("GET", path)
        http.close()

    await asyncio.gather(*(read_all(http) for http in clients))


async def run_load(port, pages, tables, options, figures: Figures, processes) -> None:
    await warm_up(port, pages, options.web_workers)
    cpu_before = {name: processes.cpu_seconds(name) for name in ("gunicorn", "worker")}
    stop = time.monotonic() + options.seconds
    phones = [
        Phone(port, table_id, session, figures, options.play_think) for table_id, session in tables
    ]
    await asyncio.gather(
        *(
            browse(port, pages, options.browse_think, stop, figures)
            for _ in range(options.browsers)
        ),
        *(phone.play(stop) for phone in phones),
    )
    figures.cpu = {name: processes.cpu_seconds(name) - cpu_before[name] for name in cpu_before}


def report(figures: Figures, options, load_before, load_after, log_dir: Path) -> None:
    from games.models import TableMove

    lost = [
        move for move in figures.accepted
        if not TableMove.objects.filter(table_id=move[0], turn=move[1], seat=move[2],
                                        move=json.loads(move[3])).exists()
    ]  # fmt: skip
    print(f"{options.browsers} browsing, {options.players} playing, {options.seconds:.0f} s; "
          f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")  # fmt: skip
    print(line("push, commit to event received", figures.push_ms, 0.95))
    print(line("moves, POST to answer", figures.move_ms, 0.95, 0.99))
    print(line("league pages", figures.page_ms, 0.95, 0.99))
    print(line("live-part fetches after an event", figures.fetch_ms, 0.95))
    print(f"events received: {figures.events}; moves accepted: {len(figures.accepted)}, "
          f"refused (409): {figures.refused}; errors: {len(figures.errors)}; "
          f"lost moves: {len(lost)}")  # fmt: skip
    requests = len(figures.page_ms) + len(figures.fetch_ms) + len(figures.move_ms)
    print(f"CPU during the load: web server {figures.cpu['gunicorn']:.1f} s "
          f"({1000 * figures.cpu['gunicorn'] / max(1, requests):.1f} ms a request, "
          f"{requests} requests), Celery worker {figures.cpu['worker']:.1f} s")  # fmt: skip
    for error in figures.errors[:10]:
        print("  error:", error)
    print(f"server logs: {log_dir}")


if __name__ == "__main__":
    main()
