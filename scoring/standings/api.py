"""REST API of the standings: a season's table, one division at a time."""

from django import forms
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from config.errors import Invalid
from leagues.api import (
    AsciiWholeNumberField,
    LeagueRefSerializer,
    SeasonRefSerializer,
    TeamRefSerializer,
)
from leagues.models import Season
from leagues.selectors import season_divisions
from scoring.results.selectors import season_unconfirmed_results
from scoring.standings.selectors import division_of, season_standings


def division_asked(query) -> int | None:
    """The `division` query parameter: a whole number in ASCII digits, or None when absent.
    Raises Invalid naming "division" for anything else."""
    field = AsciiWholeNumberField(required=False, min_value=1, max_value=2**63 - 1)
    try:
        return field.clean(query.get("division"))
    except forms.ValidationError as error:
        raise Invalid(errors={"division": error.messages}) from None


class AdjustmentOutputSerializer(serializers.Serializer):
    points = serializers.IntegerField(help_text="Points added (+) or taken away (−).")
    reason = serializers.CharField()
    on = serializers.DateField()


class DivisionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField(help_text="1 is the top division.")


class StandingRowOutputSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    shares_position = serializers.BooleanField(
        help_text="Level with another team on every tie-breaker."
    )
    team = TeamRefSerializer()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    score_for = serializers.IntegerField(
        help_text="For the team, in the game's own units (docs/scoring.md)."
    )
    score_against = serializers.IntegerField()
    difference = serializers.IntegerField(
        help_text="The game's difference, positive when good (Корова: heads against − for)."
    )
    points = serializers.IntegerField()
    form = serializers.ListField(
        child=serializers.ChoiceField(choices=["W", "D", "L"]),
        help_text="The last five results, newest last.",
    )
    zone = serializers.ChoiceField(
        choices=["promotion", "relegation"],
        allow_null=True,
        help_text="Where the team's place sends it at the season's end, or null.",
    )
    adjustment = serializers.IntegerField(
        help_text="The sum of the team's points adjustments (+ or −), already in `points`."
    )
    adjustments = AdjustmentOutputSerializer(many=True)
    withdrawn = serializers.BooleanField(
        help_text="The team withdrew and the season keeps its results (an expunged team has "
        "no row)."
    )


class StandingsOutputSerializer(serializers.Serializer):
    season = SeasonRefSerializer()
    league = LeagueRefSerializer(source="season.league")
    division = DivisionRefSerializer(allow_null=True)
    points = inline_serializer(
        "SeasonPoints",
        fields={
            "win": serializers.IntegerField(),
            "draw": serializers.IntegerField(),
            "loss": serializers.IntegerField(),
            "walkover_winner": serializers.IntegerField(
                help_text="For the team awarded a walkover."
            ),
            "walkover_loser": serializers.IntegerField(
                help_text="For the team that did not turn up."
            ),
        },
    )
    tie_breakers = serializers.ListField(child=serializers.CharField())
    rows = StandingRowOutputSerializer(many=True)
    uncounted = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Ids of this division's league fixtures whose current result the table does "
        "not count yet: awaiting confirmation or disputed (never a cup tie or a play-off).",
    )


class SeasonStandingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["seasons"],
        summary="The table of a season's division",
        parameters=[
            OpenApiParameter(
                "division",
                int,
                description="A division of the season (its id); the top division when left out.",
            )
        ],
        responses={
            200: StandingsOutputSerializer,
            400: OpenApiResponse(
                ErrorOutputSerializer, description="`division` is not one of the season's"
            ),
            404: OpenApiResponse(ErrorOutputSerializer, description="No such season"),
        },
    )
    def get(self, request, pk: int):
        season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
        divisions = season_divisions(season=season)
        division = division_of(divisions, division_asked(request.query_params))
        data = {
            "season": season,
            "division": division,
            "points": {
                "win": season.points_win,
                "draw": season.points_draw,
                "loss": season.points_loss,
                "walkover_winner": season.walkover_points_winner,
                "walkover_loser": season.walkover_points_loser,
            },
            "tie_breakers": list(season.tie_breakers or []),
            "rows": season_standings(season=season, division=division),
            "uncounted": [
                version.fixture_id
                for version in season_unconfirmed_results(
                    season_id=season.pk,
                    division=division,
                    top=division is None or division == divisions[0],
                )
            ],
        }
        return Response(StandingsOutputSerializer(data).data)
