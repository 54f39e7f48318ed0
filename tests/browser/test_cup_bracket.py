"""The cup's bracket on a 390 × 844 phone: the page never scrolls sideways, the rounds
scroll inside their own box, the last round can be reached by scrolling it, and axe-core
finds no violation."""

import os
import random

import pytest
from playwright.sync_api import expect

from leagues.models import CupTie
from scoring.cups.services import cup_draw
from tests.browser.axe import axe_violations, describe
from tests.browser.play import check_no_sideways_scroll
from tests.scoring.cups.cups import HOME_WINS, admin_user, first_round_at, make_cup, play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = os.environ.get("CUP_BRACKET_SCREENSHOT")


def test_the_bracket_reads_on_a_phone_without_sideways_scroll(live_server, phone):
    cup = make_cup(
        6,
        with_plate=True,
        names=[
            "The Extraordinarily Long-Named Roundheads",
            "Full Convoy",
            "Sixth Cow",
            "Open Card",
            "Dead Pile",
            "Penalty Heads of the Red Lion",
        ],
    )
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at(), rng=random.Random(4))
    admin = admin_user()
    for tie in CupTie.objects.filter(round__cup=cup, round__number=1, bye=False):
        play(tie.fixture, HOME_WINS, by=admin)
    season = cup.season
    phone.goto(f"{live_server.url}/leagues/{season.league.slug}/{season.slug}/cups/{cup.slug}/")

    expect(phone.locator(".bracket-round h3").first).to_contain_text("Quarter-finals")
    expect(phone.locator(".bracket-tie.bye").first).to_contain_text("bye")
    check_no_sideways_scroll(phone)
    if SCREENSHOT:
        phone.screenshot(path=SCREENSHOT, full_page=True)
    bracket = phone.locator(".bracket")
    assert bracket.evaluate("box => box.scrollWidth > box.clientWidth")  # it scrolls itself
    final = phone.locator(".bracket-round h3").last
    expect(final).to_contain_text("Final")
    final.scroll_into_view_if_needed()
    expect(final).to_be_in_viewport()
    check_no_sideways_scroll(phone)
    expect(phone.get_by_role("link", name="Knockout Cup Plate")).to_be_visible()
    violations = axe_violations(phone)
    assert not violations, describe(violations)
