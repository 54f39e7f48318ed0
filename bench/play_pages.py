"""The play pages in real browsers: how soon the other players see a move, and what an
unchanged poll costs.

    DATABASE_URL=postgres://… TEST_REDIS_URL=redis://… .venv/bin/python bench/play_pages.py [--runs 3]

Runs the browser games (tests/browser/test_play_conquian.py and test_play_convoy.py: a live
server on PostgreSQL, a real Celery worker, headless chromium phones polling every 500 ms)
--runs times. Each game writes test-results/timings-<game>.json: for every move made on a
page, the time from its tap (the POST) to each other page first showing the next turn, by
the one machine's clock; and the sizes of the 304 answers (Chromium's transferSize: status
line and headers, no body) and of the poll requests. Prints p50/p95 per run and over all.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["tests/browser/test_play_conquian.py", "tests/browser/test_play_convoy.py"]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=3, help="times to play the browser games (default 3)"
    )
    args = parser.parse_args()
    latencies: list[float] = []
    responses: list[int] = []
    requests: list[int] = []
    for run in range(1, args.runs + 1):
        for stale in (ROOT / "test-results").glob("timings-*.json"):
            stale.unlink()
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *GAMES],
            cwd=ROOT, env={**os.environ}, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        run_latencies = []
        for path in sorted((ROOT / "test-results").glob("timings-*.json")):
            data = json.loads(path.read_text())
            run_latencies += data["move_to_other_pages_ms"]
            responses += data["poll_304_bytes"]
            requests += data["poll_request_bytes"]
        latencies += run_latencies
        print(
            f"run {run}: {len(run_latencies)} sightings, move to other pages "
            f"p50 {statistics.median(run_latencies):.0f} ms, p95 {percentile(run_latencies, 0.95):.0f} ms"
        )
    print(
        f"all runs: {len(latencies)} sightings, p50 {statistics.median(latencies):.0f} ms, "
        f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms"
    )
    print(
        f"unchanged poll: 304 answer {statistics.median(responses):.0f} bytes, "
        f"request {statistics.median(requests):.0f} bytes (medians of {len(responses)} polls)"
    )


if __name__ == "__main__":
    main()
