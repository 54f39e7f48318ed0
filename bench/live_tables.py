"""Live tables under load: gunicorn + PostgreSQL + Redis + Celery, as production runs them.

    .venv/bin/python bench/live_tables.py [--tables 50] [--moves 40] [--think 1.0]
        [--expiring 500] [--crash-turns 200] [--web-workers 5] [--pool threads|prefork]
        [--concurrency 8] [--part all|moves|breakdown|expiry|crash]

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/roundel_live_bench) names a database
the bench may empty: it is created if missing and migrated. CELERY_BROKER_URL (default
redis://127.0.0.1:6379/5) is flushed. The bench starts gunicorn (--web-workers gthread workers of 4 threads),
two Celery workers (--pool, --concurrency: threads, 8 each) and one beat (sweep every GAMES_SWEEP_SECONDS, 2 s), all
with DEBUG off, and prints:

1. moves: --tables Корова tables of four people each play at once through the HTTP API (a
   thread per table, a move every --think seconds on average at each table: a card, or a row
   when the seat must choose one); the POST's round trip (sent to answered, i.e. to the
   committed state) p50, p99 and max over every move.
2. expiry: --expiring turns at as many tables whose deadlines fall within one second; the
   expiry tasks are sent as the move service sends them (ETA at the deadline). Lateness =
   the time the clock's move was logged minus the deadline: p50, p99, max; then the same
   until this process saw the time-out committed (polling every 10 ms), and the CPU time the
   two workers used meanwhile.
   breakdown: 200 moves and 200 expiries through the services in this process (no HTTP):
   their time, the time their SQL statements took, and the engine's share.
3. crash: --crash-turns turns due at the same instant; one worker is killed with SIGKILL
   one second before, holding its share of the expiry tasks; the other worker and beat
   carry on. Prints how long after the deadline (and after the crash) the last of them
   expired: the sweep's work, since the killed worker's tasks are lost.

The processes are started by bench/live_processes.py; bench/live_measures.py times and sums up.
"""

import argparse
import datetime
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE_URL = os.environ.setdefault(
    "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/roundel_live_bench"
)
BROKER = os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/5")
SERVER_ENV = {
    **os.environ,
    "DEBUG": "0",
    "SECRET_KEY": "bench-only-secret-key-bench-only-secret-key-0123456789",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "CELERY_RESULT_BACKEND": BROKER,
    "LOG_LEVEL": "WARNING",
    "API_TOKEN_RATE": "100000/minute",
    "DJANGO_SETTINGS_MODULE": "config.settings",
}
os.environ.update(SERVER_ENV)

import django  # noqa: E402
import redis  # noqa: E402


def ensure_database() -> None:
    database_create_if_missing(DATABASE_URL)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=SERVER_ENV, check=True
    )


def parse_options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables",
        type=int,
        default=50,
        help="Корова tables of four playing at once in part 1 (default 50)",
    )
    parser.add_argument("--moves", type=int, default=40, help="moves per table (default 40)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds between moves (default 1.0)"
    )
    parser.add_argument(
        "--expiring",
        type=int,
        default=500,
        help="turns due within one second in part 2 (default 500)",
    )
    parser.add_argument(
        "--crash-turns",
        type=int,
        default=200,
        help="turns due at the instant after a worker is killed (default 200)",
    )
    parser.add_argument(
        "--web-workers", type=int, default=5, help="gunicorn gthread workers (default 5)"
    )
    parser.add_argument(
        "--pool",
        choices=["threads", "prefork"],
        default="threads",
        help="each Celery worker's pool (default threads)",
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="each Celery worker's concurrency (default 8)"
    )
    parser.add_argument(
        "--part",
        choices=["all", "moves", "breakdown", "expiry", "crash"],
        default="all",
        help="which measurement to run (default all)",
    )
    return parser.parse_args()


# Read before connecting, so that --help (and a mistyped option) needs no database.
OPTIONS = parse_options()
ensure_database()
django.setup()

from celery import current_app  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import timezone  # noqa: E402
from knox.models import AuthToken  # noqa: E402
from live_measures import summary, timed_call  # noqa: E402
from live_processes import Processes, database_create_if_missing  # noqa: E402

from games.live import services  # noqa: E402
from games.live.turns import EXPIRE_TASK  # noqa: E402
from games.models import Seat, Table, TableMove  # noqa: E402


def users(count: int) -> list:
    model = get_user_model()
    return [
        model.objects.get_or_create(username=f"bench-{n}")[0] for n in range(count)
    ]  # fmt: skip


def request(port: int, method: str, path: str, token: str, body=None) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(
            method, path, body=None if body is None else json.dumps(body),
            headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        )  # fmt: skip
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def bench_moves(processes: Processes, *, tables: int, moves: int, think: float) -> None:
    people = users(4 * tables)
    tokens = {user.pk: AuthToken.objects.create(user=user)[1] for user in people}
    started: list[dict[int | str, str | int]] = []  # seat -> token, and the table's id
    for n in range(tables):
        four = people[4 * n : 4 * n + 4]
        table = services.table_create(
            game="korova", players=4, options={"turn_seconds": 3600}, bots=[], by=four[0]
        )
        for user in four[1:]:
            services.table_join(table_id=table.pk, by=user)
        started.append({seat.seat: tokens[seat.user_id] for seat in table.seats.all()})
        started[-1]["id"] = table.pk
    times: list[float] = []
    refused: list[float] = []
    lock = threading.Lock()

    def play(seats: dict) -> None:
        """Each seat keeps what its own answers showed it (its hand); it reads the table
        again only when that went stale (a new round dealt new hands)."""
        rng = random.Random(seats["id"])
        path = f"/api/tables/{seats['id']}/"
        seen = {seat: request(processes.port, "GET", path, seats[seat])[1] for seat in range(4)}
        table = seen[0]
        made = 0
        while made < moves and table["status"] == "playing":
            seat = rng.choice(table["to_act"])
            view = seen[seat]["view"]
            if view["round"] != table["view"]["round"] or not view["hand"]:
                seen[seat] = request(processes.port, "GET", path, seats[seat])[1]
                view = seen[seat]["view"]
            row_choice = table["view"]["pending_row_choice"] == seat
            move = {"row": 0} if row_choice else {"card": view["hand"][0]}
            time.sleep(rng.uniform(0, 2 * think))
            sent = time.perf_counter()
            status, answer = request(processes.port, "POST", f"{path}moves/", seats[seat],
                                     {"turn": table["turn"], "move": move})  # fmt: skip
            elapsed = (time.perf_counter() - sent) * 1000
            with lock:
                (times if status == 200 else refused).append(elapsed)
            if status == 200:
                table = seen[seat] = answer
                made += 1
            else:
                table = seen[seat] = request(processes.port, "GET", path, seats[seat])[1]

    threads = [threading.Thread(target=play, args=(seats,)) for seats in started]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"moves, {tables} tables at once: {summary(times)} ({len(refused)} refused)")


def bench_breakdown(*, moves: int) -> None:
    """Where a move's and an expiry's time go, in this process (no HTTP): the service, its SQL
    statements, the engine, and the rest (Django's ORM, the broker's send after commit)."""
    from django.db import connection

    from games.engines import get_engine

    host, guest = users(2)
    eng = get_engine("korova")
    moved: list[tuple[float, float, int]] = []
    engine: list[float] = []
    while len(moved) < moves:
        table = services.table_create(
            game="korova", players=2, options={"turn_seconds": 3600}, bots=[], by=host
        )
        services.table_join(table_id=table.pk, by=guest)
        for _ in range(8):
            table.refresh_from_db()
            assert table.state is not None, "a started table has a state"
            seat = eng.to_act(eng.load(table.state))[0]
            mover = table.seats.get(seat=seat).user
            assert mover is not None, "both seats are people's"
            started = time.perf_counter()
            state = eng.load(table.state)
            move = eng.legal_moves(state, seat)[0]
            eng.dump(eng.apply(state, seat, move))
            engine.append((time.perf_counter() - started) * 1000)
            moved.append(timed_call(partial(services.table_move,
                table_id=table.pk, turn=table.turn, move=move, by=mover)))  # fmt: skip
    overdue = [table.pk for table in tables_with_open_turns(moves)]
    Table.objects.filter(pk__in=overdue).update(deadline=timezone.now())
    expired = [
        timed_call(partial(services.table_turn_expire, table_id=pk, turn=1)) for pk in overdue
    ]
    bare = []
    with connection.cursor() as cursor:
        for _ in range(200):
            started = time.perf_counter()
            cursor.execute("select 1")
            bare.append((time.perf_counter() - started) * 1000)
    print(
        f"PostgreSQL round trip of a bare SELECT 1: p50 {statistics.median(bare):.2f} ms; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for what, timings in (("move", moved), ("expiry (both seats of a two-seat table)", expired)):
        totals, sql, counts = zip(*timings)
        print(
            f"{what} service in process (no HTTP), {len(totals)} calls: p50 "
            f"{statistics.median(totals):.2f} ms, of which {statistics.median(counts):.0f} SQL "
            f"statements {statistics.median(sql):.2f} ms (BEGIN/COMMIT not among them)"
        )
    print(f"engine load+apply+dump of a move: p50 {statistics.median(engine):.3f} ms")


def tables_with_open_turns(count: int) -> list[Table]:
    """`count` started two-seat Корова tables (the same two people at each), clocks at an hour."""
    host, guest = users(2)
    made = []
    for _ in range(count):
        table = services.table_create(
            game="korova", players=2, options={"turn_seconds": 3600}, bots=[], by=host
        )
        services.table_join(table_id=table.pk, by=guest)
        made.append(table.pk)
    return list(Table.objects.filter(pk__in=made))


def due_at(table_ids: list[int], deadlines: list) -> dict:
    """Move each table's deadline and send its expiry task, as the move service would."""
    tables = list(Table.objects.filter(pk__in=table_ids))
    by_id = dict(zip(table_ids, deadlines))
    for table in tables:
        table.deadline = by_id[table.pk]
    Table.objects.bulk_update(tables, ["deadline"], batch_size=500)
    for table_id, deadline in by_id.items():
        current_app.send_task(EXPIRE_TASK, args=(table_id, 1), eta=deadline)
    if timezone.now() >= min(deadlines):
        print("  (the bench sent some expiry tasks after their deadline: figures are void)")
    return by_id


def lateness_ms(deadlines: dict) -> list[float]:
    table_ids = list(deadlines)
    first: dict[int, datetime.datetime] = {}
    for table_id, at in (
        TableMove.objects.filter(table_id__in=table_ids, turn=1, timeout=True)
        .order_by("pk")
        .values_list("table_id", "at")
    ):
        first.setdefault(table_id, at)
    return [(first[pk] - deadlines[pk]).total_seconds() * 1000 for pk in first]


def wait_until_expired(table_ids: list[int], timeout: float) -> dict:
    """When this process first saw each table's turn 1 closed (committed), polling every 10 ms."""
    deadline = time.monotonic() + timeout
    seen: dict[int, datetime.datetime] = {}
    open_ids = set(table_ids)
    while open_ids:
        if time.monotonic() > deadline:
            print("  (some turns were still open at the bench's time limit)")
            break
        closed = list(
            Table.objects.filter(pk__in=open_ids, turn__gt=1).values_list("pk", flat=True)
        )
        now = timezone.now()
        seen.update((pk, now) for pk in closed)
        open_ids.difference_update(closed)
        time.sleep(0.01)
    return seen


def bench_expiry(processes: Processes, *, expiring: int) -> None:
    tables = [table.pk for table in tables_with_open_turns(expiring)]
    start = timezone.now() + datetime.timedelta(seconds=8)
    spread = [start + datetime.timedelta(seconds=n / expiring) for n in range(expiring)]
    deadlines = due_at(tables, spread)
    time.sleep(max(0.0, (start - timezone.now()).total_seconds() - 0.5))
    workers_cpu = processes.cpu_seconds("worker-a", "worker-b")
    seen = wait_until_expired(tables, timeout=60)
    workers_cpu = processes.cpu_seconds("worker-a", "worker-b") - workers_cpu
    late = lateness_ms(deadlines)
    print(f"expiry lateness, {expiring} turns due within one second: {summary(late)}")
    committed = [(seen[pk] - deadlines[pk]).total_seconds() * 1000 for pk in seen]
    print(
        f"  the same, until a reader saw the time-out committed (10 ms polls): {summary(committed)}"
    )
    print(
        f"  the workers' CPU meanwhile: {workers_cpu:.2f} s, "
        f"{workers_cpu / expiring * 1000:.1f} ms a turn; load average {os.getloadavg()[0]:.1f}"
    )


def bench_crash(processes: Processes, *, turns: int) -> None:
    tables = [table.pk for table in tables_with_open_turns(turns)]
    due = timezone.now() + datetime.timedelta(seconds=4)
    deadlines = due_at(tables, [due] * len(tables))
    time.sleep(max(0.0, (due - timezone.now()).total_seconds()) - 1)
    processes.kill("worker-a")  # holding its share of the ETA tasks
    crashed = timezone.now()
    wait_until_expired(tables, timeout=60)
    late = lateness_ms(deadlines)
    last = due + datetime.timedelta(milliseconds=max(late))
    print(
        f"worker killed with SIGKILL 1 s before {turns} turns were due: every turn expired "
        f"{max(late) / 1000:.2f} s after the deadline ({(last - crashed).total_seconds():.2f} s "
        f"after the crash); sweep interval {SERVER_ENV.get('GAMES_SWEEP_SECONDS', '2')} s"
    )
    processes.start_worker("worker-a")


def main(options: argparse.Namespace) -> None:
    redis.Redis.from_url(BROKER).flushdb()
    Seat.objects.all().delete()
    TableMove.objects.all().delete()
    Table.objects.all().delete()
    log_dir = ROOT / "var" / "bench-live-tables"
    log_dir.mkdir(parents=True, exist_ok=True)
    processes = Processes(
        root=ROOT, env=SERVER_ENV, web_workers=options.web_workers, log_dir=log_dir,
        pool=options.pool, concurrency=options.concurrency,
    )  # fmt: skip
    try:
        processes.start_all()
        if options.part in ("all", "moves"):
            bench_moves(processes, tables=options.tables, moves=options.moves,
                        think=options.think)  # fmt: skip
        if options.part in ("all", "breakdown"):
            bench_breakdown(moves=200)
        if options.part in ("all", "expiry"):
            bench_expiry(processes, expiring=options.expiring)
        if options.part in ("all", "crash"):
            bench_crash(processes, turns=options.crash_turns)
    finally:
        processes.stop()


if __name__ == "__main__":
    main(OPTIONS)
