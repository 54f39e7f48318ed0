"""Reads of who plays a fixture: its squads (the teams' two and their registered reserves), its
lineup by position, a chosen lineup checked, who takes the places at its live tables, what a
result version keeps of who played and who played it, and the names of the players a sheet
lists."""

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from config.errors import Invalid
from leagues.models import Availability, Fixture, Player, Team
from leagues.selectors import team_player_ids, team_squads
from scoring.kinds import get_kind
from scoring.kinds.base import possessive
from scoring.models import ResultVersion


def fixture_squads(*, fixture: Fixture) -> dict[str, dict[int, str]]:
    """Who may play the fixture for each side ("home", "away"): the team's two players in
    position order, then its reserves registered for the fixture's season (id → name)."""
    squads = team_squads(
        season_id=fixture.season_id, team_ids=[fixture.home_team_id, fixture.away_team_id]
    )
    return {"home": squads[fixture.home_team_id], "away": squads[fixture.away_team_id]}


def fixture_player_ids(*, fixture: Fixture) -> dict[str, list[int]]:
    """The two teams' player ids by position, as they are now: who plays the fixture, kept
    with each result version (ResultVersion.lineup) so a later roster change rewrites nothing
    already played."""
    players = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    return {"home": players[fixture.home_team_id], "away": players[fixture.away_team_id]}


@dataclass
class Lineup:
    """The fixture's teams and their players by position: home 1, home 2, away 1, away 2."""

    home_team: Team
    away_team: Team
    home: list[Player] = field(default_factory=list)  # position 1 then 2
    away: list[Player] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.home) == 2 and len(self.away) == 2

    @property
    def players(self) -> list[Player]:
        return [*self.home, *self.away]

    def roster(self, side: str) -> dict[int, str]:
        return {player.pk: player.name for player in (self.home if side == "home" else self.away)}

    def team(self, side: str) -> Team:
        return self.home_team if side == "home" else self.away_team


def fixture_lineup(*, fixture: Fixture, chosen: dict[str, list[int]] | None = None) -> Lineup:
    """The fixture's teams with who plays for each in position order: the teams' two players,
    or the `chosen` players (a substitute in an absent player's place, checked against the
    squads by `lineup_choice_check`)."""
    if chosen is None:
        player_ids = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
        chosen = {
            "home": player_ids[fixture.home_team_id],
            "away": player_ids[fixture.away_team_id],
        }
    players = Player.objects.in_bulk([pk for ids in chosen.values() for pk in ids])
    return Lineup(
        home_team=fixture.home_team,
        away_team=fixture.away_team,
        home=[players[pk] for pk in chosen["home"] if pk in players],
        away=[players[pk] for pk in chosen["away"] if pk in players],
    )


def lineup_choice_check(*, fixture: Fixture, chosen: object) -> dict[str, list[int]]:
    """The chosen lineup, {"home": [id, id], "away": [id, id]} in position order, checked:
    two different players a side, each from the team's squad (its two and its registered
    reserves), nobody on both sides. Raises Invalid on "lineup" naming the team."""
    squads = fixture_squads(fixture=fixture)
    names = {"home": fixture.home_team.name, "away": fixture.away_team.name}
    if not isinstance(chosen, dict) or set(chosen) != {"home", "away"}:
        raise Invalid(errors={"lineup": _("Say who played for each team: two players a team.")})
    clean: dict[str, list[int]] = {}
    for side in ("home", "away"):
        ids = chosen[side]
        if (
            not isinstance(ids, list | tuple)
            or len(ids) != 2
            or not all(type(pk) is int for pk in ids)
        ):
            raise Invalid(
                errors={
                    "lineup": _("Name the two players who played for %(team)s.")
                    % {"team": names[side]}
                }
            )
        if ids[0] == ids[1]:
            raise Invalid(
                errors={
                    "lineup": _("%(team)s two places need two different players.")
                    % {"team": possessive(names[side])}
                }
            )
        for pk in ids:
            if pk not in squads[side]:
                raise Invalid(
                    errors={
                        "lineup": _(
                            "Player %(player)s is not in %(team)s squad (its two players and "
                            "its registered reserves)."
                        )
                        % {"player": pk, "team": possessive(names[side])}
                    }
                )
        clean[side] = list(ids)
    both = set(clean["home"]) & set(clean["away"])
    if both:
        name = squads["home"][min(both)]
        raise Invalid(errors={"lineup": _("%(name)s cannot play for both teams.") % {"name": name}})
    return clean


def fixture_seating_lineup(
    *, fixture: Fixture, seated: set[int] | None = None
) -> dict[str, list[int]]:
    """Who takes each team's places at the fixture's live tables, in position order: its two
    players, except that one who said they cannot play the fixture (Availability) gives the
    place to the first of the team's registered reserves who said they can. With `seated`
    (the players already seated at the fixture's tables), a player not seated gives the place
    to a reserve who is: the tables, once set up, are who plays."""
    squads = fixture_squads(fixture=fixture)
    regulars = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    sides = {"home": regulars[fixture.home_team_id], "away": regulars[fixture.away_team_id]}
    said = dict(
        Availability.objects.filter(fixture_id=fixture.pk).values_list("player_id", "available")
    )
    lineup: dict[str, list[int]] = {}
    for side, players in sides.items():
        reserves = [pk for pk in squads[side] if pk not in players]
        if seated is not None:
            absent = [pk for pk in players if pk not in seated]
            standing_in = [pk for pk in reserves if pk in seated]
        else:
            absent = [pk for pk in players if said.get(pk) is False]
            standing_in = [pk for pk in reserves if said.get(pk) is True]
        replacements = dict(zip(absent, standing_in))
        lineup[side] = [replacements.get(pk, pk) for pk in players]
    return lineup


def lineup_record(*, fixture: Fixture, played: dict[str, list[int]]) -> dict[str, list[int]]:
    """What a result version keeps of who played (ResultVersion.lineup): each side's players
    in position order, and the substitutes among them, those who are not one of their team's
    two now (a later roster change rewrites nothing already played)."""
    regulars = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
    teams = {"home": fixture.home_team_id, "away": fixture.away_team_id}
    substitutes = [
        pk for side in ("home", "away") for pk in played[side] if pk not in regulars[teams[side]]
    ]
    return {"home": list(played["home"]), "away": list(played["away"]), "substitutes": substitutes}


def sheet_player_names(*, game: str, lineup: Lineup, sheets: list[Any]) -> dict[int, str]:
    """Names of the fixture's players and of anyone else named on the sheets shown."""
    names = {player.pk: player.name for player in lineup.players}
    kind = get_kind(game)
    named = set()
    for sheet in sheets:
        named |= kind.sheet_player_ids(sheet)
    missing = named - set(names)
    if missing:
        names.update(Player.objects.filter(pk__in=missing).values_list("pk", "name"))
    return names


@dataclass(frozen=True)
class LineupPlayer:
    """One player who played a result, for the pages: a substitute stood in for one of the
    team's two."""

    player: Player
    substitute: bool


def result_lineup_players(*, version: ResultVersion) -> dict[str, list[LineupPlayer]] | None:
    """Who played each side of the result (position order); None when the version names
    nobody (a walkover, or a result saved before lineups were kept). One query."""
    lineup = version.lineup or {}
    ids = [pk for side in ("home", "away") for pk in lineup.get(side, [])]
    if not ids:
        return None
    players = Player.objects.in_bulk(ids)
    substitutes = set(lineup.get("substitutes", []))
    return {
        side: [
            LineupPlayer(players[pk], pk in substitutes)
            for pk in lineup.get(side, [])
            if pk in players
        ]
        for side in ("home", "away")
    }
