"""Four phones play a Convoy 2-v-2 fixture game to a convoy win, every move on the pages,
with a one-eyed jack's removal and a dead-card exchange among them."""

import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.bots import bot_move
from games.engines import get_engine
from games.engines.protocol import Move
from games.models import Table
from leagues.models import Game
from scoring.models import ResultVersion
from tests.browser.play import (
    MoveTimer,
    check_no_sideways_scroll,
    check_page_hides_other_hands,
    keep_screenshot,
)
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

ONE_EYED_JACKS = ("JS", "JH")


def planned_game(most_moves: int = 40):
    """A seed and the practice bots' moves from it to a win, short enough for the phones to
    play every move, that include a one-eyed jack's removal and a dead-card exchange."""
    eng = get_engine("convoy")
    for seed in range(1000):
        state, rng = eng.new_game(players=4, seed=seed, options={}), random.Random(seed)
        moves: list[tuple[int, Move]] = []
        while not eng.is_over(state) and len(moves) <= most_moves:
            (seat,) = eng.to_act(state)
            move = bot_move(game="convoy", state=state, seat=seat, rng=rng)
            moves.append((seat, move))
            state = eng.apply(state, seat, move)
        if not eng.is_over(state) or eng.outcome(state)["draw"]:
            continue
        removes = any(m.get("card") in ONE_EYED_JACKS and "remove" in m for _, m in moves)
        if removes and any("exchange" in m for _, m in moves):
            return seed, moves
    raise AssertionError("no seed gives such a game")


def cell_button(page, square):
    row, column = square
    return page.locator(".convoy-board").get_by_role(
        "button", name=re.compile(rf"^Row {row + 1}, column {column + 1}:")
    )


def play_in_page(page, move: dict) -> None:
    live = page.locator("#table-live")
    if "pass" in move:
        live.get_by_role("button", name="Pass: no move left").tap()
        return
    card = live.locator(f'[data-hand] [data-card="{move["card"]}"]').first
    expect(card).to_be_enabled()
    card.tap()
    if "exchange" in move:
        expect(card).to_contain_text("dead")
        live.get_by_role("button", name=re.compile("^Exchange dead")).tap()
    elif "remove" in move:
        (square,) = move["remove"]
        target = cell_button(page, square)
        expect(target).to_have_class(re.compile(r"\btarget\b"))
        expect(target).to_contain_text(re.compile("counter"))
        target.tap()
    else:
        target = cell_button(page, move["square"])
        expect(target).to_be_enabled()
        target.tap()


@pytest.fixture
def convoy_fixture():
    season = SeasonFactory(
        league=LeagueFactory(name="Convoy League", slug="convoy", game=Game.CONVOY),
        name="Spring",
        slug="spring",
        fixture_format={"games": 1},
    )
    venue = VenueFactory(name="The Anchor")

    def player(name):
        return PlayerFactory(name=name, user=UserFactory(username=name.lower(), first_name=name))

    home = TeamFactory(name="Anchors", home_venue=venue, members=[player("Ann"), player("Bea")])
    away = TeamFactory(name="Gulls", members=[player("Cy"), player("Dot")])
    for team in (home, away):
        EntryFactory(season=season, team=team)
    return FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)


def test_four_phones_play_a_convoy_fixture_game_to_a_win(
    live_server, phones, table_worker, convoy_fixture
):
    fixture = convoy_fixture
    seed, moves = planned_game()
    bea = phones(fixture.home_team.players.get(name="Bea").user)
    bea.goto(live_server.url + reverse("fixture-tables", args=[fixture.pk]))
    bea.get_by_role("button", name="Start the live tables").tap()
    expect(bea.locator("#fixture-tables li")).to_have_count(1)
    table = Table.objects.get(fixture=fixture)
    eng = get_engine("convoy")
    Table.objects.filter(pk=table.pk).update(seed=seed)  # dealt when all four have come
    seats = {seat.seat: seat.user for seat in table.seats.all()}
    # Partners sit opposite: seats 0 and 2 are one team, 1 and 3 the other.
    assert {seats[0].player.teams.get(), seats[2].player.teams.get()} != {
        seats[1].player.teams.get()
    }

    pages = {}
    for seat, user in seats.items():
        pages[seat] = bea if user.username == "bea" else phones(user)
        pages[seat].goto(live_server.url + reverse("table-detail", args=[table.pk]))
        pages[seat].get_by_role("button", name="I am here").tap()
    # The last "I am here" deals: the moves below read the turn once every phone shows it
    # (a tap does not wait for its answer, so the table could still be waiting).
    for page in pages.values():
        expect(page.locator("#table-live [data-status]")).to_have_attribute(
            "data-status", "playing"
        )
    timer = MoveTimer(list(pages.values()))
    made, checked = set(), 0
    for seat, move in moves:  # every move of the game, on the phones
        table.refresh_from_db()
        page = pages[seat]
        expect(page.locator("#table-live [data-turn]")).to_have_attribute(
            "data-turn", str(table.turn)
        )
        expect(page.locator("#table-live .turn-line")).to_have_text("Your turn.")
        expect(page.locator("[data-countdown]")).to_be_visible()
        for viewer_seat, viewer in pages.items():
            checked += check_page_hides_other_hands(viewer, table, seat=viewer_seat)
        if "exchange" in move and "exchange" not in made:
            keep_screenshot(page, "convoy-dead-card")
        started = timer.tapped(page)
        play_in_page(page, move)
        expect(page.locator("#move-error")).to_be_hidden()
        timer.record(page, started)
        made |= {"exchange"} if "exchange" in move else set()
        made |= {"remove"} if "remove" in move else set()
    assert made == {"exchange", "remove"}
    assert checked >= len(moves) // 2  # the pages were checked for other hands, most turns

    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    # Seat 0's own page names the winners, saying "you" for seat 0.
    winners = [
        "you" if s == 0 else seats[s].first_name
        for s in eng.outcome(eng.load(table.state))["winners"]
    ]
    for page in pages.values():
        expect(page.locator("#table-live .turn-line")).to_contain_text("Game over:")
        expect(page.locator(".convoy-sides")).to_contain_text("3 convoys: won")
        check_no_sideways_scroll(page)
    keep_screenshot(pages[0], "convoy")
    pages[0].set_viewport_size({"width": 1280, "height": 900})
    keep_screenshot(pages[0], "convoy-1280")
    assert all(name in pages[0].locator(".turn-line").inner_text() for name in winners)
    timer.save("convoy")
    assert ResultVersion.objects.filter(fixture=fixture, source=ResultVersion.Source.LIVE).exists()
