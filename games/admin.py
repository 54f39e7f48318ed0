"""Live tables in the admin: to look at, not to edit. Every change to a table goes through
games.services under the table's lock, so the admin offers no add or change form; a stuck
table is fixed by its clock (the sweep) or by deleting it."""

from django.contrib import admin

from .models import Seat, Table, TableMove


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["seat", "name", "user", "player", "bot"]
    readonly_fields = fields
    extra = 0
    can_delete = False


class TableMoveInline(admin.TabularInline):
    model = TableMove
    fields = ["turn", "seat", "move", "timeout", "at"]
    readonly_fields = fields
    extra = 0
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "status", "players", "turn", "deadline", "fixture", "created_at"]
    list_filter = ["game", "status"]
    # The state and the seed hold every hand and the deck: not shown.
    fields = ["game", "players", "options", "status", "turn", "deadline", "fixture", "number",
              "cut", "created_by", "created_at", "finished_at"]  # fmt: skip
    readonly_fields = fields
    inlines = [SeatInline, TableMoveInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
