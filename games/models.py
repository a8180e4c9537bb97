"""Match persistence: a snapshot and an append-only action log per table.

A match is its seed plus its action log; the snapshot (the engine's JSON) and the
version are a cache of replaying the log, written in the same transaction as each
appended action. Its pause is its holds (``MatchHold``).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    """One game played at one table."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        FINISHED = "finished", _("finished")

    game = models.CharField(_("game"), max_length=40)
    variant = models.CharField(_("variant"), max_length=40)
    seed = models.BigIntegerField(_("seed"))
    num_seats = models.PositiveSmallIntegerField(_("seats"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    snapshot = models.JSONField(_("snapshot"))
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.RUNNING)
    result = models.JSONField(_("result"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # ``status`` is PAUSED while the match has a hold (MatchHold), since ``paused_at``:
    # both are written with the holds, and the timers move later by the pause when the
    # last hold goes (games.matches).
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game}/{self.variant} #{self.pk} v{self.version}"


class MatchAction(models.Model):
    """One accepted action, in order; never updated, never deleted on its own."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    # The match version this action produced: 1 for the first action.
    version = models.PositiveIntegerField(_("version"))
    # None is the referee (timer expiries); otherwise the seat number.
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    action = models.JSONField(_("action"))
    events = models.JSONField(_("events"), default=list)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("match action")
        verbose_name_plural = _("match actions")
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="one_action_per_version"),
        ]

    def __str__(self) -> str:
        return f"#{self.match_id} v{self.version} seat {self.seat}: {self.action.get('type')}"


class MatchTimer(models.Model):
    """A running engine timer with its absolute due time, recorded when it first appeared.

    The engine only says "timer w12 runs for 15 s"; the server stores when it is due, so
    that the deadline shown to players, the Celery task that fires it and the sweeper
    that catches up after a restart all agree, and a restart loses no timer.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="timers")
    timer_id = models.CharField(_("timer"), max_length=40)
    seconds = models.PositiveIntegerField(_("seconds"))
    due_at = models.DateTimeField(_("due at"), db_index=True)
    # The referee's action that the engine expects when the timer expires.
    action = models.JSONField(_("action"))

    class Meta:
        verbose_name = _("match timer")
        verbose_name_plural = _("match timers")
        ordering = ["due_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "timer_id"], name="one_record_per_timer"),
        ]

    def __str__(self) -> str:
        return f"#{self.match_id} {self.timer_id} due {self.due_at:%H:%M:%S}"


class MatchHold(models.Model):
    """Something that holds a match still: the match is paused while it has any hold.

    The teacher holds a table (``table``) or the whole session (``session``, one hold on
    each of its matches) until they resume it; in the "pause" lesson mode each lesson
    card shown holds the match (``lesson``) until the human seats it was shown to have
    dismissed it, the teacher ends it, or it expires (``expires_at``: the sweeper lets
    go of it). Holds are taken and released under the match's row lock
    (games.matches), which also checks them before every action; they go with the match.
    """

    class Kind(models.TextChoices):
        TABLE = "table", _("table")
        SESSION = "session", _("session")
        LESSON = "lesson", _("lesson")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="holds")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind)
    # A lesson hold: the lesson moment shown (a lessons.LessonMoment id, the protocol's
    # "moment"), the engine event that opened it, the lesson card as it was sent, the
    # seats involved and the human seats it still waits for.
    moment = models.PositiveIntegerField(_("lesson moment"), null=True, blank=True)
    event = models.CharField(_("event"), max_length=40, blank=True)
    lesson = models.JSONField(_("lesson"), default=dict, blank=True)
    seats = models.JSONField(_("seats"), default=list, blank=True)
    waiting = models.JSONField(_("waiting for"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"))
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("match hold")
        verbose_name_plural = _("match holds")
        ordering = ["match", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="lesson", moment__isnull=False)
                | (~models.Q(kind="lesson") & models.Q(moment__isnull=True)),
                name="a_lesson_hold_has_its_moment",
            ),
            models.UniqueConstraint(
                fields=["match", "kind"],
                condition=models.Q(moment__isnull=True),
                name="one_teacher_hold_of_each_kind",
            ),
            models.UniqueConstraint(
                fields=["match", "moment"],
                condition=models.Q(moment__isnull=False),
                name="one_hold_per_lesson_moment",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.match_id} held: {self.kind}"

    def as_moment(self) -> dict:
        """Return a lesson hold as an entry of the lesson pause's ``moments``."""
        return {
            "moment": self.moment,
            "event": self.event,
            "lesson": self.lesson,
            "seats": self.seats,
            "waiting": self.waiting,
        }
