"""Every write of the classroom app, with its broadcast, goes through a do_* function."""

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom import broadcast
from classroom.codes import new_open_session_code
from classroom.models import (
    MAX_PARTICIPANTS,
    SEAT_STALE_SECONDS,
    ClassSession,
    Participant,
    SchoolClass,
    Seat,
    SeatMove,
    Table,
)
from classroom.nicknames import nickname_key
from classroom.signals import tables_changed
from classroom.tables import CannotSplit, split
from games import clock
from games.matches import create_match, hold, release
from games.models import Match, MatchHold, MatchTimer
from games.registry import get_game

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
    options: dict | None = None,
) -> ClassSession:
    """Open a session for a class, in the lobby, with a fresh join code.

    ``options``: the game's options, already checked by its ``clean_options``.
    """
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
                    options=options or {},
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
    """Start the game: split the students into tables, deal one match per table."""
    with transaction.atomic():
        fresh = _lock_row(session)
        if fresh.state != State.LOBBY:
            raise ActionRefused(
                _("Only a session in the lobby can start; this one is %(state)s.")
                % {"state": fresh.get_state_display()},
                code="state",
            )
        tables = _deal_tables(fresh)
        fresh.state = State.RUNNING
        fresh.started_at = timezone.now()
        fresh.save(update_fields=["state", "started_at"])
        broadcast.lobby_changed(fresh.pk, reason=State.RUNNING)
        broadcast.dashboard_changed(fresh.pk, reason="started")
        transaction.on_commit(lambda: _schedule_matches(tables))
    session.refresh_from_db()
    return session


def _deal_tables(session: ClassSession) -> list[Table]:
    """Seat the active students at balanced tables, bots in empty seats; deal the matches."""
    try:
        game = get_game(session.game)
    except KeyError:  # a game without a rules engine yet: the session runs without tables
        return []
    students = list(session.active_participants())
    if not students:
        raise ActionRefused(_("No student has joined yet."), code="empty")
    try:
        plans = split(
            len(students), session.table_size, session.bots_fill, game.min_players, game.max_players
        )
    except CannotSplit as error:
        raise ActionRefused(
            _("At least %(min)d students are needed, or let bots fill the empty seats.")
            % {"min": game.min_players},
            code="too_few",
        ) from error
    options = dict(session.options)
    tables, queue = [], iter(students)
    for number, plan in enumerate(plans, start=1):
        match = create_match(session.game, session.variant, plan.seats, options=options)
        table = Table.objects.create(session=session, number=number, match=match)
        for seat in range(plan.seats):
            if seat < plan.humans:
                Seat.objects.create(table=table, number=seat, participant=next(queue))
            else:
                Seat.objects.create(table=table, number=seat, bot=settings.LIVE_BOT_KIND)
        tables.append(table)
    return tables


def _schedule_matches(tables, again: bool = False) -> None:
    """Let the bots and timers of freshly dealt or resumed tables start (live play
    receives the signal and schedules them).

    ``again`` (on resume): queue the timers' tasks anew, at their pushed-back due times.
    """
    tables_changed.send(sender=Table, tables=list(tables), again=again)


def _apply_pause(table: Table, kind: str, paused: bool) -> None:
    """Take (``paused``) or let go of the teacher's hold of ``kind`` (the table's or the
    session's) on a table's match; tell its sockets.

    The match runs again only once it has no hold left: a table the teacher paused stays
    paused when the session resumes, and a lesson card still being read holds it too.
    """
    if paused:
        table.match = hold(table.match_id, kind)
        broadcast.table_event(table.pk, "paused")
        return
    released = release(table.match_id, kind)
    table.match = released.match
    teacher_holds = {MatchHold.Kind.TABLE, MatchHold.Kind.SESSION}
    broadcast.table_event(table.pk, "paused" if released.kinds & teacher_holds else "resumed")
    if released.resumed:
        transaction.on_commit(lambda: _schedule_matches([table], again=True))


def do_pause_session(session: ClassSession) -> ClassSession:
    """Pause a running session: every table stops, timers included."""
    session = _transition(
        session,
        {State.RUNNING},
        State.PAUSED,
        "paused_at",
        _("Only a running session can be paused; this one is %(state)s."),
    )
    with transaction.atomic():
        for table in session.tables.all():
            _apply_pause(table, MatchHold.Kind.SESSION, True)
        broadcast.dashboard_changed(session.pk, reason="paused")
    return session


def do_resume_session(session: ClassSession) -> ClassSession:
    """Resume a paused session (tables the teacher paused one by one stay paused)."""
    session = _transition(
        session,
        {State.PAUSED},
        State.RUNNING,
        "resumed_at",
        _("Only a paused session can be resumed; this one is %(state)s."),
    )
    with transaction.atomic():
        for table in session.tables.all():
            _apply_pause(table, MatchHold.Kind.SESSION, False)
        broadcast.dashboard_changed(session.pk, reason="resumed")
    return session


def do_end_session(session: ClassSession) -> ClassSession:
    """End a session; its code is free again, its students are told, its matches stop."""
    session = _transition(
        session,
        {State.LOBBY, State.RUNNING, State.PAUSED},
        State.FINISHED,
        "ended_at",
        _("This session has already ended."),
    )
    with transaction.atomic():
        matches = Match.objects.filter(table__session=session).exclude(status=Match.Status.FINISHED)
        MatchTimer.objects.filter(match__in=matches).delete()
        MatchHold.objects.filter(match__in=matches).delete()  # nothing holds an ended game
        matches.update(status=Match.Status.FINISHED, finished_at=clock.now())
        broadcast.dashboard_changed(session.pk, reason="ended")
    return session


def do_set_table_paused(table: Table, paused: bool) -> Table:
    """Pause or resume one table (``Table.paused`` is what the teacher chose, the match's
    ``table`` hold what holds it still)."""
    with transaction.atomic():
        session = _lock_row(table.session)
        _refuse_if_finished(session)
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.paused != paused:
            table.paused = paused
            table.save(update_fields=["paused"])
            _apply_pause(table, MatchHold.Kind.TABLE, paused)
            broadcast.dashboard_changed(session.pk, reason="table")
    return table


def do_hand_seat_to_bot(seat: Seat, to_bot: bool) -> Seat:
    """Let a bot play an absent student's seat (to_bot), or give it back to the student."""
    with transaction.atomic():
        session = _lock_row(seat.table.session)
        _refuse_if_finished(session)
        seat = Seat.objects.select_for_update().select_related("table").get(pk=seat.pk)
        if seat.participant_id is None:
            raise ActionRefused(_("This seat is a bot's already."), code="bot_seat")
        if seat.bot_takeover != to_bot:
            seat.bot_takeover = to_bot
            seat.save(update_fields=["bot_takeover"])
            _seat_changed(seat)
    return seat


def _seat_changed(seat: Seat) -> None:
    """Tell the table and the dashboard that a seat changed hands; let a bot play."""
    broadcast.table_event(seat.table_id, "presence")
    broadcast.dashboard_changed(seat.table.session_id, reason="seat")
    transaction.on_commit(lambda: _schedule_matches([seat.table]))


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
        if fresh.state in {State.RUNNING, State.PAUSED}:
            _seat_latecomer(participant)
    return participant


def _seat_latecomer(participant: Participant) -> Seat | None:
    """Give a student who joins after the start a bot's seat, if a table has one.

    The student takes over the bot's cards and score; with no bot seat free, the
    student waits (the play socket says ``waiting``).
    """
    seat = (
        Seat.objects.select_for_update()
        .filter(
            table__session=participant.session_id,
            participant__isnull=True,
            table__match__status__in=[Match.Status.RUNNING, Match.Status.PAUSED],
        )
        .select_related("table")
        .order_by("table__number", "number")
        .first()
    )
    if seat is not None:
        seat.participant, seat.bot, seat.bot_takeover = participant, "", False
        seat.save(update_fields=["participant", "bot", "bot_takeover"])
        _seat_changed(seat)
    return seat


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
            for seat in participant.seats.select_related("table"):
                seat.bot_takeover = True  # the table plays on
                seat.save(update_fields=["bot_takeover"])
                _seat_changed(seat)
    return participant


def do_request_seat_move(participant: Participant, device_id: str) -> SeatMove:
    """Ask the teacher to move a student's place to another device (same nickname)."""
    with transaction.atomic():
        session = _lock_row(participant.session)
        _refuse_if_finished(session)
        move, created = SeatMove.objects.get_or_create(
            participant=participant, device_id=device_id, status=SeatMove.Status.PENDING
        )
        if created:
            broadcast.dashboard_changed(session.pk, reason="move")
    return move


def do_answer_seat_move(move: SeatMove, approve: bool) -> SeatMove:
    """Approve (the new device gets the place) or refuse a device change."""
    with transaction.atomic():
        session = _lock_row(move.participant.session)
        _refuse_if_finished(session)
        move = SeatMove.objects.select_for_update().get(pk=move.pk)
        if move.status != SeatMove.Status.PENDING:
            raise ActionRefused(_("This request was answered already."), code="answered")
        move.status = SeatMove.Status.APPROVED if approve else SeatMove.Status.REFUSED
        move.save(update_fields=["status"])
        if approve:
            Participant.objects.filter(pk=move.participant_id).update(device_id=move.device_id)
            # The old device's sockets close; its pages say the place moved.
            event = {
                "type": "lobby.changed",
                "reason": "moved",
                "participant": move.participant_id,
                "device": move.device_id,
            }
            broadcast.on_commit_send(broadcast.session_group(session.pk), event)
        broadcast.dashboard_changed(session.pk, reason="move")
    return move


def do_complete_seat_move(move: SeatMove) -> Participant:
    """Mark an approved device change as done, once the new device holds the place."""
    SeatMove.objects.filter(pk=move.pk, status=SeatMove.Status.APPROVED).update(
        status=SeatMove.Status.DONE
    )
    return move.participant


def do_seat_connected(seat_id: int, delta: int) -> None:
    """Count a socket opening (+1) or closing (-1) on a seat; tell the table and dashboard."""
    from django.db.models import F
    from django.db.models.functions import Greatest

    with transaction.atomic():
        Seat.objects.filter(pk=seat_id).update(
            connected=Greatest(F("connected") + delta, 0), last_seen_at=clock.now()
        )
        seat = Seat.objects.select_related("table").get(pk=seat_id)
        broadcast.table_event(seat.table_id, "presence")
        broadcast.dashboard_changed(seat.table.session_id, reason="presence")


def do_touch_participant(participant: Participant) -> None:
    """Record that the student's device was seen now (no broadcast)."""
    now = timezone.now()
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=now)
    participant.last_seen_at = now


def do_purge_expired_sessions(retention_days: int) -> int:
    """Delete the student data of sessions that ended over retention_days ago.

    Return how many participants went; classroom.retention says what else goes.
    """
    from classroom.retention import purge_expired

    return purge_expired(retention_days)


def do_seat_seen(seat_id: int) -> None:
    """Record that a socket still holds the seat (a heartbeat; no broadcast)."""
    Seat.objects.filter(pk=seat_id).update(last_seen_at=clock.now())


def do_forget_stale_connections() -> int:
    """Zero the socket counts that no heartbeat refreshed (a killed server); count them."""
    cutoff = clock.now() - timedelta(seconds=SEAT_STALE_SECONDS)
    with transaction.atomic():
        stale = list(
            Seat.objects.filter(connected__gt=0, last_seen_at__lt=cutoff).select_related("table")
        )
        Seat.objects.filter(pk__in=[seat.pk for seat in stale]).update(connected=0)
        for seat in stale:
            broadcast.table_event(seat.table_id, "presence")
            broadcast.dashboard_changed(seat.table.session_id, reason="presence")
    return len(stale)
