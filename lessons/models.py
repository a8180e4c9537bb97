"""GDPR lessons: shipped content in every language, links from cards and events, and
what happens in class (lesson moments, quizzes, answers, teachers' own wording)."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Lesson(models.Model):
    """One short GDPR lesson; its texts live in LessonText, one row per language."""

    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    core = models.BooleanField(
        _("core lesson"),
        default=False,
        help_text=_("Core lessons fill an end-of-game quiz when few lessons came up."),
    )
    articles = models.JSONField(
        _("GDPR articles"),
        default=list,
        help_text=_('Exact article numbers, like "9", "6(1)(a)" or "83(5)".'),
    )
    case_year = models.PositiveSmallIntegerField(_("year of the real case"))

    class Meta:
        verbose_name = _("lesson")
        verbose_name_plural = _("lessons")
        ordering = ["order", "slug"]

    def __str__(self) -> str:
        return self.slug

    def get_absolute_url(self) -> str:
        return reverse("lessons:detail", args=[self.slug])


class LessonText(models.Model):
    """A lesson's shipped texts in one language."""

    lesson = models.ForeignKey(
        Lesson, on_delete=models.CASCADE, related_name="texts", verbose_name=_("lesson")
    )
    language = models.CharField(_("language"), max_length=10)
    title = models.CharField(_("title"), max_length=150)
    short = models.TextField(
        _("short explanation"), help_text=_("At most two sentences: the in-game lesson card.")
    )
    body = models.TextField(_("longer explanation"))
    discussion = models.TextField(_("discussion question"))
    case_authority = models.CharField(_("case: authority or court"), max_length=200)
    case_outcome = models.TextField(_("case: amount or outcome"))

    class Meta:
        verbose_name = _("lesson text")
        verbose_name_plural = _("lesson texts")
        ordering = ["lesson", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["lesson", "language"], name="lessons_unique_text_language"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.lesson} ({self.language})"


class LessonOverride(models.Model):
    """A teacher's own wording of a lesson for their classes; blank fields keep the shipped text."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="lesson_overrides",
        verbose_name=_("teacher"),
    )
    lesson = models.ForeignKey(
        Lesson, on_delete=models.CASCADE, related_name="overrides", verbose_name=_("lesson")
    )
    language = models.CharField(_("language"), max_length=10)
    title = models.CharField(_("title"), max_length=150, blank=True)
    short = models.TextField(_("short explanation"), blank=True)
    body = models.TextField(_("longer explanation"), blank=True)
    discussion = models.TextField(_("discussion question"), blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("teacher's lesson wording")
        verbose_name_plural = _("teachers' lesson wordings")
        ordering = ["teacher", "lesson", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["teacher", "lesson", "language"], name="lessons_unique_override"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.lesson} ({self.language}) · {self.teacher}"


class QuizQuestion(models.Model):
    """A multiple-choice question of a lesson; ``answer`` indexes the choices in every language."""

    lesson = models.ForeignKey(
        Lesson, on_delete=models.CASCADE, related_name="questions", verbose_name=_("lesson")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    answer = models.PositiveSmallIntegerField(_("right choice (from 0)"))

    class Meta:
        verbose_name = _("quiz question")
        verbose_name_plural = _("quiz questions")
        ordering = ["lesson__order", "lesson__slug", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["lesson", "number"], name="lessons_unique_question_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.lesson} · Q{self.number}"


class QuizQuestionText(models.Model):
    """A quiz question in one language: the question, its choices, why the answer is right."""

    question = models.ForeignKey(
        QuizQuestion, on_delete=models.CASCADE, related_name="texts", verbose_name=_("question")
    )
    language = models.CharField(_("language"), max_length=10)
    text = models.TextField(_("question"))
    choices = models.JSONField(_("choices"), default=list)
    explanation = models.TextField(_("explanation"))

    class Meta:
        verbose_name = _("quiz question text")
        verbose_name_plural = _("quiz question texts")
        ordering = ["question", "language"]
        constraints = [
            models.UniqueConstraint(
                fields=["question", "language"], name="lessons_unique_question_language"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.question} ({self.language})"


class LessonLink(models.Model):
    """What opens a lesson in a game: a card (its kind, maybe some of its attributes) or
    an event.

    A card link names the card's ``kind`` and, in ``attributes``, the values of some of
    the card attributes its game lets a link name (``game.link_attributes``): the most
    specific link of a card wins. An event link names the event type and, optionally, a
    qualifier matched against the event's ``kind`` (or its ``cause``). An event link
    with ``card_field`` takes the lesson of the card that the event names in that field;
    if it names a lesson too, the event opens that one once the card's lesson was shown
    at the table (the card's own lesson first, then the event's).
    """

    game = models.CharField(_("game"), max_length=50, db_index=True)
    kind = models.CharField(_("card kind"), max_length=50, blank=True)
    attributes = models.JSONField(_("card attributes"), default=dict, blank=True)
    event = models.CharField(_("event type"), max_length=50, blank=True)
    qualifier = models.CharField(_("event kind or cause"), max_length=50, blank=True)
    card_field = models.CharField(_("event field naming the card"), max_length=50, blank=True)
    # A frequent event (an attack in a duel) opens its lesson once per table, not each time.
    once_per_table = models.BooleanField(_("once per table"), default=False)
    lesson = models.ForeignKey(
        Lesson,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="links",
        verbose_name=_("lesson"),
    )

    class Meta:
        verbose_name = _("lesson link")
        verbose_name_plural = _("lesson links")
        ordering = ["game", "event", "kind", "qualifier", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "kind", "attributes", "event", "qualifier"],
                name="lessons_unique_link",
            ),
            models.CheckConstraint(
                condition=(Q(event="") & ~Q(kind="") & ~Q(lesson=None) & Q(card_field=""))
                | (~Q(event="") & Q(kind="") & ~(Q(lesson=None) & Q(card_field=""))),
                name="lessons_link_card_or_event",
            ),
        ]

    def __str__(self) -> str:
        if self.event:
            what = f"{self.event}:{self.qualifier}" if self.qualifier else self.event
        else:
            what = ":".join([self.kind, *(str(v) for _k, v in sorted(self.attributes.items()))])
        return f"{self.game} · {what} → {self.lesson or self.card_field}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # One order of keys, so that the unique constraint compares like with like.
        self.attributes = dict(sorted((self.attributes or {}).items()))
        super().save(*args, **kwargs)


class LessonMoment(models.Model):
    """A lesson card shown at a table during play, kept for the debrief."""

    session = models.ForeignKey(
        "classroom.ClassSession",
        on_delete=models.CASCADE,
        related_name="lesson_moments",
        verbose_name=_("session"),
    )
    table = models.PositiveSmallIntegerField(_("table number"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    lesson = models.ForeignKey(
        Lesson, on_delete=models.CASCADE, related_name="moments", verbose_name=_("lesson")
    )
    event = models.CharField(_("event type"), max_length=50)
    details = models.JSONField(_("event"), default=dict, blank=True)
    # The match's version after the action that opened the lesson: the moments of one
    # action, found again when its followers run a second time after a lost connection.
    version = models.PositiveIntegerField(_("move"), null=True, blank=True)
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("lesson moment")
        verbose_name_plural = _("lesson moments")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.session} · {self.lesson} · {self.event}"


class Quiz(models.Model):
    """The questions drawn for one student at the end of a game, in order."""

    session = models.ForeignKey(
        "classroom.ClassSession",
        on_delete=models.CASCADE,
        related_name="quizzes",
        verbose_name=_("session"),
    )
    participant = models.ForeignKey(
        "classroom.Participant",
        on_delete=models.CASCADE,
        related_name="quizzes",
        verbose_name=_("participant"),
    )
    table = models.PositiveSmallIntegerField(_("table number"), null=True, blank=True)
    question_ids = models.JSONField(_("questions"), default=list)
    created_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("quiz")
        verbose_name_plural = _("quizzes")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "participant"], name="lessons_unique_quiz_participant"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} · {self.participant}"

    @property
    def is_finished(self) -> bool:
        """Tell whether the student answered every question."""
        return self.finished_at is not None

    def questions(self) -> list[QuizQuestion]:
        """Return the drawn questions, in the drawn order."""
        by_id = QuizQuestion.objects.select_related("lesson").in_bulk(self.question_ids)
        return [by_id[pk] for pk in self.question_ids if pk in by_id]


class QuizAnswer(models.Model):
    """One student's answer to one quiz question."""

    session = models.ForeignKey(
        "classroom.ClassSession",
        on_delete=models.CASCADE,
        related_name="quiz_answers",
        verbose_name=_("session"),
    )
    participant = models.ForeignKey(
        "classroom.Participant",
        on_delete=models.CASCADE,
        related_name="quiz_answers",
        verbose_name=_("participant"),
    )
    question = models.ForeignKey(
        QuizQuestion,
        on_delete=models.CASCADE,
        related_name="answers",
        verbose_name=_("question"),
    )
    chosen = models.PositiveSmallIntegerField(_("chosen answer (from 0)"))
    correct = models.BooleanField(_("correct"))
    answered_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("quiz answer")
        verbose_name_plural = _("quiz answers")
        ordering = ["answered_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["participant", "question"], name="lessons_unique_answer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant} · {self.question} · {self.chosen}"


class SessionLessonMode(models.Model):
    """How a session shows lesson moments during play: not at all, alongside play, or pausing."""

    class Mode(models.TextChoices):
        OFF = "off", _("Off: no lesson cards during play")
        SHOW = "show", _("Show: lesson cards appear, play goes on")
        PAUSE = "pause", _("Pause: the table waits until its players dismiss the card")

    session = models.OneToOneField(
        "classroom.ClassSession",
        on_delete=models.CASCADE,
        related_name="lesson_mode",
        verbose_name=_("session"),
    )
    mode = models.CharField(_("lesson cards"), max_length=10, choices=Mode.choices, default="show")
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("session lesson mode")
        verbose_name_plural = _("session lesson modes")

    def __str__(self) -> str:
        return f"{self.session} · {self.mode}"
