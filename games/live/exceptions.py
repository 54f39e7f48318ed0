"""The refusals of live tables, each one of config.errors' kinds: the API's exception handler
and the pages answer them by their kind (docs/api.md), so no view maps them by hand."""

from django.utils.translation import gettext_lazy

from config.errors import Conflict, Forbidden, Invalid, NotFound


class TableInvalid(Invalid):
    """The request for a table is wrong (400): `errors` maps each field to its sentence."""


class TableClosed(Conflict):
    """The table or fixture takes no one else, or is not in the state asked for (409): it is
    full, begun, ended, void, or (to resume it) not held."""


class ClaimRefused(Conflict):
    """The seat cannot be claimed (409): it is the claimant's own, a bot's, or its player has
    not let the clock play enough of their turns in a row."""


class TooManyOpenTables(Conflict):
    """The user already has as many casual tables waiting for players as anyone may (409)."""


class TurnConflict(Conflict):
    """The move answers a turn that is not open (409): stale, duplicate, late, or the game is
    not on (waiting, over, held, paused). `turn` is the table's current turn, in the body too;
    the table page, which shows the table as it is now, says only that it moved on."""

    page_sentence = gettext_lazy(
        "The table moved on before your move arrived: look again and choose."
    )

    def __init__(self, message: str, *, turn: int) -> None:
        self.turn = turn
        super().__init__(message, extra={"turn": turn})


class NotYourTurn(Forbidden):
    """The mover holds no seat at the table that is to act now (403)."""


class ReplayUnavailable(NotFound):
    """The table has no replay (yet): its game is not over (404, as the page says)."""
