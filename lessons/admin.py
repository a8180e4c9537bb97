"""Admin for the lesson content, the links, teachers' wordings and what happened in class."""

from django.contrib import admin

from lessons.models import (
    Lesson,
    LessonLink,
    LessonMoment,
    LessonOverride,
    LessonText,
    Quiz,
    QuizAnswer,
    QuizQuestion,
    QuizQuestionText,
    SessionLessonMode,
)


class LessonTextInline(admin.StackedInline):
    model = LessonText
    extra = 0


class QuizQuestionInline(admin.TabularInline):
    model = QuizQuestion
    extra = 0
    show_change_link = True


class LessonLinkInline(admin.TabularInline):
    model = LessonLink
    extra = 0


@admin.register(Lesson)
class LessonAdmin(admin.ModelAdmin):
    list_display = ["slug", "order", "core", "articles", "case_year"]
    list_filter = ["core"]
    search_fields = ["slug", "texts__title"]
    inlines = [LessonTextInline, QuizQuestionInline, LessonLinkInline]


@admin.register(LessonText)
class LessonTextAdmin(admin.ModelAdmin):
    list_display = ["lesson", "language", "title"]
    list_filter = ["language"]
    search_fields = ["title", "short", "body"]


class QuizQuestionTextInline(admin.StackedInline):
    model = QuizQuestionText
    extra = 0


@admin.register(QuizQuestion)
class QuizQuestionAdmin(admin.ModelAdmin):
    list_display = ["lesson", "number", "answer"]
    search_fields = ["lesson__slug", "texts__text"]
    inlines = [QuizQuestionTextInline]


@admin.register(LessonLink)
class LessonLinkAdmin(admin.ModelAdmin):
    list_display = ["game", "kind", "attributes", "event", "qualifier", "card_field", "lesson"]
    list_filter = ["game", "event", "kind"]


@admin.register(LessonOverride)
class LessonOverrideAdmin(admin.ModelAdmin):
    list_display = ["lesson", "language", "teacher", "updated_at"]
    list_filter = ["language"]
    raw_id_fields = ["teacher"]


@admin.register(LessonMoment)
class LessonMomentAdmin(admin.ModelAdmin):
    list_display = ["session", "table", "seat", "lesson", "event", "version", "created_at"]
    list_filter = ["event"]
    raw_id_fields = ["session"]


@admin.register(Quiz)
class QuizAdmin(admin.ModelAdmin):
    list_display = ["session", "participant", "table", "created_at", "finished_at"]
    raw_id_fields = ["session", "participant"]


@admin.register(QuizAnswer)
class QuizAnswerAdmin(admin.ModelAdmin):
    list_display = ["session", "participant", "question", "chosen", "correct", "answered_at"]
    list_filter = ["correct"]
    raw_id_fields = ["session", "participant", "question"]


@admin.register(SessionLessonMode)
class SessionLessonModeAdmin(admin.ModelAdmin):
    list_display = ["session", "mode", "updated_at"]
    list_filter = ["mode"]
    raw_id_fields = ["session"]
