"""REST API for results: read a fixture's result and its history, submit or correct a result,
and (match night, docs/match-night.md) confirm or dispute a result the other team entered.

Writes go through scoring.results.services.result_submit, the same service (permission, lock,
version check, sheet validation) as the staff form. Its refusals carry their own answers
(config/errors.py) and the API's exception handler sends them: SheetInvalid → 400 naming the
sheet field, PermissionDenied → 403, ResultConflict → 409 with the current version,
FixtureNotOpen → 409, BeforeFixtureDay → 409 naming the fixture's day, unknown fixture → 404.
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from knox.auth import TokenAuthentication
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from config.errors import Invalid
from leagues.models import Fixture
from leagues.permissions import can_enter_results, ensure_can_enter_results
from scoring.kinds import all_kinds
from scoring.models import ResultVersion
from scoring.results.selectors import (
    fixture_current_result,
    fixture_result_actions,
    fixture_result_history,
    result_version_json,
)
from scoring.results.services import (
    NOT_FIXTURE_PLAYER,
    NOTE_MAX_LENGTH,
    SUBMISSION_KEY_MAX_LENGTH,
    SUBMISSION_KEY_PATTERN,
    result_answer_check,
    result_answer_version_check,
    result_confirm,
    result_dispute,
    result_submit,
    result_walkover_award,
)
from scoring.results.sheet_serializers import SHEET_SERIALIZERS
from scoring.results.sheets import unstorable_character

# The sheet in the OpenAPI schema: one component per game (KorovaSheet, ConquianSheet,
# ConvoySheet, ...), each declared by its kind; the fixture's game decides which applies.
# Only the schema: the kind's own validation checks a sheet (every message names its field).
SHEET_SCHEMA = PolymorphicProxySerializer(
    component_name="ResultSheet",
    serializers=[SHEET_SERIALIZERS.get(kind.game) for kind in all_kinds()],
    resource_type_field_name=None,
)


@extend_schema_field(SHEET_SCHEMA)
class SavedSheetField(serializers.DictField):
    """A saved sheet, described in the schema by its game's shape."""


# ---- Output shapes ----------------------------------------------------------------------------


class LineupPlaceOutputSerializer(serializers.Serializer):
    team = serializers.IntegerField(help_text="Team id.")
    player = serializers.IntegerField(help_text="Player id.")
    substitute = serializers.BooleanField(
        help_text="A registered reserve who stood in for one of the team's two players."
    )


class ResultVersionOutputSerializer(serializers.ModelSerializer):
    """One saved version of a fixture's result."""

    fixture = serializers.IntegerField(source="fixture_id")
    version = serializers.IntegerField(source="number")
    sheet = SavedSheetField(help_text="The game's result sheet: the shape of the fixture's game.")
    created_by = serializers.CharField(
        allow_null=True,
        read_only=True,
        help_text="Who saved it: shown to staff of the fixture's venue and admins, else null.",
    )
    walkover = serializers.ChoiceField(
        choices=ResultVersion.Walkover.values,
        allow_null=True,
        help_text='null, or "home" / "away": the team awarded a walkover (no game was played; '
        "the sheet is empty and the scores are the season's walkover score).",
    )
    lineup = LineupPlaceOutputSerializer(
        many=True,
        help_text="The players who played, home team's first, each team's in position order "
        "(empty for a walkover).",
    )

    class Meta:
        model = ResultVersion
        fields = [
            "fixture",
            "version",
            "is_current",
            "home_score",
            "away_score",
            "winner",
            "sheet",
            "source",
            "note",
            "created_at",
            "created_by",
            "walkover",
            "lineup",
            "confirmation",
            "confirm_by",
        ]
        extra_kwargs = {
            "confirmation": {
                "required": True,
                "help_text": "confirmed: it counts in the table; awaiting: entered by a player, "
                "waiting for the other team (or the window); disputed: staff decide.",
            },
            "confirm_by": {
                "required": True,
                "help_text": "When an awaiting result counts without an answer (UTC); null "
                "once confirmed, and while disputed.",
            },
        }

    def to_representation(self, instance):
        # The fields above describe the schema; the body is the results' own JSON of a
        # version, which a ResultConflict carries too.
        return result_version_json(
            version=instance, show_author=bool(self.context.get("show_author"))
        )


class SheetErrorOutputSerializer(serializers.Serializer):
    sheet = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='Problems of the sheet by field path, e.g. {"rounds.3.2": ["…"]}.',
    )
    based_on_version = serializers.ListField(child=serializers.CharField(), required=False)
    note = serializers.ListField(child=serializers.CharField(), required=False)
    non_field_errors = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The body is not a JSON object.",
    )
    detail = serializers.CharField(required=False, help_text="The body is not valid JSON.")


class ConflictOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
    based_on_version = serializers.ListField(child=serializers.CharField(), required=False)
    current_version = ResultVersionOutputSerializer(allow_null=True, required=False)
    code = serializers.ChoiceField(
        choices=["before_fixture_day"],
        required=False,
        help_text="before_fixture_day: the fixture's day has not come yet.",
    )
    fixture_day = serializers.DateField(
        required=False, help_text="With before_fixture_day: the day the fixture is played."
    )
    before_fixture_day = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="With before_fixture_day: how a league admin records the result anyway.",
    )


def _show_author(request, fixture: Fixture) -> bool:
    return can_enter_results(user=request.user, venue_id=fixture.venue_id)


# ---- Submit and read a fixture's result -------------------------------------------------------


@extend_schema_field(SHEET_SCHEMA)
class SheetField(serializers.DictField):
    """The sheet as sent: a JSON object whose text PostgreSQL can store and JSON can carry.

    Like DRF's CharField, it refuses null characters and lone surrogates (a JSON "\\ud800"),
    naming the field path where it found them; the game's rules are scoring.results.sheets' business.
    """

    def to_internal_value(self, data):
        sheet = super().to_internal_value(data)
        problem = _unusable_text(sheet)
        if problem is not None:
            path, message = problem
            raise serializers.ValidationError({path or "non_field_errors": [message]})
        return sheet


def _unusable_text(sheet) -> tuple[str, str] | None:
    """(field path, message) for the first key or text that holds a NUL or a lone surrogate."""
    stack = [(sheet, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            bad = unstorable_character(value)
            if bad:
                return path, _("Text with %(character)s is not allowed.") % {"character": bad}
        elif isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                bad = unstorable_character(key) if isinstance(key, str) else None
                if bad:
                    return path, _("A field name with %(character)s is not allowed.") % {
                        "character": bad
                    }
                stack.append((child, f"{path}.{key}" if path else str(key)))
    return None


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
            return Response(
                {"detail": _("No result has been entered for this fixture yet.")},
                status=status.HTTP_404_NOT_FOUND,
            )
        return Response(
            result_version_json(version=version, show_author=_show_author(request, fixture))
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
            return Response(_input_errors(given.errors), status=status.HTTP_400_BAD_REQUEST)
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
            result_version_json(version=version, show_author=_show_author(request, fixture)),
            status=status.HTTP_201_CREATED,
        )


def _ensure_staff_or_player(request, fixture: Fixture) -> None:
    actions = fixture_result_actions(fixture=fixture, result=None, user=request.user)
    if not actions.staff and actions.player_team_id is None:
        raise PermissionDenied(str(NOT_FIXTURE_PLAYER))


# ---- Confirm or dispute a result the other team entered ---------------------------------------


def _ensure_player(request, fixture: Fixture) -> None:
    """Before validation, as for a submission: who may not answer (anyone but a player of the
    team that did not enter the result) gets 403 whatever the version or the body, and learns
    nothing from 400s or 409s. (The service asks again under its lock.)"""
    result_answer_check(fixture=fixture, by=request.user)


class ResultConfirmInputSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1, help_text="The current version's number: the awaiting result you answer."
    )


class ResultDisputeInputSerializer(ResultConfirmInputSerializer):
    reason = serializers.CharField(
        max_length=NOTE_MAX_LENGTH, help_text="Why the result is wrong (the version's note)."
    )
    sheet = SheetField(
        required=False,
        help_text="Optional: your team's account of the sheet (the fixture's game's shape); "
        "without it the disputed sheet is kept beside your reason.",
    )


class ConfirmationConflictOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="not_current_version: answer the current version, or none."
    )
    version = serializers.IntegerField(help_text="The current version's number.")


_ANSWER_RESPONSES = {
    200: ResultVersionOutputSerializer,
    401: OpenApiResponse(ErrorOutputSerializer, description="Not authenticated"),
    403: OpenApiResponse(
        ErrorOutputSerializer,
        description="Not a player of the team that did not enter it (the enterer and their "
        "partner included), or staff",
    ),
    404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture, or no result"),
    409: OpenApiResponse(
        ConfirmationConflictOutputSerializer,
        description="`version` is not the current version, or the result no longer awaits "
        "an answer (confirmed or disputed already)",
    ),
}


class FixtureResultConfirmApi(APIView):
    """A player of the team that did not enter the awaiting result confirms it."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["results"],
        summary="Confirm the result the other team entered",
        description=(
            "Writes the next version: the same sheet, `confirmation` `confirmed` (it counts in "
            "the table from now on). Open to the players of the team that did not enter the "
            "awaiting result; 403 for anyone else, the player who entered it and their partner "
            "included. 409 with the current `version` when `version` is not the current one, "
            "or when the result no longer awaits (already confirmed, or disputed)."
        ),
        request=ResultConfirmInputSerializer,
        responses={
            **_ANSWER_RESPONSES,
            400: OpenApiResponse(ErrorOutputSerializer, description="No valid version"),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        _ensure_player(request, fixture)
        given = ResultConfirmInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(given.errors, status=status.HTTP_400_BAD_REQUEST)
        version = result_confirm(
            fixture_id=fixture.pk, version=given.validated_data["version"], by=request.user
        )
        return Response(
            result_version_json(version=version, show_author=_show_author(request, fixture))
        )


class FixtureResultDisputeApi(APIView):
    """A player of the team that did not enter the awaiting result disputes it."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["results"],
        summary="Dispute the result the other team entered",
        description=(
            "Writes the next version, `confirmation` `disputed`, with `reason` as its note and "
            "(optionally) your own `sheet`: it does not count, and no window confirms it; the "
            "venue's staff and the league's admins decide. The same people as for confirming "
            "may dispute, with the same 403 and 409; `reason` is required (400 naming it)."
        ),
        request=ResultDisputeInputSerializer,
        responses={
            **_ANSWER_RESPONSES,
            400: OpenApiResponse(
                SheetErrorOutputSerializer, description="No reason, or an invalid sheet"
            ),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        _ensure_player(request, fixture)
        given = ResultDisputeInputSerializer(data=request.data)
        if not given.is_valid():
            answered = ResultConfirmInputSerializer(data=request.data)
            if answered.is_valid():  # a stale version is told (409) before the body (400)
                result_answer_version_check(
                    fixture=fixture, version=answered.validated_data["version"]
                )
            return Response(_input_errors(given.errors), status=status.HTTP_400_BAD_REQUEST)
        version = result_dispute(
            fixture_id=fixture.pk,
            version=given.validated_data["version"],
            reason=given.validated_data["reason"],
            sheet=given.validated_data.get("sheet"),
            by=request.user,
        )
        return Response(
            result_version_json(version=version, show_author=_show_author(request, fixture))
        )


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


def _input_errors(errors) -> dict:
    """The input serializer's errors, with "sheet" always an object of field paths."""
    body = dict(errors)
    if isinstance(body.get("sheet"), list):
        body["sheet"] = {"non_field_errors": body["sheet"]}
    return body


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
        show_author = _show_author(request, fixture)
        return Response(
            ResultHistoryVersionOutputSerializer(
                versions, many=True, context={"show_author": show_author}
            ).data
        )


# ---- Award a walkover -------------------------------------------------------------------------


class WalkoverInputSerializer(serializers.Serializer):
    team = serializers.CharField(
        help_text='"home" or "away": the team that turned up, awarded the fixture.'
    )
    note = serializers.CharField(
        max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default=""
    )


class WalkoverErrorOutputSerializer(serializers.Serializer):
    team = serializers.ListField(child=serializers.CharField(), required=False)
    note = serializers.ListField(child=serializers.CharField(), required=False)
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)
    detail = serializers.CharField(required=False)


class FixtureWalkoverApi(APIView):
    """POST: award the fixture to the team that turned up (a walkover)."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=["results"],
        summary="Award a walkover",
        description=(
            "The other team did not turn up: the fixture's result becomes a walkover to "
            "`team`, a new version like any other (empty sheet, the season's walkover score, "
            "`walkover` set). It counts in the table with the season's walkover points and "
            "never in ratings or players' figures. Staff of the fixture's venue and league "
            "admins only. A walkover may replace a walkover, never a played result (409: "
            "correct or void that first)."
        ),
        request=WalkoverInputSerializer,
        examples=[OpenApiExample("Home team turned up", value={"team": "home", "note": ""})],
        responses={
            201: ResultVersionOutputSerializer,
            400: OpenApiResponse(WalkoverErrorOutputSerializer, description="Bad team or note"),
            401: OpenApiResponse(ErrorOutputSerializer, description="Not authenticated"),
            403: OpenApiResponse(ErrorOutputSerializer, description="Not staff of this venue"),
            404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture"),
            409: OpenApiResponse(
                ConflictOutputSerializer,
                description="A played result stands, a void fixture, or before its day",
            ),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        ensure_can_enter_results(user=request.user, venue_id=fixture.venue_id)
        given = WalkoverInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(given.errors, status=status.HTTP_400_BAD_REQUEST)
        version = result_walkover_award(
            fixture_id=fixture.pk,
            team=given.validated_data["team"],
            by=request.user,
            note=given.validated_data["note"],
        )
        return Response(
            result_version_json(version=version, show_author=True), status=status.HTTP_201_CREATED
        )
