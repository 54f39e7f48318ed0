"""What a play page shows beyond the table's JSON, worked out per game.

Each game has a module `games/live/pages/<game>.py` with

    page_context(*, table: Mapping[str, Any], moves: list[dict], hands: Sequence[dict]) -> dict

that turns the table as the viewer may see it (the API JSON of docs/api.md, holding the
engine's view for the viewer's seat) and that seat's legal moves into what the game's
templates (`templates/games/<game>/`) draw: squares a card may take, heads on each card,
the choices of the current phase. It reads nothing else, so a page can never show more
than the viewer's own view.
"""

from collections.abc import Mapping, Sequence
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from games.engines import ENGINE_NAMES
from leagues.models import Game


def page_context(
    *, table: Mapping[str, Any], moves: list[dict], hands: Sequence[dict] = ()
) -> dict:
    """The game's own page context for `table`, the viewer's legal `moves`, and `hands`."""
    game = table["game"]
    if game not in ENGINE_NAMES:
        raise ValueError(f"unknown game {game!r}")
    return import_module(f"{__name__}.{game}").page_context(table=table, moves=moves, hands=hands)


def log_sentence(entry: Mapping[str, Any], *, game: str) -> SafeString:
    """One move of `game`'s log as a whole sentence (the game's own `log_sentence`)."""
    return import_module(f"{__name__}.{game}").log_sentence(entry)


def said(entry: Mapping[str, Any], words: tuple[Promise, Promise], **values: Any) -> SafeString:
    """A log entry's sentence: `words` are (told of another player, told of the viewer: "You
    ..."), whose markup is the catalogue's; the entry's `name` and `values` are escaped."""
    theirs, mine = words
    values = {"name": entry["name"], **values}
    text = str(mine if entry["mine"] else theirs)
    return mark_safe(text % {key: conditional_escape(value) for key, value in values.items()})


def seat_names(table: Mapping[str, Any]) -> list[str | None]:
    """The name at each seat, in seat order (None for an open seat)."""
    return [seat["name"] for seat in sorted(table["seats"], key=lambda seat: seat["seat"])]


def narrated_names(table: Mapping[str, Any]) -> list[str | None]:
    """The name at each seat as the page tells of moves: "You" for the viewer's own seat."""
    you = pgettext("the viewer, naming a seat", "You")
    return [you if seat == table["seat"] else name for seat, name in enumerate(seat_names(table))]


RECENT_MOVES = 6


def live_context(
    *,
    table: Mapping[str, Any],
    moves: list[dict],
    log: Sequence[Mapping[str, Any]],
    user,
    etag: str,
    move_error: str = "",
    may_resume: bool = False,
    may_close: bool = False,
) -> dict:
    """What `games/_live.html` draws for `table` as its viewer sees it: `moves` are the
    viewer's legal moves, `log` the move log as the viewer may see it, `etag` the version of
    the table it was read at, `may_resume` whether the viewer may go on with a held table,
    `may_close` whether they may close a waiting one (its creator)."""
    names = narrated_names(table)
    my_seat = table["seat"]
    recent = [
        {**entry, "name": names[entry["seat"]], "mine": entry["seat"] == my_seat}
        for entry in log[-RECENT_MOVES:][::-1]
    ]
    for entry in recent:
        entry["sentence"] = log_sentence(entry, game=table["game"])
    playing = table["status"] == "playing"
    to_act = set(table["to_act"]) if playing else set()
    winners = set((table["outcome"] or {}).get("winners", []))
    seats = [
        {
            **seat,
            "to_act": seat["seat"] in to_act,
            "mine": seat["seat"] == my_seat,
            "winner": seat["seat"] in winners,
        }
        for seat in table["seats"]
    ]
    return {
        "table": table,
        "view": table["view"],
        "page": page_context(table=table, moves=moves) if table["view"] is not None else None,
        "seats": seats,
        "recent": recent,
        "my_turn": my_seat is not None and my_seat in to_act,
        "status_line": _status_line(table, seats),
        "open_seats": sum(1 for seat in seats if not seat["name"]),
        "can_join": (
            user.is_authenticated
            and table["status"] == "waiting"
            and (my_seat in table["awaiting"] if table["fixture"] else my_seat is None)
        ),
        "awaited": [seat["name"] for seat in seats if seat["seat"] in table["awaiting"]],
        "may_resume": may_resume,
        "may_close": may_close,
        "seconds_left": _seconds_left(table["deadline"]),
        "server_now": timezone.now().isoformat(timespec="milliseconds"),
        "etag": etag,
        "move_error": move_error,
        "game_name": Game(table["game"]).label,
        "game_template": f"games/{table['game']}/_table.html",
        "live_url": reverse("table-detail", args=[table["id"]]),
        "move_url": reverse("table-move", args=[table["id"]]),
        "fallback_poll_seconds": settings.GAMES_FALLBACK_POLL_SECONDS,
        "fixture_url": fixture_url(table),
        "fair": fair_clocks(table, user=user),
    }


def fair_clocks(table: Mapping[str, Any], *, user) -> dict:
    """What the page shows of the fair clocks: the viewer's time bank, the pause and who asked
    for it, the seats the viewer may claim and the claims the venue's staff are to decide."""
    my_seat = table["seat"]
    seats = sorted(table["seats"], key=lambda seat: seat["seat"])
    on = table["status"] == "playing" and not table["held"]
    mine = seats[my_seat] if my_seat is not None else None
    seated_person = mine is not None and not mine["bot"] and user.is_authenticated
    return {
        "bank": mine["bank"] if mine is not None and table["time_bank_seconds"] else None,
        "bank_running": table["bank_running"],
        "may_pause": on and seated_person,
        "asked": mine is not None and mine["pause_asked"],
        "askers": [seat["name"] for seat in seats if seat["pause_asked"]],
        "claimable": [
            seat
            for seat in seats
            if seated_person
            and table["status"] == "playing"
            and seat["seat"] != my_seat
            and not seat["bot"]
            and seat["claimed_by"] is None
            and seat["away"] >= table["claim_after_timeouts"]
        ],
        "claims": [seat for seat in seats if seat["claimed_by"]],
        "claim_after": table["claim_after_timeouts"],
    }


def _status_line(table: Mapping[str, Any], seats: list[dict]) -> str:
    if table["status"] == "waiting" and table["fixture"]:
        return gettext("Waiting for every player to come to the table.")
    if table["status"] == "waiting":
        return gettext("Waiting for every seat to be taken.")
    if table["held"]:
        return gettext("Held: a player let the clock play their turns. The venue's staff decide.")
    if table["paused"]:
        return gettext("Paused: every player asked for a break.")
    if table["status"] == "finished":
        outcome = table["outcome"] or {}
        winners = [seat for seat in seats if seat["winner"]]
        if outcome.get("draw") or not winners:
            return gettext("Game over: a draw.")
        others = [seat["name"] for seat in winners if not seat["mine"]]
        if len(others) < len(winners):
            if not others:
                return gettext("Game over: you won.")
            return gettext("Game over: you & %(names)s won.") % {"names": " & ".join(others)}
        return gettext("Game over: %(names)s won.") % {"names": " & ".join(others)}
    acting = [seat for seat in seats if seat["to_act"]]
    if any(seat["mine"] for seat in acting):
        others_count = len(acting) - 1
        if not others_count:
            return gettext("Your turn.")
        return ngettext(
            "Your turn. %(count)d other still to play.",
            "Your turn. %(count)d others still to play.",
            others_count,
        ) % {"count": others_count}
    return gettext("Waiting for %(names)s.") % {"names": ", ".join(seat["name"] for seat in acting)}


def _seconds_left(deadline: str | None) -> int | None:
    if not deadline:
        return None
    remaining = datetime.fromisoformat(deadline) - timezone.now()
    return max(0, round(remaining.total_seconds()))


def fixture_url(table: Mapping[str, Any]) -> str | None:
    return reverse("fixture-detail", args=[table["fixture"]]) if table["fixture"] else None
