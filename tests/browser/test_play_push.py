"""Two phones at one Корова table see each other's moves through the table's event stream, which
brings each page its own live part (the fallback poll is set to ten minutes, and no page
fetches), and keyboard focus stays on the card it was on when the page updates."""

import json
import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.live import selectors, services
from games.models import TableMove
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def ada_and_bea_at_a_korova_table():
    """Ada and Bea seated at a Корова table of ten-minute turns (no clock runs out in a test):
    (ada, bea, table)."""
    ada = UserFactory(username="ada", first_name="Ada", last_name="Finch")
    bea = UserFactory(username="bea", first_name="Bea", last_name="Stone")
    table = services.table_create(
        game="korova", players=2, options={"turn_seconds": 600}, bots=[], by=ada
    )
    services.table_join(table_id=table.pk, by=bea)
    return ada, bea, table


def test_two_phones_see_each_others_moves_pushed_and_focus_stays_put(
    live_server, phones, settings, monkeypatch
):
    settings.GAMES_FALLBACK_POLL_SECONDS = 600  # a page that relied on polling would not update
    # A deal where the cards played below go on rows: nobody has a row to choose in turn 1.
    monkeypatch.setattr("games.live.services.new_seed", lambda: 1)
    ada = UserFactory(username="ada", first_name="Ada", last_name="Finch")
    bea = UserFactory(username="bea", first_name="Bea", last_name="Stone")
    table = services.table_create(
        game="korova", players=2, options={"turn_seconds": 600}, bots=[], by=ada
    )
    ada_page, bea_page = phones(ada), phones(bea)
    bea_page.add_init_script(RECORD_FOCUS)
    url = live_server.url + reverse("table-detail", args=[table.pk])
    ada_page.goto(url)
    bea_page.goto(url)
    requests: list[str] = []
    bea_page.on("request", lambda request: requests.append(request.url))
    expect(ada_page.locator("#table-live")).to_contain_text("Waiting for players")

    # Bea takes the seat by the form (a page load of her own); Ada's page deals without a reload.
    # (Until the new page has loaded, the old one may show her hand too, pushed to its stream:
    # a card focused there would be gone with it.)
    with bea_page.expect_navigation():
        bea_page.get_by_role("button", name="Take a seat").tap()
    expect(ada_page.locator("#table-live [data-hand] [data-card]").first).to_be_visible(
        timeout=5_000
    )

    # Bea's keyboard is on the third card of her hand when Ada puts a card down.
    bea_hand = bea_page.locator("#table-live [data-hand] [data-card]")
    expect(bea_hand.first).to_be_visible()
    bea_card = bea_hand.nth(2).get_attribute("data-card")
    bea_hand.nth(2).focus()
    requests.clear()

    ada_page.locator("#table-live [data-hand] [data-card]").first.tap()
    tapped = time.monotonic()
    ada_page.locator(".actions button[data-template]").first.tap()
    expect(bea_page.locator("#table-live .recent-moves")).to_contain_text(
        "put a card down", timeout=5_000
    )
    shown_after = time.monotonic() - tapped
    assert shown_after < 3, shown_after
    assert bea_page.evaluate("document.activeElement.dataset.card") == bea_card, (
        bea_page.evaluate("document.activeElement.outerHTML")  # where the focus went, if not
    )
    # Bea's page asked for nothing: the change came in the event with her live part, drawn
    # for her seat (and no timer fetched it either)
    fetched = [url for url in requests if url.rstrip("/").endswith(str(table.pk))]
    assert fetched == [], requests

    # Bea plays by keyboard: her card, then Enter on "put it down"; both pages show the turn
    # revealed, and once Bea's page has drawn it (her answer and the pushed change, in either
    # order) her focus is on the card before the button she pressed (disabled until she picks
    # again), not thrown to the top of the page nor on to "Ask for a pause", which a second
    # Enter would press.
    bea_page.keyboard.press("Enter")
    bea_page.locator(".actions button[data-template]").first.focus()
    bea_page.keyboard.press("Enter")
    for page in (ada_page, bea_page):
        expect(page.locator("#table-live [data-turn]")).not_to_have_attribute(
            "data-turn", "1", timeout=5_000
        )
    # (A locator's expectation, not wait_for_function: a polled predicate is evaluated from
    # a string, which the site's Content-Security-Policy refuses.)
    in_hand = bea_page.locator("#table-live [data-hand] [data-card]:focus")
    try:
        expect(in_hand).to_have_count(1, timeout=5_000)
    except AssertionError as error:  # where the focus went, and how, says why
        raise AssertionError(
            bea_page.evaluate("document.activeElement.outerHTML"),
            bea_page.evaluate("() => window.focusLog"),
        ) from error


# What happened to the focus and the live part, in order, from the page's start: a failure of
# the focus check above shows it (an init script runs before the page's own).
RECORD_FOCUS = """
window.focusLog = [];
const described = (element) => element && element.nodeType === 1
  ? element.tagName + (element.dataset.card ? "#" + element.dataset.card : "")
    + (element.dataset.template ? "[template]" : "") + (element.disabled ? ":disabled" : "")
    + (document.contains(element) ? "" : ":gone")
  : String(element);
const logged = (what, element) => window.focusLog.push(
  [Math.round(performance.now()), what, described(element), described(document.activeElement)]
);
["focusin", "focusout"].forEach((type) =>
  document.addEventListener(type, (event) => logged(type, event.target), true));
["htmx:beforeRequest", "htmx:afterSwap", "htmx:afterRequest", "htmx:afterSettle"].forEach(
  (type) => document.addEventListener(type, (event) => logged(type, event.detail.elt)));
document.addEventListener("DOMContentLoaded", () => {
  const added = (records) =>
    records.some((record) => Array.from(record.addedNodes).some((node) => node.nodeType === 1));
  new MutationObserver((records) => added(records) && logged("redrawn", null)).observe(
    document.getElementById("table-live"), { childList: true, subtree: true });
});
"""


# Every live part the page shows, by its turn, from the page's start (an init script runs
# before the page's own; the site's CSP does not apply to it).
RECORD_SHOWN_TURNS = """
window.shownTurns = [];
document.addEventListener("DOMContentLoaded", () => {
  const area = document.getElementById("table-live");
  new MutationObserver(() => {
    const head = area.querySelector("[data-turn]");
    if (head) window.shownTurns.push(head.dataset.turn);
  }).observe(area, { childList: true, subtree: true });
});
"""


def test_a_part_of_an_earlier_turn_that_comes_late_is_not_shown(live_server, phones):
    """A pushed part can come after the move's answer that went past it (another server
    process answered the move): the page stays on the newer turn."""
    ada, bea, table = ada_and_bea_at_a_korova_table()
    for user in (ada, bea):  # turn 1 played: the page opens on turn 2
        (move,) = selectors.table_moves_for_viewer(table_id=table.pk, user=user)[:1]
        services.table_move(table_id=table.pk, turn=1, move=move, by=user)
    page = phones(ada)
    page.add_init_script(RECORD_SHOWN_TURNS)
    url = live_server.url + reverse("table-detail", args=[table.pk])
    page.goto(url)
    live = page.locator("#table-live")
    expect(live.locator("[data-turn]")).to_have_attribute("data-turn", "2")
    shown = live.inner_html()

    # The stream (held back by the test) brings a part drawn at turn 1, then one of turn 2.
    late = shown.replace('data-turn="2"', 'data-turn="1"').replace("Your hand", "Late hand")
    newer = shown.replace("Your hand", "Newer hand")
    events = "".join(
        "data: "
        + json.dumps({"table": table.pk, "turn": turn, "etag": etag, "html": html})
        + "\n\n"
        for turn, etag, html in ((1, '"late"', late), (2, '"newer"', newer))
    )
    sent: list[bool] = []

    def held_back_stream(route):
        if sent:
            route.abort()
            return
        sent.append(True)
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=events)

    page.route("**/events/**", held_back_stream)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")  # the stream opens again
    expect(live.get_by_label("Newer hand", exact=False)).to_have_count(1)
    assert "1" not in page.evaluate("() => window.shownTurns")
    expect(live.locator("[data-turn]")).to_have_attribute("data-turn", "2")


def test_a_move_put_down_while_the_page_fetches_its_live_part_is_sent(live_server, phones):
    """The move form waits for a fetch of the live part under way (the part's hx-sync); the
    fetch's answer must not redraw the form it waits in, or htmx drops the move unsent."""
    ada, bea, table = ada_and_bea_at_a_korova_table()
    page = phones(bea)
    url = live_server.url + reverse("table-detail", args=[table.pk])
    page.goto(url)
    live = page.locator("#table-live")
    expect(live.locator("[data-turn]")).to_have_attribute("data-turn", "1")

    # A fetch of the live part starts (as after a bare change, or a poll) and is held back.
    held = []
    page.route(
        url, lambda route: held.append(route) if route.request.headers.get("hx-request") else route.continue_()
    )  # fmt: skip
    page.evaluate("() => htmx.trigger(document.getElementById('table-live'), 'table-changed')")
    deadline = time.monotonic() + 5
    while not held:
        assert time.monotonic() < deadline, "the page did not fetch its live part"
        page.wait_for_timeout(20)
    # Meanwhile Ada plays (so the fetch's answer differs from what the page shows), and Bea
    # puts a card down.
    (move,) = selectors.table_moves_for_viewer(table_id=table.pk, user=ada)[:1]
    services.table_move(table_id=table.pk, turn=1, move=move, by=ada)
    live.locator("[data-hand] [data-card]").first.tap()
    live.locator(".actions button[data-template]").first.tap()
    held[0].continue_()
    page.unroute(url)

    expect(live.locator("[data-turn]")).not_to_have_attribute("data-turn", "1", timeout=5_000)
    assert TableMove.objects.filter(table=table, turn=1, seat=1).exists()


# Plays a card at once in the first live part pushed after `window.playOnPush` is set: in the
# observer's callback, right after the swap, before anything that waits for a timer.
PLAY_ON_PUSH = """
window.playOnPush = false;
document.addEventListener("DOMContentLoaded", () => {
  const area = document.getElementById("table-live");
  new MutationObserver(() => {
    const card = area.querySelector("[data-hand] [data-card]:not([disabled])");
    if (!window.playOnPush || !card) return;
    window.playOnPush = false;
    card.click();
    area.querySelector(".actions button[data-template]").click();
  }).observe(area, { childList: true, subtree: true });
});
"""


def test_a_card_played_the_moment_a_change_is_pushed_is_sent_by_the_page_not_a_reload(
    live_server, phones
):
    ada, bea, table = ada_and_bea_at_a_korova_table()
    page = phones(bea)
    page.add_init_script(PLAY_ON_PUSH)
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    expect(page.locator("#table-live [data-hand] [data-card]").first).to_be_visible()
    page_loads: list[str] = []
    page.on(
        "request",
        lambda request: request.is_navigation_request() and page_loads.append(request.method),
    )
    page.evaluate("() => { window.playOnPush = true; }")

    (move,) = selectors.table_moves_for_viewer(table_id=table.pk, user=ada)[:1]
    services.table_move(table_id=table.pk, turn=1, move=move, by=ada)  # pushed to Bea's page

    expect(page.locator("#table-live [data-turn]")).not_to_have_attribute(
        "data-turn", "1", timeout=5_000
    )  # Bea's card went down: the turn was revealed
    assert page_loads == [], "the move was sent as a whole page load"


def test_a_second_press_of_a_move_under_way_is_dropped_and_the_page_still_updates(
    live_server, phones, settings
):
    """A move pressed twice: the second press waits for the first (hx-sync) and goes with the
    form its answer replaces; the page still shows the parts it fetches after that."""
    settings.GAMES_FALLBACK_POLL_SECONDS = 1
    ada, bea, table = ada_and_bea_at_a_korova_table()
    page = phones(bea)
    page.route("**/events/**", lambda route: route.abort())  # the page polls: fetches only
    url = live_server.url + reverse("table-detail", args=[table.pk])
    page.goto(url)
    live = page.locator("#table-live")
    expect(live.locator("[data-turn]")).to_have_attribute("data-turn", "1")

    held = []
    move_url = live_server.url + reverse("table-move", args=[table.pk])
    page.route(move_url, lambda route: held.append(route))
    posts: list[str] = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    live.locator("[data-hand] [data-card]").first.tap()
    put_down = live.locator(".actions button[data-template]").first
    put_down.tap()
    deadline = time.monotonic() + 5
    while not held:
        assert time.monotonic() < deadline, "the move was not sent"
        page.wait_for_timeout(20)
    put_down.tap()  # again, while the first is under way
    page.unroute(move_url)
    held[0].continue_()
    expect(live.locator(".turn-line")).to_contain_text("Ada", timeout=5_000)  # Bea's card is down
    assert posts == [move_url], posts

    (move,) = selectors.table_moves_for_viewer(table_id=table.pk, user=ada)[:1]
    services.table_move(table_id=table.pk, turn=1, move=move, by=ada)
    expect(live.locator("[data-turn]")).not_to_have_attribute("data-turn", "1", timeout=5_000)
