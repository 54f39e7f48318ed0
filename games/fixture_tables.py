"""A fixture played at live tables: starting its tables, and its result when they decide it.

The game's kind (scoring.kinds) says which tables a fixture needs and who sits at each
(`fixture_table_plans`), and turns finished tables into the fixture's result sheet
(`sheet_from_final_state`). The sheet goes through scoring's own result service with the
live table as its source, in the same transaction as the move that ended the game, so the
standings move at once.

Tables whose players are all free start together (Conquian's two singles); a table that
needs a player still at an unfinished table of the fixture (the next game of a Convoy best
of N) starts when that table finishes and the fixture is not yet decided.
"""

import logging
import random

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from games.engines import get_engine
from leagues.models import Fixture, Player, TeamMember
from leagues.permissions import can_enter_results
from scoring.kinds import FinishedTable, get_kind
from scoring.models import ResultVersion
from scoring.results.services import FixtureNotOpen, result_submit

from . import turns
from .cuts import deal_cut
from .exceptions import TableClosed, TableInvalid
from .models import Seat, Table
from .table_setup import check_engine_options, new_seed, turn_seconds_from

logger = logging.getLogger(__name__)


def fixture_tables_start(*, fixture_id: int, options: dict, by) -> tuple[list[Table], bool]:
    """Start the live tables of a fixture, seats bound to the teams' players after the cut.

    Returns the fixture's tables and whether this call started them; once started, a repeat
    call returns the same tables and False. Only `turn_seconds` may be set in `options`: the
    tables play the season's rules.

    Raises Fixture.DoesNotExist; PermissionDenied unless `by` serves the fixture's venue or
    plays for one of its teams; TableClosed for a void, postponed or already played fixture;
    TableInvalid for options other than a valid `turn_seconds`.
    """
    if not isinstance(options, dict):
        raise TableInvalid({"options": "Options are a JSON object of option names to values."})
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
            raise PermissionDenied(
                "Only staff of the fixture's venue or its players can start its tables."
            )
        existing = list(fixture.live_tables.order_by("number"))
        if existing:
            return existing, False
        if fixture.status != Fixture.Status.SCHEDULED:
            raise TableClosed(f"This fixture is {fixture.get_status_display().lower()}.")
        unknown = sorted(set(options) - {"turn_seconds"})
        if unknown:
            raise TableInvalid(
                {f"options.{unknown[0]}": "A fixture's tables play the season's rules: only "
                 "turn_seconds may be set."}
            )  # fmt: skip
        season = fixture.season
        clock = turn_seconds_from(options=options, defaults=season.rule_options)
        _start_free_tables(fixture=fixture, home=home, away=away, clock=clock, by=by)
        return list(fixture.live_tables.order_by("number")), True


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
    season = fixture.season
    home, away = _team_players(fixture)
    finished = list(
        Table.objects.filter(fixture=fixture, status=Table.Status.FINISHED)
        .prefetch_related("seats")
        .order_by("number")
    )
    eng = get_engine(season.game)
    sheet = get_kind(season.game).sheet_from_final_state(
        tables=[
            FinishedTable(
                number=done.number,
                seat_players=tuple(seat.player_id for seat in done.seats.all()),
                state=eng.load(done.state),
            )
            for done in finished
        ],
        fixture_format=season.fixture_format,
        rule_options=season.rule_options,
        home_player_ids=home,
        away_player_ids=away,
    )
    if sheet is None:
        clock = table.turn_seconds
        _start_free_tables(fixture=fixture, home=home, away=away, clock=clock, by=None)
        return
    current = ResultVersion.objects.filter(fixture=fixture, is_current=True).first()
    numbers = ", ".join(str(done.number) for done in finished)
    try:
        result_submit(
            fixture_id=fixture.pk,
            sheet=sheet,
            based_on_version=current.number if current else 0,
            by=None,
            source=ResultVersion.Source.LIVE,
            note=f"Played live at table{'s' if len(finished) > 1 else ''} {numbers}.",
        )
    except FixtureNotOpen:
        logger.warning("fixture %s was made void while its tables played", fixture.pk)


def _team_players(fixture: Fixture) -> tuple[list[int], list[int]]:
    """The Player ids of the home and of the away team, by position."""
    rows = TeamMember.objects.filter(
        team_id__in=(fixture.home_team_id, fixture.away_team_id)
    ).order_by("position")
    home = [row.player_id for row in rows if row.team_id == fixture.home_team_id]
    away = [row.player_id for row in rows if row.team_id == fixture.away_team_id]
    return home, away


def _start_free_tables(*, fixture: Fixture, home, away, clock: int, by) -> None:
    """Start each planned table not started yet whose players sit at no unfinished table of
    the fixture (a plan whose earlier table holds the same players waits for it)."""
    season = fixture.season
    game = season.game
    rules = {name: value for name, value in season.rule_options.items() if name != "turn_seconds"}
    plans = get_kind(game).fixture_table_plans(
        fixture_format=season.fixture_format, home_player_ids=home, away_player_ids=away
    )
    started = set(fixture.live_tables.values_list("number", flat=True))
    busy = set(
        Seat.objects.filter(table__fixture=fixture)
        .exclude(table__status=Table.Status.FINISHED)
        .values_list("player_id", flat=True)
    )
    players = Player.objects.in_bulk([pk for plan in plans for side in plan.sides for pk in side])
    now = timezone.now()
    for plan in plans:
        circle = _round_the_table(plan.sides)
        if plan.number in started:
            continue
        if busy & set(circle):
            busy |= set(circle)  # later plans with these players wait behind this one
            continue
        check_engine_options(game=game, players=len(circle), options=rules)
        lowest_deals = getattr(get_engine(game), "dealer_cut", "highest") == "lowest"
        names = [players[pk].name for pk in circle]
        cut, first = deal_cut(names=names, lowest_deals=lowest_deals, rng=random.SystemRandom())
        order = circle[first:] + circle[:first]
        table = Table.objects.create(
            game=game,
            players=len(order),
            options={**rules, "turn_seconds": clock},
            seed=new_seed(),
            fixture=fixture,
            number=plan.number,
            cut=cut,
            created_by=by,
        )
        Seat.objects.bulk_create(
            Seat(table=table, seat=seat, player=players[pk], user_id=players[pk].user_id,
                 name=players[pk].name)
            for seat, pk in enumerate(order)
        )  # fmt: skip
        turns.open_first_turn(table=table, now=now)
        busy |= set(circle)


def _round_the_table(sides: tuple[tuple[int, ...], ...]) -> list[int]:
    """The players in their order round the table: the sides alternate (partners opposite)."""
    return [side[i] for i in range(max(map(len, sides))) for side in sides if i < len(side)]
