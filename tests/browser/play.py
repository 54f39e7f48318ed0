"""Helpers for the browser games: logged-in phones, what a page shows, timings, artifacts."""

import json
import statistics
import time
from pathlib import Path

from django.conf import settings
from django.test import Client

from games.live.polls import table_etag
from tests.browser.conftest import PHONE
from tests.games.live.page_checks import assert_no_other_hands, hands_of

ARTIFACTS = Path(settings.BASE_DIR) / "test-results"

# Installed in every play page before its own scripts: records when each turn (and status)
# first showed on this page, by this machine's clock, and the size of every 304 poll.
WATCH_TURNS = """
window.__seen = {};
window.__polls304 = [];
document.addEventListener("htmx:afterSettle", () => {
  const head = document.querySelector("#table-live [data-turn]");
  if (head) {
    const key = head.dataset.status + ":" + head.dataset.turn;
    if (!(key in window.__seen)) window.__seen[key] = Date.now();
  }
});
document.addEventListener("htmx:afterRequest", (event) => {
  const xhr = event.detail.xhr;
  if (xhr && xhr.status === 304) {
    const entries = performance.getEntriesByType("resource").filter((e) => e.responseStatus === 304);
    const last = entries[entries.length - 1];
    if (last) window.__polls304.push(last.transferSize);
  }
});
"""


def phone_for(chromium, live_server, user):
    """A 390 × 844 touch phone, logged in as `user` (session cookie, no login form); the
    caller closes the context (the `phones` fixture does)."""
    client = Client()
    client.force_login(user)
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(20_000)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
          "url": live_server.url}]
    )  # fmt: skip
    context.add_init_script(WATCH_TURNS)
    return context, context.new_page()


def turn_of(page) -> tuple[str, int]:
    head = page.locator("#table-live [data-turn]")
    return head.get_attribute("data-status"), int(head.get_attribute("data-turn") or 0)


def check_page_hides_other_hands(page, table, seat) -> bool:
    """The page's HTML holds no card of another seat's hand. Checked only while the page shows
    the table as it is, hands included: its ETag is the table's now for the page's session,
    read before and after the hands and the HTML (a turn's number alone does not say so: within
    a turn a card can leave a hand for the table, and a page drawn after that shows it).
    Returns whether the check could be made."""
    viewer = session_cookie(page)
    etag = table_etag(table_id=table.pk, viewer=viewer)
    table.refresh_from_db()
    hands = hands_of(table)
    # this very HTML and the ETag it was drawn with, in one read: a pushed part may replace it
    html, shown = page.evaluate(
        "() => [document.documentElement.outerHTML,"
        " (document.querySelector('#table-live [data-etag]') || {dataset: {}}).dataset.etag]"
    )
    if not (shown == etag == table_etag(table_id=table.pk, viewer=viewer)):
        return False
    assert_no_other_hands(html, game=table.game, hands=hands, seat=seat)
    return True


def session_cookie(page) -> str:
    cookies = page.context.cookies()
    return next((c["value"] for c in cookies if c["name"] == settings.SESSION_COOKIE_NAME), "")


def check_no_sideways_scroll(page) -> None:
    """The page is no wider than the phone, measured once its stylesheets are in (on a busy
    machine the heading can be there before them, and an unstyled grid is wide)."""
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def keep_screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


class MoveTimer:
    """Time from a move's POST (the tap) to each other page first showing the next turn."""

    def __init__(self, pages):
        self.pages = pages
        self.samples: list[float] = []
        self.poll_request_bytes: list[int] = []
        for page in pages:
            page.on("request", self._poll_sent)

    def _poll_sent(self, request) -> None:
        headers = request.headers_array()
        if request.method == "GET" and any(h["name"].lower() == "if-none-match" for h in headers):
            line = f"GET {request.url.split('/', 3)[-1]} HTTP/1.1\r\n"
            size = len(line) + sum(len(f"{h['name']}: {h['value']}\r\n") for h in headers) + 2
            self.poll_request_bytes.append(size)

    def tapped(self, mover) -> tuple[float, tuple[str, int]]:
        return mover.evaluate("Date.now()"), turn_of(mover)

    def record(self, mover, started: tuple[float, tuple[str, int]], *, timeout: float = 10.0):
        at, (status, turn) = started
        for page in self.pages:
            if page is mover:
                continue
            deadline = time.monotonic() + timeout
            while True:
                seen = page.evaluate("window.__seen")
                later = [t for key, t in seen.items() if _after(key, status, turn) and t >= at]
                if later:
                    self.samples.append(min(later) - at)
                    break
                assert time.monotonic() < deadline, "another page never showed the move"
                time.sleep(0.05)

    def save(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        polls = [size for page in self.pages for size in page.evaluate("window.__polls304")]
        (ARTIFACTS / f"timings-{name}.json").write_text(
            json.dumps(
                {
                    "move_to_other_pages_ms": self.samples,
                    "poll_304_bytes": polls,
                    "poll_request_bytes": self.poll_request_bytes[-50:],
                }
            )
        )

    def median(self) -> float:
        return statistics.median(self.samples)


def _after(key: str, status: str, turn: int) -> bool:
    seen_status, seen_turn = key.split(":")
    return int(seen_turn) > turn or (seen_status == "finished" and status != "finished")
