"""Printable pages in a real browser: each prints to PDF, a fixture sheet on one A4 page, and
the QR code on the sheet decodes (zxing-cpp) to the fixture's result entry."""

import re

import pytest
import zxingcpp
from django.urls import reverse

from leagues.models import Game
from tests.browser.png import grey_pixels
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    VenueFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A4_POINTS = (595, 842)  # 210 × 297 mm at 72 points an inch, rounded down


def _season(game, **season):
    venue = VenueFactory(name="The Black Cow", slug="black-cow", address="2 Mill Lane, Leeds")
    season = SeasonFactory(
        league=LeagueFactory(name=f"{game} League", slug=f"{game}-league", game=game),
        name="Autumn",
        slug="autumn",
        **season,
    )
    home = TeamFactory(
        name="Red Lions",
        home_venue=venue,
        members=[PlayerFactory(name="Ann Long-Surname"), PlayerFactory(name="Bea")],
    )
    away = TeamFactory(
        name="Night Owls", members=[PlayerFactory(name="Cy"), PlayerFactory(name="Dot")]
    )
    for team in (home, away):
        EntryFactory(season=season, team=team)
    fixture = FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)
    return season, fixture


def _pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """The (width, height) in points of every page of a PDF that Chromium wrote."""
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    assert pages == len(boxes), (pages, boxes)
    return [(float(w), float(h)) for w, h in boxes]


def _is_a4(size) -> bool:
    return all(abs(got - want) < 2 for got, want in zip(size, A4_POINTS))


@pytest.fixture
def page(chromium):
    context = chromium.new_context(
        viewport={"width": 1000, "height": 1400}, java_script_enabled=False
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@pytest.mark.parametrize(
    "game,season_options,grid_text",
    [
        (Game.KOROVA, {}, "Penalty heads, round by round"),
        (Game.CONQUIAN, {}, "Deal tally"),
        (Game.CONVOY, {"fixture_format": {"games": 3}}, "Game 3"),
    ],
)
def test_a_fixture_sheet_prints_on_one_a4_page_with_a_qr_to_its_result_entry(
    live_server, page, game, season_options, grid_text
):
    _, fixture = _season(game, **season_options)
    page.goto(live_server.url + reverse("print-fixture-sheet", args=[fixture.pk]))
    assert page.get_by_text(grid_text).count() >= 1
    assert page.get_by_text("Ann Long-Surname").count() >= 1

    pdf = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    pages = _pdf_pages(pdf)
    assert len(pages) == 1, f"{game}: the sheet took {len(pages)} pages"
    assert _is_a4(pages[0])

    qr = page.locator(".qr svg")
    codes = zxingcpp.read_barcodes(grey_pixels(qr.screenshot()))
    assert [code.text for code in codes] == [
        live_server.url + reverse("result-entry", args=[fixture.pk])
    ]


def test_the_season_pages_print_on_a4(live_server, page):
    season, _ = _season(Game.KOROVA)
    for name, args in [
        ("season-print", [season.league.slug, season.slug]),
        ("season-print-table", [season.league.slug, season.slug]),
        ("season-print-venue", [season.league.slug, season.slug, "black-cow"]),
    ]:
        response = page.goto(live_server.url + reverse(name, args=args))
        assert response.status == 200, name
        pages = _pdf_pages(page.pdf(format="A4", prefer_css_page_size=True))
        assert pages and all(_is_a4(size) for size in pages), name
    assert page.get_by_text("Red Lions").count() >= 1
