"""Every write of the classroom app, with its broadcast, goes through a do_* function."""

from collections.abc import Iterable
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom import broadcast
from classroom.codes import new_open_session_code
from classroom.generator import generate_nickname
from classroom.models import (
    MAX_PARTICIPANTS,
    SEAT_STALE_SECONDS,
    ClassSession,
    JoinRequest,
    Participant,
    SchoolClass,
    Seat,
    SeatMove,
    Table,
)
from classroom.nicknames import nickname_key, refusal_for_teacher, validate_nickname
from classroom.signals import tables_changed
from classroom.tables import CannotSplit, split
from games import clock
from games.matches import create_match, hold, release
from games.models import Match, MatchHold, MatchTimer
from games.registry import get_game

State = ClassSession.State


class ActionRefused(Exception):
    """A change that the current state does not allow; the message says why."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


# Classes


def do_create_class(teacher: User, name: str, roster: str = "") -> SchoolClass:
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
    approve_joins: bool = False,
    generated_nicknames: bool = False,
    bot: str = "",
) -> ClassSession:
    """Open a session for a class, in the lobby, with a fresh join code.

    ``options``: the game's options, already checked by its ``clean_options``; ``bot``:
    the kind of the game's bot that plays the bot seats ("" for the server's default).
    """
    if school_class.is_archived:
        raise ActionRefused(_("This class is archived. Unarchive it to launch a session."))
    if bot and bot not in get_game(game).bots:
        raise ActionRefused(_("This game has no such bot."), code="bot")
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
                    approve_joins=approve_joins,
                    generated_nicknames=generated_nicknames,
                    bot=bot,
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


def _transition(
    session: ClassSession, allowed_from: set[str], to: str, stamp: str, message: str
) -> ClassSession:
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
                Seat.objects.create(table=table, number=seat, bot=session_bot(session))
        tables.append(table)
    return tables


def session_bot(session: ClassSession) -> str:
    """Return the kind of bot that plays the session's bot seats."""
    return session.bot or settings.LIVE_BOT_KIND


def _schedule_matches(tables: Iterable[Table], again: bool = False) -> None:
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
    """End a session; its code is free again, its students are told, its matches stop.

    The join requests still waiting expire (the hourly purge deletes them) and the
    device changes still waiting are refused: nobody can join or move any more, so the
    teacher's pages show no request to answer."""
    session = _transition(
        session,
        {State.LOBBY, State.RUNNING, State.PAUSED},
        State.FINISHED,
        "ended_at",
        _("This session has already ended."),
    )
    with transaction.atomic():
        session.join_requests.filter(status=JoinRequest.Status.PENDING).update(
            status=JoinRequest.Status.EXPIRED, device_label=""
        )
        SeatMove.objects.filter(
            participant__session=session, status=SeatMove.Status.PENDING
        ).update(status=SeatMove.Status.REFUSED, device_label="")
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
            seat.bot_takeover, seat.bot = to_bot, session_bot(session) if to_bot else ""
            seat.save(update_fields=["bot_takeover", "bot"])
            _seat_changed(seat)
    return seat


def _seat_changed(seat: Seat) -> None:
    """Tell the table and the dashboard that a seat changed hands; let a bot play."""
    broadcast.presence_changed(seat.table_id)
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


class JoinFacts(NamedTuple):
    """What a new seat is decided on, about the session's students: read in one query
    under the session's lock (it was five, each a round trip to a distant database
    while every other join of the class waited for the lock)."""

    active: int  # students not removed
    taken: int  # students, removed or not, with the nickname
    removed_device: int  # removed students on this device
    removed_address: int  # students removed from this address lately
    same_address: int  # students not removed from this address


def join_facts(
    session: ClassSession, key: str, device_id: str = "", address_hash: str = ""
) -> JoinFacts:
    """Read the facts a new seat with this nickname key, device and address is decided on."""
    since = timezone.now() - timedelta(minutes=settings.REMOVED_ADDRESS_HOLD_MINUTES)
    removed, present = Q(kicked=True), Q(kicked=False)
    counts = session.participants.aggregate(
        active=Count("pk", filter=present),
        taken=Count("pk", filter=Q(nickname_key=key)),
        removed_device=Count("pk", filter=removed & Q(device_id=device_id)),
        removed_address=Count(
            "pk", filter=removed & Q(address_hash=address_hash, kicked_at__gte=since)
        ),
        same_address=Count("pk", filter=present & Q(address_hash=address_hash)),
    )
    if not address_hash:  # no address known: nobody shares it
        counts.update(removed_address=0, same_address=0)
    return JoinFacts(**counts)


def join_approval_reason(session: ClassSession, facts: JoinFacts) -> str:
    """Return why a new nickname from the device and address of ``facts`` must wait for
    the teacher (a JoinRequest.Reason), or "" when it may take a seat at once."""
    Reason = JoinRequest.Reason
    if facts.removed_device:
        return Reason.REMOVED_DEVICE
    # A school's NAT gives a whole class one address, so the address never refuses
    # anyone by itself, and asks the teacher only for a while.
    if facts.removed_address:
        return Reason.REMOVED_ADDRESS
    if session.approve_joins:
        return Reason.APPROVAL
    if facts.same_address >= settings.MAX_STUDENTS_PER_ADDRESS:
        return Reason.MANY_FROM_ADDRESS
    return ""


def _refuse_to_seat(
    session: ClassSession, key: str, facts: JoinFacts, *, exclude_request: JoinRequest | None = None
) -> None:
    """Refuse a new seat when the session is full or the nickname is in use (by a
    student, or by a request that waits for the teacher)."""
    if facts.active >= MAX_PARTICIPANTS:
        raise ActionRefused(
            _("This session is full (%(max)d students).") % {"max": MAX_PARTICIPANTS},
            code="full",
        )
    waiting = session.pending_join_requests().filter(nickname_key=key)
    if exclude_request is not None:
        waiting = waiting.exclude(pk=exclude_request.pk)
    if facts.taken or waiting.exists():
        raise ActionRefused(_taken_message(), code="taken")


def _create_participant(
    session: ClassSession, nickname: str, device_id: str, address_hash: str
) -> Participant:
    key = nickname_key(nickname)
    try:
        # No savepoint (two round trips more to a distant database): every caller holds a
        # transaction, which a refusal rolls back whole.
        with transaction.atomic(savepoint=False):
            participant = Participant.objects.create(
                session=session,
                nickname=nickname,
                nickname_key=key,
                device_id=device_id,
                address_hash=address_hash,
            )
    except IntegrityError as error:  # the same nickname, committed a moment earlier
        raise ActionRefused(_taken_message(), code="taken") from error
    broadcast.lobby_changed(session.pk, reason="joined")
    broadcast.dashboard_changed(session.pk, reason="joined")
    if session.state in {State.RUNNING, State.PAUSED}:
        _seat_latecomer(participant)
    return participant


def free_generated_nickname(session: ClassSession) -> str:
    """Return a generated nickname nobody in the session uses, in its language."""
    taken = set(session.participants.values_list("nickname_key", flat=True))
    taken |= set(session.pending_join_requests().values_list("nickname_key", flat=True))
    nickname = generate_nickname(session.language, taken)
    if nickname is None:
        raise ActionRefused(
            _("Every generated nickname is taken. Ask your teacher for help."), code="full"
        )
    return nickname


def do_join_session(
    session: ClassSession,
    nickname: str,
    device_id: str,
    address_hash: str = "",
    device_label: str = "",
) -> Participant | JoinRequest:
    """Seat a student in the session, or file a JoinRequest when the teacher must
    approve first (join_approval_reason), or raise ActionRefused saying why not.

    An empty ``nickname`` takes a generated one (a session of generated nicknames: its
    join form asks for none; a class roster comes first).
    """
    with transaction.atomic():
        fresh = _lock_row(session)
        if not fresh.is_open:
            raise ActionRefused(_("This session has ended."), code="finished")
        # This device's requests, most often none, read once.
        requests = list(fresh.join_requests.filter(device_id=device_id))
        if any(request.status == JoinRequest.Status.REFUSED for request in requests):
            raise ActionRefused(
                _("Your teacher did not let this device join the session."), code="kicked"
            )
        waiting = next((request for request in requests if request.is_waiting), None)
        if waiting is not None:  # one request per device at a time; a lock since keeps it
            return waiting
        if fresh.locked:
            raise ActionRefused(
                _(
                    "The teacher has locked this session: no one can join right now. Ask "
                    "your teacher to open it, then press Join again."
                ),
                code="locked",
            )
        if any(request.status == JoinRequest.Status.PENDING for request in requests):
            # This device's request that the teacher left unanswered: it may ask again.
            fresh.join_requests.filter(
                device_id=device_id, status=JoinRequest.Status.PENDING
            ).update(status=JoinRequest.Status.EXPIRED, device_label="")
        if not nickname:  # the join form asks for none when the session generates them
            nickname = free_generated_nickname(fresh)
        key = nickname_key(nickname)
        facts = join_facts(fresh, key, device_id, address_hash)
        _refuse_to_seat(fresh, key, facts)
        reason = join_approval_reason(fresh, facts)
        if not reason:
            return _create_participant(fresh, nickname, device_id, address_hash)
        if fresh.pending_join_requests().count() >= settings.MAX_PENDING_JOINS:
            raise ActionRefused(
                _(
                    "Many students are already waiting for the teacher's approval. "
                    "Please wait a moment and try again."
                ),
                code="busy",
            )
        request = JoinRequest.objects.create(
            session=fresh,
            nickname=nickname,
            nickname_key=key,
            device_id=device_id,
            device_label=device_label,
            address_hash=address_hash,
            reason=reason,
        )
        broadcast.lobby_changed(fresh.pk, reason="join_request")
        broadcast.dashboard_changed(fresh.pk, reason="join_request")
    return request


def do_answer_join_request(request: JoinRequest, approve: bool) -> JoinRequest:
    """Approve (the nickname gets its seat) or refuse (this device may not ask again) a
    new nickname that waits for the teacher.

    The teacher's approval admits a request that was waiting when the lobby was locked:
    the lock stops new requests, not the teacher's own decision (docs/nicknames.md §5).
    An ended session, an expired request or a full session refuses the approval with a
    message for the teacher; a full session's request stays waiting.
    """
    with transaction.atomic():
        session = _lock_row(request.session)
        request = JoinRequest.objects.select_for_update().get(pk=request.pk)
        refusal = _join_answer_refusal(session, request, approve)
        if refusal is None:
            if approve:
                facts = join_facts(session, request.nickname_key)
                _refuse_to_seat(session, request.nickname_key, facts, exclude_request=request)
                request.participant = _create_participant(
                    session, request.nickname, request.device_id, request.address_hash
                )
            approved = JoinRequest.Status.APPROVED
            _close_join_request(request, approved if approve else JoinRequest.Status.REFUSED)
        elif refusal.code == "expired" and request.status == JoinRequest.Status.PENDING:
            _close_join_request(request, JoinRequest.Status.EXPIRED)  # saved, then refused
    if refusal is not None:
        raise refusal
    return request


def _close_join_request(request: JoinRequest, status: str) -> None:
    request.status = status
    request.device_label = ""  # shown only while pending
    request.save(update_fields=["status", "participant", "device_label"])
    broadcast.lobby_changed(request.session_id, reason="join_answered")
    broadcast.dashboard_changed(request.session_id, reason="join_answered")


def _join_answer_refusal(
    session: ClassSession, request: JoinRequest, approve: bool
) -> ActionRefused | None:
    """Return why the teacher cannot answer this join request now, or None."""
    if session.state == State.FINISHED:
        return ActionRefused(
            _("This session has ended: nobody can join it any more."), code="finished"
        )
    if request.is_expired:
        return ActionRefused(
            _(
                "This request has expired: it waited too long. The student can ask "
                "again from the join page."
            ),
            code="expired",
        )
    if request.status != JoinRequest.Status.PENDING:
        return ActionRefused(_("This request was answered already."), code="answered")
    if approve and session.active_participants().count() >= MAX_PARTICIPANTS:
        return ActionRefused(
            _(
                "The session is full (%(max)d students). Remove a student first "
                "if you want to let this one in."
            )
            % {"max": MAX_PARTICIPANTS},
            code="full",
        )
    return None


def do_set_join_rules(
    session: ClassSession,
    *,
    approve_joins: bool | None = None,
    generated_nicknames: bool | None = None,
) -> ClassSession:
    """Switch "approve each new nickname" and "nicknames from a generator only"."""
    with transaction.atomic():
        fresh = _lock_row(session)
        _refuse_if_finished(fresh)
        if approve_joins is not None:
            fresh.approve_joins = approve_joins
        if generated_nicknames is not None:
            fresh.generated_nicknames = generated_nicknames
        fresh.save(update_fields=["approve_joins", "generated_nicknames"])
        broadcast.lobby_changed(fresh.pk, reason="rules")
        broadcast.dashboard_changed(fresh.pk, reason="rules")
    session.refresh_from_db()
    return session


def do_rename_participant(participant: Participant, nickname: str) -> Participant:
    """Give a student another nickname (checked like a typed one)."""
    try:
        nickname = validate_nickname(nickname)
    except ValidationError as error:
        raise ActionRefused(refusal_for_teacher(error), code="bad_nickname") from error
    with transaction.atomic():
        session = _lock_row(participant.session)
        _refuse_if_finished(session)
        participant = Participant.objects.select_for_update().get(pk=participant.pk)
        if participant.kicked:
            raise ActionRefused(_("This student was removed from the session."), code="kicked")
        key = nickname_key(nickname)
        if key != participant.nickname_key:
            others = session.participants.exclude(pk=participant.pk)
            waiting = session.pending_join_requests().filter(nickname_key=key)
            if others.filter(nickname_key=key).exists() or waiting.exists():
                raise ActionRefused(
                    _("Someone in this session already uses this nickname: give another one."),
                    code="taken",
                )
        participant.nickname, participant.nickname_key = nickname, key
        participant.save(update_fields=["nickname", "nickname_key"])
        broadcast.lobby_changed(session.pk, reason="renamed")
        broadcast.dashboard_changed(session.pk, reason="renamed")
        for seat in participant.seats.all():
            broadcast.presence_changed(seat.table_id)
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
    """Remove a student: they leave every count and export; a new nickname from their
    device, or for a while from their network address, waits for the teacher's approval
    (join_approval_reason). Their seat is played by a bot, shown as "Removed student"."""
    with transaction.atomic():
        session = _lock_row(participant.session)
        _refuse_if_finished(session)
        if not participant.kicked:
            participant.kicked = True
            participant.kicked_at = timezone.now()
            participant.save(update_fields=["kicked", "kicked_at"])
            broadcast.lobby_changed(session.pk, reason="kicked")
            broadcast.dashboard_changed(session.pk, reason="kicked")
            participant.moves.filter(status=SeatMove.Status.PENDING).update(
                status=SeatMove.Status.REFUSED, device_label=""
            )
            for seat in participant.seats.select_related("table"):
                seat.bot_takeover, seat.bot = True, session_bot(session)  # the table plays on
                seat.save(update_fields=["bot_takeover", "bot"])
                _seat_changed(seat)
    return participant


def do_request_seat_move(
    participant: Participant, device_id: str, device_label: str = ""
) -> SeatMove:
    """Ask the teacher to move a student's place to another device (same nickname).

    One pending request per student and per device, at most settings.MAX_PENDING_MOVES per
    session: thirty devices typing one nickname make one request, not thirty.
    """
    with transaction.atomic():
        session = _lock_row(participant.session)
        _refuse_if_finished(session)
        pending = SeatMove.objects.filter(
            participant__session=session, status=SeatMove.Status.PENDING
        )
        mine = pending.filter(participant=participant, device_id=device_id).first()
        if mine is not None:
            return mine
        if pending.filter(participant=participant).exists():
            raise ActionRefused(
                _(
                    "Another device already asks for this nickname. Your teacher will "
                    "answer it; if it is you, please wait."
                ),
                code="move_pending",
            )
        if pending.filter(device_id=device_id).exists():
            raise ActionRefused(
                _("This device already asks for another nickname. Wait for your teacher."),
                code="move_device_busy",
            )
        if pending.count() >= settings.MAX_PENDING_MOVES:
            raise ActionRefused(
                _(
                    "Your teacher has several device changes to answer already. "
                    "Please wait a moment and try again."
                ),
                code="move_busy",
            )
        move = SeatMove.objects.create(
            participant=participant, device_id=device_id, device_label=device_label
        )
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
        move.device_label = ""  # shown only while pending
        move.save(update_fields=["status", "device_label"])
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
    with transaction.atomic():
        Seat.objects.filter(pk=seat_id).update(
            connected=Greatest(F("connected") + delta, 0), last_seen_at=clock.now()
        )
        seat = Seat.objects.select_related("table").filter(pk=seat_id).first()
        if seat is None:
            return  # the session was deleted while the socket opened or closed
        broadcast.presence_changed(seat.table_id)
        broadcast.dashboard_changed(seat.table.session_id, reason="presence", table=seat.table_id)


# A student's "last seen" is kept to the minute: each page and socket of theirs wrote it,
# and a class joining wrote it for every lobby socket opened, each write waiting for the
# database's write lock (on SQLite, the one every join takes) with the lobby's drawings
# queued behind it.
TOUCH_SECONDS = 60


def do_touch_participant(participant: Participant) -> None:
    """Record that the student's device was seen now (no broadcast), unless it was seen
    less than TOUCH_SECONDS ago."""
    now = timezone.now()
    seen = participant.last_seen_at
    if seen is not None and now - seen < timedelta(seconds=TOUCH_SECONDS):
        return
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=now)
    participant.last_seen_at = now


def do_seats_seen(seat_ids: list[int]) -> None:
    """Record that sockets still hold these seats (a heartbeat; no broadcast)."""
    Seat.objects.filter(pk__in=seat_ids).update(last_seen_at=clock.now())


def do_forget_stale_connections() -> int:
    """Zero the socket counts that no heartbeat refreshed (a killed server); count them."""
    cutoff = clock.now() - timedelta(seconds=SEAT_STALE_SECONDS)
    with transaction.atomic():
        stale = list(
            Seat.objects.filter(connected__gt=0, last_seen_at__lt=cutoff).select_related("table")
        )
        Seat.objects.filter(pk__in=[seat.pk for seat in stale]).update(connected=0)
        for seat in stale:
            broadcast.presence_changed(seat.table_id)
            broadcast.dashboard_changed(
                seat.table.session_id, reason="presence", table=seat.table_id
            )
    return len(stale)
