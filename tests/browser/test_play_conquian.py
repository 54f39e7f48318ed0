"""Two phones play a Conquian single of a league fixture to its end, one turn lost to the
clock; the other single is played through the service; the fixture's result reaches the
public league table."""

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engines import get_engine
from games.live import services
from games.models import Table, TableMove
from leagues.models import Game
from scoring.models import ResultVersion
from tests.browser.play import (
    MoveTimer,
    check_no_sideways_scroll,
    check_page_hides_other_hands,
    keep_screenshot,
    turn_of,
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

SEED = 84  # with the moves below, the first deal is won in 18 decisions
TURN_SECONDS = 8


def choose(moves: list[dict]) -> dict:
    """Meld as much as possible, else leave the card; discard the first card offered."""
    melds = [move for move in moves if "meld" in move]
    if melds:
        return max(melds, key=lambda move: len(move["meld"]))
    for move in moves:
        if move in ({"reject": True}, {"pass": True}):
            return move
    return next(move for move in moves if "discard" in move and not move.get("force"))


def play_in_page(page, move: dict) -> None:
    """Make `move` the way a player does: tap the cards, then the button."""
    live = page.locator("#table-live")
    actions = live.locator(".actions")
    if "meld" in move:
        for card in move["meld"]:
            live.locator(f'[data-hand] [data-card="{card}"]').tap()
        actions.get_by_role("button", name="Meld the open card").tap()
    elif "discard" in move:
        live.locator(f'[data-hand] [data-card="{move["discard"]}"]').tap()
        actions.get_by_role("button", name="Discard the card you tapped").tap()
    elif "reject" in move:
        actions.get_by_role("button", name="Reject it").tap()
    else:
        actions.get_by_role("button", name="Pass: leave it open").tap()


@pytest.fixture
def fixture_of_singles():
    season = SeasonFactory(
        league=LeagueFactory(name="Conquian League", slug="conquian", game=Game.CONQUIAN),
        name="Winter",
        slug="winter",
        rule_options={"target": 1, "turn_seconds": TURN_SECONDS},
    )
    venue = VenueFactory(name="The Crown")

    def player(name):
        user = UserFactory(username=name.lower(), first_name=name)
        return PlayerFactory(name=name, user=user)

    home = TeamFactory(name="Crowns", home_venue=venue, members=[player("Ann"), player("Bea")])
    away = TeamFactory(name="Owls", members=[player("Cy"), player("Dot")])
    for team in (home, away):
        EntryFactory(season=season, team=team)
    return FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)


def reseed(table: Table) -> None:
    """A fixed seed for the table's deal, before its players have come (it is dealt then)."""
    assert table.state is None
    Table.objects.filter(pk=table.pk).update(seed=SEED)
    table.refresh_from_db()


def test_two_phones_play_a_conquian_single_and_the_result_reaches_the_table(
    live_server, phones, table_worker, fixture_of_singles
):
    fixture = fixture_of_singles
    ann = phones(fixture.home_team.players.get(name="Ann").user)
    ann.goto(live_server.url + reverse("fixture-detail", args=[fixture.pk]))
    ann.get_by_role("button", name="Live tables: play, watch or replay").tap()
    ann.get_by_role("button", name="Start the live tables").tap()
    expect(ann.locator("#fixture-tables li")).to_have_count(2)
    single, other = Table.objects.filter(fixture=fixture).order_by("number")
    reseed(single)

    ann.locator("#fixture-tables li").first.get_by_role("button", name="Play").tap()
    cy = phones(fixture.away_team.players.get(name="Cy").user)
    cy.goto(live_server.url + reverse("table-detail", args=[single.pk]))
    users = {seat.seat: seat.user for seat in single.seats.all()}
    page_of = {seat: (ann if user.username == "ann" else cy) for seat, user in users.items()}
    # The game waits, with no clock, until both players have said they are here.
    expect(cy.locator("#awaited")).to_contain_text("Ann")
    cy.get_by_role("button", name="I am here").tap()
    expect(ann.locator("#awaited")).to_contain_text("Ann")
    expect(ann.locator("[data-countdown]")).to_have_count(0)
    ann.get_by_role("button", name="I am here").tap()
    for page in (ann, cy):
        expect(page.locator("[data-countdown]")).to_be_visible()
        expect(page.locator("#table-live .cut summary")).to_contain_text("plays first")
    check_no_sideways_scroll(ann)

    # Both phones count down to the server's deadline, so they show the same time.
    clocks = [int(page.locator("[data-countdown]").inner_text().split()[0]) for page in (ann, cy)]
    assert abs(clocks[0] - clocks[1]) <= 1 and 0 < clocks[0] <= TURN_SECONDS

    # A lost connection is shown, and the page recovers by itself when it is back.
    cy.context.set_offline(True)
    expect(cy.locator("#connection")).to_be_visible()
    cy.context.set_offline(False)
    expect(cy.locator("#connection")).to_be_hidden()

    eng = get_engine("conquian")
    timer = MoveTimer([ann, cy])
    decisions, timed_out, shot, checked = 0, False, False, 0
    while True:
        single.refresh_from_db()
        if single.status == Table.Status.FINISHED:
            break
        state = eng.load(single.state)
        (seat,) = eng.to_act(state)
        page = page_of[seat]
        expect(page.locator("#table-live [data-turn]")).to_have_attribute(
            "data-turn", str(single.turn)
        )
        for viewer_seat, viewer in page_of.items():
            checked += check_page_hides_other_hands(viewer, single, seat=viewer_seat)
        move = choose(eng.legal_moves(state, seat))
        if (
            not timed_out
            and decisions >= 2
            and eng.timeout(state, seat) == eng.apply(state, seat, move)
        ):
            # This player lets the clock run out; the countdown shows it going.
            expect(page.locator("[data-countdown]")).to_be_visible()
            deadline = time.monotonic() + TURN_SECONDS + 5
            while not TableMove.objects.filter(table=single, timeout=True).exists():
                assert time.monotonic() < deadline, "the clock did not take the turn"
                time.sleep(0.2)
            timed_out = True
        else:
            if not shot and "meld" in move and move["meld"]:
                keep_screenshot(page, "conquian")
                shot = True
            started = timer.tapped(page)
            play_in_page(page, move)
            expect(page.locator("#move-error")).to_be_hidden()
            timer.record(page, started)
        decisions += 1
        assert decisions < 60, "the single went on too long"

    assert timed_out
    assert checked >= decisions // 2  # the pages were checked for the other hand, most turns
    for page in (ann, cy):
        expect(page.locator("#table-live .turn-line")).to_contain_text("Game over")
        assert turn_of(page)[0] == "finished"
    timer.save("conquian")

    # The other single, through the service as any client would.
    other_users = {seat.seat: seat.user for seat in other.seats.all()}
    for user in other_users.values():
        services.table_join(table_id=other.pk, by=user)
    while True:
        other.refresh_from_db()
        if other.status == Table.Status.FINISHED:
            break
        state = eng.load(other.state)
        (seat,) = eng.to_act(state)
        services.table_move(
            table_id=other.pk, turn=other.turn, move=choose(eng.legal_moves(state, seat)),
            by=other_users[seat],
        )  # fmt: skip

    result = ResultVersion.objects.get(fixture=fixture)
    assert result.source == ResultVersion.Source.LIVE and result.created_by is None
    ann.goto(live_server.url + reverse("season-detail", args=["conquian", "winter"]))
    rows = ann.locator("table.standings tbody tr")
    expect(rows).to_have_count(2)
    played = [int(rows.nth(i).locator("td.num").nth(1).inner_text()) for i in range(2)]
    points = [int(rows.nth(i).locator(".pts").inner_text()) for i in range(2)]
    assert played == [1, 1] and sum(points) in (2, 3)

    # The replay, linked from the fixture's tables, steps back and forth.
    ann.goto(live_server.url + reverse("fixture-tables", args=[fixture.pk]))
    ann.locator("#fixture-tables li").first.get_by_role("button", name="Replay").tap()
    expect(ann.locator("#replay-position")).to_contain_text("before the first move")
    ann.locator("#replay-forward").tap()
    expect(ann.locator("#replay-position")).to_contain_text("Move 1 of")
    ann.locator("#replay-back").tap()
    expect(ann.locator("#replay-position")).to_contain_text("before the first move")
    check_no_sideways_scroll(ann)
