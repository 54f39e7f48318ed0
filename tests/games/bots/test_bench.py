"""bench/bots.py, the script behind the bots' figures in docs/performance.md, still runs."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bots.py"


def test_the_bench_prints_win_rates_with_intervals_and_times():
    result = subprocess.run(
        [sys.executable, str(BENCH), "--games", "8", "--runs", "1", "korova", "conquian"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[::3]] == ["korova", "conquian"]
    assert all("bots win" in line and "95% CI" in line for line in lines[::3])
    assert "seat: 0: " in lines[1] and "3: " in lines[1]  # Корова: the bot's seat rotates
    assert all("ms/game" in line and "bot move mean" in line for line in lines[2::3])


def test_an_unknown_setup_is_refused_by_name():
    result = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "chess"], capture_output=True, text=True
    )
    assert result.returncode == 2 and "unknown setup 'chess'" in result.stderr
