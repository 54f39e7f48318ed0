"""Player ratings per game: OpenSkill's Bradley–Terry model (full pairing), replayed over every
counted result.

Pure Python, no database: scoring.ratings.services.ratings_recompute reads the results, asks each
game's kind how a sheet becomes rated matches (`kind.rated_matches`), and stores what
`ratings_replay` returns.

A rating is a belief about a player's skill: `mu` (the estimate) and `sigma` (how unsure it
is). The number shown is the **ordinal**, mu − 3·sigma: a cautious estimate that is 0 for a
newcomer (25 − 3 × 25/3) and rises both by winning and by playing enough for the model to be
sure. docs/ratings.md says more, including why Bradley–Terry rather than Plackett–Luce
(ties: a Корова game often has two players level on heads).

The replay is deterministic: fixtures are taken in the order they were played (their date,
then their id), matches within a fixture in sheet order, and the model has no randomness.
A corrected or voided result is therefore handled by replaying the whole history again, and
the ratings after it are exactly those that the right history would have given.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop
from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
# Marked for the catalogue, translated where it is shown (scoring/ratings/_explained.html).
MODEL_NAME = gettext_noop("Bradley–Terry (full pairing)")


@dataclass(frozen=True)
class RatedMatch:
    """One game to rate: the player ids of each side and each side's rank (1 is best).

    Sides with equal ranks tied (a Convoy stalemate, Корова players level on heads).
    """

    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class RatedFixture:
    fixture_id: int
    played_at: Any  # the fixture's date and time: the order of the replay
    matches: tuple[RatedMatch, ...]


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after a fixture: one point of their history chart."""

    player_id: int
    fixture_id: int
    played_at: Any
    mu: float
    sigma: float
    ordinal: float
    games: int


@dataclass
class CurrentRating:
    mu: float
    sigma: float
    games: int
    last_played_at: Any

    @property
    def ordinal(self) -> float:
        return ordinal(mu=self.mu, sigma=self.sigma)


@dataclass(frozen=True)
class RatingReplay:
    current: dict[int, CurrentRating]  # player id → rating after the last fixture
    points: list[RatingPoint]  # in replay order
    matches: int


def ordinal(*, mu: float, sigma: float) -> float:
    """The cautious rating shown on the pages: mu − 3·sigma."""
    return mu - 3 * sigma


def shared_ranks(scores: Iterable[float], *, lower_is_better: bool) -> tuple[int, ...]:
    """Competition ranks from scores ("1224"): equal scores share a rank."""
    scores = list(scores)
    ordered = sorted(scores, reverse=not lower_is_better)
    return tuple(ordered.index(score) + 1 for score in scores)


def ratings_replay(fixtures: Iterable[RatedFixture]) -> RatingReplay:
    """Every player's rating after replaying `fixtures` in the order they were played."""
    model_ratings: dict[int, Any] = {}  # player id → the model's rating object
    games: dict[int, int] = {}
    last_played: dict[int, Any] = {}
    points: list[RatingPoint] = []
    matches = 0
    for fixture in sorted(fixtures, key=lambda f: (f.played_at, f.fixture_id)):
        touched: dict[int, None] = {}  # in order of first appearance
        for match in fixture.matches:
            teams = [[_rating_of(pid, model_ratings) for pid in side] for side in match.sides]
            rated = MODEL.rate(teams, ranks=list(match.ranks))
            for side, new_side in zip(match.sides, rated):
                for pid, new in zip(side, new_side):
                    model_ratings[pid] = new
                    games[pid] = games.get(pid, 0) + 1
                    last_played[pid] = fixture.played_at
                    touched[pid] = None
            matches += 1
        for pid in touched:
            rating = model_ratings[pid]
            points.append(
                RatingPoint(
                    player_id=pid,
                    fixture_id=fixture.fixture_id,
                    played_at=fixture.played_at,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    ordinal=ordinal(mu=rating.mu, sigma=rating.sigma),
                    games=games[pid],
                )
            )
    current = {
        pid: CurrentRating(
            mu=rating.mu, sigma=rating.sigma, games=games[pid], last_played_at=last_played[pid]
        )
        for pid, rating in model_ratings.items()
    }
    return RatingReplay(current=current, points=points, matches=matches)


def _rating_of(player_id: int, model_ratings: dict):
    """The player's rating so far, or a newcomer's (μ 25, σ 25/3)."""
    rating = model_ratings.get(player_id)
    return rating if rating is not None else MODEL.rating()
