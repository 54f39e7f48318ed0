"""Reads for ratings: the results a game's ratings are computed from, and what the pages show.

Counted results are the current version of every fixture of the game that is not void, in
any league or season: a player has one rating per game. The pages read the stored, last
computed state (scoring.models.PlayerRating, RatingPoint, RatingRun); they never compute.
"""

from dataclasses import dataclass

from django.db.models import Count, Max, Sum

from leagues.models import Fixture, Player
from scoring.kinds import get_kind
from scoring.models import PlayerRating, RatingRun, ResultVersion, ResultVersionQuerySet
from scoring.ratings.games import RATED_MATCHES, not_rated
from scoring.ratings.replay import MODEL_NAME, RatedFixture

# A player is listed in a game's ratings table after this many rated games: before that the
# model knows too little (sigma is still large) for a place in a table to mean much.
MIN_GAMES_LISTED = 5


def _counted_versions(game: str) -> ResultVersionQuerySet:
    """The game's counted results that were played: a walkover rates nobody (no game)."""
    return (
        ResultVersion.objects.counted()
        .filter(fixture__season__league__game=game)
        .filter(walkover="")
    )


def ratings_results_stamp(*, game: str) -> str:
    """A fingerprint of the game's counted results: it changes when one is added, corrected
    (a new version has a new id), drops out (its fixture voided) or moves in the order (any
    change to one of the game's fixtures is a new history row). Two queries."""
    totals = _counted_versions(game).aggregate(count=Count("id"), ids=Sum("id"))
    changed = Fixture.history.filter(season__league__game=game).aggregate(last=Max("history_id"))
    return f"{totals['count']}:{totals['ids'] or 0}:{changed['last'] or 0}"


def rated_fixtures(*, game: str) -> list[RatedFixture]:
    """Every counted result of the game as the kind's rated matches, in the order played,
    each with the players recorded with its version (ResultVersion.lineup), not the teams'
    players now: a roster change leaves the games already played as they were, and a reserve
    who stood in is rated, not the player they stood in for. Walkovers are left out."""
    get_kind(game)  # ValueError for a game there is no kind of
    rows = (
        _counted_versions(game)
        .order_by("fixture__starts_at", "fixture_id")
        .values_list(
            "fixture_id", "fixture__starts_at", "fixture__season__rule_options", "sheet", "lineup"
        )
    )
    return [
        RatedFixture(
            fixture_id=fixture_id,
            played_at=played_at,
            matches=tuple(
                RATED_MATCHES.get(game, not_rated)(
                    sheet=sheet,
                    rule_options=rule_options,
                    home_player_ids=lineup.get("home", []),
                    away_player_ids=lineup.get("away", []),
                )
            ),
        )
        for fixture_id, played_at, rule_options, sheet, lineup in rows
    ]


@dataclass(frozen=True)
class RatingsTable:
    game: str
    rows: list[PlayerRating]  # best ordinal first, each with .position and .player
    unlisted: int  # players rated but with fewer than min_games
    min_games: int
    run: RatingRun | None
    model_name: str = MODEL_NAME


def ratings_table(*, game: str, min_games: int = MIN_GAMES_LISTED) -> RatingsTable:
    """The game's ratings table: players with at least `min_games` rated games, best first."""
    ratings = PlayerRating.objects.filter(game=game).select_related("player")
    rows = list(ratings.filter(games__gte=min_games).order_by("-ordinal", "player__name"))
    for position, row in enumerate(rows, 1):
        row.position = position  # type: ignore[attr-defined]  # the page's rank
    return RatingsTable(
        game=game,
        rows=rows,
        unlisted=ratings.filter(games__lt=min_games).count(),
        min_games=min_games,
        run=RatingRun.objects.filter(game=game).first(),
    )


def player_ratings(*, player: Player) -> list[PlayerRating]:
    """The player's current rating in each game they have played, most games first."""
    return list(PlayerRating.objects.filter(player=player).order_by("-games", "game"))
