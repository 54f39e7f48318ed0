"""Phone play at 390 × 844 (issue 17, item 6)."""

import pytest
from django.urls import reverse

from tests.browser.play import keep_screenshot
from tests.browser.test_play_on_a_phone import seated_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_measure(live_server, phones):
    table, users = seated_table("convoy", 2)
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    for sel in ["header", ".turn-bar", ".seats", ".convoy-sides", ".convoy-board", ".hand-title", "[data-hand]", ".actions", "#paused", ".fair-clocks"]:
        loc = page.locator(sel).first
        print(sel, loc.count() and loc.bounding_box())
    keep_screenshot(page, "measure")
    assert False
