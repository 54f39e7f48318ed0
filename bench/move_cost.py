"""What one move costs the tables' process, part by part: the move's request (the form's POST
with its answer, the live part), the bots' answer (a Celery worker's), and one drawing of the
live part for the player's event stream; CPU milliseconds and queries each.

    DATABASE_URL=postgres://… CACHE_URL=redis://…/7 CELERY_BROKER_URL=redis://…/6 \\
        .venv/bin/python bench/move_cost.py [--moves 300] [--profile move|draw]

One process, no server and no load: the same Django stack as the production layout (DEBUG off,
sessions in the Redis cache), a Корова table against three bots played through Django's test
client as bench/night.py's phones play (the page's form, htmx), the bots' turn through their
service, the stream's drawing as games.live.views draws it. The medians say which part to cut
(docs/performance.md "What a move costs"); --profile prints cProfile's top of one part.
"""

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from night_setup import ensure_database  # noqa: E402 (sets the production environment)

T = TypeVar("T")
PARTS = ("move", "draw", "bots")
CARD = re.compile(r'data-card="(\d+)" aria-pressed="false"')
ROW = re.compile(r"""name="move" value='(\{"row": \d+\})' class="take-row\"""")
TURN = re.compile(r'<input type="hidden" name="turn" value="(\d+)">')


class Costs:
    """CPU milliseconds and queries of each part, from different calls: counting queries
    slows the call it counts."""

    def __init__(self, profiled: str | None) -> None:
        self.cpu_ms: dict[str, list[float]] = {}
        self.queries: dict[str, list[int]] = {}
        self.profiled = profiled
        self.profile = cProfile.Profile()
        self.counting = False  # every other round counts queries instead of timing

    def measure(self, part: str, call: Callable[[], T]) -> T:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        if self.counting:
            with CaptureQueriesContext(connection) as queries:
                result = call()
            self.queries.setdefault(part, []).append(len(queries))
            return result
        profiling = part == self.profiled
        started = time.process_time()
        if profiling:
            self.profile.enable()
        result = call()
        if profiling:
            self.profile.disable()
        self.cpu_ms.setdefault(part, []).append((time.process_time() - started) * 1000)
        return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="the player's moves (default 300)")
    parser.add_argument("--profile", choices=PARTS, help="cProfile's top of one part")
    args = parser.parse_args()
    ensure_database()
    # One player makes all the moves: their allowance is counted, as a phone's is, never spent.
    os.environ["TABLE_MOVE_RATE"] = "1000000/minute"
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client, RequestFactory
    from django.urls import reverse

    from games.live import services, views
    from games.models import Table

    user, _ = get_user_model().objects.get_or_create(username="move-cost-player")
    Table.objects.filter(created_by=user).delete()
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    viewer = RequestFactory(HTTP_HOST="127.0.0.1").get(
        "/"
    )  # the stream's request: its user and language
    viewer.user, viewer.LANGUAGE_CODE = user, "en"
    costs, rng = Costs(args.profile), random.Random(6)
    table: Table | None = None
    moves, warm = 0, 20  # the first moves fill the caches (templates, compiled queries)
    while moves < warm + 2 * args.moves:
        if table is None or table.status == "finished":
            table = services.table_create(
                game="korova", players=4, options={"turn_seconds": 30}, bots=[1, 2, 3], by=user
            )
        page, move, draw = (
            reverse("table-detail", args=[table.pk]),
            reverse("table-move", args=[table.pk]),
            views.live_part_draw(viewer, table.pk),
        )
        costs.counting = moves >= warm and moves % 2 == 1
        measure = costs.measure if moves >= warm else (lambda part, call: call())
        measure(
            "bots",
            partial(
                services.table_bots_move,
                table_id=table.pk,
                turn=table.turn,
                seats=[1, 2, 3],
                rng=rng,
            ),
        )
        html = client.get(page).content.decode()
        offered = ROW.findall(html) or [
            json.dumps({"card": int(card)})
            for card in (CARD.findall(html) if "data-template" in html else [])  # the form's
        ]
        turn = TURN.search(html)
        if offered and turn:
            form = {"turn": turn[1], "move": rng.choice(offered)}
            answer = measure("move", partial(client.post, move, form, HTTP_HX_REQUEST="true"))
            if answer.status_code != 200:
                sys.exit(f"move refused ({answer.status_code}): {form}")
            measure("draw", partial(draw, ""))
            moves += 1
        table.refresh_from_db()
    print(f"{args.moves} moves on Корова tables against three bots, CPU median / p95:")
    for part in PARTS:
        ordered = sorted(costs.cpu_ms[part])
        p95 = ordered[round(0.95 * (len(ordered) - 1))]
        queries = statistics.median(costs.queries[part])
        print(
            f"  {part:5s} {statistics.median(ordered):5.2f} / {p95:5.2f} ms, {queries:.0f} queries"
        )
    if args.profile:
        pstats.Stats(costs.profile).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
