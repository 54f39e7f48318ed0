"""REST API for a fixture's result: read the current result, submit or correct it.

Writes go through scoring.results.services.result_submit, the same service (permission, lock,
version check, sheet validation) as the staff form. Its refusals carry their own answers
(config/errors.py) and the API's exception handler sends them: SheetInvalid → 400 naming the
sheet field, PermissionDenied → 403, ResultConflict → 409 with the current version,
FixtureNotOpen → 409, BeforeFixtureDay → 409 naming the fixture's day, unknown fixture → 404.
Beside it: confirmation_api (confirm or dispute a result the other team entered, match night,
docs/match-night.md), history_api (every version) and walkover_api; the shapes they share are
api_shapes'.
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from knox.auth import TokenAuthentication
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from config.errors import Invalid, NotFound
from leagues.models import Fixture
from scoring.models import ResultVersion
from scoring.results.api_shapes import (
    ConflictOutputSerializer,
    ResultVersionOutputSerializer,
    SheetErrorOutputSerializer,
    SheetField,
    may_see_author,
    sheet_input_errors,
)
from scoring.results.selectors import (
    fixture_current_result,
    fixture_result_actions,
    result_version_json,
)
from scoring.results.services import (
    NOT_FIXTURE_PLAYER,
    NOTE_MAX_LENGTH,
    SUBMISSION_KEY_MAX_LENGTH,
    SUBMISSION_KEY_PATTERN,
    result_submit,
)


class LineupPlaceInputSerializer(serializers.Serializer):
    team = serializers.IntegerField(help_text="Team id: the fixture's home or away team.")
    player = serializers.IntegerField(
        help_text="Player id: one of the team's two players or its registered reserves."
    )
    substitute = serializers.BooleanField(
        required=False, help_text="Ignored: the server says who stood in (read it back)."
    )


class ResultSubmitInputSerializer(serializers.Serializer):
    sheet = SheetField(help_text="The result sheet of the fixture's game (shapes in docs/api.md).")
    based_on_version = serializers.IntegerField(
        min_value=0,
        help_text="The version you started from: 0 for a first result, the current "
        "version's number for a correction.",
    )
    note = serializers.CharField(
        max_length=NOTE_MAX_LENGTH,
        required=False,
        allow_blank=True,
        default="",
    )
    before_fixture_day = serializers.BooleanField(
        required=False,
        default=False,
        help_text="League admins only: record the result before the fixture's day (a match "
        "played early by agreement). Otherwise a result is refused until the fixture's day.",
    )
    lineup = LineupPlaceInputSerializer(
        many=True,
        required=False,
        help_text="Who played, when a reserve stood in: two places per team, each team's in "
        "position order (a substitute takes the absent player's place). Without it, the "
        "players the sheet names, or the teams' two players.",
    )


_SUBMIT_EXAMPLE = OpenApiExample(
    "Корова sheet",
    value={
        "sheet": {
            "players": [11, 12, 21, 22],
            "rounds": [[12, 30, 5, 8], [10, 40, 7, 9]],
        },
        "based_on_version": 0,
        "note": "",
    },
    request_only=True,
)


IDEMPOTENCY_KEY = "Idempotency-Key"
IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    IDEMPOTENCY_KEY,
    str,
    OpenApiParameter.HEADER,
    required=False,
    pattern=rf"^[!-~]{{1,{SUBMISSION_KEY_MAX_LENGTH}}}$",
    description="Optional: names this submission (1 to "
    f"{SUBMISSION_KEY_MAX_LENGTH} printable characters without spaces, a UUID for instance). "
    "Sent again with the same key for the same fixture, the submission writes nothing and is "
    "answered as the first one was: 201 with the version it wrote. A retry after a lost "
    "answer is therefore safe.",
)


class FixtureResultApi(APIView):
    """GET the current result of a fixture; POST a new version (a first result or a correction)."""

    # Token first, so that an anonymous POST is told how to authenticate (401).
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=["results"],
        summary="The current result of a fixture",
        responses={
            200: ResultVersionOutputSerializer,
            404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture or result"),
        },
    )
    def get(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        version = fixture_current_result(fixture=fixture)
        if version is None:
            raise NotFound(_("No result has been entered for this fixture yet."))
        return Response(
            result_version_json(version=version, show_author=may_see_author(request, fixture))
        )

    @extend_schema(
        tags=["results"],
        summary="Submit or correct the result of a fixture",
        description=(
            "Writes a new version of the fixture's result and marks the fixture played. "
            "Send `based_on_version` 0 for a first result, or the current version's number "
            "to correct it; if someone saved a newer version meanwhile the answer is 409 with "
            "that version, and nothing is written. A result is taken from the fixture's day "
            "on (409 `before_fixture_day` before that, unless a league admin sends "
            "`before_fixture_day: true`). Staff of the fixture's venue and league admins "
            "submit a confirmed result, which counts at once. The players of the fixture's two "
            "teams may submit too: theirs is `awaiting` (source `player`, `confirm_by` set by "
            "the season's confirmation window) until a player of the other team confirms or "
            "disputes it; a player may correct only their own team's awaiting result (409 "
            "`result_settled` otherwise). With an `Idempotency-Key` header a repeat of the same "
            "submission (a retry after a lost answer) is saved once and answered as the first "
            "one was."
        ),
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=ResultSubmitInputSerializer,
        examples=[_SUBMIT_EXAMPLE],
        responses={
            201: ResultVersionOutputSerializer,
            400: OpenApiResponse(SheetErrorOutputSerializer, description="Invalid sheet or input"),
            401: OpenApiResponse(ErrorOutputSerializer, description="Not authenticated"),
            403: OpenApiResponse(
                ErrorOutputSerializer,
                description="Neither staff of this venue nor a player of the fixture",
            ),
            404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture"),
            409: OpenApiResponse(
                ConflictOutputSerializer,
                description="Stale version, a void fixture, before the fixture's day, or a "
                "result a player may not change (result_settled)",
            ),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        # Permission before validation: who may not write learns nothing from the 400s.
        # (result_submit checks again under its lock: the venue may change meanwhile.)
        _ensure_staff_or_player(request, fixture)
        given = ResultSubmitInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(sheet_input_errors(given.errors), status=status.HTTP_400_BAD_REQUEST)
        key = request.headers.get(IDEMPOTENCY_KEY, "")
        if key and not SUBMISSION_KEY_PATTERN.match(key):
            return Response(
                {
                    "detail": _("The Idempotency-Key header is not a usable key."),
                    IDEMPOTENCY_KEY: [
                        _(
                            "A key is 1 to %(length)d printable characters without spaces "
                            "(a UUID, for instance)."
                        )
                        % {"length": SUBMISSION_KEY_MAX_LENGTH}
                    ],
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        version = result_submit(
            fixture_id=fixture.pk,
            sheet=given.validated_data["sheet"],
            based_on_version=given.validated_data["based_on_version"],
            by=request.user,
            source=ResultVersion.Source.API,
            note=given.validated_data["note"],
            before_fixture_day=given.validated_data["before_fixture_day"],
            lineup=_lineup_by_side(fixture, given.validated_data.get("lineup")),
            submission_key=key,
        )
        # A repeat of a submission (same key) answers as the first did: 201, the same version.
        return Response(
            result_version_json(version=version, show_author=may_see_author(request, fixture)),
            status=status.HTTP_201_CREATED,
        )


def _ensure_staff_or_player(request, fixture: Fixture) -> None:
    actions = fixture_result_actions(fixture=fixture, result=None, user=request.user)
    if not actions.staff and actions.player_team_id is None:
        raise PermissionDenied(str(NOT_FIXTURE_PLAYER))


def _lineup_by_side(fixture: Fixture, places: list[dict] | None) -> dict[str, list[int]] | None:
    """The API's lineup (a list of {"team", "player"}) as the service takes it, by side."""
    if places is None:
        return None
    sides = {fixture.home_team_id: "home", fixture.away_team_id: "away"}
    lineup: dict[str, list[int]] = {"home": [], "away": []}
    for place in places:
        side = sides.get(place["team"])
        if side is None:
            raise Invalid(
                errors={
                    "lineup": _("Team %(team)s does not play this fixture.")
                    % {"team": place["team"]}
                }
            )
        lineup[side].append(place["player"])
    return lineup
