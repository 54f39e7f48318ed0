"""Writes of cups: the draw, a tie's winner going through, a drawn tie's decider, the plate
(docs/cups.md).

Locks: every write takes the cup's row first (select_for_update), then the ties it changes,
top round first. So two results of one cup recorded at once are settled one after the other,
and the last first-round result draws the plate exactly once.
"""

import datetime
import random
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.errors import Conflict, Forbidden, Invalid
from leagues.models import Cup, CupRound, CupTie, Entry, Fixture, Team
from leagues.permissions import (
    NOT_LEAGUE_ADMIN,
    AnyUser,
    ensure_can_enter_results,
    is_league_admin,
)
from scoring.cups import draw
from scoring.cups.selectors import (
    team_strengths,
    tie_counted_result,
    tie_sheet_decides,
    tie_winning_side,
)
from scoring.models import ResultVersion

MAX_WEEKS_BETWEEN = 8
DECIDER_NOTE_MAX_LENGTH: int = CupTie._meta.get_field("decider_note").max_length  # type: ignore[assignment]  # a CharField has one


def _cup_locked(cup_id: int) -> Cup:
    """The cup's row, locked until the transaction ends: the first lock of every cup write."""
    return (
        Cup.objects.select_for_update(of=("self",)).select_related("season__league").get(pk=cup_id)
    )


class TieAlreadyPlayed(Conflict):
    """A change would move a team out of a tie that has been played since (409)."""

    code = "cup_tie_played"


@transaction.atomic
def cup_draw(
    *,
    cup_id: int,
    by: AnyUser | None,
    first_round_at: datetime.datetime | None = None,
    weeks_between: int = 1,
    rng: random.Random | None = None,
) -> Cup:
    """Make the cup's draw: its rounds, the first round's ties with their fixtures, the byes
    (straight through to round 2) and the empty ties of the later rounds.

    Rounds the admin already set (CupRound rows) keep their dates and names; the others are
    dated from `first_round_at`, `weeks_between` weeks apart. A random draw shuffles with
    `rng` (a seeded one in tests); a seeded draw orders the teams by strength
    (scoring.cups.selectors.team_strengths). `by` None is the command line.

    Raises Forbidden unless `by` is a league admin; Conflict when the cup was drawn already;
    Invalid (field "teams") for fewer than two teams or a team not entered in the cup's
    season, (field "first_round_at") when a round has no date, (field "weeks_between") for
    a gap outside 1..8 weeks. Nothing is written when any of these is raised.
    """
    if by is not None and not is_league_admin(user=by):
        raise Forbidden(NOT_LEAGUE_ADMIN)
    cup = _cup_locked(cup_id)
    if cup.drawn_at is not None:
        raise Conflict(
            _("%(cup)s was drawn on %(day)s: a cup is drawn once.")
            % {
                "cup": cup.name,
                "day": date_format(
                    timezone.localtime(cup.drawn_at), pgettext("date format", "j F Y")
                ),
            }
        )
    teams = list(cup.teams.order_by("name", "pk"))
    _ensure_teams_can_be_drawn(cup=cup, teams=teams)
    if type(weeks_between) is not int or not 1 <= weeks_between <= MAX_WEEKS_BETWEEN:
        raise Invalid(
            errors={
                "weeks_between": _("Rounds are 1 to %(most)d weeks apart.")
                % {"most": MAX_WEEKS_BETWEEN}
            }
        )
    seeds = _seeds(cup=cup, teams=teams, rng=rng or random.SystemRandom())
    rounds = _rounds_ensure(
        cup=cup,
        count=draw.round_count(len(teams)),
        first_round_at=first_round_at,
        weeks_between=weeks_between,
    )
    _bracket_create(cup=cup, rounds=rounds, seeds=seeds)
    cup.drawn_at = timezone.now()
    cup._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    cup.save(update_fields=["drawn_at"])
    return cup


def _ensure_teams_can_be_drawn(*, cup: Cup, teams: list[Team]) -> None:
    if len(teams) < 2:
        raise Invalid(
            errors={
                "teams": _(
                    "A cup needs at least two teams to draw; %(cup)s has %(count)d. Pick the "
                    "teams first."
                )
                % {"cup": cup.name, "count": len(teams)}
            }
        )
    entered = set(
        Entry.objects.filter(season_id=cup.season_id, team__in=teams).values_list(
            "team_id", flat=True
        )
    )
    outsiders = [team.name for team in teams if team.pk not in entered]
    if outsiders:
        raise Invalid(
            errors={
                "teams": _("%(teams)s not entered in %(season)s: a cup is for its season's teams.")
                % {"teams": ", ".join(outsiders), "season": cup.season}
            }
        )


def _seeds(*, cup: Cup, teams: list[Team], rng: random.Random) -> list[Team]:
    """The teams best first: by strength (ties by name) for a seeded cup, else shuffled."""
    if cup.seeding == Cup.Seeding.RATINGS:
        strength = team_strengths(game=cup.season.game, team_ids=[team.pk for team in teams])
        return sorted(teams, key=lambda team: (-strength[team.pk], team.name, team.pk))
    seeds = list(teams)
    rng.shuffle(seeds)
    return seeds


def _rounds_ensure(
    *,
    cup: Cup,
    count: int,
    first_round_at: datetime.datetime | None,
    weeks_between: int,
) -> list[CupRound]:
    existing = {cup_round.number: cup_round for cup_round in cup.rounds.all()}
    extra = sorted(number for number in existing if number > count)
    if extra:
        raise Invalid(
            errors={
                "rounds": _(
                    "%(teams)d teams play %(count)d rounds, but round %(number)d is set: "
                    "delete it first."
                )
                % {"teams": cup.teams.count(), "count": count, "number": extra[0]}
            }
        )
    rounds = []
    for number in range(1, count + 1):
        cup_round = existing.get(number)
        if cup_round is None:
            if first_round_at is None:
                raise Invalid(
                    errors={
                        "first_round_at": _(
                            "Give the first round's date and time (round %(number)d has none)."
                        )
                        % {"number": number}
                    }
                )
            cup_round = CupRound.objects.create(
                cup=cup,
                number=number,
                name=draw.round_name(number=number, rounds=count),
                starts_at=first_round_at + datetime.timedelta(weeks=weeks_between * (number - 1)),
            )
        elif not cup_round.name:
            cup_round.name = draw.round_name(number=number, rounds=count)
            cup_round.save(update_fields=["name"])
        rounds.append(cup_round)
    return rounds


def _bracket_create(*, cup: Cup, rounds: list[CupRound], seeds: list[Team]) -> None:
    first = draw.first_round(seeds)
    ties = []
    for place in first:
        tie = CupTie(
            round=rounds[0],
            position=place.position,
            home=place.home,
            away=place.away,
            bye=place.bye,
            winner=place.home if place.bye else None,
        )
        if place.away is not None:
            tie.fixture = _fixture_create(
                cup=cup, cup_round=rounds[0], home=place.home, away=place.away
            )
        ties.append(tie)
    CupTie.objects.bulk_create(ties)
    for index, cup_round in enumerate(rounds[1:], 1):
        CupTie.objects.bulk_create(
            CupTie(round=cup_round, position=position)
            for position in range(1, len(first) // 2**index + 1)
        )
    for tie in CupTie.objects.filter(round=rounds[0], bye=True).select_related("round"):
        _winner_place(cup=cup, tie=tie, team=tie.home)


def _fixture_create(*, cup: Cup, cup_round: CupRound, home: Team, away: Team) -> Fixture:
    """A tie's fixture: a fixture like any other, of stage cup, at the home team's venue."""
    return Fixture.objects.create(
        season_id=cup.season_id,
        division=None,
        stage=Fixture.Stage.CUP,
        round=cup_round.number,
        home_team=home,
        away_team=away,
        venue_id=home.home_venue_id,
        starts_at=cup_round.starts_at,
    )


# ---- A tie's winner goes through ---------------------------------------------------------


def cup_result_recorded(sender: Any, *, version: ResultVersion, **kwargs: Any) -> None:
    """A result was saved (scoring.results.services.result_recorded, inside its transaction):
    if its fixture is a cup tie, the tie's winner goes through to the next round at once."""
    if version.fixture.stage != Fixture.Stage.CUP:
        return
    tie_id = (
        CupTie.objects.filter(fixture_id=version.fixture_id).values_list("pk", flat=True).first()
    )
    if tie_id is not None:
        cup_tie_settle(tie_id=tie_id)


@transaction.atomic
def cup_tie_settle(*, tie_id: int) -> CupTie:
    """Put the tie's winner (as its result and decider say now) through to the next round.

    A changed winner (a corrected result, a decider) replaces the old one in the next round's
    tie while that tie has not been played; an undecided tie (a draw waiting for its decider)
    takes its team back out. When the first round is complete, the plate is drawn.

    Raises TieAlreadyPlayed when the team to move has played its next tie already: correct or
    void that tie first (docs/cups.md). Nothing is written then.
    """
    cup_id = CupTie.objects.filter(pk=tie_id).values_list("round__cup_id", flat=True).get()
    cup = _cup_locked(cup_id)
    tie = CupTie.objects.select_for_update(of=("self",)).select_related("round").get(pk=tie_id)
    side = tie_winning_side(tie=tie, game=cup.game)
    winner_id = None if side is None else (tie.home_id if side == "home" else tie.away_id)
    if winner_id != tie.winner_id:
        winner = None if winner_id is None else Team.objects.get(pk=winner_id)
        _winner_place(cup=cup, tie=tie, team=winner)
        if tie.round.number == 1:
            _plate_loser_replace(
                cup=cup, tie=tie, old_winner_id=tie.winner_id, new_winner_id=winner_id
            )
        tie.winner = winner
        tie.save(update_fields=["winner"])
    if tie.round.number == 1:
        _plate_draw_when_ready(cup=cup)
    return tie


def _winner_place(*, cup: Cup, tie: CupTie, team: Team | None) -> None:
    """Put `team` (None: nobody yet) in the tie's place in the next round."""
    position, side = draw.next_place(tie.position)
    following = (
        CupTie.objects.select_for_update(of=("self",))
        .filter(round__cup=cup, round__number=tie.round.number + 1, position=position)
        .select_related("round")
        .first()
    )
    if following is None:  # the final: the winner is the cup's
        return
    if getattr(following, f"{side}_id") == (team.pk if team else None):
        return
    _ensure_not_played(following)
    setattr(following, side, team)
    following.save(update_fields=[side])
    _tie_fixture_sync(cup=cup, tie=following)


def _ensure_not_played(tie: CupTie) -> None:
    if tie.fixture_id is not None and (
        tie.fixture.status == Fixture.Status.PLAYED  # type: ignore[union-attr]  # fixture_id set
        or ResultVersion.objects.filter(fixture_id=tie.fixture_id).exists()
    ):
        raise TieAlreadyPlayed(
            _(
                "%(tie)s has been played since: the team that goes through cannot change now. "
                "Correct or void that tie first."
            )
            % {"tie": tie.fixture}
        )


def _tie_fixture_sync(*, cup: Cup, tie: CupTie) -> None:
    """The tie's fixture follows its teams: created when both are known, changed when one
    changes (the venue is the home team's), taken away when one is missing again."""
    fixture = tie.fixture
    if tie.home_id is None or tie.away_id is None:
        if fixture is not None:
            tie.fixture = None
            tie.save(update_fields=["fixture"])
            fixture.delete()
        return
    home = Team.objects.get(pk=tie.home_id)
    if fixture is None:
        tie.fixture = _fixture_create(cup=cup, cup_round=tie.round, home=home, away=tie.away)  # type: ignore[arg-type]  # away_id set
        tie.save(update_fields=["fixture"])
        return
    fixture.home_team = home
    fixture.away_team_id = tie.away_id
    fixture.venue_id = home.home_venue_id
    fixture.save(update_fields=["home_team", "away_team", "venue"])


# ---- A drawn tie's decider --------------------------------------------------------------


@transaction.atomic
def cup_tie_decider_record(*, tie_id: int, side: str, note: str, by: AnyUser) -> CupTie:
    """Record who won a drawn tie's decider (a deciding single, one more game: the game's
    rule, scoring.cups.deciders) and put that team through.

    Raises PermissionDenied unless `by` serves the tie's venue (or is a league admin);
    Conflict when the tie's result is not a draw still to be decided (no result yet, a
    winner already, or a sheet that decides it); Invalid for a side that is not "home" or
    "away" (field "side") or a note too long (field "note"); TieAlreadyPlayed as
    cup_tie_settle. Nothing is written when any of these is raised.
    """
    cup_id = CupTie.objects.filter(pk=tie_id).values_list("round__cup_id", flat=True).get()
    cup = _cup_locked(cup_id)
    tie = CupTie.objects.select_for_update(of=("self",)).select_related("fixture").get(pk=tie_id)
    if tie.fixture is None:
        raise Conflict(_("This tie has no fixture yet: it has nothing to decide."))
    try:
        ensure_can_enter_results(user=by, venue_id=tie.fixture.venue_id)
    except PermissionDenied as refusal:
        raise Forbidden(str(refusal)) from None
    result = tie_counted_result(fixture_id=tie.fixture_id)  # type: ignore[arg-type]  # fixture set
    if result is None:
        raise Conflict(_("Enter the tie's result first: a decider settles a drawn tie."))
    if result.winner != "draw" or tie_sheet_decides(result=result, game=cup.game):
        raise Conflict(_("This tie's result has a winner already: it needs no decider."))
    if side not in ("home", "away"):
        raise Invalid(errors={"side": _("Choose the team that won the decider.")})
    note = " ".join(str(note or "").split())
    if len(note) > DECIDER_NOTE_MAX_LENGTH:
        raise Invalid(
            errors={
                "note": _("Say what was played in at most %(most)d characters.")
                % {"most": DECIDER_NOTE_MAX_LENGTH}
            }
        )
    tie.decider = side
    tie.decider_note = note
    tie.decider_by_id = by.pk
    tie.save(update_fields=["decider", "decider_note", "decider_by"])
    return cup_tie_settle(tie_id=tie.pk)


# ---- The plate --------------------------------------------------------------------------


def _plate_draw_when_ready(*, cup: Cup) -> None:
    """Draw the plate from the first round's losers once every first-round tie is decided
    (a plate with fewer than two losers is not drawn)."""
    if not cup.with_plate or Cup.objects.filter(plate_of=cup).exists():
        return
    first = list(CupTie.objects.filter(round__cup=cup, round__number=1, bye=False))
    if not first or any(tie.winner_id is None for tie in first):
        return
    losers = [tie.away if tie.winner_id == tie.home_id else tie.home for tie in first]
    if len(losers) < 2:
        return
    plate = Cup.objects.create(
        season_id=cup.season_id,
        name=_("%(cup)s Plate") % {"cup": cup.name},
        slug=_free_slug(cup=cup),
        seeding=cup.seeding,
        plate_of=cup,
    )
    plate.teams.set([loser for loser in losers if loser is not None])
    second = CupRound.objects.filter(cup=cup, number=2).first()
    cup_draw(
        cup_id=plate.pk,
        by=None,
        first_round_at=second.starts_at if second else timezone.now(),
    )


def _free_slug(*, cup: Cup) -> str:
    base = slugify(f"{cup.slug}-plate")[:110]
    taken = set(Cup.objects.filter(season_id=cup.season_id).values_list("slug", flat=True))
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug


def _plate_loser_replace(
    *, cup: Cup, tie: CupTie, old_winner_id: int | None, new_winner_id: int | None
) -> None:
    """A first-round tie's winner changed after the plate was drawn: the new loser takes the
    old loser's place in the plate while their plate tie has not been played."""
    plate = Cup.objects.filter(plate_of=cup).first()
    if plate is None or old_winner_id is None or tie.home is None or tie.away is None:
        return
    if new_winner_id is None:
        raise Conflict(
            _(
                "The plate was drawn with this tie's loser in it: a correction must leave "
                "the tie with a winner (enter the decider with it)."
            )
        )
    old_loser, new_loser = (
        (tie.away, tie.home) if old_winner_id == tie.home.pk else (tie.home, tie.away)
    )
    plate_tie = (
        CupTie.objects.select_for_update(of=("self",))
        .filter(Q(home=old_loser) | Q(away=old_loser), round__cup=plate, round__number=1)
        .select_related("round")
        .get()
    )
    _ensure_not_played(plate_tie)
    side = "home" if plate_tie.home_id == old_loser.pk else "away"
    setattr(plate_tie, side, new_loser)
    if plate_tie.bye:
        plate_tie.winner = new_loser
        _winner_place(cup=plate, tie=plate_tie, team=new_loser)
    plate_tie.save(update_fields=[side, "winner"])
    plate.teams.remove(old_loser)
    plate.teams.add(new_loser)
    if not plate_tie.bye:
        _tie_fixture_sync(cup=plate, tie=plate_tie)
