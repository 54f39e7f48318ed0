"""The draw, winners going through, drawn ties, corrections and the plate, on PostgreSQL."""

import random

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from config.errors import Conflict, Forbidden, Invalid
from leagues.models import Cup, CupTie, Fixture, Game
from scoring.cups.services import TieAlreadyPlayed, cup_draw, cup_tie_decider_record
from scoring.models import PlayerRating
from scoring.results.services import result_submit
from tests.factories import StaffMembershipFactory, TeamFactory, UserFactory

from .cups import (
    AWAY_WINS,
    DRAWN_HOME_LAST,
    HOME_WINS,
    LEVEL_EVERY_ROUND,
    admin_user,
    first_round_at,
    make_cup,
    play,
)

pytestmark = pytest.mark.django_db


def _ties(cup, number):
    return list(CupTie.objects.filter(round__cup=cup, round__number=number).order_by("position"))


def test_a_random_draw_with_a_seeded_rng_is_that_draw_and_fills_up_to_a_power_of_two():
    cup = make_cup(6)
    cup_draw(cup_id=cup.pk, by=admin_user(), first_round_at=first_round_at(), rng=random.Random(7))
    again = make_cup(6, names=[f"Other {index}" for index in range(6)])
    cup_draw(cup_id=again.pk, by=None, first_round_at=first_round_at(), rng=random.Random(7))

    first = _ties(cup, 1)
    assert len(first) == 4 and sum(tie.bye for tie in first) == 2
    assert [r.name for r in cup.rounds.order_by("number")] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    names = [(tie.home.name[-1], tie.away.name[-1] if tie.away else None) for tie in first]
    other = [
        (tie.home.name[-1], tie.away.name[-1] if tie.away else None) for tie in _ties(again, 1)
    ]
    # The same shuffle of teams in the same order: letters A-F and digits 0-5 line up.
    assert [(ord(h) - 65, a and ord(a) - 65) for h, a in names] == [
        (int(h), a and int(a)) for h, a in other
    ]
    assert Fixture.objects.filter(stage=Fixture.Stage.CUP, season=cup.season).count() == 2
    cup.refresh_from_db()
    assert cup.drawn_at is not None


def test_byes_go_straight_through_and_meet_their_next_opponent():
    cup = make_cup(5)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at(), rng=random.Random(1))
    first = _ties(cup, 1)
    assert sum(tie.bye for tie in first) == 3
    for tie in first:
        if tie.bye:
            assert tie.winner_id == tie.home_id and tie.fixture_id is None and tie.away_id is None
    second = _ties(cup, 2)
    # two byes meet in round 2 at once: that tie has its fixture already
    ready = [tie for tie in second if tie.home_id and tie.away_id]
    assert len(ready) == 1 and ready[0].fixture is not None
    fixture = ready[0].fixture
    assert fixture.stage == Fixture.Stage.CUP and fixture.division_id is None
    assert fixture.round == 2 and fixture.venue_id == fixture.home_team.home_venue_id
    assert fixture.starts_at == cup.rounds.get(number=2).starts_at


def test_a_seeded_draw_gives_the_byes_to_the_best_rated_teams():
    cup = make_cup(6, seeding=Cup.Seeding.RATINGS)
    teams = list(cup.teams.order_by("name"))
    # Team F strongest, then E, ... : the ordinals of the two players add up.
    for strength, team in enumerate(teams):
        for member in team.members.all():
            PlayerRating.objects.create(
                game=Game.KOROVA,
                player=member.player,
                mu=25,
                sigma=1,
                ordinal=strength,
                games=9,
                last_played_at=timezone.now(),
            )
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    byes = {tie.home.name for tie in _ties(cup, 1) if tie.bye}
    assert byes == {"Team F", "Team E"}
    first = _ties(cup, 1)
    # places 1, 8 | 4, 5 | 2, 7 | 3, 6: seeds 1 and 2 meet only in the final
    assert [(tie.home.name, tie.away and tie.away.name) for tie in first] == [
        ("Team F", None),
        ("Team C", "Team B"),
        ("Team E", None),
        ("Team D", "Team A"),
    ]


def test_a_draw_with_one_team_is_refused_and_changes_nothing():
    cup = make_cup(1)
    with pytest.raises(Invalid) as refusal:
        cup_draw(cup_id=cup.pk, by=admin_user(), first_round_at=first_round_at())
    assert "at least two teams" in refusal.value.errors["teams"][0]
    cup.refresh_from_db()
    assert cup.drawn_at is None and not cup.rounds.exists()


def test_a_second_draw_is_refused_and_changes_nothing():
    cup = make_cup(4)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    fixtures = set(Fixture.objects.values_list("pk", flat=True))
    with pytest.raises(Conflict, match="drawn once"):
        cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    assert set(Fixture.objects.values_list("pk", flat=True)) == fixtures
    assert CupTie.objects.filter(round__cup=cup).count() == 3


def test_a_team_not_in_the_season_is_refused_by_name():
    cup = make_cup(3)
    cup.teams.add(TeamFactory(name="Strangers"))
    with pytest.raises(Invalid) as refusal:
        cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    assert "Strangers" in refusal.value.errors["teams"][0]
    assert not cup.rounds.exists()


def test_only_league_admins_make_the_draw():
    cup = make_cup(4)
    staff = StaffMembershipFactory().user
    with pytest.raises(Forbidden):
        cup_draw(cup_id=cup.pk, by=staff, first_round_at=first_round_at())
    assert not cup.rounds.exists()


def test_the_winner_goes_through_at_once_and_the_next_tie_gets_its_fixture():
    cup = make_cup(4)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    top, bottom = _ties(cup, 1)
    play(top.fixture, HOME_WINS, by=admin)
    final = _ties(cup, 2)[0]
    assert final.home_id == top.home_id and final.away_id is None and final.fixture is None
    play(bottom.fixture, AWAY_WINS, by=admin)
    final.refresh_from_db()
    assert final.away_id == bottom.away_id
    assert final.fixture.home_team_id == top.home_id and final.fixture.stage == "cup"
    play(final.fixture, AWAY_WINS, by=admin)
    final.refresh_from_db()
    assert final.winner_id == bottom.away_id


def test_a_correction_before_the_next_round_moves_the_winner():
    cup = make_cup(4)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    top, bottom = _ties(cup, 1)
    play(top.fixture, HOME_WINS, by=admin)
    play(bottom.fixture, HOME_WINS, by=admin)
    final = _ties(cup, 2)[0]
    assert final.home_id == top.home_id
    play(top.fixture, AWAY_WINS, by=admin, based_on=1)
    final.refresh_from_db()
    assert final.home_id == top.away_id
    assert final.fixture.home_team_id == top.away_id
    assert final.fixture.venue_id == top.away.home_venue_id


def test_a_correction_after_the_next_round_was_played_is_refused():
    cup = make_cup(4)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    top, bottom = _ties(cup, 1)
    play(top.fixture, HOME_WINS, by=admin)
    play(bottom.fixture, HOME_WINS, by=admin)
    final = _ties(cup, 2)[0]
    play(final.fixture, HOME_WINS, by=admin)
    with pytest.raises(TieAlreadyPlayed):
        play(top.fixture, AWAY_WINS, by=admin, based_on=1)
    assert top.fixture.result_versions.count() == 1  # the correction was not written
    final.refresh_from_db()
    assert final.home_id == top.home_id


def test_a_drawn_korova_tie_goes_to_fewer_heads_in_the_last_round():
    cup = make_cup(2)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    (final,) = _ties(cup, 1)
    version = play(final.fixture, DRAWN_HOME_LAST, by=admin)
    assert version.winner == "draw"
    final.refresh_from_db()
    assert final.winner_id == final.home_id


def test_a_tie_level_in_every_round_waits_for_its_decider_from_venue_staff():
    cup = make_cup(4)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    top, _ = _ties(cup, 1)
    play(top.fixture, LEVEL_EVERY_ROUND, by=admin)
    top.refresh_from_db()
    assert top.winner_id is None
    stranger = StaffMembershipFactory().user
    with pytest.raises(Forbidden):
        cup_tie_decider_record(tie_id=top.pk, side="away", note="", by=stranger)
    staff = StaffMembershipFactory(venue=top.fixture.venue).user
    with pytest.raises(Invalid):
        cup_tie_decider_record(tie_id=top.pk, side="nobody", note="", by=staff)
    cup_tie_decider_record(tie_id=top.pk, side="away", note="One more round: 12 v 30", by=staff)
    top.refresh_from_db()
    assert top.winner_id == top.away_id and top.decider_by == staff
    assert _ties(cup, 2)[0].home_id == top.away_id


def _drawn_sheet(game, fixture):
    if game == Game.CONVOY:  # a best of one, stalemated
        return {"games": [{"winner": "stalemate", "convoys": {"home": 1, "away": 1}}]}
    home, away = (
        [m.player_id for m in team.members.order_by("position")]
        for team in (fixture.home_team, fixture.away_team)
    )
    return {  # a single each, 5 deal points each
        "singles": [
            {"home_player": home[0], "away_player": away[0], "deals": ["home"] * 5},
            {"home_player": home[1], "away_player": away[1], "deals": ["away"] * 5},
        ]
    }


@pytest.mark.parametrize("game", [Game.CONQUIAN, Game.CONVOY])
def test_conquian_and_convoy_drawn_ties_go_to_the_deciders_winner(game):
    cup = make_cup(2, game=game)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    (final,) = _ties(cup, 1)
    with pytest.raises(Conflict, match="result first"):
        cup_tie_decider_record(tie_id=final.pk, side="home", note="", by=admin)
    version = result_submit(
        fixture_id=final.fixture_id,
        sheet=_drawn_sheet(game, final.fixture),
        based_on_version=0,
        by=admin,
    )
    assert version.winner == "draw"
    final.refresh_from_db()
    assert final.winner_id is None
    cup_tie_decider_record(tie_id=final.pk, side="away", note="Deciding single 5-2", by=admin)
    final.refresh_from_db()
    assert final.winner_id == final.away_id and final.decider_note == "Deciding single 5-2"
    # entered again, the decider replaces the first
    cup_tie_decider_record(tie_id=final.pk, side="home", note="Entered wrongly before", by=admin)
    final.refresh_from_db()
    assert final.winner_id == final.home_id


def test_a_tie_with_a_winner_needs_no_decider():
    cup = make_cup(2)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    (final,) = _ties(cup, 1)
    play(final.fixture, HOME_WINS, by=admin)
    with pytest.raises(Conflict, match="no decider"):
        cup_tie_decider_record(tie_id=final.pk, side="away", note="", by=admin)
    final.refresh_from_db()
    assert final.winner_id == final.home_id and final.decider == ""


def test_the_plate_is_drawn_from_the_first_rounds_losers_when_the_round_is_complete():
    cup = make_cup(6, with_plate=True)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at(), rng=random.Random(3))
    played = [tie for tie in _ties(cup, 1) if not tie.bye]
    play(played[0].fixture, HOME_WINS, by=admin)
    assert not Cup.objects.filter(plate_of=cup).exists()
    play(played[1].fixture, AWAY_WINS, by=admin)
    plate = Cup.objects.get(plate_of=cup)
    assert set(plate.teams.values_list("pk", flat=True)) == {played[0].away_id, played[1].home_id}
    assert plate.drawn_at is not None and plate.season_id == cup.season_id
    (plate_final,) = _ties(plate, 1)
    assert plate_final.fixture.starts_at == cup.rounds.get(number=2).starts_at


def test_a_correction_after_the_plate_draw_swaps_the_loser_in_the_plate():
    cup = make_cup(4, with_plate=True)
    admin = admin_user()
    cup_draw(cup_id=cup.pk, by=admin, first_round_at=first_round_at())
    top, bottom = _ties(cup, 1)
    play(top.fixture, HOME_WINS, by=admin)
    play(bottom.fixture, HOME_WINS, by=admin)
    plate = Cup.objects.get(plate_of=cup)
    play(top.fixture, AWAY_WINS, by=admin, based_on=1)
    assert set(plate.teams.values_list("pk", flat=True)) == {top.home_id, bottom.away_id}
    (plate_final,) = _ties(plate, 1)
    assert top.home_id in (plate_final.fixture.home_team_id, plate_final.fixture.away_team_id)


def test_staff_enter_a_tie_result_only_at_their_venue():
    cup = make_cup(2)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    (final,) = _ties(cup, 1)
    other = StaffMembershipFactory().user
    with pytest.raises(PermissionDenied):
        play(final.fixture, HOME_WINS, by=other)
    staff = StaffMembershipFactory(venue=final.fixture.venue).user
    final.fixture.starts_at = first_round_at()
    play(final.fixture, HOME_WINS, by=staff)
    final.refresh_from_db()
    assert final.winner_id == final.home_id


def test_a_user_who_is_not_staff_cannot_enter_a_decider():
    cup = make_cup(2)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    (final,) = _ties(cup, 1)
    with pytest.raises(Forbidden):
        cup_tie_decider_record(tie_id=final.pk, side="home", note="", by=UserFactory())
