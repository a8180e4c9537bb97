"""Every write of the classroom app, with its broadcast, goes through a do_* function."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom import broadcast
from classroom.codes import new_open_session_code
from classroom.models import MAX_PARTICIPANTS, ClassSession, Participant, SchoolClass
from classroom.nicknames import nickname_key

State = ClassSession.State


class ActionRefused(Exception):
    """A change that the current state does not allow; the message says why."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.code = code


# Classes


def do_create_class(teacher, name: str, roster: str = "") -> SchoolClass:
    """Create a class for the teacher."""
    return SchoolClass.objects.create(teacher=teacher, name=name, roster=roster)


def do_update_class(school_class: SchoolClass, name: str, roster: str) -> SchoolClass:
    """Rename a class and replace its roster."""
    school_class.name = name
    school_class.roster = roster
    school_class.save(update_fields=["name", "roster", "updated_at"])
    return school_class


def do_archive_class(school_class: SchoolClass) -> None:
    """Archive a class: it leaves the dashboard's list and launches no session."""
    if school_class.archived_at is None:
        school_class.archived_at = timezone.now()
        school_class.save(update_fields=["archived_at", "updated_at"])


def do_unarchive_class(school_class: SchoolClass) -> None:
    """Bring an archived class back."""
    if school_class.archived_at is not None:
        school_class.archived_at = None
        school_class.save(update_fields=["archived_at", "updated_at"])


def do_delete_class(school_class: SchoolClass) -> None:
    """Delete a class with its sessions and their participants, ending open sessions first."""
    with transaction.atomic():
        for session in school_class.sessions.exclude(state=State.FINISHED):
            do_end_session(session)
        school_class.delete()


# Sessions


def do_create_session(
    school_class: SchoolClass,
    *,
    game: str,
    variant: str,
    language: str,
    table_size: int,
    bots_fill: bool,
) -> ClassSession:
    """Open a session for a class, in the lobby, with a fresh join code."""
    if school_class.is_archived:
        raise ActionRefused(_("This class is archived. Unarchive it to launch a session."))
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return ClassSession.objects.create(
                    school_class=school_class,
                    game=game,
                    variant=variant,
                    language=language,
                    table_size=table_size,
                    bots_fill=bots_fill,
                    join_code=new_open_session_code(),
                )
        except IntegrityError:  # another session took the same code meanwhile
            continue
    raise ActionRefused(_("Could not find a free join code. Please try again."))


def _lock_row(session: ClassSession) -> ClassSession:
    """Reload the session under a row lock (where the database has them)."""
    return ClassSession.objects.select_for_update().get(pk=session.pk)


def _refuse_if_finished(session: ClassSession) -> None:
    if session.state == State.FINISHED:
        raise ActionRefused(_("This session has ended."), code="finished")


def _transition(session: ClassSession, allowed_from: set, to: str, stamp: str, message: str):
    """Move the session to a new state if its current one allows it, and broadcast."""
    with transaction.atomic():
        fresh = _lock_row(session)
        if fresh.state not in allowed_from:
            raise ActionRefused(message % {"state": fresh.get_state_display()}, code="state")
        fresh.state = to
        setattr(fresh, stamp, timezone.now())
        fresh.save(update_fields=["state", stamp])
        broadcast.lobby_changed(fresh.pk, reason=to)
    session.refresh_from_db()
    return session


def do_start_session(session: ClassSession) -> ClassSession:
    """Start the game: the lobby closes to play (tables come with a later issue)."""
    return _transition(
        session,
        {State.LOBBY},
        State.RUNNING,
        "started_at",
        _("Only a session in the lobby can start; this one is %(state)s."),
    )


def do_pause_session(session: ClassSession) -> ClassSession:
    """Pause a running session."""
    return _transition(
        session,
        {State.RUNNING},
        State.PAUSED,
        "paused_at",
        _("Only a running session can be paused; this one is %(state)s."),
    )


def do_resume_session(session: ClassSession) -> ClassSession:
    """Resume a paused session."""
    return _transition(
        session,
        {State.PAUSED},
        State.RUNNING,
        "resumed_at",
        _("Only a paused session can be resumed; this one is %(state)s."),
    )


def do_end_session(session: ClassSession) -> ClassSession:
    """End a session; its code is free again and its students are told."""
    return _transition(
        session,
        {State.LOBBY, State.RUNNING, State.PAUSED},
        State.FINISHED,
        "ended_at",
        _("This session has already ended."),
    )


def do_set_lobby_lock(session: ClassSession, locked: bool) -> ClassSession:
    """Lock (no new student may join) or unlock the lobby."""
    with transaction.atomic():
        fresh = _lock_row(session)
        _refuse_if_finished(fresh)
        if fresh.locked != locked:
            fresh.locked = locked
            fresh.save(update_fields=["locked"])
            broadcast.lobby_changed(fresh.pk, reason="locked" if locked else "unlocked")
    session.refresh_from_db()
    return session


# Participants


def do_join_session(session: ClassSession, nickname: str, device_id: str) -> Participant:
    """Seat a student in the session, or raise ActionRefused saying why not."""
    with transaction.atomic():
        fresh = _lock_row(session)
        if not fresh.is_open:
            raise ActionRefused(_("This session has ended."), code="finished")
        if fresh.participants.filter(device_id=device_id, kicked=True).exists():
            raise ActionRefused(
                _("You have been removed from this session and cannot join it again."),
                code="kicked",
            )
        if fresh.locked:
            raise ActionRefused(
                _("The teacher has locked this session: no one can join right now."),
                code="locked",
            )
        if fresh.participants.filter(kicked=False).count() >= MAX_PARTICIPANTS:
            raise ActionRefused(
                _("This session is full (%(max)d students).") % {"max": MAX_PARTICIPANTS},
                code="full",
            )
        key = nickname_key(nickname)
        if fresh.participants.filter(nickname_key=key).exists():
            raise ActionRefused(_taken_message(), code="taken")
        try:
            with transaction.atomic():
                participant = Participant.objects.create(
                    session=fresh, nickname=nickname, nickname_key=key, device_id=device_id
                )
        except IntegrityError as error:  # the same nickname, committed a moment earlier
            raise ActionRefused(_taken_message(), code="taken") from error
        broadcast.lobby_changed(fresh.pk, reason="joined")
    return participant


def _taken_message() -> str:
    return _("Someone in this session already uses this nickname. Please choose another.")


def do_kick_participant(participant: Participant) -> Participant:
    """Remove a student: their device cannot join this session again."""
    with transaction.atomic():
        session = _lock_row(participant.session)
        _refuse_if_finished(session)
        if not participant.kicked:
            participant.kicked = True
            participant.kicked_at = timezone.now()
            participant.save(update_fields=["kicked", "kicked_at"])
            broadcast.lobby_changed(session.pk, reason="kicked")
    return participant


def do_touch_participant(participant: Participant) -> None:
    """Record that the student's device was seen now (no broadcast)."""
    now = timezone.now()
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=now)
    participant.last_seen_at = now


def do_purge_expired_sessions(retention_days: int) -> int:
    """Delete the participants of sessions that ended over retention_days ago; count them."""
    cutoff = timezone.now() - timedelta(days=retention_days)
    with transaction.atomic():
        expired = ClassSession.objects.filter(state=State.FINISHED, ended_at__lt=cutoff)
        deleted, _detail = Participant.objects.filter(session__in=expired).delete()
        expired.filter(purged_at__isnull=True).update(purged_at=timezone.now())
    return deleted
