"""The demo's walkover and substitute (docs/seasons-walkovers-squads.md): in the Convoy
league a team did not turn up in round 7, and in the Корова league a registered reserve stood
in for a team's player 2 in round 6. Run before the demo plays its first half, which leaves
fixtures with a result alone; running it again changes nothing.
"""

from typing import Any

from django.urls import reverse

from leagues.models import Entry, Player, Reserve, Season
from leagues.selectors import team_player_ids
from leagues.squad_services import reserve_register
from scoring.demo import DEMO_GAMES, demo_game_showing
from scoring.models import ResultVersion
from scoring.results.services import result_submit
from scoring.results.walkovers import result_walkover_award

RESERVE = ("Quin Reyes", "quin-reyes")
WALKOVER_ROUND = 7
SUBSTITUTE_ROUND = 6


def load_squads_demo(*, seasons: list[Season], admin: Any, stdout: Any, site_url: str) -> None:
    """Award the walkover, register the reserve and save the result they played; print one
    line saying where to look."""
    by_game = {season.game: season for season in seasons}
    walkover = _walkover(by_game[demo_game_showing("walkover")], admin)
    substitute = _substitute(by_game[demo_game_showing("reserve")], admin)
    site = site_url.rstrip("/")
    stdout.write(
        f"Walkover: {site}{reverse('fixture-detail', args=[walkover.fixture_id])} · "
        f"a reserve who played: {site}{reverse('fixture-detail', args=[substitute.fixture_id])}"
    )


def _walkover(season: Season, admin: Any) -> ResultVersion:
    fixture = season.fixtures.filter(round=WALKOVER_ROUND).order_by("pk").first()
    assert fixture is not None, "the demo season has its double round robin"
    current = fixture.result_versions.filter(is_current=True).first()
    if current is not None:
        return current
    return result_walkover_award(
        fixture_id=fixture.pk, team="home", by=admin, note="The away team did not turn up."
    )


def _substitute(season: Season, admin: Any) -> ResultVersion:
    fixture = season.fixtures.filter(round=SUBSTITUTE_ROUND).order_by("pk").first()
    assert fixture is not None, "the demo season has its double round robin"
    current = fixture.result_versions.filter(is_current=True).first()
    if current is not None:
        return current
    name, slug = RESERVE
    reserve, _ = Player.objects.get_or_create(slug=slug, defaults={"name": name})
    entry = Entry.objects.get(season=season, team_id=fixture.home_team_id)
    if not Reserve.objects.filter(entry=entry, player=reserve).exists():
        reserve_register(entry_id=entry.pk, player_id=reserve.pk, by=admin)
    players = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    home = [players[fixture.home_team_id][0], reserve.pk]  # in player 2's place
    sheet = DEMO_GAMES.get(season.game).sheet(
        home_player_ids=home,
        away_player_ids=players[fixture.away_team_id],
        rule_options=season.rule_options,
        fixture_format=season.fixture_format,
        seed=fixture.pk,
    )
    return result_submit(
        fixture_id=fixture.pk,
        sheet=sheet,
        based_on_version=0,
        by=admin,
        note=f"{name} stood in for player 2.",
    )
