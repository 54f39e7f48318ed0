"""Each game's sheet in the OpenAPI schema (scoring/results/sheet_serializers/<game>.py): the
shape only, for the schema's readers; the kind's validation checks a sheet."""

from scoring.kinds.registry import GameRegistry

SHEET_SERIALIZERS: GameRegistry[type] = GameRegistry.from_modules(
    "sheet serializer", __name__, lambda game, module: module.SHEET_SERIALIZER
)
