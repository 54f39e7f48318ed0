"""Reads of results: a fixture's current result, its versions (as the API shows them) and
history, its audit trail, what its sheet is checked against, and who answers a result on
match night. Who plays a fixture is scoring.results.lineup_selectors; the staff home's lists,
scoring.results.staff_selectors."""

import datetime
from dataclasses import dataclass
from typing import Any, TypedDict

from django.core.exceptions import FieldDoesNotExist
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import pgettext

from config.values import utc_iso
from leagues.models import Division, Fixture, Player, Season, Team
from leagues.permissions import AnyUser, can_enter_results, fixture_team_of
from leagues.selectors import division_q, team_squads
from scoring.kinds import GameKind
from scoring.models import ResultProposal, ResultVersion
from scoring.results.fixture_results import MAX_ID
from scoring.results.sheets import sheet_changes


def fixture_current_result(*, fixture: Fixture | int) -> ResultVersion | None:
    """The version of the fixture's result that counts, with who saved it; None before any."""
    return (
        ResultVersion.objects.select_related("created_by", "fixture")
        .filter(fixture_id=_pk(fixture), is_current=True)
        .first()
    )


class ResultVersionJson(TypedDict):
    """One saved version of a fixture's result as the API shows it (docs/api.md)."""

    fixture: int
    version: int
    is_current: bool
    home_score: int
    away_score: int
    winner: str
    sheet: dict[str, Any]
    source: str
    note: str
    created_at: str
    created_by: str | None
    walkover: str | None
    lineup: list["LineupPlaceJson"]
    confirmation: str
    confirm_by: str | None


class LineupPlaceJson(TypedDict):
    """One player who played the fixture (docs/contracts.md "Seasons as pub leagues run them")."""

    team: int
    player: int
    substitute: bool


def lineup_places(*, version: ResultVersion) -> list[LineupPlaceJson]:
    """Who played, home team's first, each by position: team id, player id, and whether they
    stood in for one of the team's two (ResultVersion.lineup)."""
    lineup = version.lineup or {}
    substitutes = set(lineup.get("substitutes", []))
    teams = {"home": version.fixture.home_team_id, "away": version.fixture.away_team_id}
    return [
        {"team": teams[side], "player": player_id, "substitute": player_id in substitutes}
        for side in ("home", "away")
        for player_id in lineup.get(side, [])
    ]


def result_version_json(*, version: ResultVersion, show_author: bool) -> ResultVersionJson:
    """The version as JSON; its author's name only when `show_author` (staff of the venue and
    league admins). Built here, not by the API's serializer, so that a refusal raised below the
    API (ResultConflict's current version) carries the same body the API answers."""
    created_at = timezone.localtime(version.created_at).isoformat()
    if created_at.endswith("+00:00"):  # as DRF writes UTC
        created_at = created_at[: -len("+00:00")] + "Z"
    author = version.created_by if show_author else None
    return {
        "fixture": version.fixture_id,
        "version": version.number,
        "is_current": version.is_current,
        "home_score": version.home_score,
        "away_score": version.away_score,
        "winner": version.winner,
        "sheet": version.sheet,
        "source": version.source,
        "note": version.note,
        "created_at": created_at,
        "created_by": author.get_username() if author is not None else None,
        "walkover": version.walkover or None,
        "lineup": lineup_places(version=version),
        "confirmation": version.confirmation,
        "confirm_by": utc_iso(version.confirm_by),
    }


def season_unconfirmed_results(
    *, season_id: int, division: Division | None, top: bool
) -> list[ResultVersion]:
    """The current results that a table of the season does not count yet (awaiting
    confirmation or disputed): those of the league fixtures of `division` (`top`: it is the
    season's top division, which also holds the fixtures without one; None: a season without
    divisions), never a cup tie's or a play-off's, and no void fixture's; with their fixtures'
    teams, by the fixture's date. One query."""
    return list(
        ResultVersion.objects.standing()
        .filter(
            division_q(division=division, top=top, field="fixture__division"),
            fixture__season_id=season_id,
            fixture__stage=Fixture.Stage.LEAGUE,
            confirmation__in=[
                ResultVersion.Confirmation.AWAITING,
                ResultVersion.Confirmation.DISPUTED,
            ],
        )
        .select_related("fixture__home_team", "fixture__away_team")
        .defer("sheet")
        .order_by("fixture__starts_at", "fixture_id")
    )


def fixture_open_proposal(*, fixture: Fixture | int) -> ResultProposal | None:
    """The newest result proposal of the fixture that staff have not decided on; None if none."""
    return (
        ResultProposal.objects.filter(fixture_id=_pk(fixture), decided_at__isnull=True)
        .order_by("-created_at", "-pk")
        .first()
    )


def fixture_result_version(*, fixture: Fixture | int, number: int) -> ResultVersion | None:
    """Version `number` of the fixture's result (the one a form started from); None if none."""
    if type(number) is not int or number < 1:
        return None
    return ResultVersion.objects.filter(fixture_id=_pk(fixture), number=number).first()


def fixture_submitted_version(
    *, fixture: Fixture | int, submission_key: str
) -> ResultVersion | None:
    """The version a submission with this key wrote (an offline page's sheet sent again, an API
    client's retry); None when the key is new or blank."""
    if not submission_key:
        return None
    return (
        ResultVersion.objects.select_related("created_by")
        .filter(fixture_id=_pk(fixture), submission_key=submission_key)
        .first()
    )


def fixture_result_history(*, fixture: Fixture | int) -> list[ResultVersion]:
    """Every version of the fixture's result, newest first, with who saved it and when.

    Each version carries `changes`: (field path, before, after) for every field of the sheet
    that differs from the version before it (empty for the first version).
    """
    versions = list(
        ResultVersion.objects.select_related("created_by", "fixture")
        .filter(fixture_id=_pk(fixture))
        .order_by("number")
    )
    previous = None
    for version in versions:
        changes: list[tuple[str, object, object]] = (
            [] if previous is None else sheet_changes(previous.sheet, version.sheet)
        )
        version.changes = changes  # type: ignore[attr-defined]  # what the pages read
        previous = version
    versions.reverse()
    return versions


def _pk(fixture: Fixture | int) -> int:
    return fixture.pk if isinstance(fixture, Fixture) else int(fixture)


FIXTURE_AUDIT_FIELDS = ["status", "postponed_reason", "starts_at", "round"]


def fixture_audit_trail(*, fixture: Fixture) -> list[dict[str, Any]]:
    """The fixture's own audit trail (status, date, round) from django-simple-history."""
    records = list(
        fixture.history.select_related("history_user").order_by("-history_date", "-history_id")[:50]
    )
    rows = []
    for index, record in enumerate(records):
        previous = records[index + 1] if index + 1 < len(records) else None
        changed = []
        if previous is not None:
            delta = record.diff_against(previous, included_fields=FIXTURE_AUDIT_FIELDS)
            changed = [
                {
                    "field": _audit_field_name(change.field),
                    "old": _audit_value(change.field, change.old),
                    "new": _audit_value(change.field, change.new),
                }
                for change in delta.changes
            ]
            if not changed:
                continue
        rows.append(
            {
                "when": record.history_date,
                "who": record.history_user,
                "kind": _history_kind(record.history_type),
                "changes": changed,
            }
        )
    return rows


def _history_kind(history_type: str) -> str:
    """What a history record did, in the reader's language ("+", "~", "-")."""
    kinds = {
        "+": pgettext("a fixture's history", "Created"),
        "~": pgettext("a fixture's history", "Changed"),
        "-": pgettext("a fixture's history", "Deleted"),
    }
    return kinds.get(history_type, history_type)


def _audit_field_name(name: str) -> str:
    """A fixture field's name as its model gives it (translated where the model marks it)."""
    try:
        return str(getattr(Fixture._meta.get_field(name), "verbose_name", name))
    except FieldDoesNotExist:
        return name.replace("_", " ")


def _audit_value(name: str, value: Any) -> Any:
    """A fixture field's value in words: a status by its label, a date in the reader's format."""
    if value in (None, ""):
        return value
    if isinstance(value, datetime.datetime):
        return date_format(timezone.localtime(value), pgettext("date format", "D j M Y, H:i"))
    try:
        choices = dict(getattr(Fixture._meta.get_field(name), "flatchoices", ()))
    except FieldDoesNotExist:
        return value
    return choices.get(value, value)


def fixture_day_to_come(*, fixture: Fixture) -> datetime.date | None:
    """The fixture's (local) day while it is still to come, when no result is taken; else None."""
    fixture_day = timezone.localdate(fixture.starts_at)
    return fixture_day if fixture_day > timezone.localdate() else None


def fixture_sheet_context(
    *,
    fixture: Fixture,
    kind: GameKind,
    sheet: object,
    lineup: "dict[str, list[int]] | None" = None,
) -> dict[str, Any]:
    """What a fixture's sheet is checked against besides itself: the season's rules, who may
    be named for each team (id → name: the team's squad, its two players and its registered
    reserves; only the chosen `lineup` when one is given), the teams' names, and the names of
    anyone else the sheet lists. The staff page's preview checks with exactly this, so it
    shows what Save would say."""
    season = Season.objects.get(pk=fixture.season_id)
    squads = team_squads(season_id=season.pk, team_ids=[fixture.home_team_id, fixture.away_team_id])
    rosters = {"home": squads[fixture.home_team_id], "away": squads[fixture.away_team_id]}
    if lineup is not None:
        rosters = {
            side: {pk: name for pk, name in rosters[side].items() if pk in lineup[side]}
            for side in rosters
        }
    teams = dict(
        Team.objects.filter(pk__in=[fixture.home_team_id, fixture.away_team_id]).values_list(
            "pk", "name"
        )
    )
    known = {*rosters["home"], *rosters["away"]}
    others = {pk for pk in kind.sheet_player_ids(sheet) - known if 0 < pk < MAX_ID}
    return {
        "rule_options": season.rule_options,
        "fixture_format": season.fixture_format,
        "home_players": rosters["home"],
        "away_players": rosters["away"],
        "home_team": teams.get(fixture.home_team_id),
        "away_team": teams.get(fixture.away_team_id),
        "player_names": dict(Player.objects.filter(pk__in=others).values_list("pk", "name"))
        if others
        else {},
    }


def result_entering_team(*, fixture: Fixture, version: ResultVersion) -> int | None:
    """The team of the fixture whose player wrote `version` (None for staff, a live table, the
    window): the team that entered an awaiting result, which does not answer it."""
    if version.created_by_id is None or version.source != ResultVersion.Source.PLAYER:
        return None
    return fixture_team_of(user=version.created_by, fixture=fixture)


def result_answered_team(*, fixture: Fixture) -> int | None:
    """The team whose player entered the result that the other team confirms or disputes: the
    author's team of the fixture's newest awaiting version (only a player's entry awaits; the
    confirmation or dispute after it is the other team's). None when no player entered one."""
    entered = (
        ResultVersion.objects.select_related("created_by")
        .filter(fixture_id=fixture.pk, confirmation=ResultVersion.Confirmation.AWAITING)
        .defer("sheet")
        .order_by("-number")
        .first()
    )
    return None if entered is None else result_entering_team(fixture=fixture, version=entered)


@dataclass(frozen=True)
class ResultActions:
    """What `user` may do with a fixture's result on match night (the pages' buttons; the
    services decide again under the lock).

    staff: staff of the venue or a league admin (enter, correct, decide);
    player_team_id: the fixture's team `user` plays for, or None;
    may_enter: a player who may enter the result, or correct their own team's awaiting one;
    may_answer: a player of the team that did not enter the awaiting result (confirm/dispute);
    entering_team_id: the team that entered the awaiting or disputed result (None for staff's).
    """

    staff: bool
    player_team_id: int | None
    may_enter: bool
    may_answer: bool
    entering_team_id: int | None


def fixture_result_actions(
    *, fixture: Fixture, result: ResultVersion | None, user: AnyUser
) -> ResultActions:
    staff = can_enter_results(user=user, venue_id=fixture.venue_id)
    team_id = fixture_team_of(user=user, fixture=fixture)
    entering = None
    awaiting = False
    if result is not None and result.confirmation != ResultVersion.Confirmation.CONFIRMED:
        entering = result_entering_team(fixture=fixture, version=result)
        awaiting = result.confirmation == ResultVersion.Confirmation.AWAITING
    open_fixture = fixture.status != Fixture.Status.VOID
    is_player = team_id is not None and not staff and open_fixture
    return ResultActions(
        staff=staff,
        player_team_id=team_id,
        may_enter=is_player and (result is None or (awaiting and entering == team_id)),
        may_answer=team_id is not None and open_fixture and awaiting and entering != team_id,
        entering_team_id=entering,
    )


def fixture_versions_to_decide(*, fixture: Fixture) -> list[ResultVersion]:
    """What staff weigh when an awaiting or disputed result waits for them, oldest first: the
    version that was entered (the newest one not written as a dispute, with who entered it)
    and, when the current version is a dispute, the disputing team's account (its sheet, or
    the entered sheet again if they gave only a reason; its note is the reason)."""
    versions = list(
        ResultVersion.objects.select_related("created_by")
        .filter(fixture_id=fixture.pk)
        .order_by("-number")[:2]
    )
    if not versions:
        return []
    current = versions[0]
    if current.confirmation == ResultVersion.Confirmation.DISPUTED and len(versions) == 2:
        return [versions[1], current]
    return [current]
