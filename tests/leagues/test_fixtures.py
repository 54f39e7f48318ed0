"""Properties of the double round robin (leagues.fixtures) for 2 to 21 teams: no database."""

import itertools
from collections import Counter
from collections.abc import Hashable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.fixtures import Pairing, Round, double_round_robin, rounds_needed

# Any hashable labels, in any order: the schedule must not depend on what the teams are.
team_lists = st.integers(min_value=2, max_value=21).flatmap(
    lambda n: st.lists(
        st.one_of(st.integers(), st.text(min_size=1, max_size=8)),
        min_size=n,
        max_size=n,
        unique=True,
    )
)
every_count = pytest.mark.parametrize("count", range(2, 22))


def venue_sequences(rounds: list[Round]) -> dict:
    """Each team's games in order, as a string of H and A (byes left out)."""
    sequences: dict[Hashable, str] = {}
    for round_ in rounds:
        for pairing in round_.pairings:
            sequences[pairing.home] = sequences.get(pairing.home, "") + "H"
            sequences[pairing.away] = sequences.get(pairing.away, "") + "A"
    return sequences


def longest_run(sequence: str) -> int:
    return max(len(list(run)) for _, run in itertools.groupby(sequence))


@given(team_lists)
def test_every_ordered_pair_meets_exactly_once(teams):
    rounds = double_round_robin(teams)
    meetings = Counter((p.home, p.away) for round_ in rounds for p in round_.pairings)
    expected = {(home, away) for home in teams for away in teams if home != away}
    assert set(meetings) == expected
    assert set(meetings.values()) == {1}


@given(team_lists)
def test_no_team_plays_twice_in_a_round(teams):
    for round_ in double_round_robin(teams):
        playing = [team for p in round_.pairings for team in (p.home, p.away)]
        if round_.bye is not None:
            playing.append(round_.bye)
        assert len(playing) == len(set(playing)) == len(teams)
        assert len(round_.pairings) == len(teams) // 2


@given(team_lists)
def test_rounds_are_2n_minus_2_for_even_and_2n_for_odd(teams):
    n = len(teams)
    rounds = double_round_robin(teams)
    assert len(rounds) == rounds_needed(n) == (2 * (n - 1) if n % 2 == 0 else 2 * n)
    assert [round_.number for round_ in rounds] == list(range(1, len(rounds) + 1))
    assert all(p.round == round_.number for round_ in rounds for p in round_.pairings)


@given(team_lists)
def test_byes_are_fair_one_per_half_for_odd_none_for_even(teams):
    rounds = double_round_robin(teams)
    half = len(rounds) // 2
    if len(teams) % 2 == 0:
        assert all(round_.bye is None for round_ in rounds)
        return
    for part in (rounds[:half], rounds[half:]):
        byes = Counter(round_.bye for round_ in part)
        assert set(byes) == set(teams)
        assert set(byes.values()) == {1}


@given(team_lists)
def test_home_counts_are_equal_over_the_season_and_balanced_in_each_half(teams):
    rounds = double_round_robin(teams)
    half = len(rounds) // 2
    season = Counter(p.home for round_ in rounds for p in round_.pairings)
    assert {season[team] for team in teams} == {len(teams) - 1}
    for part in (rounds[:half], rounds[half:]):
        homes = Counter(p.home for round_ in part for p in round_.pairings)
        counts = [homes[team] for team in teams]
        assert max(counts) - min(counts) <= 1


@given(team_lists)
def test_second_half_mirrors_the_first_with_home_and_away_swapped(teams):
    rounds = double_round_robin(teams)
    half = len(rounds) // 2
    for first, second in zip(rounds[:half], rounds[half:], strict=True):
        assert {(p.away, p.home) for p in first.pairings} == {
            (p.home, p.away) for p in second.pairings
        }
        assert first.bye == second.bye


@every_count
def test_no_team_plays_three_home_or_three_away_in_a_row_except_with_four_teams(count):
    runs = {
        team: longest_run(s)
        for team, s in venue_sequences(double_round_robin(range(count))).items()
    }
    if count == 4:
        # A mirrored double round robin of four teams cannot avoid it (docs/leagues.md):
        # two teams play three in a row at the turn of the halves, the other two alternate.
        assert sorted(runs.values()) == [1, 1, 3, 3]
    else:
        assert max(runs.values()) <= 2


def test_four_teams_cannot_avoid_a_third_game_in_a_row_in_any_mirrored_schedule():
    """The exception above is forced: with three games a half, only HAH and AHA avoid a run
    of three across the mirror, and two teams with the same pattern could never meet."""
    allowed = [
        pattern
        for pattern in itertools.product("HA", repeat=3)
        if longest_run("".join(pattern) + "".join("A" if x == "H" else "H" for x in pattern)) <= 2
    ]
    assert sorted("".join(p) for p in allowed) == ["AHA", "HAH"]


def test_two_teams_meet_once_at_each_home_the_first_named_at_home_first():
    assert double_round_robin(["Crown", "Anchor"]) == [
        Round(1, (Pairing(1, "Crown", "Anchor"),)),
        Round(2, (Pairing(2, "Anchor", "Crown"),)),
    ]


def test_the_same_teams_in_the_same_order_give_the_same_schedule():
    assert double_round_robin(range(9)) == double_round_robin(list(range(9)))


@pytest.mark.parametrize(
    ("teams", "message"),
    [
        ([], "at least two teams"),
        (["solo"], "at least two teams"),
        (["a", "b", "a"], "only once"),
        (["a", None], "None cannot be a team"),
    ],
)
def test_refuses_too_few_repeated_or_none_teams(teams, message):
    with pytest.raises(ValueError, match=message):
        double_round_robin(teams)
