"""What bench/night.py sets up before the load: the environment of the production layout, the
database (created, migrated, given the demo league), the static files, the league pages to
read, a Корова table and a session for each player, the processes (live_processes.py) and
the warm-up of every page in each web process."""

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import gevent
from geventhttpclient import HTTPClient
from live_processes import (  # bench/ is the script's own folder, first on sys.path
    Processes,
    database_create_if_missing,
)

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


def prepare(players: int) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    """The database ready, the two Redis databases flushed: the league pages to read and a
    table with its session for each player."""
    import django
    import redis

    ensure_database()
    django.setup()
    redis.Redis.from_url(BROKER).flushdb()
    redis.Redis.from_url(CACHE).flushdb()
    return league_pages(), player_tables(players)


def ensure_database() -> None:
    database_create_if_missing(DATABASE_URL)
    for command in (["migrate"], ["collectstatic", "--noinput"]):  # DEBUG off: the manifest
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v0"], cwd=ROOT, env=SERVER_ENV, check=True
        )


def league_pages() -> list[tuple[str, str]]:
    """[(the page's URL name, its address)]: the name groups them in locust's table."""
    from django.urls import reverse

    from leagues.models import Fixture, League, Player, Season, Team, Venue

    if not Season.objects.exists():
        subprocess.run(
            [sys.executable, "manage.py", "load_demo", "--force"], cwd=ROOT, env=SERVER_ENV,
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    pages = [("home", "/"), ("table-lobby", reverse("table-lobby"))]
    pages += [
        ("league-detail", reverse("league-detail", args=[slug]))
        for slug in League.objects.values_list("slug", flat=True)
    ]
    for season in Season.objects.select_related("league"):
        pages += [(name, reverse(name, args=[season.league.slug, season.slug]))
                  for name in ("season-detail", "season-fixtures")]  # fmt: skip
    pages += [
        ("team-detail", reverse("team-detail", args=[slug]))
        for slug in Team.objects.values_list("slug", flat=True)[:20]
    ]
    pages += [
        ("player-detail", reverse("player-detail", args=[slug]))
        for slug in Player.objects.values_list("slug", flat=True)[:30]
    ]
    pages += [
        ("venue-detail", reverse("venue-detail", args=[slug]))
        for slug in Venue.objects.values_list("slug", flat=True)
    ]
    pages += [
        ("fixture-detail", reverse("fixture-detail", args=[pk]))
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
    vacuum_tables()
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


def vacuum_tables() -> None:
    """Each run writes some 100,000 row versions of tables, seats and moves; vacuumed, the next
    run starts from the same database rather than one that grows dead rows (PostgreSQL)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE games_table, games_seat, games_tablemove")


def start_layout(
    web_workers: int,
    concurrency: int,
    *,
    reuse_port: bool,
    play_workers: int = 0,
    action_workers: int = 0,
    action_server: str = "asgi",
    worker_nice: int = 0,
) -> Processes:
    """gunicorn's ASGI worker (config.asgi), one Celery worker (threads) and beat, DEBUG off;
    with `reuse_port`, each gunicorn worker listens on a socket of its own (docs/operations.md).
    With `play_workers`, a second gunicorn of that many workers on the port after
    (`play_port`) serves the tables, as the proxy of docs/operations.md sends them there; with
    `action_workers`, a third of that many workers, on the port after that (`action_port`),
    answers the tables' forms (moves, a new table), as a proxy could send their POSTs there
    (an experiment: docs/performance.md "How many phones meet the aims"), by gunicorn's ASGI
    worker or, with `action_server` "wsgi", by `config.wsgi` on one thread a process. The
    Celery worker runs at `worker_nice`."""
    log_dir = Path(tempfile.mkdtemp(prefix="night-"))
    processes = Processes(root=ROOT, env=SERVER_ENV, web_workers=web_workers,
                          log_dir=log_dir, pool="threads", concurrency=concurrency)  # fmt: skip
    asgi = ["config.asgi", "--worker-class", "asgi"]
    lanes = [("gunicorn", processes.port, web_workers, asgi)]
    if play_workers:
        lanes.append(("gunicorn-play", processes.port + 1, play_workers, asgi))
    if action_workers:
        wsgi = ["config.wsgi", "--worker-class", "gthread", "--threads", "1"]
        server = wsgi if action_server == "wsgi" else asgi
        lanes.append(("gunicorn-actions", processes.port + 2, action_workers, server))
    for name, port, workers, server in lanes:
        processes.start(
            name,
            [sys.executable, "-m", "gunicorn", *server,
             "-w", str(workers), "-b", f"127.0.0.1:{port}",
             "--graceful-timeout", "2", "--keep-alive", "75", "--log-level", "info",
             *(["--reuse-port"] if reuse_port else [])],
            "Booting worker",
        )  # fmt: skip
    processes.start_worker("worker", nice=worker_nice)
    processes.start(
        "beat",
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
         "--schedule", str(log_dir / "beat-schedule")],
        "beat: Starting",
    )  # fmt: skip
    return processes


def play_port(processes: Processes) -> int:
    """The port of the tables' gunicorn, when it runs apart (start_layout's play_workers), else
    the one server's."""
    return processes.port + 1 if "gunicorn-play" in processes.running else processes.port


def action_port(processes: Processes) -> int:
    """The port of the tables' forms' gunicorn, when it runs apart (start_layout's
    action_workers), else the tables'."""
    return processes.port + 2 if "gunicorn-actions" in processes.running else play_port(processes)


def warm_up(port: int, pages: list[tuple[str, str]], workers: int) -> None:
    """Every page a few times per web process before the clock starts (not counted): a
    process's first request of each kind compiles templates and fills caches, seconds at
    this machine's load, and a short run would otherwise measure mostly that."""

    def read_all() -> None:
        client = HTTPClient("127.0.0.1", port, concurrency=1, network_timeout=600)
        for _, path in random.sample(pages, len(pages)):
            client.get(path).read()
        client.close()

    gevent.joinall([gevent.spawn(read_all) for _ in range(2 * workers)], raise_error=True)
