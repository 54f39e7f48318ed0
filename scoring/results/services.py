"""Writes of the scoring app: a fixture's result, as append-only versions.

A result is never overwritten: every save is a new `ResultVersion` (number + 1) and the previous
current version stops being current. Two members of staff who loaded the same version and both
save are told apart by the lock on the fixture row: the first one writes the next version, the
second one finds the version changed under it and gets `ResultConflict`, with nothing lost.
"""

import datetime
import secrets
import time

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues.models import Fixture, Season, Venue
from leagues.permissions import ensure_can_enter_results

from .kinds import SheetInvalid, all_kinds, get_kind
from .models import PlayerRating, RatingPoint, RatingRun, ResultVersion, VenueScreen
from .rating_queue import ratings_recompute_on_commit
from .rating_selectors import rated_fixtures, ratings_results_stamp
from .ratings import ratings_replay
from .selectors import fixture_day_to_come, fixture_player_ids, fixture_sheet_context
from .sheets import unstorable_character, validate_sheet

NOTE_MAX_LENGTH = ResultVersion._meta.get_field("note").max_length


class ResultConflict(Exception):
    """Someone saved a newer version of the result since the form was loaded.

    `current` is the version saved now (None if there is none, e.g. the form claimed a version
    that does not exist); `based_on_version` is the number the caller started from.
    """

    def __init__(self, *, current: ResultVersion | None, based_on_version: int | None = None):
        self.current = current
        self.based_on_version = based_on_version
        number = current.number if current is not None else 0
        super().__init__(
            f"The result was saved by someone else meanwhile: you started from version "
            f"{based_on_version}, the saved result is now version {number}."
        )


class FixtureNotOpen(Exception):
    """The fixture takes no result: it is void."""


class BeforeFixtureDay(Exception):
    """The fixture's day has not come: a result for it is refused (a league admin may override).

    `fixture_day` is the local date the fixture is played on.
    """

    def __init__(self, *, fixture_day: datetime.date):
        self.fixture_day = fixture_day
        super().__init__(
            f"This fixture is on {fixture_day:%a} {fixture_day.day} {fixture_day:%b %Y}: "
            "its result can be entered from that day on."
        )


def result_submit(
    *,
    fixture_id: int,
    sheet: dict,
    based_on_version: int,
    by,
    source: str = ResultVersion.Source.STAFF,
    note: str = "",
    before_fixture_day: bool = False,
) -> ResultVersion:
    """Record a new version of a fixture's result and mark the fixture played.

    One transaction: the fixture row is locked first, then the permission, the fixture's status,
    its day and the version the caller started from (`based_on_version`, 0 when there was no
    result) are checked, the sheet is validated against the season's rules, and the version is
    written. A result is taken from the fixture's day on (local time: a match is played that
    evening); `before_fixture_day=True` lets a league admin record one earlier (a match played
    ahead of its date by agreement). A live table's result (source LIVE) is the game as it was
    played, whenever that was.

    `by` is None only for a result written by the fixture's live tables (source LIVE): the
    tables that played the game are the authority, not a person.

    Raises:
      PermissionDenied  `by` does not serve the fixture's venue (and is no superuser), or asks
                        for `before_fixture_day` without being a league admin;
      FixtureNotOpen    the fixture is void;
      BeforeFixtureDay  the fixture's day has not come, and no league admin overrode it;
      ResultConflict    the current version is not `based_on_version` (someone saved meanwhile);
      SheetInvalid      the sheet breaks the game's rules or names players not in the fixture
                        (errors map a field path to a plain message);
      Fixture.DoesNotExist  no such fixture.
    Nothing is written when any of these is raised.
    """
    if source not in ResultVersion.Source.values:
        raise ValueError(f"source must be one of {', '.join(ResultVersion.Source.values)}")
    try:
        return _record_version(
            fixture_id=fixture_id,
            sheet=sheet,
            based_on_version=based_on_version,
            by=by,
            source=source,
            note=note,
            before_fixture_day=before_fixture_day,
        )
    except IntegrityError as exc:
        # Only reachable when a writer went around the fixture lock: the unique constraints
        # (one number per fixture, one current version) refused the second version.
        raise ResultConflict(
            current=_current_version(fixture_id), based_on_version=based_on_version
        ) from exc


@transaction.atomic
def _record_version(
    *,
    fixture_id: int,
    sheet: dict,
    based_on_version: int,
    by,
    source: str,
    note: str,
    before_fixture_day: bool,
) -> ResultVersion:
    fixture = _locked_fixture(fixture_id)
    if by is not None or source != ResultVersion.Source.LIVE:
        ensure_can_enter_results(user=by, venue_id=fixture.venue_id)
    if fixture.status == Fixture.Status.VOID:
        raise FixtureNotOpen("This fixture is void: it takes no result.")
    if source != ResultVersion.Source.LIVE:
        _ensure_fixture_day_has_come(fixture=fixture, by=by, override=before_fixture_day)

    current = _current_version(fixture.pk)
    current_number = current.number if current is not None else 0
    if type(based_on_version) is not int or based_on_version != current_number:
        raise ResultConflict(current=current, based_on_version=based_on_version)

    if not isinstance(note, str) or len(note) > NOTE_MAX_LENGTH:
        raise SheetInvalid({"note": f"A note is text of at most {NOTE_MAX_LENGTH} characters."})
    bad = unstorable_character(note)
    if bad:
        raise SheetInvalid({"note": f"A note cannot hold {bad}."})
    season = Season.objects.select_related("league").get(pk=fixture.season_id)
    kind = get_kind(season.game)
    context = fixture_sheet_context(fixture=fixture, kind=kind, sheet=sheet)
    clean = validate_sheet(game=season.game, sheet=sheet, **context)
    outcome = kind.outcome(sheet=clean, rule_options=season.rule_options)

    if current is not None:
        ResultVersion.objects.filter(pk=current.pk).update(is_current=False)
    version = ResultVersion.objects.create(
        fixture=fixture,
        number=current_number + 1,
        sheet=clean,
        home_score=outcome.home_score,
        away_score=outcome.away_score,
        winner=outcome.winner,
        lineup=fixture_player_ids(fixture=fixture),
        is_current=True,
        source=source,
        created_by=by,
        note=note.strip(),
    )
    if fixture.status != Fixture.Status.PLAYED:
        fixture.status = Fixture.Status.PLAYED
        fixture.postponed_reason = ""
        fixture._history_user = by  # django-simple-history: who changed the fixture
        fixture.save(update_fields=["status", "postponed_reason"])
    ratings_recompute_on_commit(game=season.game)
    return version


def _ensure_fixture_day_has_come(*, fixture: Fixture, by, override: bool) -> None:
    """A person's result waits for the fixture's day; a live table's is the game as played."""
    fixture_day = fixture_day_to_come(fixture=fixture)
    if fixture_day is None:
        return
    if not override:
        raise BeforeFixtureDay(fixture_day=fixture_day)
    if not getattr(by, "is_superuser", False):
        raise PermissionDenied("Only a league admin may record a result before the fixture's day.")


def _locked_fixture(fixture_id: int) -> Fixture:
    """The fixture row, locked until the transaction ends: the one lock of result_submit.

    Every read that the new version depends on (the current version number above all) comes
    after this, so two submissions for the same fixture run one after the other.
    """
    return Fixture.objects.select_for_update().get(pk=fixture_id)


def _current_version(fixture_id: int) -> ResultVersion | None:
    return (
        ResultVersion.objects.select_related("created_by")
        .filter(fixture_id=fixture_id, is_current=True)
        .first()
    )


@transaction.atomic
def ratings_recompute(*, game: str, when_stale: bool = False) -> RatingRun:
    """Replace the game's ratings with a replay of every counted result (scoring.ratings).

    Run by the Celery task that a saved result queues, never in a request. The game's
    RatingRun row is locked first, so two recomputations of one game run one after the other
    and the second sees the first's results too; with `when_stale` it then does nothing if the
    stored ratings already come from the results there are now (a burst of saves queues one
    task each, and the first does the work). Raises ValueError for an unknown game.
    """
    started = time.perf_counter()
    RatingRun.objects.get_or_create(game=game)
    run = RatingRun.objects.select_for_update().get(game=game)
    stamp = ratings_results_stamp(game=game)
    if when_stale and run.results_stamp == stamp:
        return run
    fixtures = rated_fixtures(game=game)
    replay = ratings_replay(fixtures)
    _rows_replace(
        PlayerRating.objects.filter(game=game),
        key=("player_id",),
        values=("mu", "sigma", "games", "last_played_at"),
        wanted={
            (player_id,): {
                "game": game,
                "player_id": player_id,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": rating.ordinal,
                "games": rating.games,
                "last_played_at": rating.last_played_at,
            }
            for player_id, rating in replay.current.items()
        },
    )
    _rows_replace(
        RatingPoint.objects.filter(game=game),
        key=("player_id", "fixture_id"),
        values=("mu", "sigma", "games", "played_at"),
        wanted={
            (point.player_id, point.fixture_id): {
                "game": game,
                "player_id": point.player_id,
                "fixture_id": point.fixture_id,
                "played_at": point.played_at,
                "mu": point.mu,
                "sigma": point.sigma,
                "ordinal": point.ordinal,
                "games": point.games,
            }
            for point in replay.points
        },
    )
    run.computed_at = timezone.now()
    run.results_stamp = stamp
    run.fixtures = len(fixtures)
    run.matches = replay.matches
    run.seconds = time.perf_counter() - started
    run.save()
    return run


def _rows_replace(rows, *, key: tuple, values: tuple, wanted: dict) -> None:
    """Make `rows` hold exactly the `wanted` rows (key tuple -> the row's fields),
    writing only what differs: a new result at the end of the history changes a handful of
    rows, not the tens of thousands a game's history holds. The replay is deterministic, so
    an unchanged rating comes out bit for bit the same and compares equal."""
    stale = []
    for pk, *stored in rows.values_list("pk", *key, *values):
        row_key, row_values = tuple(stored[: len(key)]), stored[len(key) :]
        new = wanted.get(row_key)
        if new is not None and [new[name] for name in values] == row_values:
            del wanted[row_key]
        else:
            stale.append(pk)
    for start in range(0, len(stale), 5000):
        rows.model.objects.filter(pk__in=stale[start : start + 5000]).delete()
    rows.model.objects.bulk_create(
        (rows.model(**fields) for fields in wanted.values()), batch_size=2000
    )


def ratings_refresh_stale() -> list[str]:
    """Recompute every game whose counted results changed since its ratings were computed.

    The periodic safety net behind the task queued on commit: it catches a task lost with the
    broker and a fixture voided or restored outside scoring. Returns the games recomputed.
    """
    computed = dict(RatingRun.objects.values_list("game", "results_stamp"))
    stale = [
        game
        for game in (kind.game for kind in all_kinds())
        if computed.get(game, "") != ratings_results_stamp(game=game)
    ]
    for game in stale:
        ratings_recompute(game=game)
    return stale


@transaction.atomic
def venue_screen_issue(*, venue_id: int) -> VenueScreen:
    """Give the venue's TV screen a new secret token (the first, or one replacing a leaked
    one: the old address stops working at once). Raises Venue.DoesNotExist."""
    venue = Venue.objects.select_for_update().get(pk=venue_id)
    screen, _ = VenueScreen.objects.get_or_create(
        venue=venue, defaults={"token": secrets.token_urlsafe(24)}
    )
    screen.token = secrets.token_urlsafe(24)
    screen.save(update_fields=["token"])
    return screen
