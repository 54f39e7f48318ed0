"""A season of two divisions on a 390 px phone: both tables, their coloured zones and legend,
and the points deduction's note, with nothing running off the screen sideways."""

import datetime

import pytest
from django.urls import reverse

from scoring.season_rules.services import points_adjustment_add
from tests.browser.play import check_no_sideways_scroll
from tests.scoring.division_builders import two_divisions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_division_tables_with_zones_and_a_deduction_read_on_a_phone(live_server, phone):
    world = two_divisions()
    points_adjustment_add(
        season_id=world.season.pk,
        team_id=world.second_teams[0].pk,
        points=-2,
        reason="Result sheet sent in a week late, with a long reason that has to wrap",
        on=datetime.date(2026, 11, 1),
        by=None,
    )
    args = [world.season.league.slug, world.season.slug]
    phone.goto(live_server.url + reverse("season-detail", args=args))
    promotion = phone.locator("tr.zone-promotion")
    relegation = phone.locator("tr.zone-relegation")
    assert promotion.count() == 1 and relegation.count() == 1
    # The bands are coloured: the promotion row's tint is not the plain rows'.
    tint = promotion.evaluate("row => getComputedStyle(row).backgroundColor")
    plain = phone.locator("tr:not([class])").last.evaluate(
        "row => getComputedStyle(row).backgroundColor"
    )
    assert tint != plain
    assert phone.locator(".zone-legend li").count() == 2
    assert phone.get_by_text("Result sheet sent in a week late").is_visible()
    check_no_sideways_scroll(phone)
