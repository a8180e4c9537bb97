"""Classes, their live sessions, and the students (participants) who join them."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import clock

# The most students one session admits (the teacher's roster counts too).
MAX_PARTICIPANTS = 60
# A play socket refreshes its seat's last_seen_at this often; a seat not refreshed for
# SEAT_STALE_SECONDS counts as disconnected (its server may have been killed).
HEARTBEAT_SECONDS = 20
SEAT_STALE_SECONDS = 60


class SchoolClass(models.Model):
    """A teacher's class: a name and an optional roster of student pseudonyms (emptied
    ``ROSTER_DAYS`` after the class was last used: classroom.retention)."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="school_classes",
        verbose_name=_("teacher"),
    )
    name = models.CharField(_("name"), max_length=100)
    roster = models.TextField(
        _("roster"),
        blank=True,
        help_text=_("Student pseudonyms, one per line."),
    )
    archived_at = models.DateTimeField(_("archived at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("class")
        verbose_name_plural = _("classes")
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("classroom:class_detail", args=[self.pk])

    @property
    def is_archived(self) -> bool:
        """Tell whether the class is archived."""
        return self.archived_at is not None

    def pseudonyms(self) -> list[str]:
        """Return the roster's pseudonyms in order, without blank lines."""
        return [line.strip() for line in self.roster.splitlines() if line.strip()]


class ClassSession(models.Model):
    """One live session of a game for a class: students join it by code."""

    class State(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")

    school_class = models.ForeignKey(
        SchoolClass,
        on_delete=models.CASCADE,
        related_name="sessions",
        verbose_name=_("class"),
    )
    game = models.CharField(_("game"), max_length=50)
    variant = models.CharField(_("variant"), max_length=50)
    language = models.CharField(_("language"), max_length=10)
    table_size = models.PositiveSmallIntegerField(_("table size"))
    bots_fill = models.BooleanField(_("bots fill empty seats"), default=False)
    # The kind of bot (a key of the game's ``bots``) that fills empty seats and plays for
    # an absent student; "" for the server's LIVE_BOT_KIND.
    bot = models.CharField(_("bot"), max_length=30, blank=True, default="")
    # The game's options the teacher set (the game's clean_options checked them); a
    # missing key takes the game's, or its variant's, default.
    options = models.JSONField(_("game options"), default=dict, blank=True)
    join_code = models.CharField(_("join code"), max_length=6, db_index=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.LOBBY)
    locked = models.BooleanField(_("lobby locked"), default=False)
    # Each new nickname waits for the teacher's approval before it gets a seat.
    approve_joins = models.BooleanField(_("approve each new nickname"), default=False)
    # Students get a generated nickname (adjective + animal) instead of typing one.
    generated_nicknames = models.BooleanField(_("nicknames from a generator only"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    resumed_at = models.DateTimeField(_("resumed at"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    purged_at = models.DateTimeField(_("student data purged at"), null=True, blank=True)

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["join_code"],
                condition=~Q(state="finished"),
                name="classroom_unique_open_join_code",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.school_class} · {self.join_code}"

    def get_absolute_url(self) -> str:
        return reverse("classroom:session_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        """Tell whether students may still be in the session (it has not ended)."""
        return self.state != self.State.FINISHED

    def active_participants(self) -> models.QuerySet[Participant]:
        """Return the participants who have not been removed, in joining order."""
        return self.participants.filter(kicked=False).order_by("joined_at", "pk")

    def pending_join_requests(self) -> models.QuerySet[JoinRequest]:
        """Return the join requests that wait for the teacher and have not expired, oldest
        first; none once the session has ended (nobody can join it any more: ending it
        marks them expired, classroom.actions.do_end_session)."""
        if not self.is_open:
            return JoinRequest.objects.none()
        return JoinRequest.waiting().filter(session=self).order_by("created_at", "pk")


class Participant(models.Model):
    """A student in a session: a nickname on a device, no account."""

    session = models.ForeignKey(
        ClassSession,
        on_delete=models.CASCADE,
        related_name="participants",
        verbose_name=_("session"),
    )
    nickname = models.CharField(_("nickname"), max_length=20)
    # The nickname's look-alike key (classroom.nicknames.nickname_key): unique in its session.
    nickname_key = models.CharField(_("nickname key"), max_length=40, editable=False)
    device_id = models.CharField(_("device id"), max_length=64, db_index=True)
    # The network address the student joined from, as an HMAC keyed by the secret key
    # and the session (classroom.identity.address_hash): it only tells whether a later
    # join comes from the same address as a removed student, within this session.
    address_hash = models.CharField(_("address hash"), max_length=64, blank=True, default="")
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    last_seen_at = models.DateTimeField(_("last seen at"), auto_now_add=True)
    kicked = models.BooleanField(_("removed"), default=False)
    kicked_at = models.DateTimeField(_("removed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "nickname_key"],
                name="classroom_unique_nickname_in_session",
            ),
        ]

    def __str__(self) -> str:
        return self.nickname


class Table(models.Model):
    """One table of a running session: its seats play one match."""

    session = models.ForeignKey(
        ClassSession, on_delete=models.CASCADE, related_name="tables", verbose_name=_("session")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="table", verbose_name=_("match")
    )
    # The teacher paused this table (the whole session may be paused as well); the
    # match's "table" hold (games.MatchHold) is what holds the match still.
    paused = models.BooleanField(_("paused"), default=False)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="one_table_number"),
        ]

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    """A seat at a table: a student, or a bot; a student's seat may be handed to a bot."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # The engine's seat number, 0-based.
    number = models.PositiveSmallIntegerField(_("number"))
    participant = models.ForeignKey(
        Participant,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("participant"),
    )
    # The kind of bot (a key of the game's ``bots``) that plays this seat, "" for a student.
    bot = models.CharField(_("bot"), max_length=30, blank=True, default="")
    # The teacher handed this student's seat to a bot (the student may get it back).
    bot_takeover = models.BooleanField(_("played by a bot"), default=False)
    # Open sockets on this seat, and when one was last seen.
    connected = models.PositiveSmallIntegerField(_("connected sockets"), default=0)
    last_seen_at = models.DateTimeField(_("last seen at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_number"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """Return the student's nickname, or the bot's name.

        A removed student's nickname is shown nowhere again: their seat (a bot plays it
        on) reads "Removed student", in the live game, the dashboard and the debrief.
        """
        if self.participant is not None:
            if self.participant.kicked:
                return gettext("Removed student")
            return self.participant.nickname
        return _("Bot %(number)s") % {"number": self.number + 1}

    @property
    def is_connected(self) -> bool:
        """Tell whether a socket holds the seat now (a bot's seat always is).

        A socket refreshes ``last_seen_at`` every HEARTBEAT_SECONDS, so a count left
        behind by a server that was killed turns stale instead of lying forever.
        """
        if self.bot_kind:
            return True
        if self.connected <= 0 or self.last_seen_at is None:
            return False
        return clock.now() - self.last_seen_at < timedelta(seconds=SEAT_STALE_SECONDS)

    @property
    def bot_kind(self) -> str:
        """Return the kind of bot that plays this seat now, or "" when a person does."""
        if self.participant_id is None:  # the id: asking needs no read of the student
            return self.bot or "random"
        return (self.bot or settings.LIVE_BOT_KIND) if self.bot_takeover else ""


class SeatMove(models.Model):
    """A student asks to move their place to another device; the teacher approves it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")
        DONE = "done", _("done")

    participant = models.ForeignKey(
        Participant,
        on_delete=models.CASCADE,
        related_name="moves",
        verbose_name=_("participant"),
    )
    device_id = models.CharField(_("new device id"), max_length=64)
    # What the teacher sees of the asking device ("3fa1 · Firefox, Android"), kept only
    # while the request is pending.
    device_label = models.CharField(_("device"), max_length=60, blank=True, default="")
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("device change")
        verbose_name_plural = _("device changes")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.participant} → {self.device_id[:6]} ({self.status})"


class JoinRequest(models.Model):
    """A new nickname that waits for the teacher's approval before it gets a seat.

    Asked when the session approves each new nickname, or when the device or the
    network address was a removed student's (classroom.actions.join_approval_reason).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")
        # Not answered within settings.JOIN_REQUEST_MINUTES: the device may ask again.
        EXPIRED = "expired", _("expired")

    class Reason(models.TextChoices):
        APPROVAL = "approval", _("The teacher approves each new nickname")
        REMOVED_DEVICE = "removed_device", _("This device was a removed student's")
        REMOVED_ADDRESS = "removed_address", _("Same network as a removed student")
        MANY_FROM_ADDRESS = "many", _("Many students from the same network")

    session = models.ForeignKey(
        ClassSession,
        on_delete=models.CASCADE,
        related_name="join_requests",
        verbose_name=_("session"),
    )
    nickname = models.CharField(_("nickname"), max_length=20)
    nickname_key = models.CharField(_("nickname key"), max_length=40, editable=False)
    device_id = models.CharField(_("device id"), max_length=64, db_index=True)
    device_label = models.CharField(_("device"), max_length=60, blank=True, default="")
    address_hash = models.CharField(_("address hash"), max_length=64, blank=True, default="")
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # The seat the approval gave.
    participant = models.ForeignKey(
        Participant,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("participant"),
    )

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.nickname} ({self.status})"

    @staticmethod
    def expiry_cutoff(now: datetime | None = None) -> datetime:
        """Return when a request still pending must have been made to be waiting yet."""
        minutes = settings.JOIN_REQUEST_MINUTES
        return (now or timezone.now()) - timedelta(minutes=minutes)

    @classmethod
    def waiting(cls, now: datetime | None = None) -> models.QuerySet[JoinRequest]:
        """Return the requests that still wait for the teacher (pending, not expired)."""
        return cls.objects.filter(status=cls.Status.PENDING, created_at__gte=cls.expiry_cutoff(now))

    @property
    def is_expired(self) -> bool:
        """Tell whether the request expired (marked so, or pending for too long)."""
        if self.status == self.Status.EXPIRED:
            return True
        return self.status == self.Status.PENDING and self.created_at < self.expiry_cutoff()

    @property
    def is_waiting(self) -> bool:
        """Tell whether the request still waits for the teacher."""
        return self.status == self.Status.PENDING and not self.is_expired


class Deck(models.Model):
    """A deck a teacher built with the deck builder, for a game with deck building
    (``Game.deck_option``): the card keys, one per copy. Teacher content, not student
    data: it is kept until the teacher deletes it, or their account goes
    (classroom.retention: ``ACCOUNT_DAYS`` after the last login)."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="decks",
        verbose_name=_("teacher"),
    )
    game = models.CharField(_("game"), max_length=50)
    name = models.CharField(_("name"), max_length=80)
    cards = models.JSONField(_("cards"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("deck")
        verbose_name_plural = _("decks")
        ordering = ["game", "name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("classroom:deck_edit", args=[self.pk])


class Erasure(models.Model):
    """A deletion a restored backup must not undo, at ``erased_at``: a teacher's
    account, a class, a session, a participant (each row deleted, wherever: a teacher's
    page, the purge, the administration pages) or a session's student data (purged,
    its row kept). classroom.backups re-applies the erasures made after the backup it
    restores. Only the kind and the row's id, no name: kept ``BACKUP_DAYS``, as long as
    a backup that holds the row may be restored."""

    class Kind(models.TextChoices):
        ACCOUNT = "account", _("teacher account")
        SCHOOL_CLASS = "class", _("class")
        SESSION = "session", _("session")
        SESSION_DATA = "session_data", _("session's student data")
        PARTICIPANT = "participant", _("participant")

    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    object_id = models.PositiveBigIntegerField(_("id"))
    erased_at = models.DateTimeField(_("erased at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("erasure")
        verbose_name_plural = _("erasures")
        ordering = ["erased_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_id"], name="one_erasure_a_row")
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.object_id}"
