"""A pub night's load on the production layout: people browsing the league pages while others
each play a Корова table against three practice bots, their pages hearing every change pushed.

    .venv/bin/python bench/night.py [--browsers 200] [--players 50] [--seconds 60]
        [--browse-think 10] [--play-think 1.0] [--web-workers 2] [--play-workers 3]
        [--action-workers 0] [--concurrency 8] [--worker-nice 10] [--shared-socket]

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/roundel_night_bench) names a database
the bench may fill: it is created if missing, migrated, and given the demo league
(`load_demo --force`) once; static files are collected (DEBUG off). CELERY_BROKER_URL (default
redis://127.0.0.1:6379/6) is flushed; CACHE_URL (default: the broker's Redis, the next
database) is the shared cache, and the table changes are pushed through its Redis
(LIVE_PUSH_URL, by default CACHE_URL). The bench starts the production layout with DEBUG off
(night_setup.py, live_processes.py): two gunicorns of ASGI workers (config.asgi, a
listening socket each: --reuse-port), one for the league pages (--web-workers processes) and
one for the tables (--play-workers), which the phones talk to as the proxy of
docs/operations.md ("Two lanes") would send them (with --action-workers, a third answers the
tables' forms, an experiment that did not pay:
docs/performance.md "How many phones meet the aims"); one Celery worker (threads,
--concurrency; at --worker-nice, as the worker unit of docs/operations.md runs it) and beat;
then, after every league page has been read a few times by each web process (not counted),
it runs locust headless in this process (its library API: an Environment and a local runner;
night_users.py) for --seconds, with two kinds of locust user (gevent greenlets, FastHttp
clients with keep-alive):

- --browsers visitors, anonymous, each ask for a league page (home, leagues, seasons, fixture
  lists, teams, players, venues, fixtures, the tables' lobby; chosen at random) and then read
  it for --browse-think seconds on average (an exponential wait time); they arrive over the
  first --browse-think seconds;
- --players phones (fixed_count), logged in, each at a Корова table of their own against three
  bots (30 s a turn), as their phone does: the table page once (its CSRF token and ETag), then
  the table's event stream (a greenlet on a socket of its own, named with the page's id as
  the page names it); each event's live part is shown at once, as the page shows it, unless
  a move is under way (then, as after an event without one, the live part is fetched with
  If-None-Match once the move's answer is in); when the page offers a move (a card to put
  down, a row to take) they think --play-think seconds (uniform between half and one and a
  half of it) and post it through the page's form, whose answer is the live part again;
  when their game is over (a game lasts a minute or two) they start another against three
  bots through the lobby's form and play on at the new table.

At the deadline the runner stops them gracefully: a request under way is answered and counted,
a wait ends. Locust's own table (its request events: pages by URL name, live parts, moves, and
the pushes as SSE) is printed first, then the night's figures from the users' own lists: the
push latency (an event's `at`, stamped by the writer right after commit, to the phone reading
it: commit to the change, drawn for this phone, received), p50 and p95; moves (POST to answer) p50/p95/p99; league pages
p50/p95/p99; live-part fetches p50/p95; errors (5xx, broken connections, an unexpected 4xx);
refused moves (409: the table moved on first); and lost moves: every move answered 200 looked
up in the tables' logs afterwards (table, turn, seat, move). The machine's load average before
and after is printed too (its 2 cores are shared), and the CPU time used during the load by
the web server and the worker (by their process groups), PostgreSQL and Redis (by the
processes' names) and the load generator itself.
"""

import argparse
import json
import logging
import os
import resource
import statistics
import sys
import time

import gevent
from live_processes import cpu_seconds_by_program  # bench/ is first on sys.path
from locust.env import Environment
from locust.stats import print_error_report, print_percentile_stats, print_stats
from night_setup import action_port, play_port, prepare, start_layout, warm_up
from night_users import NIGHT, Figures, Phone, Visitor


def parse_options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
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
        "--web-workers",
        type=int,
        default=2,
        help="gunicorn ASGI worker processes: the league pages' (default 2), or all of them "
        "with --play-workers 0",
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="the Celery worker's threads (default 8)"
    )
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=10,
        help="the Celery worker's niceness (default 10, as docs/operations.md runs it: the "
        "web processes get the cores first; 0 for none)",
    )
    parser.add_argument(
        "--play-workers",
        type=int,
        default=3,
        help="the tables' gunicorn (/tables/…, as the proxy of docs/operations.md sends "
        "them): its worker processes (default 3); 0: one gunicorn of --web-workers serves all",
    )
    parser.add_argument(
        "--action-workers",
        type=int,
        default=0,
        help="a third gunicorn of this many workers answers the tables' forms (the moves, a "
        "new table), as a proxy could send their POSTs (default 0: the tables' gunicorn does; "
        'docs/performance.md "How many phones meet the aims")',
    )
    parser.add_argument(
        "--action-server",
        choices=("asgi", "wsgi"),
        default="asgi",
        help="what serves --action-workers: gunicorn's ASGI worker (default), or config.wsgi "
        "on one thread a process",
    )
    parser.add_argument(
        "--shared-socket",
        action="store_true",
        help="gunicorn's workers accept from one listening socket, as before session 7 "
        "(default: a socket each, --reuse-port, as docs/operations.md runs it)",
    )
    return parser.parse_args()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def line(name: str, values: list[float], *shares: float) -> str:
    parts = [f"p50 {statistics.median(values):.1f}" if values else "p50 -"]
    parts += [f"p{round(share * 100)} {percentile(values, share):.1f}" for share in shares]
    return f"{name}: {', '.join(parts)} ms over {len(values)}"


def main() -> None:
    options = parse_options()  # before connecting: --help needs no database
    NIGHT.pages, NIGHT.tables = prepare(options.players)
    processes = start_layout(
        options.web_workers, options.concurrency, reuse_port=not options.shared_socket,
        play_workers=options.play_workers, action_workers=options.action_workers,
        action_server=options.action_server,
        worker_nice=options.worker_nice,
    )  # fmt: skip
    time.sleep(2)
    load_before = os.getloadavg()
    try:
        environment = run_load(processes, options)
    finally:
        processes.stop()
    load_after = os.getloadavg()
    tables = logging.getLogger("locust.stats_logger")  # locust prints its tables to this
    tables.addHandler(logging.StreamHandler(sys.stdout))
    tables.setLevel(logging.INFO)
    tables.propagate = False
    print_stats(environment.stats, current=False)
    print_percentile_stats(environment.stats)
    print_error_report(environment.stats)
    report(NIGHT.figures, options, load_before, load_after, str(processes.log_dir))


def run_load(processes, options: argparse.Namespace) -> Environment:
    NIGHT.port, NIGHT.figures = play_port(processes), Figures()
    NIGHT.browse_think, NIGHT.play_think = options.browse_think, options.play_think
    warm_up(processes.port, NIGHT.pages, options.web_workers)
    if NIGHT.port != processes.port:
        NIGHT.play_host = f"http://127.0.0.1:{NIGHT.port}"
        warm_up(NIGHT.port, NIGHT.pages, options.play_workers)
    if action_port(processes) != NIGHT.port:
        NIGHT.action_host = f"http://127.0.0.1:{action_port(processes)}"
        warm_up(action_port(processes), NIGHT.pages, options.action_workers)
    Phone.fixed_count = options.players
    Phone.host = f"http://127.0.0.1:{NIGHT.port}"
    Visitor.host = f"http://127.0.0.1:{processes.port}"
    users: list = ([Phone] if options.players else []) + ([Visitor] if options.browsers else [])
    # stop_timeout: at the deadline a request under way is waited for (and counted), as long
    # as a saturated server takes; a user between requests stops at once.
    environment = Environment(user_classes=users, stop_timeout=600)
    runner = environment.create_local_runner()
    web = [
        name for name in ("gunicorn", "gunicorn-play", "gunicorn-actions")
        if name in processes.running
    ]  # fmt: skip
    cpu_before = {
        "gunicorn": processes.cpu_seconds(*web),
        "worker": processes.cpu_seconds("worker"),
        "bench": bench_cpu_seconds(),
    }
    programs_before = {name: cpu_seconds_by_program(name) for name in PROGRAMS}
    web_before = [processes.cpu_seconds_by_process(name) for name in web]
    everyone = options.browsers + options.players
    NIGHT.stop = time.monotonic() + options.seconds
    runner.start(everyone, spawn_rate=min(everyone, 100))
    gevent.sleep(options.seconds)
    runner.quit()
    for failure in runner.exceptions.values():  # a user's own code failing, not the site
        NIGHT.figures.errors.append(f"bench: {failure['msg']} ({failure['count']}×)")
    NIGHT.figures.cpu = {
        "gunicorn": processes.cpu_seconds(*web) - cpu_before["gunicorn"],
        "worker": processes.cpu_seconds("worker") - cpu_before["worker"],
        "bench": bench_cpu_seconds() - cpu_before["bench"],
    }
    for name, before in programs_before.items():
        NIGHT.figures.cpu[name] = sum(used_since(before, cpu_seconds_by_program(name)))
    NIGHT.figures.web_processes = [
        sorted(used_since(before, after), reverse=True)
        for before, after in zip(
            web_before, [processes.cpu_seconds_by_process(name) for name in web], strict=True
        )
    ]
    return environment


PROGRAMS = ("postgres", "redis-server")  # started outside the bench, measured by name


def used_since(before: dict[int, float], after: dict[int, float]) -> list[float]:
    """The CPU seconds each process (by pid) used between two readings; a process started
    meanwhile counts from nothing, one that ended is not in `after`."""
    return [seconds - before.get(pid, 0.0) for pid, seconds in after.items()]


def bench_cpu_seconds() -> float:
    """CPU time (user and system) this process (locust, the phones and visitors) used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def report(figures: Figures, options, load_before, load_after, log_dir: str) -> None:
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
          f"{requests} requests), Celery worker {figures.cpu['worker']:.1f} s, PostgreSQL "
          f"{figures.cpu['postgres']:.1f} s (its processes open at the end), Redis "
          f"{figures.cpu['redis-server']:.1f} s, this load generator "
          f"{figures.cpu['bench']:.1f} s")  # fmt: skip
    shares = "; ".join(
        " / ".join(f"{seconds:.1f}" for seconds in lane) for lane in figures.web_processes
    )
    print(f"web server CPU by process (gunicorn's master and workers, busiest first; the "
          f"pages'; the tables'; the forms'): {shares} s")  # fmt: skip
    for error in figures.errors[:10]:
        print("  error:", error)
    print(f"server logs: {log_dir}")


if __name__ == "__main__":
    main()
