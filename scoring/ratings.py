"""Player ratings per game: OpenSkill's Bradley–Terry model (full pairing), replayed over every
counted result.

Pure Python, no database: scoring.services.ratings_recompute reads the results, asks each
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

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
MODEL_NAME = "Bradley–Terry (full pairing)"


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
    current: dict[int, CurrentRating] = {}
    points: list[RatingPoint] = []
    matches = 0
    for fixture in sorted(fixtures, key=lambda f: (f.played_at, f.fixture_id)):
        touched: list[int] = []
        for match in fixture.matches:
            _rate(match, current, fixture.played_at)
            matches += 1
            touched += [pid for side in match.sides for pid in side if pid not in touched]
        for player_id in touched:
            rating = current[player_id]
            points.append(
                RatingPoint(
                    player_id=player_id,
                    fixture_id=fixture.fixture_id,
                    played_at=fixture.played_at,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    ordinal=rating.ordinal,
                    games=rating.games,
                )
            )
    return RatingReplay(current=current, points=points, matches=matches)


def _rate(match: RatedMatch, current: dict[int, CurrentRating], played_at) -> None:
    teams = [
        [
            MODEL.create_rating([current[pid].mu, current[pid].sigma])
            if pid in current
            else MODEL.rating()
            for pid in side
        ]
        for side in match.sides
    ]
    rated = MODEL.rate(teams, ranks=list(match.ranks))
    for side, new_side in zip(match.sides, rated):
        for pid, new in zip(side, new_side):
            games = current[pid].games + 1 if pid in current else 1
            current[pid] = CurrentRating(
                mu=new.mu, sigma=new.sigma, games=games, last_played_at=played_at
            )
