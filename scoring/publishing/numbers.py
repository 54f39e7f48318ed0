"""Signed figures as every page prints them: negative numbers, whole or not, with a true minus
sign (U+2212, which lines up with "+" and reads as minus, not as a hyphen), and a "+" where
the sign is the point (a difference). The template filter `signed` (scoring.templatetags.
publishing) and the charts both format with `signed_number`, so no page mixes the two."""

MINUS = "\u2212"


def signed_number(value, *, places: int | None = None, plus: bool = False) -> str:
    """`value` as text with a true minus sign. `places` decimals; None shows a whole number
    as it is and anything else to one place. With `plus`, a positive number gets a "+".
    Zero, and a number that rounds to zero, is never signed."""
    if places is None:
        places = 0 if float(value).is_integer() else 1
    text = f"{value:.{places}f}"
    if float(text) == 0:
        return text.removeprefix("-")
    if text.startswith("-"):
        return MINUS + text[1:]
    return f"+{text}" if plus else text
