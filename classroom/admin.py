"""Django admin for staff: classes, sessions and participants."""

from typing import cast

from django.contrib import admin

from classroom.models import ClassSession, Participant, SchoolClass


class ClassSessionInline(admin.TabularInline):
    model = ClassSession
    fields = ["join_code", "game", "variant", "language", "state", "created_at"]
    # Every field read-only: a list of names, which the stubs' type of fields is wider than.
    readonly_fields = cast(list[str], fields)
    extra = 0
    show_change_link = True
    can_delete = False


class ParticipantInline(admin.TabularInline):
    model = Participant
    fields = ["nickname", "joined_at", "last_seen_at", "kicked"]
    readonly_fields = ["joined_at", "last_seen_at"]
    extra = 0


@admin.register(SchoolClass)
class SchoolClassAdmin(admin.ModelAdmin):
    list_display = ["name", "teacher", "archived_at", "created_at"]
    list_filter = ["archived_at"]
    search_fields = ["name", "teacher__username"]
    raw_id_fields = ["teacher"]
    inlines = [ClassSessionInline]


@admin.register(ClassSession)
class ClassSessionAdmin(admin.ModelAdmin):
    list_display = ["join_code", "school_class", "game", "state", "locked", "created_at"]
    list_filter = ["state", "game", "language"]
    search_fields = ["join_code", "school_class__name", "school_class__teacher__username"]
    raw_id_fields = ["school_class"]
    readonly_fields = ["created_at", "started_at", "paused_at", "resumed_at", "ended_at"]
    inlines = [ParticipantInline]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ["nickname", "session", "joined_at", "last_seen_at", "kicked"]
    list_filter = ["kicked"]
    search_fields = ["nickname", "session__join_code"]
    raw_id_fields = ["session"]
    readonly_fields = ["device_id", "joined_at", "last_seen_at", "kicked_at"]
