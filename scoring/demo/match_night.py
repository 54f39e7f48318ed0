"""Match night in the demo league (load_demo, docs/match-night.md): in the Корова season, two
of the first unplayed round's fixtures have a result entered by the home captain, one still
awaiting the away team's confirmation and one disputed by the away captain, so that a newcomer
can confirm one from a captain's login and decide the other from the venue's staff login.

Running it again enters nothing new while both are as the demo left them. When one was
answered meanwhile (beat confirms the awaiting one once its window has passed, a visitor may
confirm or dispute it, staff may decide the disputed one), the home captain enters that result
again: a new version, awaiting the away team with a fresh window (and disputed again by the away
captain for the disputed one), so that what `make run` prints stays true. Append-only, as every
step of a result: the history keeps what happened meanwhile.
"""

import datetime
from collections.abc import Callable
from typing import TextIO

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture, Player, Season
from leagues.selectors import team_player_ids
from scoring.demo import DEMO_GAMES, demo_game_showing
from scoring.models import ResultVersion
from scoring.results.confirmation import result_dispute
from scoring.results.services import result_recorded, result_submit

DISPUTE_REASON = "We counted the heads again: the last round is wrong."
ENTERED_AGAIN = "Entered again by the demo (make run) so that it awaits the other team once more."
AWAITING = ResultVersion.Confirmation.AWAITING
DISPUTED = ResultVersion.Confirmation.DISPUTED


def match_night_demo(
    *,
    stdout: TextIO,
    site_url: str,
    login_of: Callable[[str], tuple[str, str]],
    tonight: list[Fixture | None],
) -> None:
    """Enter the two results (unless done before) and print who answers them, and where.
    `login_of` gives a demo player's username and password by name; `tonight` are the
    fixtures kept free for staff entry and live tables, which this leaves alone."""
    season = Season.objects.filter(
        league__game=demo_game_showing("match night"), slug="autumn"
    ).first()
    if season is None:
        return
    chosen = list(
        season.fixtures.filter(
            result_versions__number=1, result_versions__source="player"
        ).order_by("pk")[:2]
    )
    if len(chosen) < 2:
        kept = [fixture.pk for fixture in tonight if fixture is not None]
        unplayed = season.fixtures.filter(
            stage=Fixture.Stage.LEAGUE, result_versions__isnull=True
        ).exclude(pk__in=kept)
        first_round = unplayed.order_by("round").values_list("round", flat=True).first()
        if first_round is None:
            return
        chosen = sorted(unplayed.filter(round=first_round).order_by("-pk")[:2], key=_pk)
    if len(chosen) < 2:
        return
    awaiting, disputed = chosen
    for fixture in (awaiting, disputed):
        if not fixture.result_versions.exists():
            _enter_as_home_captain(season=season, fixture=fixture)
    _await_again(season=season, fixture=awaiting, unless=AWAITING)
    _await_again(season=season, fixture=disputed, unless=DISPUTED)
    current = disputed.result_versions.get(is_current=True)
    if current.confirmation == AWAITING:
        result_dispute(
            fixture_id=disputed.pk,
            version=current.number,
            reason=DISPUTE_REASON,
            by=_login(_captain(disputed, "away")),
        )
    base = site_url.rstrip("/")
    away_user, away_password = login_of(_captain(awaiting, "away").name)
    stdout.write(
        f"Match night: {awaiting.home_team.name} v {awaiting.away_team.name} awaits "
        f"{awaiting.away_team.name}'s confirmation: log in as {away_user} / {away_password} "
        f"at {base}{reverse('fixture-detail', args=[awaiting.pk])}"
    )
    stdout.write(
        f"Match night: {disputed.home_team.name} v {disputed.away_team.name} is disputed: "
        f"staff of {disputed.venue.name} decide at "
        f"{base}{reverse('result-decide', args=[disputed.pk])}"
    )


def _pk(fixture: Fixture) -> int:
    return fixture.pk


def _captain(fixture: Fixture, side: str) -> Player:
    team = fixture.home_team if side == "home" else fixture.away_team
    return Player.objects.get(memberships__team=team, memberships__position=1)


def _login(player: Player) -> User:
    assert player.user is not None, "load_demo gives every demo player a login first"
    return player.user


def _enter_as_home_captain(*, season: Season, fixture: Fixture) -> None:
    players = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    sheet = DEMO_GAMES.get(season.game).sheet(
        home_player_ids=players[fixture.home_team_id],
        away_player_ids=players[fixture.away_team_id],
        rule_options=season.rule_options,
        fixture_format=season.fixture_format,
        seed=fixture.pk,
    )
    result_submit(
        fixture_id=fixture.pk,
        sheet=sheet,
        based_on_version=0,
        by=_login(_captain(fixture, "home")),
    )


@transaction.atomic
def _await_again(*, season: Season, fixture: Fixture, unless: str) -> None:
    """Unless the fixture's current result is `unless` (or awaiting, which leads to it), the
    home captain's first entry again as the next version, awaiting the away team with a fresh
    window. Under the fixture's lock, as every write of a result."""
    Fixture.objects.select_for_update().get(pk=fixture.pk)
    current = fixture.result_versions.get(is_current=True)
    if current.confirmation in (unless, AWAITING):
        return
    entered = fixture.result_versions.get(number=1)
    ResultVersion.objects.filter(pk=current.pk).update(is_current=False)
    version = ResultVersion.objects.create(
        fixture=fixture,
        number=current.number + 1,
        is_current=True,
        sheet=entered.sheet,
        home_score=entered.home_score,
        away_score=entered.away_score,
        winner=entered.winner,
        walkover=entered.walkover,
        lineup=entered.lineup,
        source=ResultVersion.Source.PLAYER,
        created_by=_login(_captain(fixture, "home")),
        note=ENTERED_AGAIN,
        confirmation=AWAITING,
        confirm_by=timezone.now() + datetime.timedelta(hours=season.confirmation_hours),
    )
    result_recorded.send(sender=ResultVersion, game=season.game, version=version)
