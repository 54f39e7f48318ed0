"""A replay plays through on its own on a 390 × 844 phone: Play steps forward once a second
with the address following, Pause stops it, both from the keyboard with the focus kept on the
button; without JavaScript the button is not there and the step links are the way through."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.play import keep_screenshot
from tests.factories import UserFactory
from tests.games.live.playing import finished_conquian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shown_step(page) -> int:
    position = page.locator("#replay-position").inner_text()
    found = re.search(r"Move (\d+) of", position)
    return int(found.group(1)) if found else 0


def test_play_steps_the_replay_on_its_own_and_pause_stops_it(live_server, phone):
    users = [UserFactory(username=f"rp{n}", first_name=f"Remy{n}") for n in range(2)]
    table = finished_conquian(users)
    page = phone
    replay_url = live_server.url + reverse("table-replay", args=[table.pk])
    page.goto(replay_url)
    expect(page.locator("#replay-position")).to_contain_text("before the first move")

    play = page.get_by_role("button", name="Play", exact=True)
    play.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#replay-position")).to_contain_text("Move 1 of", timeout=5_000)
    expect(page.locator("#replay-position")).to_contain_text("Move 2 of", timeout=5_000)
    assert page.url == replay_url + "?step=2"  # the address names the step shown
    # The step part was redrawn under the focus: it is back on the button, now "Pause".
    expect(page.locator("#replay-play")).to_be_focused()
    expect(page.locator("#replay-play")).to_have_accessible_name("Pause")

    page.keyboard.press("Space")
    expect(page.locator("#replay-play")).to_have_accessible_name("Play")
    page.wait_for_load_state("networkidle")
    paused_at = shown_step(page)
    page.wait_for_timeout(2_500)
    assert shown_step(page) == paused_at
    assert page.url == replay_url + f"?step={paused_at}"
    keep_screenshot(page, "replay-paused")

    # The steps were replaced in the history, not pushed: Back leaves the replay.
    page.go_back()
    assert not page.url.startswith(replay_url)


def test_the_step_links_still_play_the_replay_without_javascript(live_server, chromium):
    users = [UserFactory(username=f"nj{n}", first_name=f"Nia{n}") for n in range(2)]
    table = finished_conquian(users)
    context = chromium.new_context(
        java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    try:
        page = context.new_page()
        page.goto(live_server.url + reverse("table-replay", args=[table.pk]))
        expect(page.locator("#replay-play")).to_be_hidden()
        page.locator("#replay-forward").click()
        expect(page.locator("#replay-position")).to_contain_text("Move 1 of")
        assert page.url.endswith("?step=1")
    finally:
        context.close()
