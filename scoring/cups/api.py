"""Read-only REST API of cups (/api/cups/): a cup's rounds and ties, round 1 first
(docs/api.md, "Cups"). Anyone may read; three queries whatever the page holds."""

from typing import Any

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers

from leagues.api import ReadOnlyApi, WholeNumberFilter
from leagues.models import Cup, CupRound, CupTie, Game
from scoring.cups.selectors import cup_queryset


class CupTieOutputSerializer(serializers.ModelSerializer):
    fixture = serializers.PrimaryKeyRelatedField[Any](
        read_only=True,
        allow_null=True,
        help_text="The tie's fixture, or null (a bye, or a tie whose teams are not known yet).",
    )
    home = serializers.PrimaryKeyRelatedField[Any](
        read_only=True, allow_null=True, help_text="Team id, or null while not known."
    )
    away = serializers.PrimaryKeyRelatedField[Any](
        read_only=True, allow_null=True, help_text="Team id, or null (a bye, or not known yet)."
    )
    bye = serializers.BooleanField(help_text="The home team goes through without playing.")
    winner = serializers.PrimaryKeyRelatedField[Any](
        read_only=True, allow_null=True, help_text="The team that went through, or null."
    )

    class Meta:
        model = CupTie
        fields = ["fixture", "home", "away", "bye", "winner"]


class CupRoundOutputSerializer(serializers.ModelSerializer):
    ties = CupTieOutputSerializer(many=True, help_text="Top of the bracket first.")

    class Meta:
        model = CupRound
        fields = ["number", "name", "ties"]


class CupOutputSerializer(serializers.ModelSerializer):
    game = serializers.ChoiceField(choices=Game.choices, source="season.league.game")
    season = serializers.PrimaryKeyRelatedField[Any](read_only=True, allow_null=True)
    rounds = CupRoundOutputSerializer(many=True, help_text="Round 1 first.")

    class Meta:
        model = Cup
        fields = ["id", "name", "game", "season", "rounds"]


class CupFilter(filters.FilterSet):
    season = WholeNumberFilter(field_name="season_id", help_text="Season id")
    game = filters.ChoiceFilter(field_name="season__league__game", choices=Game.choices)

    class Meta:
        model = Cup
        fields = ["season", "game"]


@extend_schema(tags=["cups"], summary="List cups")
class CupListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = CupOutputSerializer
    filterset_class = CupFilter

    def get_queryset(self):
        return cup_queryset().order_by("pk")


@extend_schema(tags=["cups"], summary="A cup: its rounds and ties, round 1 first")
class CupDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = CupOutputSerializer

    def get_queryset(self):
        return cup_queryset()
