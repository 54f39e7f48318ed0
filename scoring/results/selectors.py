"""Reads of results: a fixture's current result, its versions and history, its lineup and
audit trail, what its sheet is checked against, and the staff home's lists of fixtures."""

import datetime
from dataclasses import dataclass, field
from typing import Any, TypedDict

from django.core.exceptions import FieldDoesNotExist
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.errors import Invalid
from config.values import utc_iso
from leagues.models import Availability, Division, Fixture, Player, Season, Team, Venue
from leagues.permissions import (
    AnyUser,
    can_enter_results,
    fixture_team_of,
    is_league_admin,
    staff_grants,
)
from leagues.selectors import division_q, team_player_ids, team_squads
from scoring.kinds import GameKind, get_kind
from scoring.kinds.base import possessive
from scoring.models import ResultProposal, ResultVersion
from scoring.results.fixture_results import MAX_ID, fixture_result, fixtures_with_results
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


@dataclass(frozen=True)
class LineupPlayer:
    """One player who played a result, for the pages: a substitute stood in for one of the
    team's two."""

    player: Player
    substitute: bool


def result_lineup_players(*, version: ResultVersion) -> dict[str, list[LineupPlayer]] | None:
    """Who played each side of the result (position order); None when the version names
    nobody (a walkover, or a result saved before lineups were kept). One query."""
    lineup = version.lineup or {}
    ids = [pk for side in ("home", "away") for pk in lineup.get(side, [])]
    if not ids:
        return None
    players = Player.objects.in_bulk(ids)
    substitutes = set(lineup.get("substitutes", []))
    return {
        side: [
            LineupPlayer(players[pk], pk in substitutes)
            for pk in lineup.get(side, [])
            if pk in players
        ]
        for side in ("home", "away")
    }


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
        ResultVersion.objects.filter(
            division_q(division=division, top=top, field="fixture__division"),
            fixture__season_id=season_id,
            fixture__stage=Fixture.Stage.LEAGUE,
            is_current=True,
            confirmation__in=[
                ResultVersion.Confirmation.AWAITING,
                ResultVersion.Confirmation.DISPUTED,
            ],
        )
        .exclude(fixture__status=Fixture.Status.VOID)
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


@dataclass
class Lineup:
    """The fixture's teams and their players by position: home 1, home 2, away 1, away 2."""

    home_team: Team
    away_team: Team
    home: list[Player] = field(default_factory=list)  # position 1 then 2
    away: list[Player] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.home) == 2 and len(self.away) == 2

    @property
    def players(self) -> list[Player]:
        return [*self.home, *self.away]

    def roster(self, side: str) -> dict[int, str]:
        return {player.pk: player.name for player in (self.home if side == "home" else self.away)}

    def team(self, side: str) -> Team:
        return self.home_team if side == "home" else self.away_team


def fixture_lineup(*, fixture: Fixture, chosen: dict[str, list[int]] | None = None) -> Lineup:
    """The fixture's teams with who plays for each in position order: the teams' two players,
    or the `chosen` players (a substitute in an absent player's place, checked against the
    squads by `lineup_choice_check`)."""
    if chosen is None:
        player_ids = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
        chosen = {
            "home": player_ids[fixture.home_team_id],
            "away": player_ids[fixture.away_team_id],
        }
    players = Player.objects.in_bulk([pk for ids in chosen.values() for pk in ids])
    return Lineup(
        home_team=fixture.home_team,
        away_team=fixture.away_team,
        home=[players[pk] for pk in chosen["home"] if pk in players],
        away=[players[pk] for pk in chosen["away"] if pk in players],
    )


def lineup_choice_check(*, fixture: Fixture, chosen: object) -> dict[str, list[int]]:
    """The chosen lineup, {"home": [id, id], "away": [id, id]} in position order, checked:
    two different players a side, each from the team's squad (its two and its registered
    reserves), nobody on both sides. Raises Invalid on "lineup" naming the team."""
    squads = fixture_squads(fixture=fixture)
    names = {"home": fixture.home_team.name, "away": fixture.away_team.name}
    if not isinstance(chosen, dict) or set(chosen) != {"home", "away"}:
        raise Invalid(errors={"lineup": _("Say who played for each team: two players a team.")})
    clean: dict[str, list[int]] = {}
    for side in ("home", "away"):
        ids = chosen[side]
        if (
            not isinstance(ids, list | tuple)
            or len(ids) != 2
            or not all(type(pk) is int for pk in ids)
        ):
            raise Invalid(
                errors={
                    "lineup": _("Name the two players who played for %(team)s.")
                    % {"team": names[side]}
                }
            )
        if ids[0] == ids[1]:
            raise Invalid(
                errors={
                    "lineup": _("%(team)s two places need two different players.")
                    % {"team": possessive(names[side])}
                }
            )
        for pk in ids:
            if pk not in squads[side]:
                raise Invalid(
                    errors={
                        "lineup": _(
                            "Player %(player)s is not in %(team)s squad (its two players and "
                            "its registered reserves)."
                        )
                        % {"player": pk, "team": possessive(names[side])}
                    }
                )
        clean[side] = list(ids)
    both = set(clean["home"]) & set(clean["away"])
    if both:
        name = squads["home"][min(both)]
        raise Invalid(errors={"lineup": _("%(name)s cannot play for both teams.") % {"name": name}})
    return clean


def fixture_seating_lineup(
    *, fixture: Fixture, seated: set[int] | None = None
) -> dict[str, list[int]]:
    """Who takes each team's places at the fixture's live tables, in position order: its two
    players, except that one who said they cannot play the fixture (Availability) gives the
    place to the first of the team's registered reserves who said they can. With `seated`
    (the players already seated at the fixture's tables), a player not seated gives the place
    to a reserve who is: the tables, once set up, are who plays."""
    squads = fixture_squads(fixture=fixture)
    regulars = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    sides = {"home": regulars[fixture.home_team_id], "away": regulars[fixture.away_team_id]}
    said = dict(
        Availability.objects.filter(fixture_id=fixture.pk).values_list("player_id", "available")
    )
    lineup: dict[str, list[int]] = {}
    for side, players in sides.items():
        reserves = [pk for pk in squads[side] if pk not in players]
        if seated is not None:
            absent = [pk for pk in players if pk not in seated]
            standing_in = [pk for pk in reserves if pk in seated]
        else:
            absent = [pk for pk in players if said.get(pk) is False]
            standing_in = [pk for pk in reserves if said.get(pk) is True]
        replacements = dict(zip(absent, standing_in))
        lineup[side] = [replacements.get(pk, pk) for pk in players]
    return lineup


def lineup_record(*, fixture: Fixture, played: dict[str, list[int]]) -> dict[str, list[int]]:
    """What a result version keeps of who played (ResultVersion.lineup): each side's players
    in position order, and the substitutes among them, those who are not one of their team's
    two now (a later roster change rewrites nothing already played)."""
    regulars = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    teams = {"home": fixture.home_team_id, "away": fixture.away_team_id}
    substitutes = [
        pk for side in ("home", "away") for pk in played[side] if pk not in regulars[teams[side]]
    ]
    return {"home": list(played["home"]), "away": list(played["away"]), "substitutes": substitutes}


def sheet_player_names(*, game: str, lineup: Lineup, sheets: list[Any]) -> dict[int, str]:
    """Names of the fixture's players and of anyone else named on the sheets shown."""
    names = {player.pk: player.name for player in lineup.players}
    kind = get_kind(game)
    named = set()
    for sheet in sheets:
        named |= kind.sheet_player_ids(sheet)
    missing = named - set(names)
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    return names


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


def _today_bounds() -> tuple[datetime.datetime, datetime.datetime]:
    """The first moment of today and of tomorrow, local time."""
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    tomorrow = timezone.make_aware(
        datetime.datetime.combine(today.date() + datetime.timedelta(days=1), datetime.time())
    )
    return today, tomorrow


FIXTURE_AUDIT_FIELDS = ["status", "postponed_reason", "starts_at", "round"]


def staff_venue_names(*, user: AnyUser) -> list[str] | None:
    """Names of the venues `user` serves; None for a league admin, who may act for all."""
    if is_league_admin(user=user):
        return None
    return list(
        staff_grants(user=user).order_by("venue__name").values_list("venue__name", flat=True)
    )


def staff_venue_screens(*, user: AnyUser) -> list[tuple[Venue, str | None]]:
    """The venues `user` serves with their TV screen's secret token (None where no screen
    address has been issued), by name. A league admin's own venues only: the admin lists every
    screen."""
    venues = (
        Venue.objects.filter(pk__in=staff_grants(user=user).values("venue_id"))
        .select_related("screen")
        .order_by("name")
    )
    screens = []
    for venue in venues:
        screen = getattr(venue, "screen", None)  # the reverse one-to-one raises when missing
        screens.append((venue, screen.token if screen is not None else None))
    return screens


@dataclass
class StaffSection:
    """One list of the staff home: `key` names it in the page (ids), `folded` hides it in a
    <details> (the weeks ahead, which take no result yet)."""

    title: str
    key: str
    fixtures: list[Fixture]
    folded: bool = False


def staff_fixture_sections(*, user: AnyUser, limit: int) -> list[StaffSection]:
    """The staff home's lists at the venues `user` serves (all venues for a league admin), the
    fixtures carrying their `.current` result: disputed results to decide (only when there
    are any), tonight's fixtures, those waiting for a result
    (an earlier day, not played), recent results, and the fixtures coming up (folded)."""
    fixtures = Fixture.objects.exclude(status=Fixture.Status.VOID)
    if not is_league_admin(user=user):
        fixtures = fixtures.filter(venue_id__in=staff_grants(user=user).values("venue_id"))
    today, tomorrow = _today_bounds()
    tonight = fixtures.filter(starts_at__gte=today, starts_at__lt=tomorrow)
    waiting = fixtures.filter(starts_at__lt=today).exclude(status=Fixture.Status.PLAYED)
    recent = fixtures.filter(starts_at__lt=today, status=Fixture.Status.PLAYED)
    upcoming = fixtures.filter(starts_at__gte=tomorrow)
    disputed = fixtures.filter(
        result_versions__is_current=True,
        result_versions__confirmation=ResultVersion.Confirmation.DISPUTED,
    )
    # Disputes wait for staff to decide: listed first, when there are any.
    to_decide = _with_results(disputed.order_by("starts_at", "pk"), limit)
    decide = [StaffSection(_("Disputed results to decide"), "disputed", to_decide)]
    return [
        *(decide if to_decide else []),
        StaffSection(
            _("Tonight"), "tonight", _with_results(tonight.order_by("starts_at", "pk"), limit)
        ),
        StaffSection(
            _("Waiting for a result"),
            "waiting",
            _with_results(waiting.order_by("-starts_at", "-pk"), limit),
        ),
        StaffSection(
            _("Recent results"),
            "recent",
            _with_results(recent.order_by("-starts_at", "-pk"), limit),
        ),
        StaffSection(
            _("Coming up"),
            "upcoming",
            _with_results(upcoming.order_by("starts_at", "pk"), limit),
            folded=True,
        ),
    ]


def _with_results(fixtures: QuerySet[Fixture], limit: int) -> list[Fixture]:
    listed: list[Fixture] = list(fixtures_with_results(fixtures)[:limit])
    for fixture in listed:
        fixture.current = fixture_result(fixture)  # type: ignore[attr-defined]  # the pages'
    return listed


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


def fixture_squads(*, fixture: Fixture) -> dict[str, dict[int, str]]:
    """Who may play the fixture for each side ("home", "away"): the team's two players in
    position order, then its reserves registered for the fixture's season (id → name)."""
    squads = team_squads(
        season_id=fixture.season_id, team_ids=[fixture.home_team_id, fixture.away_team_id]
    )
    return {"home": squads[fixture.home_team_id], "away": squads[fixture.away_team_id]}


def fixture_player_ids(*, fixture: Fixture) -> dict[str, list[int]]:
    """The two teams' player ids by position, as they are now: who plays the fixture, kept
    with each result version (ResultVersion.lineup) so a later roster change rewrites nothing
    already played."""
    players = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    return {"home": players[fixture.home_team_id], "away": players[fixture.away_team_id]}


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
