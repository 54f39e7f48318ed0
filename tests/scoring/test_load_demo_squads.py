"""The demo's walkover and substitute (scoring.demo.squads), hooked into load_demo."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.models import Reserve
from scoring.models import ResultVersion

DOC = Path(__file__).resolve().parents[2] / "docs" / "seasons-walkovers-squads.md"


@pytest.fixture(autouse=True)
def _development(settings):
    settings.DEBUG = True


@pytest.mark.django_db
def test_the_demo_has_a_walkover_and_a_reserve_who_played_and_says_where(client):
    out = StringIO()
    call_command("load_demo", stdout=out)

    walkover = ResultVersion.objects.get(is_current=True, walkover__in=["home", "away"])
    reserve = Reserve.objects.get()
    played = ResultVersion.objects.get(is_current=True, lineup__substitutes=[reserve.player_id])
    assert reserve.entry.team_id == played.fixture.home_team_id
    printed = [line for line in out.getvalue().splitlines() if line.startswith("Walkover:")]
    assert len(printed) == 1
    for version in (walkover, played):
        assert reverse("fixture-detail", args=[version.fixture_id]) in printed[0]
        assert client.get(reverse("fixture-detail", args=[version.fixture_id])).status_code == 200
    # The docs' "The demo" says where to look: the walkover's league by its game.
    demo_section = " ".join(DOC.read_text().split("## The demo", 1)[1].split())
    game = walkover.fixture.season.league.get_game_display()
    says = f"in the {game} league a round {walkover.fixture.round} fixture is a walkover"
    assert says in demo_section
