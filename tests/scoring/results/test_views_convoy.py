"""Staff pages: the Convoy result-entry sheet (best-of games, saving, refusals, the summary)."""

import re

import pytest

from leagues.models import Game
from scoring.models import ResultVersion
from tests.scoring.results.staff_sheets import HTMX, entry_url, make_fixture, staff_of

pytestmark = pytest.mark.django_db


# --- Convoy ------------------------------------------------------------------------------


@pytest.fixture
def convoy():
    return make_fixture(Game.CONVOY, fixture_format={"games": 3})


def convoy_post(games, based_on=0, **extra):
    data = {"based_on_version": str(based_on), "action": "save"}
    for index, (winner, home, away) in enumerate(games):
        if winner:
            data[f"games.{index}.winner"] = winner
        data[f"games.{index}.convoys.home"] = str(home)
        data[f"games.{index}.convoys.away"] = str(away)
    data.update(extra)
    return data


def test_the_convoy_sheet_has_a_block_per_game_of_the_best_of(client, convoy):
    client.force_login(staff_of(convoy))

    html = client.get(entry_url(convoy)).content.decode()

    assert "Best of 3" in html
    for index in range(3):
        assert f'name="games.{index}.winner"' in html
    assert 'name="games.3.winner"' not in html


def test_a_convoy_best_of_three_is_saved_without_the_unneeded_game(client, convoy):
    client.force_login(staff_of(convoy))

    response = client.post(
        entry_url(convoy), convoy_post([("home", 3, 1), ("home", 3, 2), ("", "", "")])
    )

    assert response.status_code == 302
    version = ResultVersion.objects.get()
    assert len(version.sheet["games"]) == 2
    assert (version.home_score, version.away_score, version.winner) == (6, 3, "home")


def test_a_winner_without_three_convoys_is_refused_beside_the_count(client, convoy):
    client.force_login(staff_of(convoy))

    response = client.post(entry_url(convoy), convoy_post([("home", 2, 2), ("home", 3, 0)]))

    assert response.status_code == 400
    html = response.content.decode()
    count = re.search(r'<input[^>]*name="games\.0\.convoys\.home"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in count
    assert f"Game 1: {convoy.home_team.name} won" in html


def test_the_convoy_summary_shows_the_outcome_before_saving(client, convoy):
    client.force_login(staff_of(convoy))

    response = client.post(
        entry_url(convoy),
        convoy_post([("away", 1, 3), ("away", 0, 3)], action="preview"),
        **HTMX,
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="convoy-summary"')
    assert f"{convoy.away_team.name} win" in html
    assert f"League points: {convoy.home_team.name} 0, {convoy.away_team.name} 3" in html
