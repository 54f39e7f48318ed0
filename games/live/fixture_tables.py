"""A fixture played at live tables: starting its tables, and its result when they decide it.

The game's kind (scoring.kinds) says which tables a fixture needs and who sits at each
(`fixture_table_plans`), and turns finished tables into the fixture's result sheet
(`sheet_from_final_state`). The sheet goes through scoring's own result service with the
live table as its source, in the same transaction as the move that ended the game, so the
standings move at once.

Tables whose players are all free are set up together (Conquian's two singles); a table that
needs a player still at an unfinished table of the fixture (the next game of a Convoy best
of N) is set up when that table finishes and the fixture is not yet decided. A table set up
waits, with no clock, until every seated player has come to it (`fixture_seat_join`); a game
where a seat stops playing is held for the venue's staff (`fixture_table_hold_if_deserted`),
never won on time-outs alone.
"""

import logging
import random
from typing import Any, TypedDict

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden
from games.engines import Engine, get_engine
from games.engines.options import CLAIM_AFTER
from games.models import Seat, Table
from leagues.models import Fixture, Player
from leagues.permissions import can_enter_results
from scoring.kinds import FinishedTable, get_kind
from scoring.models import ResultVersion
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.lineup_selectors import fixture_seating_lineup
from scoring.results.services import ResultConflict, result_propose, result_submit

from . import turns
from .cuts import deal_cut
from .exceptions import TableClosed, TableInvalid
from .fixture_day import (
    TABLE_CLOSED,
    fixture_day,
    fixture_ensure_on_today,
    fixture_is_off_for,
    fixture_under_way,
)
from .table_setup import check_engine_options, clock_options_from, new_seed, without_clocks

logger = logging.getLogger(__name__)

# A seat that lets the clock play this many of its own turns in a row holds a fixture's table,
# unless the season's rules say otherwise (`claim_after_timeouts`, games.engines.options).
HOLD_AFTER_TIMEOUTS = CLAIM_AFTER.default


def fixture_tables_start(
    *, fixture_id: int, by, options_sent: bool = False
) -> tuple[list[Table], bool]:
    """Set up the live tables of a fixture, seats bound to the teams' players after the cut.

    Returns the fixture's tables and whether this call set them up; once set up, a repeat call
    returns the same tables and False. Each table waits for its players to come to it; it
    plays the season's rules and clocks (`turn_seconds`, `time_bank_seconds` and
    `claim_after_timeouts` of its rule options, else their defaults).

    Raises Fixture.DoesNotExist; Forbidden unless `by` serves the fixture's venue or plays
    for one of its teams; TableClosed for a void, postponed or already played fixture, or
    one whose day has passed; BeforeFixtureDay (scoring's own rule for results) while the
    fixture's day has not come (games.live.fixture_day: the fixture's day only); TableInvalid
    when `options_sent` (the API's body tried to set the rules or clock) or the season's rules
    are not playable at a table.
    """
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("season__league")
            .get(pk=fixture_id)
        )
        home, away = _team_players(fixture)
        if not (
            can_enter_results(user=by, venue_id=fixture.venue_id)
            or Player.objects.filter(user=by, pk__in=home + away).exists()
        ):
            raise Forbidden(
                _("Only staff of the fixture's venue or its players can start its tables.")
            )
        if options_sent:  # asked only of someone who may start them: a stranger learns nothing
            raise TableInvalid(
                errors={
                    "options": _(
                        "A fixture's tables play the season's rules and its clock: "
                        "options cannot be set."
                    )
                }
            )
        existing = list(_live_tables(fixture))
        if existing and not _moved_since(fixture, existing):
            return existing, False
        fixture_ensure_on_today(fixture=fixture)
        clocks = clock_options_from(options={}, defaults=fixture.season.rule_options)
        _set_up_free_tables(fixture=fixture, home=home, away=away, clocks=clocks, by=by)
        return list(_live_tables(fixture)), True


def _live_tables(fixture: Fixture):
    """The fixture's tables but those closed when it was postponed, voided or moved."""
    return fixture.live_tables.exclude(status=Table.Status.CLOSED).order_by("number")


def _moved_since(fixture: Fixture, existing: list[Table]) -> bool:
    """Whether tables of the fixture were closed after the newest of `existing` was set up:
    it was moved meanwhile, and its tables are set up again on its new day (a table finished
    before the move keeps its game; the others are set up anew)."""
    newest = max(table.created_at for table in existing)
    return fixture.live_tables.filter(status=Table.Status.CLOSED, created_at__gt=newest).exists()


def fixture_seat_join(*, table: Table, by, now) -> None:
    """`by` says "I am here" at a fixture's table (locked by the caller): their seat is marked
    joined, and the game is dealt when every seat has. Saying it again changes nothing.

    Raises Forbidden when `by` holds no seat at the table; TableClosed when the table is
    closed, and (while `by` has not joined) unless the fixture is scheduled and today is its
    day (BeforeFixtureDay before it; after it, only a later table of a fixture under way). Once the game has begun (every seat joined, or a table
    from before seats joined) it changes nothing either.
    """
    seat = next((seat for seat in table.seats.all() if by.pk and seat.user_id == by.pk), None)
    if seat is None:
        raise Forbidden(
            _(
                "The seats at a fixture's table belong to the fixture's players: "
                "only they can join it."
            )
        )
    if table.status == Table.Status.CLOSED:
        raise TableClosed(str(TABLE_CLOSED))
    if seat.joined_at is not None or table.status != Table.Status.WAITING:
        return
    assert table.fixture_id is not None, "a fixture's table"
    fixture_ensure_on_today(
        fixture=Fixture.objects.get(pk=table.fixture_id), under_way=fixture_under_way(table=table)
    )
    seat.joined_at = now
    seat.save(update_fields=["joined_at"])
    if all(other.joined_at is not None for other in table.seats.all()):
        turns.open_first_turn(table=table, now=now)


def fixture_table_hold_if_deserted(*, table: Table) -> None:
    """After time-outs at a fixture's table (locked by the caller): hold its game, with no
    clock, when a seat has just let the clock play `claim_after_timeouts` (the season's,
    HOLD_AFTER_TIMEOUTS by default) of its own turns in a row. Only at that count: after the
    venue's staff resumed the game, the clock plays on for a seat still away, and a player
    who came back and leaves again holds it anew."""
    if table.fixture_id is None or table.status != Table.Status.PLAYING or table.held:
        return
    if any(seat.timeouts_in_a_row == table.claim_after_timeouts for seat in table.seats.all()):
        fixture_table_hold(table=table)


def fixture_table_hold(*, table: Table) -> None:
    """Hold a fixture's game for the venue's staff (locked by the caller): no clock runs."""
    table.held, table.deadline, table.bank_since = True, None, None
    table.save(update_fields=["held", "deadline", "bank_since"])


def fixture_table_resume(*, table: Table, by, now) -> None:
    """The venue's staff (or a league admin) go on with a held fixture table (locked by the
    caller): the open turn gets a fresh clock, and the claims on its seats are settled.

    Raises Forbidden unless `by` serves the fixture's venue, and TableClosed when the
    table is not held."""
    fixture = Fixture.objects.get(pk=table.fixture_id) if table.fixture_id else None
    if fixture is None or not can_enter_results(user=by, venue_id=fixture.venue_id):
        raise Forbidden(_("Only staff of the fixture's venue can resume its game."))
    if not table.held or table.status != Table.Status.PLAYING:
        raise TableClosed(_("This table is not held: its game goes on by itself."))
    table.held = False
    table.save(update_fields=["held"])
    for seat in table.seats.all():
        if seat.claimed_at is not None:
            seat.claimed_by, seat.claimed_at = None, None
            seat.save(update_fields=["claimed_by", "claimed_at"])
    turns.clock_restart(table=table, now=now)


def table_finished_for_fixture(*, table: Table) -> None:
    """When a fixture's table has just finished: write the fixture's result if the finished
    tables decide it, else start the tables whose players are now free. Call inside the
    transaction that finished the table."""
    if table.fixture_id is None or table.status != Table.Status.FINISHED:
        return
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("season__league")
        .get(pk=table.fixture_id)
    )
    if fixture_is_off_for(table=table, fixture=fixture):
        # Postponed, voided or moved while this game was played (its table's close was
        # waiting for the move that ended it): the game writes no result.
        logger.warning("fixture %s is off: its table %s writes no result", fixture.pk, table.pk)
        return
    season = fixture.season
    home, away = _team_players(fixture, seated=_seated_players(fixture))
    finished = list(
        Table.objects.filter(fixture=fixture, status=Table.Status.FINISHED)
        .prefetch_related("seats")
        .order_by("number")
    )
    eng = get_engine(season.game)
    sheet = get_kind(season.game).sheet_from_final_state(
        tables=[_finished_table(done, eng) for done in finished],
        fixture_format=season.fixture_format,
        rule_options=season.rule_options,
        home_player_ids=home,
        away_player_ids=away,
    )
    if sheet is None:
        clocks = clock_options_from(options=table.options, defaults={})
        _set_up_free_tables(fixture=fixture, home=home, away=away, clocks=clocks, by=None)
        return
    # The tables played from the result there was when the first of them was set up: a
    # version saved since goes through the conflict path, as a member of staff's would.
    first_set_up = min(done.created_at for done in finished)
    started_from = (
        ResultVersion.objects.filter(fixture=fixture, created_at__lte=first_set_up)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0
    numbers = ", ".join(str(done.number) for done in finished)
    result: _LiveResult = {
        "fixture_id": fixture.pk,
        "sheet": sheet,
        "based_on_version": started_from,
        "source": ResultVersion.Source.LIVE,
        "note": f"Played live at table{'s' if len(finished) > 1 else ''} {numbers}.",
    }
    try:
        result_submit(**result, by=None, lineup={"home": home, "away": away})
    except ResultConflict:
        result_propose(**result)
    except FixtureNotOpen:
        logger.warning("fixture %s was made void or postponed while its tables played", fixture.pk)


class _LiveResult(TypedDict):
    """What a fixture's finished tables write: staff's entry, or a proposal after a conflict."""

    fixture_id: int
    sheet: dict[str, Any]
    based_on_version: int
    source: str
    note: str


def _finished_table(table: Table, eng: Engine[Any, Any]) -> FinishedTable:
    assert table.number is not None, "a fixture's tables are numbered"
    assert table.state is not None, "a finished table has been dealt"
    return FinishedTable(
        number=table.number,
        seat_players=tuple(_seated_player(seat) for seat in table.seats.all()),
        state=eng.load(table.state),
    )


def _seated_player(seat: Seat) -> int:
    assert seat.player_id is not None, "a fixture's table seats only the teams' players"
    return seat.player_id


def _seated_players(fixture: Fixture) -> set[int]:
    return set(
        Seat.objects.filter(table__fixture=fixture, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )


def _team_players(
    fixture: Fixture, *, seated: set[int] | None = None
) -> tuple[list[int], list[int]]:
    """Who plays for the home and for the away team, by position: the teams' two, a reserve in
    the place of one who said they cannot play (scoring's fixture_seating_lineup; once the
    tables are set up, who is `seated` at them)."""
    lineup = fixture_seating_lineup(fixture=fixture, seated=seated)
    return lineup["home"], lineup["away"]


def _set_up_free_tables(*, fixture: Fixture, home, away, clocks: dict[str, int], by) -> None:
    """Set up each planned table not set up yet whose players sit at no unfinished table of
    the fixture (a plan whose earlier table holds the same players waits for it)."""
    season = fixture.season
    game = season.game
    rules = without_clocks(season.rule_options)
    plans = get_kind(game).fixture_table_plans(
        fixture_format=season.fixture_format, home_player_ids=home, away_player_ids=away
    )
    started = set(_live_tables(fixture).values_list("number", flat=True))
    busy = set(
        Seat.objects.filter(table__fixture=fixture)
        .exclude(table__status__in=(Table.Status.FINISHED, Table.Status.CLOSED))
        .values_list("player_id", flat=True)
    )
    players = Player.objects.in_bulk([pk for plan in plans for side in plan.sides for pk in side])
    for plan in plans:
        circle = _round_the_table(plan.sides)
        if plan.number in started:
            continue
        if busy & set(circle):
            busy |= set(circle)  # later plans with these players wait behind this one
            continue
        check_engine_options(game=game, players=len(circle), options=rules)
        lowest_deals = get_engine(game).dealer_cut == "lowest"
        names = [players[pk].name for pk in circle]
        cut, first = deal_cut(names=names, lowest_deals=lowest_deals, rng=random.SystemRandom())
        order = circle[first:] + circle[:first]
        table = Table.objects.create(
            game=game,
            players=len(order),
            options={**rules, **clocks},
            seed=new_seed(),
            fixture=fixture,
            number=plan.number,
            fixture_day=fixture_day(fixture),
            cut=cut,
            created_by=by,
        )
        Seat.objects.bulk_create(
            Seat(table=table, seat=seat, player=players[pk], user_id=players[pk].user_id,
                 name=players[pk].name)
            for seat, pk in enumerate(order)
        )  # fmt: skip
        busy |= set(circle)


def _round_the_table(sides: tuple[tuple[int, ...], ...]) -> list[int]:
    """The players in their order round the table: the sides alternate (partners opposite)."""
    return [side[i] for i in range(max(map(len, sides))) for side in sides if i < len(side)]
