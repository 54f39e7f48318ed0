"""The Content-Security-Policy holds and the pages still work under it: a public page, the
staff entry page with its htmx totals, Swagger UI at /api/docs/, the how-to-play pages and a
replay playing on its own, in chromium, with no CSP violation reported."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.play import keep_screenshot
from tests.factories import (
    PASSWORD,
    UserFactory,
)
from tests.games.live.playing import finished_conquian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs before any script of the page; records what the browser refused.
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.fixture
def watched(phone):
    """The phone page, with CSP violations and console complaints about the policy recorded."""
    complaints = []
    phone.on(
        "console",
        lambda message: (
            complaints.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    phone.add_init_script(WATCH_VIOLATIONS)
    phone.complaints = complaints
    return phone


def violations(page) -> list[str]:
    return [*page.evaluate("window.__cspViolations"), *page.complaints]


def test_public_and_staff_pages_work_with_no_csp_violation(
    live_server, watched, cow_league_fixture
):
    season, korova_fixture, _ = cow_league_fixture
    page = watched
    response = page.goto(
        live_server.url + reverse("season-detail", args=[season.league.slug, season.slug])
    )
    assert "default-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("table.standings")).to_contain_text("Night Owls")
    assert violations(page) == []

    page.goto(live_server.url + reverse("staff-home"))
    page.get_by_label("Username").fill("barkeep")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.wait_for_url(live_server.url + reverse("staff-home"))
    page.goto(live_server.url + reverse("result-entry", args=[korova_fixture.pk]))
    for player, heads in zip(["Ann", "Bea", "Cy", "Dot"], [8, 3, 12, 6], strict=True):
        page.get_by_label(f"Round 1, {player}").fill(str(heads))
    expect(page.locator("#home-total")).to_have_text("11")  # htmx redrew the totals
    assert violations(page) == []


def test_swagger_ui_works_with_no_csp_violation(live_server, watched):
    page = watched
    page.goto(live_server.url + "/api/docs/")
    expect(page.locator(".opblock").first).to_be_visible()
    expect(page.locator(".information-container")).to_contain_text("Roundel API")
    page.locator(".opblock-summary").filter(has_text="/api/leagues/").first.click()
    expect(page.locator(".opblock-body").first).to_be_visible()
    assert violations(page) == []


@pytest.mark.parametrize("game", ["convoy", "korova", "conquian"])
def test_how_to_play_pages_show_with_no_csp_violation_on_a_phone(live_server, watched, game):
    """Each page at 390 × 844, its screenshot kept in test-results/how-to-play-<game>.png."""
    page = watched
    page.goto(live_server.url + reverse("how-to-play", args=[game]))
    expect(page.locator("h1")).to_contain_text("How to play")
    expect(page.locator("figure").first).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing runs off a phone's screen sideways
    keep_screenshot(page, f"how-to-play-{game}")
    assert violations(page) == []


def test_a_replay_plays_on_its_own_with_no_csp_violation(live_server, watched):
    users = [UserFactory(username=f"csp{n}", first_name=f"Cass{n}") for n in range(2)]
    table = finished_conquian(users)
    page = watched
    page.goto(live_server.url + reverse("table-replay", args=[table.pk]))
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#replay-position")).to_contain_text("Move 1 of", timeout=5_000)
    page.get_by_role("button", name="Pause", exact=True).click()
    assert violations(page) == []
