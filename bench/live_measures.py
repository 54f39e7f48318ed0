"""What bench/live_tables.py reports: percentiles of timings, and the time one call spends in
SQL statements, by the clock."""

import statistics
import time


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values_ms: list[float]) -> str:
    return (
        f"p50 {statistics.median(values_ms):.1f} ms, p99 {percentile(values_ms, 0.99):.1f} ms, "
        f"max {max(values_ms):.1f} ms over {len(values_ms)}"
    )


class StatementTimer:
    """Times each SQL statement this process runs (BEGIN and COMMIT included) by the clock,
    not Django's rounded debug timings."""

    def __init__(self):
        self.seconds, self.count = 0.0, 0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.count += 1


def timed_call(call) -> tuple[float, float, int]:
    """(total ms, SQL ms, statements) of one call; commit hooks (the broker's send) included."""
    from django.db import connection

    timer = StatementTimer()
    started = time.perf_counter()
    with connection.execute_wrapper(timer):
        call()
    total = (time.perf_counter() - started) * 1000
    return total, timer.seconds * 1000, timer.count
