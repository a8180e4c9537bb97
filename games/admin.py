from django.contrib import admin

from games.models import Match, MatchAction


class MatchActionInline(admin.TabularInline):
    model = MatchAction
    extra = 0
    can_delete = False
    readonly_fields = ["version", "seat", "action", "events", "created_at"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "variant", "num_seats", "version", "status", "created_at"]
    list_filter = ["game", "status"]
    readonly_fields = ["seed", "version", "snapshot", "result", "created_at", "updated_at"]
    inlines = [MatchActionInline]
