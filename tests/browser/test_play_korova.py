"""One phone plays a casual Корова table against three practice bots, to the end."""

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engines import get_engine
from games.models import Table, TableMove
from tests.browser.play import (
    check_no_sideways_scroll,
    check_page_hides_other_hands,
    keep_screenshot,
    turn_of,
)
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def a_seed_that_deals_seat_0_the_one():
    """A seed whose first deal gives seat 0 card 1: played first (the lowest), it is lower than
    every row, so the player must take a row at least once, whatever the bots do."""
    eng = get_engine("korova")
    return next(
        seed
        for seed in range(1, 1000)
        if 1 in eng.view(eng.new_game(players=4, seed=seed, options={}), 0)["hand"]
    )


def test_a_player_plays_korova_against_three_bots_to_the_end(
    live_server, phones, table_worker, monkeypatch
):
    monkeypatch.setattr("games.live.services.new_seed", a_seed_that_deals_seat_0_the_one)
    player = UserFactory(username="ada", first_name="Ada", last_name="Finch")
    page = phones(player)
    sent: list[str] = []  # what the page asked for, and when (for a failure's message)
    page.on(
        "request",
        lambda request: sent.append(f"{time.strftime('%X')} {request.method} {request.url}"),
    )

    page.goto(live_server.url + reverse("table-lobby"))
    check_no_sideways_scroll(page)
    form = page.locator("#start-table")
    form.get_by_label("Game").select_option("korova")
    form.get_by_label("Players").fill("4")
    form.get_by_label("Practice bots").fill("3")
    form.get_by_label("Seconds a turn").fill("20")
    form.get_by_role("button", name="Start the table").tap()
    expect(page.locator("#table-live h1")).to_contain_text("Корова 006")
    table = Table.objects.get()
    assert [seat.bot for seat in table.seats.order_by("seat")] == [False, True, True, True]

    live = page.locator("#table-live")
    eng = get_engine("korova")
    took_a_row = picks = checked = 0
    shot = False
    deadline = time.monotonic() + 600
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        state = eng.load(table.state)
        if 0 not in eng.to_act(state):
            time.sleep(0.1)  # the bots are thinking
            continue
        expect(live.locator("[data-turn]")).to_have_attribute("data-turn", str(table.turn))
        checked += check_page_hides_other_hands(page, table, seat=0)
        logged = TableMove.objects.filter(table=table, seat=0).count()
        if eng.view(state, 0)["pending_row_choice"] == 0:
            # The played card is lower than every row: each row offers itself with its heads.
            rows = live.locator("button.take-row")
            expect(rows).to_have_count(4)
            expect(rows.first).to_contain_text("head")
            if not shot:
                keep_screenshot(page, "korova-row-choice")
                check_no_sideways_scroll(page)
                shot = True
            rows.first.tap()
            took_a_row += 1
        else:
            put_down = live.locator(".actions button[data-template]")
            expect(put_down).to_be_disabled()  # nothing tapped yet
            lowest = live.locator("[data-hand] [data-card]").first
            lowest.tap()
            expect(put_down).to_have_text(f"Put down {lowest.get_attribute('data-card')}")
            put_down.tap()
            picks += 1
        # The move is in (the page's POST answered) before the loop looks again. Not in after
        # 40 s, the page lost it (the clock would play the turn only after its 20 s and the
        # 60 s of the time bank that the lobby's form gives by default).
        expect(live.locator("#move-error")).to_be_hidden()
        waited_until = time.monotonic() + 40
        while TableMove.objects.filter(table=table, seat=0).count() == logged:
            if time.monotonic() > waited_until:
                table.refresh_from_db()
                raise AssertionError(
                    f"the player's move did not reach the log: the table at turn"
                    f" {table.turn}, due {table.deadline}, {table.status}; the page at turn"
                    f" {turn_of(page)}, its requests {sent[-6:]}"
                )
            time.sleep(0.05)

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    expect(live.locator(".turn-line")).to_contain_text("Game over")
    assert took_a_row >= 1 and picks >= 10
    assert checked >= picks // 2  # most pages were checked for other hands
    expect(live.locator("#sheet-title")).to_be_visible()  # the heads by round
    keep_screenshot(page, "korova")
    check_no_sideways_scroll(page)
