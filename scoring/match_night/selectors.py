"""What waits for whom on match night (docs/match-night.md, "What needs you"): the one page
each player, member of staff and league admin has, and the notices that tell them by email.

Both read the same facts:

- a **result to confirm**: a fixture's current result version *awaiting* confirmation, entered
  by a player of one team (its author's team, `created_by`), waits for the players of the
  other team;
- a **dispute to decide**: a current version *disputed* waits for the staff of the fixture's
  venue and the league admins;
- a **date to answer**: an open RescheduleProposal waits for the players of the team that did
  not propose it; its answer (accepted or declined) is news for the one who proposed it;
- a **fixture tonight**: the fixtures today of the player's teams, and at the venues a member
  of staff serves (emailed once, on the day, to both teams' players and the venue's staff);
- a **fixture to mark**: the player's teams' fixtures of the next fortnight they have not said
  whether they can play.

Nothing here reads or shows a sheet, a score or a card: a notice names the fixture and links
to its page, which shows each person what they may see.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from leagues.models import (
    Availability,
    Fixture,
    Player,
    Profile,
    RescheduleProposal,
    StaffMembership,
    TeamMember,
)
from leagues.permissions import AnyUser, is_league_admin, league_admins
from scoring.models import NoticeSent, ResultVersion

OPEN = (Fixture.Status.SCHEDULED, Fixture.Status.POSTPONED)
TONIGHT_FROM = datetime.time(8, 0)  # local: an evening's notice waits for the morning
MARK_AHEAD = datetime.timedelta(days=14)  # how far ahead the page asks for availability
ANSWER_NEWS_FOR = datetime.timedelta(days=14)  # how long an answer is news for its proposer

Confirmation = ResultVersion.Confirmation


def _team_ids(*, user: AnyUser) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(TeamMember.objects.filter(player__user_id=user.pk).values_list("team_id", flat=True))


def _fixture_related(queryset: QuerySet[Fixture]) -> QuerySet[Fixture]:
    return queryset.select_related("home_team", "away_team", "venue", "season__league")


def _other_team(fixture: Fixture, team_id: int) -> int:
    return fixture.away_team_id if team_id == fixture.home_team_id else fixture.home_team_id


def _entering_team(version: ResultVersion, members: dict[int, set[int]]) -> int | None:
    """The fixture's team whose player entered `version` (members: user id → team ids), or
    None when its author plays for neither (staff, an admin) or for both."""
    fixture = version.fixture
    teams = members.get(version.created_by_id or 0, set()) & {
        fixture.home_team_id,
        fixture.away_team_id,
    }
    return teams.pop() if len(teams) == 1 else None


def _members_by_user(user_ids: Iterable[int | None]) -> dict[int, set[int]]:
    """user id → the ids of the teams they play for."""
    teams: dict[int, set[int]] = {}
    for user_id, team_id in TeamMember.objects.filter(
        player__user_id__in=[user_id for user_id in user_ids if user_id]
    ).values_list("player__user_id", "team_id"):
        teams.setdefault(user_id, set()).add(team_id)
    return teams


def _awaiting_versions(among: Q | None = None) -> list[ResultVersion]:
    """The current versions awaiting confirmation (`among`: of those fixtures only)."""
    return list(
        ResultVersion.objects.standing()
        .filter(among or Q(), confirmation=Confirmation.AWAITING)
        .select_related(
            "fixture__home_team", "fixture__away_team", "fixture__venue", "fixture__season__league"
        )
        .order_by("confirm_by", "pk")
    )


def _disputed_versions() -> QuerySet[ResultVersion]:
    return (
        ResultVersion.objects.standing()
        .filter(confirmation=Confirmation.DISPUTED)
        .select_related(
            "fixture__home_team", "fixture__away_team", "fixture__venue", "fixture__season__league"
        )
        .order_by("created_at", "pk")
    )


def _open_proposals() -> QuerySet[RescheduleProposal]:
    return (
        RescheduleProposal.objects.filter(
            status=RescheduleProposal.Status.PROPOSED, fixture__status__in=OPEN
        )
        .select_related("team", "fixture__home_team", "fixture__away_team", "fixture__venue")
        .order_by("created_at", "pk")
    )


# ---- The page -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NeedsYou:
    """What waits for one person, each list in the order it should be dealt with."""

    results_to_confirm: list[ResultVersion] = field(default_factory=list)
    disputes_to_decide: list[ResultVersion] = field(default_factory=list)
    dates_to_answer: list[RescheduleProposal] = field(default_factory=list)
    tonight: list[Fixture] = field(default_factory=list)
    to_mark: list[Fixture] = field(default_factory=list)
    email_notices: bool = True

    @property
    def count(self) -> int:
        return (
            len(self.results_to_confirm)
            + len(self.disputes_to_decide)
            + len(self.dates_to_answer)
            + len(self.to_mark)
        )


def needs_you(*, user: AnyUser, now: datetime.datetime | None = None) -> NeedsYou:
    """Everything that waits for `user` (a fixed number of queries)."""
    if not user.is_authenticated:
        return NeedsYou()
    now = now or timezone.now()
    teams = _team_ids(user=user)

    awaiting = _awaiting_versions(
        Q(fixture__home_team_id__in=teams) | Q(fixture__away_team_id__in=teams)
    )
    authors = _members_by_user(version.created_by_id for version in awaiting)
    to_confirm = []
    for version in awaiting:
        entered_by = _entering_team(version, authors)
        if entered_by is not None and _other_team(version.fixture, entered_by) in teams:
            to_confirm.append(version)

    venues = StaffMembership.objects.filter(user_id=user.pk).values("venue_id")
    disputes = _disputed_versions()
    if not is_league_admin(user=user):
        disputes = disputes.filter(fixture__venue_id__in=venues)

    dates = [
        proposal
        for proposal in _open_proposals().filter(
            Q(fixture__home_team_id__in=teams) | Q(fixture__away_team_id__in=teams)
        )
        if _other_team(proposal.fixture, proposal.team_id) in teams
    ]

    today = timezone.localdate(now)
    mine = _fixture_related(
        Fixture.objects.filter(Q(home_team_id__in=teams) | Q(away_team_id__in=teams))
    )
    tonight = list(
        _fixture_related(
            Fixture.objects.filter(
                Q(home_team_id__in=teams) | Q(away_team_id__in=teams) | Q(venue_id__in=venues)
            )
        )
        .filter(status=Fixture.Status.SCHEDULED, starts_at__date=today)
        .order_by("starts_at", "pk")
    )
    player = Player.objects.filter(user_id=user.pk).first()
    marked = Availability.objects.filter(player=player).values("fixture_id")
    to_mark = list(
        mine.filter(status=Fixture.Status.SCHEDULED, starts_at__gte=now)
        .filter(starts_at__lte=now + MARK_AHEAD)
        .exclude(pk__in=marked)
        .order_by("starts_at", "pk")
    )
    profile = Profile.objects.filter(user_id=user.pk).first()
    return NeedsYou(
        results_to_confirm=to_confirm,
        disputes_to_decide=list(disputes),
        dates_to_answer=dates,
        tonight=tonight,
        to_mark=to_mark if player is not None else [],
        email_notices=profile.email_notices if profile else True,
    )


# ---- The notices --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Notice:
    """One email to one person about one event; `event` names it once for all time."""

    event: str
    user: AbstractBaseUser
    subject: str
    body: str
    fixture_id: int


def _fixture_name(fixture: Fixture) -> str:
    return _("%(home)s v %(away)s") % {
        "home": fixture.home_team.name,
        "away": fixture.away_team.name,
    }


def _when(moment: datetime.datetime) -> str:
    """A proposed date in words, in the active language (London's clock)."""
    return dateformat.format(timezone.localtime(moment), pgettext("date format", "l j F Y, H:i"))


class _Languages:
    """Each recipient's language (their profile's, else the site's): a notice is written in it."""

    def __init__(self) -> None:
        self._known: dict[int, str] = {}

    def of(self, user: AbstractBaseUser) -> str:
        if user.pk not in self._known:
            self._known[user.pk] = notice_language(user)
        return self._known[user.pk]

    def speaking(self, user: AbstractBaseUser) -> translation.override:
        return translation.override(self.of(user))


def _player_users(team_ids: Iterable[int]) -> dict[int, list[AbstractBaseUser]]:
    """team id → the users of its players."""
    users: dict[int, list[AbstractBaseUser]] = {}
    for member in TeamMember.objects.filter(
        team_id__in=set(team_ids), player__user__isnull=False
    ).select_related("player__user"):
        assert member.player.user is not None  # filtered above
        users.setdefault(member.team_id, []).append(member.player.user)
    return users


def notices_pending(*, now: datetime.datetime | None = None) -> list[Notice]:
    """Every notice that should have gone out and has not (no NoticeSent row), to people
    who have an email address and have not turned notices off."""
    now = now or timezone.now()
    notices: list[Notice] = []
    languages = _Languages()

    awaiting = _awaiting_versions()
    authors = _members_by_user(version.created_by_id for version in awaiting)
    waiting_for = {
        version.pk: _other_team(version.fixture, team)
        for version in awaiting
        if (team := _entering_team(version, authors)) is not None
    }
    proposals = list(_open_proposals())
    players = _player_users(
        [*waiting_for.values(), *(_other_team(p.fixture, p.team_id) for p in proposals)]
    )
    for version in awaiting:
        if version.pk not in waiting_for:
            continue
        for user in players.get(waiting_for[version.pk], []):
            with languages.speaking(user):
                name = _fixture_name(version.fixture)
                notices.append(
                    Notice(
                        f"result-awaiting:{version.pk}",
                        user,
                        _("Roundel: confirm the result of %(fixture)s") % {"fixture": name},
                        _(
                            "The other team has entered the result of %(fixture)s. Check it on "
                            "the fixture's page and confirm it, or dispute it if it is wrong."
                        )
                        % {"fixture": name},
                        version.fixture_id,
                    )
                )

    disputed = list(_disputed_versions())
    if disputed:
        admins = list(league_admins())
        staff: dict[int, list[AbstractBaseUser]] = {}
        for grant in StaffMembership.objects.filter(
            venue_id__in={version.fixture.venue_id for version in disputed}
        ).select_related("user"):
            staff.setdefault(grant.venue_id, []).append(grant.user)
        for version in disputed:
            deciders = {
                user.pk: user for user in [*staff.get(version.fixture.venue_id, []), *admins]
            }
            for user in deciders.values():
                with languages.speaking(user):
                    name = _fixture_name(version.fixture)
                    notices.append(
                        Notice(
                            f"result-disputed:{version.pk}",
                            user,
                            _("Roundel: a disputed result of %(fixture)s needs deciding")
                            % {"fixture": name},
                            _(
                                "The result of %(fixture)s at %(venue)s is disputed. Compare the "
                                "teams' versions on the fixture's page and decide."
                            )
                            % {"fixture": name, "venue": version.fixture.venue.name},
                            version.fixture_id,
                        )
                    )

    for proposal in proposals:
        for user in players.get(_other_team(proposal.fixture, proposal.team_id), []):
            with languages.speaking(user):
                name = _fixture_name(proposal.fixture)
                date = _when(proposal.starts_at)
                notices.append(
                    Notice(
                        f"reschedule-proposed:{proposal.pk}",
                        user,
                        _("Roundel: %(team)s propose a new date for %(fixture)s")
                        % {"team": proposal.team.name, "fixture": name},
                        _(
                            "%(team)s propose to play %(fixture)s on %(date)s. Accept or decline "
                            "it on the fixture's page."
                        )
                        % {"team": proposal.team.name, "fixture": name, "date": date},
                        proposal.fixture_id,
                    )
                )

    notices += _tonight_notices(now=now, languages=languages)

    answered = RescheduleProposal.objects.filter(
        status__in=[RescheduleProposal.Status.ACCEPTED, RescheduleProposal.Status.DECLINED],
        decided_at__gte=now - ANSWER_NEWS_FOR,
    ).select_related("proposed_by", "fixture__home_team", "fixture__away_team")
    for proposal in answered:
        accepted = proposal.status == RescheduleProposal.Status.ACCEPTED
        with languages.speaking(proposal.proposed_by):
            name = _fixture_name(proposal.fixture)
            date = _when(proposal.starts_at)
            notices.append(
                Notice(
                    f"reschedule-answered:{proposal.pk}",
                    proposal.proposed_by,
                    (
                        _("Roundel: %(fixture)s moves to your date")
                        if accepted
                        else _("Roundel: your new date for %(fixture)s was declined")
                    )
                    % {"fixture": name},
                    (
                        _(
                            "Your new date for %(fixture)s, %(date)s, was accepted: the fixture moved."
                        )
                        if accepted
                        else _("Your new date for %(fixture)s, %(date)s, was declined.")
                    )
                    % {"fixture": name, "date": date},
                    proposal.fixture_id,
                )
            )
    return _still_to_send(notices)


def _tonight_notices(*, now: datetime.datetime, languages: _Languages) -> list[Notice]:
    """A fixture today: to the players of both teams and the staff of its venue, once each
    (the event names the fixture and its day: moved to another day, it is news again). Sent
    from TONIGHT_FROM on (at once for a fixture before then) until it starts, while it is
    scheduled and has no result: it names the fixture, its time and venue, nothing more."""
    today = timezone.localdate(now)
    tomorrow = datetime.datetime.combine(today + datetime.timedelta(days=1), datetime.time())
    fixtures = (
        Fixture.objects.filter(
            status=Fixture.Status.SCHEDULED,
            starts_at__gte=now,
            starts_at__lt=timezone.make_aware(tomorrow),
            result_versions__isnull=True,
        )
        .select_related("home_team", "away_team", "venue")
        .order_by("starts_at", "pk")
    )
    morning = timezone.make_aware(datetime.datetime.combine(today, TONIGHT_FROM))
    if now < morning:
        fixtures = fixtures.filter(starts_at__lte=morning)
    players = _player_users(team for f in fixtures for team in (f.home_team_id, f.away_team_id))
    staff: dict[int, list[AbstractBaseUser]] = {}
    for grant in StaffMembership.objects.filter(
        venue_id__in={f.venue_id for f in fixtures}
    ).select_related("user"):
        staff.setdefault(grant.venue_id, []).append(grant.user)
    notices = []
    for fixture in fixtures:
        people = [
            *players.get(fixture.home_team_id, []),
            *players.get(fixture.away_team_id, []),
            *staff.get(fixture.venue_id, []),
        ]
        for user in {user.pk: user for user in people}.values():
            with languages.speaking(user):
                name = _fixture_name(fixture)
                notices.append(
                    Notice(
                        f"fixture-tonight:{fixture.pk}:{today.isoformat()}",
                        user,
                        _("Roundel: %(fixture)s is tonight") % {"fixture": name},
                        _("%(fixture)s is on tonight at %(time)s at %(venue)s.")
                        % {
                            "fixture": name,
                            "time": dateformat.format(timezone.localtime(fixture.starts_at), "H:i"),
                            "venue": fixture.venue.name,
                        },
                        fixture.pk,
                    )
                )
    return notices


def _still_to_send(notices: list[Notice]) -> list[Notice]:
    """Those of `notices` not sent yet, to people with an address who want them."""
    users = {notice.user.pk for notice in notices}
    sent = set(
        NoticeSent.objects.filter(
            user_id__in=users, event__in={notice.event for notice in notices}
        ).values_list("user_id", "event")
    )
    silent = set(
        Profile.objects.filter(user_id__in=users, email_notices=False).values_list(
            "user_id", flat=True
        )
    )
    return [
        notice
        for notice in notices
        if (notice.user.pk, notice.event) not in sent
        and notice.user.pk not in silent
        and notice.user.is_active
        and notice_address(notice.user)
    ]


def notice_address(user: AbstractBaseUser) -> str:
    """The address a person's notices go to ("" for none)."""
    address: str = getattr(user, user.get_email_field_name(), "") or ""
    return address


def notice_language(user: AbstractBaseUser) -> str:
    """The language a person's notices are written in: their profile's, else the site's."""
    chosen = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE
