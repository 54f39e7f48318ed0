"""REST API of the standings: a season's table."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from leagues.api import LeagueRefSerializer, SeasonRefSerializer, TeamRefSerializer
from leagues.models import Season
from scoring.results.selectors import season_unconfirmed_results
from scoring.standings.selectors import season_standings


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


class StandingsOutputSerializer(serializers.Serializer):
    season = SeasonRefSerializer()
    league = LeagueRefSerializer(source="season.league")
    points = inline_serializer(
        "SeasonPoints",
        fields={
            "win": serializers.IntegerField(),
            "draw": serializers.IntegerField(),
            "loss": serializers.IntegerField(),
        },
    )
    tie_breakers = serializers.ListField(child=serializers.CharField())
    rows = StandingRowOutputSerializer(many=True)
    uncounted = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Ids of the fixtures whose current result the table does not count yet: "
        "awaiting confirmation or disputed.",
    )


class SeasonStandingsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["seasons"],
        summary="The table of a season",
        responses={
            200: StandingsOutputSerializer,
            404: OpenApiResponse(ErrorOutputSerializer, description="No such season"),
        },
    )
    def get(self, request, pk: int):
        season = get_object_or_404(Season.objects.select_related("league"), pk=pk)
        data = {
            "season": season,
            "points": {
                "win": season.points_win,
                "draw": season.points_draw,
                "loss": season.points_loss,
            },
            "tie_breakers": list(season.tie_breakers or []),
            "rows": season_standings(season=season),
            "uncounted": [
                version.fixture_id for version in season_unconfirmed_results(season_id=season.pk)
            ],
        }
        return Response(StandingsOutputSerializer(data).data)
