"""Live tables in the admin: to look at, not to edit. Every change to a table goes through
games.live.services under the table's lock, so the admin offers no add or change form; a stuck
table is fixed by its clock (the sweep) or by deleting it.

Nothing of a game's hidden information reaches the admin's pages (docs/live-tables.md,
"Hidden information"): the seed and the state (the deck and every hand) are neither shown nor
usable to filter, search or order the list, and the move log hides what a player at the table
could not see yet either.
"""

import json
from typing import ClassVar

from django.contrib import admin
from django.db.models.constants import LOOKUP_SEP
from django.utils.translation import gettext_lazy as _

from games.live.selectors import is_move_hidden

from .models import Seat, Table, TableMove

# What the table list may be filtered by: what its columns and its table pages show anyway.
# Django's admin filters by any field named in the address and answers with a count, so
# ?seed__lte=… would give the seed away a bit per request and ?state__icontains=… test a hand;
# any other field, a JSON key or a path through a related model is refused (400).
FILTERABLE_FIELDS = {"id", "game", "status", "players", "turn", "deadline", "fixture",
                     "fixture__id", "number", "created_by", "created_by__id", "created_at",
                     "finished_at"}  # fmt: skip
COMPARISONS = {"exact", "in", "isnull", "lt", "lte", "gt", "gte", "range"}


class SeatInline(admin.TabularInline):
    model = Seat
    # Annotated as a tuple so that `readonly_fields = fields` has a type the stubs take for both.
    fields: ClassVar[tuple[str, ...]] = ("seat", "name", "user", "player", "bot")
    readonly_fields = fields
    extra = 0
    can_delete = False


class TableMoveInline(admin.TabularInline):
    model = TableMove
    fields: ClassVar[tuple[str, ...]] = ("turn", "seat", "shown_move", "timeout", "at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def get_queryset(self, request):
        # The rule needs the table's status and turn; its seed and state are not even read.
        return (
            super()
            .get_queryset(request)
            .select_related("table")
            .defer("table__seed", "table__state")
        )

    @admin.display(description=_("move"))
    def shown_move(self, entry):
        # The admin reads as a spectator does: an unrevealed pick stays hidden until its turn
        # closes, whoever sits at the table.
        if is_move_hidden(table=entry.table, entry=entry, seat=None):
            return _("hidden while its turn is open")
        return json.dumps(entry.move, ensure_ascii=False)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "players", "turn", "deadline", "fixture", "created_at"]
    list_filter = ["game", "status"]
    # The state and the seed hold every hand and the deck: not shown.
    fields: ClassVar[tuple[str, ...]] = ("game", "players", "options", "status", "turn",
                                         "deadline", "fixture", "number", "fixture_day", "cut",
                                         "created_by", "created_at", "finished_at")  # fmt: skip
    readonly_fields = fields
    inlines = [SeatInline, TableMoveInline]

    def lookup_allowed(self, lookup, value, request):
        path, _, comparison = lookup.rpartition(LOOKUP_SEP)
        if comparison not in COMPARISONS:
            path = lookup
        return path in FILTERABLE_FIELDS and super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
