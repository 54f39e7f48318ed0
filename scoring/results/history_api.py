"""REST API of a fixture's result history: every saved version, newest first, each with what
changed from the version before it."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from leagues.models import Fixture
from scoring.results.api_shapes import ResultVersionOutputSerializer, may_see_author
from scoring.results.selectors import fixture_result_history


class SheetChangeOutputSerializer(serializers.Serializer):
    path = serializers.CharField(help_text='The sheet field that changed, e.g. "rounds.3.2".')
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)


class ResultHistoryVersionOutputSerializer(ResultVersionOutputSerializer):
    """A version with what changed from the version before it (empty for the first)."""

    changes = serializers.SerializerMethodField()

    class Meta(ResultVersionOutputSerializer.Meta):
        fields = [*ResultVersionOutputSerializer.Meta.fields, "changes"]

    def to_representation(self, instance):
        return {**super().to_representation(instance), "changes": self.get_changes(instance)}

    @extend_schema_field(SheetChangeOutputSerializer(many=True))
    def get_changes(self, version) -> list[dict]:
        return [
            {"path": path, "before": before, "after": after}
            for path, before, after in getattr(version, "changes", [])
        ]


class FixtureResultHistoryApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["results"],
        summary="Every saved version of a fixture's result, newest first",
        responses={
            200: ResultHistoryVersionOutputSerializer(many=True),
            404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture"),
        },
    )
    def get(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        versions = fixture_result_history(fixture=fixture)
        show_author = may_see_author(request, fixture)
        return Response(
            ResultHistoryVersionOutputSerializer(
                versions, many=True, context={"show_author": show_author}
            ).data
        )
