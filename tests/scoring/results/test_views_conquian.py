"""Staff pages: the Conquian result-entry sheet (singles, deals, saving, refusals)."""

import re

import pytest

from leagues.models import Game
from scoring.models import ResultVersion
from tests.scoring.results.staff_sheets import HTMX, entry_url, make_fixture, staff_of

pytestmark = pytest.mark.django_db


# --- Conquian ----------------------------------------------------------------------------


def conquian_post(deals_0, deals_1, based_on=0, **extra):
    data = {"based_on_version": str(based_on), "action": "save"}
    for single, deals in enumerate((deals_0, deals_1)):
        for index, deal in enumerate(deals):
            data[f"singles.{single}.deals.{index}"] = deal
    data.update(extra)
    return data


@pytest.fixture
def conquian():
    return make_fixture(Game.CONQUIAN)


def test_the_conquian_sheet_pairs_home_one_with_away_one(client, conquian):
    client.force_login(staff_of(conquian))

    html = client.get(entry_url(conquian)).content.decode()

    assert "Single 1: Ann v Cy" in html
    assert "Single 2: Bea v Dot" in html
    assert 'value="add:0:home"' in html


def test_adding_a_drawn_deal_shows_the_next_deal_doubled(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["draw"], [], action="add:0:draw"), **HTMX
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="conquian-singles"')
    assert 'name="singles.0.deals.1"' in html
    assert "next deal worth 4" in html  # two drawn deals in a row: 1 → 2 → 4


def test_a_finished_single_takes_no_more_deals(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["home"] * 5, [], action="add:0:home")
    )

    html = response.content.decode()
    assert "Single 1 is over" in html
    assert 'name="singles.0.deals.5"' not in html
    assert "Ann won the single" in html


def test_undo_removes_the_last_deal(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["home", "away"], [], action="undo:0"), **HTMX
    )

    html = response.content.decode()
    assert 'name="singles.0.deals.0"' in html
    assert 'name="singles.0.deals.1"' not in html


def test_saving_a_conquian_sheet_and_a_deal_after_the_target(client, conquian):
    client.force_login(staff_of(conquian))

    refused = client.post(entry_url(conquian), conquian_post(["home"] * 6, ["away"] * 5))
    assert refused.status_code == 400
    assert "Deal 6 comes after the single was won" in refused.content.decode()
    assert not ResultVersion.objects.exists()

    saved = client.post(entry_url(conquian), conquian_post(["home"] * 5, ["draw"] + ["away"] * 4))
    assert saved.status_code == 302
    version = ResultVersion.objects.get()
    assert (version.home_score, version.away_score, version.winner) == (5, 5, "draw")


def test_a_tampered_deal_is_refused_beside_it(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["home", "sideways"] + ["home"] * 4, ["away"] * 5)
    )

    assert response.status_code == 400
    html = response.content.decode()
    select = re.search(r'<select[^>]*name="singles\.0\.deals\.1"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in select
    home, away = conquian.home_team, conquian.away_team
    assert "must be won by" in html and "or drawn; not &#x27;sideways&#x27;" in html
    assert "home or away" not in html and (home.name in html and away.name in html)
