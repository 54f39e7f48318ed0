"""Double round robin by the circle method: pure Python, no database.

`double_round_robin(teams)` returns the rounds of a season in which every team plays every
other team twice, once at home and once away. What it guarantees, for any number of teams
n >= 2 (the tests check n = 2..21; the docs explain why):

- rounds: 2(n - 1) for an even n, 2n for an odd n; every round has n // 2 pairings;
- no team appears twice in a round;
- every ordered pair (home, away) meets exactly once;
- byes: none for an even n; for an odd n exactly one team sits out each round and every team
  sits out exactly once in each half;
- the second half mirrors the first: round k + h is round k with home and away swapped
  (h = the number of rounds in a half);
- home and away: every team has exactly n - 1 home games (so home counts never differ), and in
  each half the home counts differ by at most one between teams;
- no team plays more than two home games, or two away games, in a row (byes do not break a
  run: the games are counted in order), except for n = 4, where it is impossible in a mirrored
  double round robin and two of the four teams play three in a row at the turn of the halves.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

# The first half starts this many rounds into the circle. Starting at the circle's first round
# puts two teams' only break (two home or two away games in a row) at the start of the half,
# and the mirrored second half then hands them a third in a row at the turn; starting three
# rounds in moves every break away from both ends of the half (checked for 2..100 teams).
FIRST_HALF_OFFSET = 3


@dataclass(frozen=True)
class Pairing:
    round: int
    home: Hashable
    away: Hashable


@dataclass(frozen=True)
class Round:
    number: int
    pairings: tuple[Pairing, ...]
    bye: Hashable | None = None


def rounds_needed(team_count: int) -> int:
    """Rounds of a double round robin: 2(n - 1) for an even n, 2n for an odd n."""
    if team_count < 2:
        raise ValueError("a round robin needs at least two teams")
    return 2 * (team_count - 1 + team_count % 2)


def _circle_rounds(teams: list) -> list[list[tuple]]:
    """One round robin as (home, away) tuples; None stands for the bye of an odd count.

    The last slot stays put while the others turn one place a round. A pairing's home side
    alternates along the line (the pairing at an odd distance from the middle is turned round)
    and the fixed slot alternates between home and away from round to round, so every team has
    at most one break in the half.
    """
    slots = teams + [None] if len(teams) % 2 else list(teams)
    size = len(slots)
    fixed, turning = slots[-1], slots[:-1]
    circle_rounds = []
    for turn in range(size - 1):
        line = turning[-turn:] + turning[:-turn] if turn else list(turning)
        line.append(fixed)
        pairs = []
        for position in range(size // 2):
            first, second = line[position], line[size - 1 - position]
            if position == 0:
                first_at_home = turn % 2 == 0
            else:
                first_at_home = position % 2 == 1
            pairs.append((first, second) if first_at_home else (second, first))
        circle_rounds.append(pairs)
    return circle_rounds


def double_round_robin(teams: Sequence[Hashable]) -> list[Round]:
    """The rounds of a double round robin for `teams`, in the order given.

    Raises ValueError for fewer than two teams or a team given twice.
    """
    teams = list(teams)
    if len(teams) < 2:
        raise ValueError("a round robin needs at least two teams")
    if len(set(teams)) != len(teams):
        raise ValueError("each team may appear only once")
    if None in teams:
        raise ValueError("None cannot be a team: it marks the bye")

    first_half = _circle_rounds(teams)
    offset = FIRST_HALF_OFFSET % len(first_half)
    first_half = first_half[offset:] + first_half[:offset]
    second_half = [[(away, home) for home, away in pairs] for pairs in first_half]

    rounds = []
    for number, pairs in enumerate(first_half + second_half, start=1):
        bye = None
        pairings = []
        for home, away in pairs:
            if home is None or away is None:
                bye = away if home is None else home
            else:
                pairings.append(Pairing(number, home, away))
        rounds.append(Round(number, tuple(pairings), bye))
    return rounds
