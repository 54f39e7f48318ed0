"""Who played: a reserve in a player's place, recorded in the result's lineup (on PostgreSQL)."""

import pytest

from config.errors import Invalid
from leagues.models import Eligibility, Game, TeamMember
from scoring.kinds import SheetInvalid
from scoring.results.selectors import lineup_places
from scoring.results.services import result_submit
from tests.factories import PlayerFactory
from tests.scoring.squads import CONVOY_SHEET, conquian_sheet, korova_sheet, make_squads

pytestmark = pytest.mark.django_db


def test_a_reserve_named_on_the_sheet_is_recorded_as_a_substitute_in_the_absent_players_place():
    squads = make_squads(Game.KOROVA)
    reserve = squads.reserve(0)
    home = squads.players(0)
    away = squads.players(1)

    version = result_submit(
        fixture_id=squads.fixture.pk,
        sheet=korova_sheet([home[0], reserve.pk], away),
        based_on_version=0,
        by=squads.staff,
    )

    assert version.lineup == {
        "home": [home[0], reserve.pk],
        "away": away,
        "substitutes": [reserve.pk],
    }
    assert lineup_places(version=version) == [
        {"team": squads.teams[0].pk, "player": home[0], "substitute": False},
        {"team": squads.teams[0].pk, "player": reserve.pk, "substitute": True},
        {"team": squads.teams[1].pk, "player": away[0], "substitute": False},
        {"team": squads.teams[1].pk, "player": away[1], "substitute": False},
    ]


def test_a_conquian_substitute_takes_the_absent_players_single_and_position():
    squads = make_squads(Game.CONQUIAN)
    reserve = squads.reserve(1)
    home, away = squads.players(0), squads.players(1)

    version = result_submit(
        fixture_id=squads.fixture.pk,
        sheet=conquian_sheet(home, [reserve.pk, away[1]]),
        based_on_version=0,
        by=squads.staff,
    )

    assert version.lineup["away"] == [reserve.pk, away[1]]
    assert version.lineup["substitutes"] == [reserve.pk]


def test_a_convoy_lineup_is_chosen_apart_from_the_sheet():
    squads = make_squads(Game.CONVOY)
    reserve = squads.reserve(0)
    home, away = squads.players(0), squads.players(1)

    version = result_submit(
        fixture_id=squads.fixture.pk,
        sheet=CONVOY_SHEET,
        based_on_version=0,
        by=squads.staff,
        lineup={"home": [reserve.pk, home[1]], "away": away},
    )

    assert version.lineup == {
        "home": [reserve.pk, home[1]],
        "away": away,
        "substitutes": [reserve.pk],
    }


def test_without_a_lineup_convoy_records_the_teams_two():
    squads = make_squads(Game.CONVOY)

    version = result_submit(
        fixture_id=squads.fixture.pk, sheet=CONVOY_SHEET, based_on_version=0, by=squads.staff
    )

    assert version.lineup["home"] == squads.players(0)
    assert version.lineup["substitutes"] == []


def test_someone_outside_the_squad_cannot_play_and_nothing_is_written():
    squads = make_squads(Game.KOROVA)
    stranger = PlayerFactory(name="Stan Stranger")
    home, away = squads.players(0), squads.players(1)

    with pytest.raises(SheetInvalid) as refused:
        result_submit(
            fixture_id=squads.fixture.pk,
            sheet=korova_sheet([home[0], stranger.pk], away),
            based_on_version=0,
            by=squads.staff,
        )

    assert "Stan Stranger does not play for" in str(refused.value.errors)
    assert not squads.fixture.result_versions.exists()


def test_a_chosen_lineup_outside_the_squad_is_refused_on_lineup():
    squads = make_squads(Game.CONVOY)
    stranger = PlayerFactory()

    with pytest.raises(Invalid) as refused:
        result_submit(
            fixture_id=squads.fixture.pk,
            sheet=CONVOY_SHEET,
            based_on_version=0,
            by=squads.staff,
            lineup={"home": [stranger.pk, squads.players(0)[1]], "away": squads.players(1)},
        )

    assert list(refused.value.errors) == ["lineup"]
    assert "squad" in refused.value.errors["lineup"][0]
    assert not squads.fixture.result_versions.exists()


def test_under_the_limited_rule_a_player_of_another_team_stands_in_up_to_the_limit():
    squads = make_squads(Game.CONVOY, teams=3, eligibility=Eligibility.LIMITED, appearance_limit=1)
    # Team 2's player 1 is registered as a reserve of team 0 (allowed under "limited").
    borrowed = TeamMember.objects.get(team=squads.teams[2], position=1).player
    squads.entries[0].reserves.create(player=borrowed)
    home, away = squads.players(0), squads.players(1)
    lineup = {"home": [borrowed.pk, home[1]], "away": away}
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=CONVOY_SHEET,
        based_on_version=0,
        by=squads.staff,
        lineup=lineup,
    )
    second = squads.fixture_between(1, 0, round=2)

    with pytest.raises(Invalid) as refused:
        result_submit(
            fixture_id=second.pk,
            sheet=CONVOY_SHEET,
            based_on_version=0,
            by=squads.staff,
            lineup={"home": away, "away": [borrowed.pk, home[1]]},
        )

    assert "allows 1" in refused.value.errors["lineup"][0]
    assert not second.result_versions.exists()
