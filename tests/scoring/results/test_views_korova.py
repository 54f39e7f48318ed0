"""Staff pages: the Корова result-entry sheet (grid, running totals, saving, refusals, rounds)."""

import re

import pytest
from django.urls import reverse

from leagues.models import Fixture
from scoring.models import ResultVersion
from tests.scoring.results.staff_sheets import FULL_GAME, HTMX, entry_url, korova_post, player_ids

pytestmark = pytest.mark.django_db


# --- Корова sheet ----------------------------------------------------------------------------


def test_the_korova_sheet_shows_the_four_players_and_a_numeric_grid(staff_client, korova):
    response = staff_client.get(entry_url(korova))

    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Ann", "Bea", "Cy", "Dot"):
        assert name in html
    assert 'name="rounds.0.3"' in html
    assert 'inputmode="numeric"' in html
    assert re.search(r'name="based_on_version" value="0"', html)
    assert 'hx-trigger="input changed delay:300ms"' in html


def test_typing_redraws_only_the_running_totals(staff_client, korova):
    data = korova_post([[20, 5, 10, 5], [20, 5, 10, ""]], action="preview")

    response = staff_client.post(entry_url(korova), data, **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="korova-totals"')
    assert "<html" not in html
    assert 'id="home-total"><strong>50</strong>' in html
    assert 'id="away-total"><strong>25</strong>' in html
    assert "nobody has reached 66 yet" in html


def test_the_totals_show_the_end_of_the_game_the_winner_and_league_points(staff_client, korova):
    response = staff_client.post(
        entry_url(korova), korova_post(FULL_GAME, action="preview"), **HTMX
    )

    html = response.content.decode()
    assert "Game over in round 4: Ann reached 66" in html
    assert f"{korova.away_team.name} win" in html
    assert f"League points: {korova.home_team.name} 0, {korova.away_team.name} 3" in html
    assert 'value="add_round"' not in html  # no round after the end


def test_the_preview_shows_an_unreadable_cell_beside_it_as_save_would(staff_client, korova):
    response = staff_client.post(
        entry_url(korova), korova_post([[20, "x7", 10, 5]], action="preview"), **HTMX
    )

    assert response.status_code == 200
    html = response.content.decode()
    slot = re.search(r'<span[^>]*id="err-rounds-0-1"[^>]*hx-swap-oob="true"[^>]*>([^<]*)<', html)
    assert "must be a whole number, not &#x27;x7&#x27;" in slot.group(1)


def test_saving_a_whole_sheet_creates_version_one_and_goes_to_the_fixture(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, note="Good game"))

    assert response.status_code == 302
    assert response.url == reverse("fixture-detail", args=[korova.pk])
    version = ResultVersion.objects.get(fixture=korova)
    assert (version.number, version.home_score, version.away_score) == (1, 100, 60)
    assert version.sheet == {"players": player_ids(korova), "rounds": FULL_GAME}
    assert version.note == "Good game"
    assert version.lineup == {
        "home": player_ids(korova)[:2],
        "away": player_ids(korova)[2:],
        "substitutes": [],
    }
    korova.refresh_from_db()
    assert korova.status == Fixture.Status.PLAYED


def test_the_success_message_follows_the_redirect(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME), follow=True)

    assert "Result saved" in response.content.decode()


def test_a_round_after_the_end_is_refused_next_to_that_round(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME + [[1, 1, 20, 5]]))

    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="errors-5"' in html
    assert "Round 5 comes after the game ended" in html
    assert not ResultVersion.objects.exists()


def test_an_unfinished_sheet_is_refused_in_plain_words(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME[:2]))

    assert response.status_code == 400
    assert "The game is not finished" in response.content.decode()
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("abc", "must be a whole number"),
        ("-3", "cannot take fewer than 0"),
        ("", "enter the heads"),
        ("999", "the deck holds only"),
    ],
)
def test_a_bad_cell_is_refused_beside_it_and_kept_in_the_form(staff_client, korova, cell, message):
    rounds = [list(row) for row in FULL_GAME]
    rounds[1][2] = cell

    response = staff_client.post(entry_url(korova), korova_post(rounds))

    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    cell_input = re.search(r'<input[^>]*name="rounds\.1\.2"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in cell_input
    assert f'value="{cell}"' in cell_input
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize("based_on", ["", "x", "-1", "1e9999"])
def test_a_tampered_version_marker_is_refused_without_a_500(staff_client, korova, based_on):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, based_on=based_on))

    assert response.status_code == 400
    assert "reload the page" in response.content.decode()
    assert not ResultVersion.objects.exists()


def test_tampered_grid_names_are_ignored_without_a_500(staff_client, korova):
    data = korova_post(FULL_GAME)
    data.update({"rounds.99999.0": "5", "rounds.0.9": "5", "players.0": "1", "rounds.x.0": "1"})

    response = staff_client.post(entry_url(korova), data)

    assert response.status_code == 302
    assert ResultVersion.objects.get().sheet["rounds"] == FULL_GAME


def test_an_unknown_action_is_a_bad_request_that_keeps_the_input(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, action="explode"))

    assert response.status_code == 400
    assert 'name="rounds.3.0"' in response.content.decode()
    assert not ResultVersion.objects.exists()


def test_a_note_that_is_too_long_is_refused_beside_it(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, note="x" * 300))

    assert response.status_code == 400
    assert "Keep the note to 250 characters" in response.content.decode()


def test_add_round_adds_an_empty_round_and_keeps_what_was_typed(staff_client, korova):
    data = korova_post([[20, 5, 10, 5]], action="add_round")

    response = staff_client.post(entry_url(korova), data)

    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'name="rounds\.0\.0"[^>]*value="20"', html)
    assert re.search(r'name="rounds\.1\.0"[^>]*value=""[^>]*autofocus', html, re.S)
    assert not ResultVersion.objects.exists()


def test_add_round_is_refused_after_the_end_of_the_game(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, action="add_round"))

    html = response.content.decode()
    assert "The game ended in round 4" in html
    assert 'name="rounds.4.0"' not in html


def test_remove_round_drops_the_last_round(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, action="remove_round"))

    html = response.content.decode()
    assert 'name="rounds.2.0"' in html
    assert 'name="rounds.3.0"' not in html


def test_a_correction_loads_the_saved_sheet_and_saves_version_two(staff_client, korova):
    staff_client.post(entry_url(korova), korova_post(FULL_GAME))

    page = staff_client.get(entry_url(korova)).content.decode()
    assert re.search(r'name="based_on_version" value="1"', page)
    assert re.search(r'name="rounds\.3\.0"[^>]*value="20"', page)

    response = staff_client.post(entry_url(korova), korova_post([[5, 5, 20, 10]] * 4, based_on=1))

    assert response.status_code == 302
    assert list(
        ResultVersion.objects.order_by("number").values_list("number", "is_current", "winner")
    ) == [(1, False, "away"), (2, True, "home")]
