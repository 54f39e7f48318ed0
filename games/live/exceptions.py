"""The refusals of live-table writes; the API turns each into a status code (docs/api.md)."""


class TableInvalid(Exception):
    """The request for a table is wrong (400); `errors` maps a field to one sentence."""

    def __init__(self, errors: dict[str, str]):
        self.errors = errors
        super().__init__("; ".join(f"{field}: {text}" for field, text in errors.items()))


class TableClosed(Exception):
    """The table or fixture takes no one else (409): it is full, begun, ended or void."""


class TooManyOpenTables(Exception):
    """The user already has as many casual tables waiting for players as anyone may (409)."""


class TurnConflict(Exception):
    """The move answers a turn that is not open (409): stale, duplicate or late.
    `turn` is the table's current turn."""

    def __init__(self, message: str, *, turn: int):
        self.turn = turn
        super().__init__(message)


class NotYourTurn(Exception):
    """The mover holds no seat at the table that is to act now (403)."""
