"""The play pages: the lobby, a table as its viewer may see it, moves, and replays.

Everything a page shows comes from the selectors (the engine's view for the viewer's seat,
never the full state) and every move goes through `table_move`; the views hold no rules.
A table page hears of its table's changes through an event stream (`table_events`) and then
fetches its live part with a conditional GET (polling, slower, when the stream fails): the ETag
is the table's version and the viewer, so an unchanged table answers 304 with no body
(docs/play-pages.md).
"""

import json
from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, HttpResponseNotModified, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from config.errors import DomainError, page_refusal, refusal_sentence
from config.game_words import refusal_text
from config.page_errors import refusal_as_message
from config.sync_thread import READ_SECONDS, in_turn
from config.values import whole_number
from games.engines import IllegalMove, Move
from games.live import polls, push, selectors, services, table_lists
from games.live.exceptions import ReplayUnavailable
from games.live.pages import RECENT_MOVES, fixture_url, live_context, page_context
from games.live.pages.how_to_play import GAMES, how_to_play_context
from games.live.throttles import TableCreateThrottle, TableMoveThrottle, page_wait
from games.models import Table
from leagues.models import Game

MOVE_MAX_CHARS = 2000  # the longest real move, a Convoy remover's, is under 100


@require_GET
def lobby(request):
    """Open tables to join, a form to start one, the games on now, by venue, and finished
    games to replay (the viewer's own, then anyone's lately)."""
    lobby = table_lists.lobby_tables(user=request.user)
    for table in (row for rows in lobby.values() for row in rows):
        table["game_name"] = Game(table["game"]).label
    return render(
        request,
        "games/lobby.html",
        {
            "lobby": lobby,
            "venues": table_lists.tables_by_venue(tables=lobby["playing"]),
            "games": Game.choices,
            "fixture_days": table_lists.fixture_days(),
            "finished_mine": table_lists.finished_tables_of_user(user=request.user),
            "finished_recent": table_lists.finished_tables_recent(user=request.user),
        },
    )


@require_GET
def how_to_play(request, game: str):
    """A game's rules in plain words, with pictures drawn as a table draws them."""
    if game not in GAMES:
        raise Http404(_("No such game."))
    context = {
        **how_to_play_context(game),
        "game": game,
        "game_name": Game(game).label,
        "other_games": [(name, Game(name).label) for name in GAMES if name != game],
    }
    return render(request, f"games/how_to_play/{game}.html", context)


@require_POST
@login_required
def table_start(request):
    """A casual table from the lobby's form: the starter sits in seat 0, bots in the last seats.
    Counted against the same per-user allowance as the API's POST /api/tables/."""
    wait = page_wait(request, TableCreateThrottle)
    if wait is not None:
        messages.error(
            request,
            ngettext(
                "You have started many tables lately: try again in %(seconds)d s.",
                "You have started many tables lately: try again in %(seconds)d s.",
                wait,
            )
            % {"seconds": wait},
        )
        return redirect("table-lobby")
    players = whole_number(request.POST.get("players", ""))
    turn_seconds = whole_number(request.POST.get("turn_seconds", ""))
    bot_count = whole_number(request.POST.get("bots", "0"))
    time_bank = whole_number(request.POST.get("time_bank_seconds", "0"))
    if players is None or turn_seconds is None or bot_count is None or time_bank is None:
        messages.error(
            request,
            _("Choose the number of players, a turn clock and a time bank in whole seconds."),
        )
        return redirect("table-lobby")
    with refusal_as_message(request) as refused:
        table = services.table_create(
            game=request.POST.get("game", ""),
            players=players,
            options={"turn_seconds": turn_seconds, "time_bank_seconds": time_bank},
            bots=list(range(max(1, players - bot_count), players)),
            by=request.user,
        )
    if refused:
        return redirect("table-lobby")
    return redirect("table-detail", table_id=table.pk)


@require_POST
@login_required
def table_join(request, table_id: int):
    """Take a seat at a casual table, or say "I am here" at a fixture's."""
    return _table_form(request, table_id, services.table_join)


@require_POST
@login_required
def table_cancel(request, table_id: int):
    """The creator closes a casual table nobody has filled: back to the lobby, which no
    longer lists it."""
    with refusal_as_message(request) as refused:
        services.table_cancel(table_id=table_id, by=request.user)
    if refused:
        return redirect("table-detail", table_id=table_id)
    messages.success(request, _("Table %(number)d is closed.") % {"number": table_id})
    return redirect("table-lobby")


@require_POST
@login_required
def table_resume(request, table_id: int):
    """Staff go on with a held fixture table."""
    return _table_form(request, table_id, services.table_resume)


@require_POST
@login_required
def table_pause(request, table_id: int):
    """A seated player asks for a pause (the clock stops when every one has)."""
    return _table_form(request, table_id, services.table_pause)


@require_POST
@login_required
def table_unpause(request, table_id: int):
    """A seated player plays on: the asks are withdrawn, a paused turn goes on."""
    return _table_form(request, table_id, services.table_unpause)


@require_POST
@login_required
def table_claim(request, table_id: int):
    """A seated player claims the seat of a player who let the clock play their turns."""
    seat = whole_number(request.POST.get("seat", ""))  # None: the service names the field

    def claim(*, table_id: int, by):
        return services.table_claim(table_id=table_id, seat=seat, by=by)

    return _table_form(request, table_id, claim)


def _table_form(request, table_id: int, service):
    """A plain form at the table: the service, then back to the table (with its refusal)."""
    with refusal_as_message(request):
        service(table_id=table_id, by=request.user)
    return redirect("table-detail", table_id=table_id)


@require_GET
def table_detail(request, table_id: int):
    """The table page; htmx polls get its live part, or 304 while nothing changed.

    The ETag comes from the table's version (one small query) and the viewer, so an
    unchanged table is answered without loading its game; an overdue turn is always read
    in full, which expires it first."""
    # A fetch that found something new has had its ETag worked out by the middleware before.
    etag = getattr(request, "table_etag", None) or _etag(request, table_id)
    response: HttpResponse
    if request.htmx and request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        template = "games/_live.html" if request.htmx else "games/table.html"
        response = render(request, template, _live_part_context(request, table_id, etag))
    response["ETag"] = etag
    response["Cache-Control"] = "no-store"
    return response


@require_GET
async def table_events(request, table_id: int):
    """The table's changes as server-sent events (games.live.push), each with the live part
    as this page's viewer sees it (their seat's view only, in their language), or its ETag
    alone when unchanged (`?shown=`: the ETag the page was loaded with); none for a move the
    page itself sent (`?page=`: the page's id, as its moves name it). Public, as the table
    page is.

    Only an ASGI server can hold the stream open without holding a thread for it: served
    otherwise (a WSGI server) it answers 204, which tells the page's EventSource not to come
    back, and the page polls instead."""
    # Not in_turn: this view is awaited from the request's own turn on the sync thread, which
    # runs the call itself (the stream's drawings later wait their turn).
    version = await sync_to_async(selectors.table_version)(table_id=table_id)
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    request.user = await request.auser()  # once, not at every event
    response = StreamingHttpResponse(
        push.table_event_stream(
            table_id=table_id, version=version, draw=_live_part_drawer(request, table_id),
            page=push.page_id(request.GET.get("page")), shown=request.GET.get("shown", ""),
        ),
        content_type="text/event-stream",
    )  # fmt: skip
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@require_POST
def table_move(request, table_id: int):
    """One move from the page's form (`turn` and the move as JSON), through `table_move`,
    counted against the same per-user allowance as the API's moves."""
    if not request.user.is_authenticated:
        raise PermissionDenied(_("Log in to play."))
    wait = page_wait(request, TableMoveThrottle)
    if wait is not None:
        error = ngettext(
            "You have sent very many moves lately: try again in %(seconds)d s.",
            "You have sent very many moves lately: try again in %(seconds)d s.",
            wait,
        ) % {"seconds": wait}
        return _move_answer(request, table_id, status=429, error=error, retry_after=wait)
    status, error = 200, ""
    moved: Table | None = None
    try:
        turn, move = _posted_move(request)
    except ValueError:
        status, error = 400, _("That move could not be read: reload the page and try again.")
    else:
        try:
            with push.moves_from_page(push.page_id(request.headers.get(push.PAGE_HEADER))):
                moved = services.table_move(
                    table_id=table_id, turn=turn, move=move, by=request.user
                )
        except DomainError as refusal:  # shown beside the hand, with the refusal's status
            status, error = refusal.status, refusal_sentence(refusal)
        except IllegalMove as refusal:  # the engines' own refusal, always bad input
            status, error = 400, refusal_text(refusal)
    return _move_answer(request, table_id, status=status, error=error, moved=moved)


def _move_answer(
    request,
    table_id: int,
    *,
    status: int,
    error: str,
    retry_after: int | None = None,
    moved: Table | None = None,
):
    """The table's live part with the refusal's sentence (htmx), or back to the table page
    with it as a message. The table a move has just `moved` is drawn as the service left it
    (read under its lock), not read again, unless its turn has moved on since the commit (the
    bots answered at once): the answer's ETag is read after the commit, and must not label
    an older table, or the page would take the newer one's event for what it shows."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("table-detail", table_id=table_id)
    version = selectors.table_version(table_id=table_id)
    etag = polls.version_etag(version=version, viewer=polls.viewer_of(request))
    if moved is not None and _still(moved, version):
        table, moves, log = selectors.table_page_as_seen(
            table=moved, user=request.user, recent=RECENT_MOVES
        )
    else:
        table, moves, log = _read(request, table_id)
    context = live_context(
        table=table, moves=moves, log=log, user=request.user, etag=etag, move_error=error,
        may_resume=selectors.may_resume(table=table, user=request.user),
        may_close=selectors.may_close(table=table, user=request.user),
    )  # fmt: skip
    response = render(request, "games/_live.html", context, status=status)
    response["Cache-Control"] = "no-store"
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@require_GET
def table_replay(request, table_id: int):
    """A finished table turn by turn (`?step=N`), every hand shown; works without JavaScript."""
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    try:
        replay = selectors.table_replay_step(table_id=table_id, step=step)
    except ReplayUnavailable as refusal:
        return page_refusal(request, refusal, template="games/replay_unavailable.html")
    table = replay["table"]
    context = {
        "table": table,
        "view": table["view"],
        "replay": replay,
        "game_name": Game(table["game"]).label,
        "game_template": f"games/{table['game']}/_table.html",
        # a game whose cards are plain playing cards needs no hands template of its own
        "hands_template": [f"games/{table['game']}/_hands.html", "games/_hands.html"],
        "page": page_context(table=table, moves=[], hands=replay["hands"]),
        "fixture_url": fixture_url(table),
    }
    if not request.htmx:
        return render(request, "games/replay.html", context)
    response = render(request, "games/_replay_step.html", context)
    # The address names the step this answer shows (the asked step may be out of range, and
    # with quick taps only the last request is kept: hx-sync), so it cannot lag behind.
    response["HX-Push-Url"] = f"{request.path}?step={replay['step']}"
    return response


def _live_part_drawer(request, table_id: int) -> push.Draw:
    """The stream's `Draw`: `live_part_draw` on the thread the synchronous views run on (with
    its database connection), in turn with the requests on that thread, as a read
    (config/sync_thread.py): a move that comes in meanwhile goes first."""
    return in_turn(READ_SECONDS, live_part_draw(request, table_id))


def live_part_draw(request, table_id: int) -> Callable[[str], tuple[str, str | None] | None]:
    """What the table's fetch would answer this request's viewer: its ETag, and its live part
    unless that ETag is the one given (shown already); None when the table is gone."""

    def draw(shown: str) -> tuple[str, str | None] | None:
        try:
            etag = _etag(request, table_id)
        except Table.DoesNotExist:
            return None
        if etag == shown:
            return etag, None
        with translation.override(request.LANGUAGE_CODE):
            context = _live_part_context(request, table_id, etag)
            return etag, render_to_string("games/_live.html", context, request=request)

    return draw


def _live_part_context(request, table_id: int, etag: str) -> dict:
    """The table as `request`'s viewer sees it now, for its live part (and its page)."""
    table, moves, log = _read(request, table_id)
    return live_context(
        table=table, moves=moves, log=log, user=request.user, etag=etag,
        may_resume=selectors.may_resume(table=table, user=request.user),
        may_close=selectors.may_close(table=table, user=request.user),
    )  # fmt: skip


def _etag(request, table_id: int) -> str:
    """The ETag of what `request`'s viewer sees of the table now (games.live.polls)."""
    return polls.table_etag(table_id=table_id, viewer=polls.viewer_of(request))


def _still(table: Table, version: dict) -> bool:
    """Whether `version` is still the turn of `table` (as a move's service returned it)."""
    return (table.turn, table.status, table.deadline) == (
        version["turn"],
        version["status"],
        version["deadline"],
    )


def _read(
    request, table_id: int
) -> tuple[selectors.TableJson, list[Move], list[selectors.LogEntryJson]]:
    return selectors.table_page_for_viewer(
        table_id=table_id, user=request.user, recent=RECENT_MOVES
    )


def _posted_move(request) -> tuple[int, object]:
    """The form's turn and move. A move is a small JSON object, so anything long, nested
    past the parser's depth or holding characters UTF-8 cannot carry is refused (ValueError)
    before the engine or a page sees it."""
    raw = request.POST.get("move", "")
    if len(raw) > MOVE_MAX_CHARS:
        raise ValueError("move too long")
    try:
        move = json.loads(raw)
    except RecursionError:
        raise ValueError("move nested too deep") from None
    json.dumps(move, ensure_ascii=False).encode("utf-8")  # UnicodeEncodeError is a ValueError
    turn = whole_number(request.POST.get("turn", ""))
    if turn is None:
        raise ValueError("the turn is not a whole number")
    return turn, move


def fixture_tables(request, fixture_id: int):
    """A fixture's live tables; staff of its venue or its players start them (POST)."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied(_("Log in to start a fixture's tables."))
        with refusal_as_message(request):
            services.fixture_tables_start(fixture_id=fixture_id, by=request.user)
        return redirect("fixture-tables", fixture_id=fixture_id)
    listing = table_lists.fixture_tables_for_viewer(fixture_id=fixture_id, user=request.user)
    return render(request, "games/fixture_tables.html", listing)
