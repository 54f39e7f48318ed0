"""The site's one reader of whole numbers and one writer of UTC moments (config/values.py)."""

import datetime
import zoneinfo

import pytest

from config.values import utc_iso, whole_number


@pytest.mark.parametrize(
    ("value", "number"),
    [("42", 42), ("-3", -3), (7, 7), ("٣", None), ("３", None), ("4.0", None), (4.0, None)],
)
def test_a_whole_number_is_ascii_digits_or_an_int(value, number):
    assert whole_number(value) == number


@pytest.mark.parametrize("value", [True, None, "", "+3", "1e3", "9" * 5000, [1]])
def test_anything_else_is_no_number(value):
    assert whole_number(value) is None


def test_space_around_the_digits_is_read_only_from_a_sheet():
    assert whole_number(" 11") is None and whole_number("11\n") is None
    assert whole_number(" 11", padded=True) == 11


def test_a_moment_is_written_in_utc_with_a_z_to_the_asked_precision():
    helsinki = datetime.datetime(
        2026, 12, 1, 22, 0, 30, 250000, zoneinfo.ZoneInfo("Europe/Helsinki")
    )
    assert utc_iso(helsinki) == "2026-12-01T20:00:30.250000Z"
    assert utc_iso(helsinki, timespec="milliseconds") == "2026-12-01T20:00:30.250Z"
    assert utc_iso(None) is None
