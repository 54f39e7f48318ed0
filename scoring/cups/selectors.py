"""Reads of cups: a cup with its rounds and ties, a tie's winner from its result, the teams'
strength for a seeded draw, the ties a venue's TV shows (docs/cups.md)."""

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from leagues.models import Cup, CupRound, CupTie, Fixture, Season, TeamMember, Venue
from scoring.cups.deciders import drawn_tie_rule
from scoring.models import PlayerRating, ResultVersion


def cup_queryset() -> QuerySet[Cup]:
    """Cups with their season, rounds (round 1 first) and ties (top of the bracket first):
    three queries whatever the number of cups."""
    ties = CupTie.objects.select_related("home", "away", "winner", "fixture__venue").order_by(
        "position"
    )
    return Cup.objects.select_related("season__league", "plate_of").prefetch_related(
        Prefetch(
            "rounds",
            queryset=CupRound.objects.order_by("number").prefetch_related(
                Prefetch("ties", queryset=ties)
            ),
        )
    )


def season_cups(*, season: Season) -> list[Cup]:
    """The season's cups, each cup before its plate."""
    return sorted(
        Cup.objects.filter(season=season).select_related("plate_of"),
        key=lambda cup: (cup.plate_of.name if cup.plate_of else cup.name, cup.plate_of_id or 0),
    )


def cup_get(*, season: Season, slug: str) -> Cup:
    """A cup of the season with its rounds and ties; Cup.DoesNotExist otherwise."""
    return cup_queryset().get(season=season, slug=slug)


def tie_counted_result(*, fixture_id: int) -> ResultVersion | None:
    """The tie's result that counts (as the standings' and ratings' do), or None."""
    return ResultVersion.objects.counted().filter(fixture_id=fixture_id).first()


def tie_winning_side(*, tie: CupTie, game: str) -> str | None:
    """The side ("home" / "away") that wins the tie, or None while it is undecided: the
    result's winner; for a drawn result the game's rule from the sheet, else the decider
    entered by staff (scoring.cups.deciders)."""
    if tie.bye:
        return "home"
    if tie.fixture_id is None:
        return None
    result = tie_counted_result(fixture_id=tie.fixture_id)
    if result is None:
        return None
    if result.winner in ("home", "away"):
        return result.winner
    return tie_sheet_decides(result=result, game=game) or tie.decider or None


def tie_sheet_decides(*, result: ResultVersion, game: str) -> str | None:
    """The side a drawn result's own sheet puts through under the game's rule, or None."""
    from_sheet = drawn_tie_rule(game).from_sheet
    return from_sheet(result.sheet) if from_sheet is not None and result.sheet else None


def team_strengths(*, game: str, team_ids: Iterable[int]) -> dict[int, float]:
    """A team's strength for a seeded draw: the sum of its two players' rating ordinals in the
    game (mu - 3 sigma, scoring.ratings), an unrated player counting 0 (a new player's
    ordinal). One query for the members, one for their ratings."""
    members = list(
        TeamMember.objects.filter(team_id__in=list(team_ids)).values_list("team_id", "player_id")
    )
    ordinals = dict(
        PlayerRating.objects.filter(
            game=game, player_id__in=[player for _, player in members]
        ).values_list("player_id", "ordinal")
    )
    strengths: dict[int, float] = defaultdict(float)
    for team_id, player_id in members:
        strengths[team_id] += ordinals.get(player_id, 0.0)
    return {team_id: strengths[team_id] for team_id in team_ids}


@dataclass(frozen=True)
class VenueCupRound:
    """A cup round on a venue's TV: the round and its ties, those at the venue marked."""

    cup: Cup
    round: CupRound
    ties: list[CupTie]
    venue_tie_ids: frozenset[int]


def venue_cup_rounds(
    *, venue: Venue, starts: datetime.datetime, ends: datetime.datetime
) -> list[VenueCupRound]:
    """The cup rounds with a tie at `venue` between `starts` and `ends` (a week of evenings),
    each with all its ties: the round the pub is playing in, for its TV screen."""
    at_venue = Fixture.objects.filter(
        venue=venue,
        stage=Fixture.Stage.CUP,
        starts_at__gte=starts,
        starts_at__lt=ends,
        cup_tie__isnull=False,
    ).exclude(status=Fixture.Status.VOID)
    tie_ids = set(at_venue.values_list("cup_tie", flat=True))
    if not tie_ids:
        return []
    round_ids = set(CupTie.objects.filter(pk__in=tie_ids).values_list("round_id", flat=True))
    rounds = (
        CupRound.objects.filter(pk__in=round_ids)
        .select_related("cup")
        .prefetch_related(
            Prefetch(
                "ties",
                queryset=CupTie.objects.select_related("home", "away", "winner").order_by(
                    "position"
                ),
            )
        )
        .order_by("starts_at", "cup__name", "number")
    )
    return [
        VenueCupRound(
            cup=cup_round.cup,
            round=cup_round,
            ties=list(cup_round.ties.all()),
            venue_tie_ids=frozenset(tie_ids),
        )
        for cup_round in rounds
    ]


def cup_fixtures(*, cup: Cup) -> QuerySet[Fixture]:
    """The fixtures of the cup's ties."""
    return Fixture.objects.filter(Q(cup_tie__round__cup=cup))


@dataclass(frozen=True)
class BracketTie:
    """A tie as the bracket page shows it."""

    tie: CupTie
    result: ResultVersion | None  # the counted result, None before it is played
    needs_decider: bool  # drawn, and neither the sheet nor a decider settled it yet


@dataclass(frozen=True)
class BracketRound:
    round: CupRound
    ties: list[BracketTie]


def cup_bracket(*, cup: Cup) -> list[BracketRound]:
    """The cup's rounds (round 1 first) with their ties and results, from a cup read through
    cup_queryset: one more query for the results."""
    rounds = list(cup.rounds.all())
    fixture_ids = [tie.fixture_id for r in rounds for tie in r.ties.all() if tie.fixture_id]
    results = {
        version.fixture_id: version
        for version in ResultVersion.objects.counted().filter(fixture_id__in=fixture_ids)
    }
    bracket = []
    for cup_round in rounds:
        ties = []
        for tie in cup_round.ties.all():
            result = results.get(tie.fixture_id) if tie.fixture_id else None
            undecided = (
                result is not None
                and result.winner == "draw"
                and tie.winner_id is None
                and not tie_sheet_decides(result=result, game=cup.game)
            )
            ties.append(BracketTie(tie=tie, result=result, needs_decider=undecided))
        bracket.append(BracketRound(round=cup_round, ties=ties))
    return bracket


def fixture_cup_tie(*, fixture: Fixture) -> CupTie | None:
    """The cup tie a fixture is, with its round and cup, or None for a league fixture."""
    if fixture.stage != Fixture.Stage.CUP:
        return None
    return (
        CupTie.objects.select_related("round__cup__season__league", "home", "away", "winner")
        .filter(fixture=fixture)
        .first()
    )
