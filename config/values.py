"""Small readers and writers of values that the whole site shares, each written once: a whole
number in ASCII digits (forms, the API's fields and filters, the score sheets) and a moment as
UTC ISO 8601 text (the table JSON, the result API)."""

import datetime
import re

_WHOLE_NUMBER = re.compile(r"-?[0-9]+")


def whole_number(value: object, *, padded: bool = False) -> int | None:
    """An int from an int, or from a string of ASCII digits with an optional minus sign; None
    for anything else. `padded` allows white space around the digits (a score sheet's cells,
    typed by hand); elsewhere (an address's query, a form the site wrote) " 3" is refused.

    int() alone would take "١" (Arabic-Indic one) or "１" as 1, and DRF's and Django's fields
    read 4.0 or "4.0" as 4: a whole number is written as ids are everywhere else on the site
    (the admin's, the addresses' <int:…>). A bool is not a number here; a string of more
    digits than Python reads (4300) is None, as any other unreadable input."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(
        text := value.strip() if padded else value
    ):
        try:
            return int(text)
        except ValueError:  # more digits than Python reads, as for a JSON number
            return None
    return None


def utc_iso(moment: datetime.datetime | None, *, timespec: str = "auto") -> str | None:
    """ISO 8601 in UTC with a Z ("2026-12-01T20:00:30.250Z" with timespec="milliseconds");
    None stays None. `timespec` as datetime.isoformat takes it."""
    if moment is None:
        return None
    return moment.astimezone(datetime.UTC).isoformat(timespec=timespec).replace("+00:00", "Z")
