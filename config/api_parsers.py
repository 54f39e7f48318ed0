"""How the API reads JSON request bodies.

DRF's JSONParser turns malformed JSON into a 400, but JSON nested deeper than Python's
recursion limit escapes it as RecursionError (a 500), and JSON nested almost that deep makes
any later recursive step (a message quoting the value) fail the same way. No request of ours
nests more than a few levels, so bodies nested more than MAX_DEPTH levels are refused here,
before any view sees them.
"""

from collections.abc import Iterable

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32
TOO_DEEP = f"JSON parse error - the body is nested more than {MAX_DEPTH} levels deep."


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None
        if _deeper_than(data, MAX_DEPTH):
            raise ParseError(TOO_DEEP)
        return data


def _deeper_than(data, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` levels (without recursing)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[object]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
