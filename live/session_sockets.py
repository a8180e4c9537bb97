"""The session's sockets: the live lobby (one WebSocket group per session) and the
teacher's live dashboard, both HTML fragments for htmx to swap.

The teacher who owns the session and its seated students may connect; anyone else
is refused with close code 4403. On every change an action function broadcasts
``lobby.changed``; each socket then renders its own viewer's fragment from the
database (the sockets of a process read a change once for all of them, and draw its
students' lobby once per language), so a reconnecting page always gets the current
state.
"""

import asyncio
import functools
import time
from dataclasses import dataclass, field
from typing import Any

from channels.db import database_sync_to_async
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import gettext as _

from classroom import identity
from classroom.actions import do_touch_participant
from classroom.broadcast import dashboard_group, session_group
from classroom.codes import normalize_code
from classroom.models import ClassSession, Participant
from classroom.payloads import BadPayload
from classroom.payloads import parse as parse_payload
from classroom.services import again_on_lost_connection
from classroom.views.common import ended_offers
from live.dashboard import session_with_class, table_items, tables_context
from live.sockets import SOCKET_NUMBERS, PlatformConsumer, in_drawing_thread, in_table_thread

CLOSE_REFUSED = 4403
# Dashboard changes closer together than this are rendered once: a class of 30 moves
# about three times a second, and a teacher's overview drawn once a second is live
# enough (a render is a few milliseconds of a server's CPU per table that changed).
DASHBOARD_COALESCE_SECONDS = 1.0
CLOSE_REMOVED = 4001
CLOSE_ENDED = 4000
# The lobby reads a process keeps, one per change heard of: the sessions of a busy
# process, each with a change or two in flight.
LOBBY_READS_KEPT = 256


@dataclass(frozen=True)
class Viewer:
    """Who is on the other end of a socket."""

    session_id: int
    language: str
    participant_id: int | None = None

    @property
    def is_teacher(self) -> bool:
        return self.participant_id is None


def scope_language(scope: dict[str, Any]) -> str:
    """Return the teacher's language as their pages have it (LocaleMiddleware's rule):
    the language cookie, else the browser's Accept-Language, else the default."""
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    if accept:
        request.META["HTTP_ACCEPT_LANGUAGE"] = accept
    return translation.get_language_from_request(request)


def identify(scope: dict[str, Any], code: str) -> Viewer | None:
    """Return the viewer of the open session with this code, or None to refuse."""
    open_sessions = ClassSession.objects.exclude(state=ClassSession.State.FINISHED)
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        session = open_sessions.filter(join_code=code, school_class__teacher=user).first()
        if session is not None:
            return Viewer(session_id=session.pk, language=scope_language(scope))
    participant = identity.current_participant(scope.get("cookies", {}))
    if (
        participant is not None
        and not participant.kicked
        and participant.session.join_code == code
        and participant.session.is_open
    ):
        do_touch_participant(participant)
        return Viewer(
            session_id=participant.session_id,
            language=identity.chosen_language(
                scope.get("cookies", {}), participant.session.language
            ),
            participant_id=participant.pk,
        )
    return None


@dataclass(frozen=True)
class Lobby:
    """What the fragments of a session's lobby show, read once for all its viewers."""

    session: ClassSession
    participants: tuple[Participant, ...]
    # The students' fragment drawn from this read, by language (``students_lobby``).
    students_drawn: dict[str, str] = field(default_factory=dict, compare=False)


def read_lobby(session_id: int) -> Lobby | None:
    """Read a session's lobby; None once the session was deleted."""
    session = ClassSession.objects.select_related("school_class").filter(pk=session_id).first()
    if session is None:
        return None
    return Lobby(session, tuple(session.active_participants()))


@functools.lru_cache(maxsize=LOBBY_READS_KEPT)
def lobby_after(session_id: int, change: str) -> Lobby | None:
    """Return the lobby as read after this change, read once in this process for every
    socket of the session that hears of it (a class of 30 joining one by one made each
    socket read the whole lobby again at every join: about 450 reads in each process)."""
    return read_lobby(session_id)


def students_lobby(lobby: Lobby, language: str) -> str:
    """Return the students' lobby fragment of this read of the lobby, in this language,
    with no chip marked as its viewer's own: drawn once per read and language for every
    student's socket of the process (``with_own_chip`` marks each one's own)."""
    drawn = lobby.students_drawn.get(language)
    if drawn is None:
        context = {"session": lobby.session, "participants": lobby.participants}
        with translation.override(language):
            drawn = render_to_string("classroom/fragments/student_lobby.html", context)
        lobby.students_drawn[language] = drawn
    return drawn


def with_own_chip(html: str, participant_id: int) -> str:
    """Return the students' lobby fragment with this student's chip marked as theirs,
    as the template marks it for its ``participant`` (a test holds them equal)."""
    opening = f'<li data-participant="{participant_id}">'
    start = html.find(opening)
    if start < 0:
        return html
    end = html.index("</li>", start)  # a nickname is escaped: it holds no "<"
    you = format_html(' <span class="muted">({})</span>', _("you"))
    return (
        f'{html[:start]}<li data-participant="{participant_id}" class="chip--me">'
        f"{html[start + len(opening) : end]}{you}{html[end:]}"
    )


def render_for(viewer: Viewer, change: str | None = None) -> tuple[str, int | None]:
    """Render the viewer's fragment, and the close code when the socket should end.

    ``change``: the change the socket heard of, whose read it shares with the other
    sockets of the process; None reads the lobby for this socket alone (on connect).
    A session or a student whose data was deleted meanwhile (the teacher's "delete now",
    the retention purge) ends the socket as an ended session does.
    """
    lobby = (
        read_lobby(viewer.session_id) if change is None else lobby_after(viewer.session_id, change)
    )
    if lobby is None:
        return "", CLOSE_ENDED
    session = lobby.session
    context = {"session": session, "participants": lobby.participants}
    with translation.override(viewer.language):
        participant_id = viewer.participant_id
        if participant_id is None:  # the teacher (``viewer.is_teacher``)
            return render_to_string("classroom/fragments/teacher_roster.html", context), None
        participant = next((p for p in lobby.participants if p.pk == participant_id), None)
        if participant is None:  # removed from the lobby, or deleted
            participant = Participant.objects.filter(pk=participant_id).first()
        if participant is None:
            html = render_to_string("classroom/fragments/student_ended.html", context)
            return html, CLOSE_ENDED
        context["participant"] = participant
        if participant.kicked:
            html = render_to_string("classroom/fragments/student_removed.html", context)
            return html, CLOSE_REMOVED
        if not session.is_open:  # with the quiz and the library (the lessons app's offer)
            context.update(ended_offers(participant))
            return render_to_string("classroom/fragments/student_ended.html", context), CLOSE_ENDED
        if change is None:
            return render_to_string("classroom/fragments/student_lobby.html", context), None
        return with_own_chip(students_lobby(lobby, viewer.language), participant.pk), None


class SessionConsumer(PlatformConsumer):
    """Push a session's lobby to its teacher and its students as it changes."""

    viewer: Viewer | None = None
    # The newest change heard of and not drawn yet, and the drawing under way.
    change: str | None = None
    changed = False
    drawing: asyncio.Task | None = None

    async def connect(self) -> None:
        """Accept the session's teacher and students; refuse everyone else."""
        code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        self.viewer = await in_table_thread(next(SOCKET_NUMBERS), identify)(self.scope, code)
        if self.viewer is None:
            await self.close(code=CLOSE_REFUSED)
            return
        await self.join(session_group(self.viewer.session_id))
        await self.accept()
        await self.push()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Ignore what clients send: every change goes through an HTTP form."""

    async def lobby_changed(self, event: dict) -> None:
        """Re-render this viewer's fragment after a change.

        Changes heard while a fragment is being drawn make one more drawing after it,
        of the newest: a burst of joins costs a socket two drawings, not one each.
        """
        self.change, self.changed = event.get("change"), True
        if self.drawing is None or self.drawing.done():
            self.drawing = self.start_task(self.push_changes)

    async def push_changes(self) -> None:
        while self.changed:
            self.changed = False
            await self.push(self.change)

    async def push(self, change: str | None = None) -> None:
        """Send the viewer's current fragment, closing the socket when it is over."""
        viewer = self.viewer
        assert viewer is not None  # set on connect, before the socket joins its group
        render = in_table_thread(viewer.session_id, render_for)
        html, close_code = await render(viewer, change)
        await self.send(text_data=html)
        if close_code is not None:
            await self.close(code=close_code)


@again_on_lost_connection  # a read: safe to run twice
def render_dashboard(session_id: int, language: str) -> str | None:
    """Render the live tables fragment of a session's dashboard; None once the session
    was deleted (the teacher's "delete now", the retention purge)."""
    session = session_with_class(session_id)
    if session is None:
        return None
    with translation.override(language):
        return render_to_string(
            "classroom/fragments/live_tables.html", tables_context(session, language)
        )


@again_on_lost_connection  # a read: safe to run twice
def render_tables(session_id: int, language: str, table_ids: set[int]) -> str | None:
    """Render only the dashboard's parts of these tables, each swapped in by its id; the
    whole fragment when one of them is gone; None once the session was deleted."""
    session = session_with_class(session_id)
    if session is None:
        return None
    items = table_items(session, language, table_ids)
    if len(items) != len(table_ids):  # a table removed meanwhile: draw the whole
        return render_dashboard(session_id, language)
    return "".join(item["html"] for item in items)


def page_hidden(text: str | None) -> bool | None:
    """Return whether a dashboard page says it is hidden; None for any other message."""
    try:
        message = parse_payload(text)
    except BadPayload:
        return None
    if not isinstance(message, dict) or message.get("type") != "visibility":
        return None
    hidden = message.get("hidden")
    return hidden if isinstance(hidden, bool) else None


def teacher_session_id(scope: dict[str, Any], pk: int) -> int | None:
    """Return the session's id if the scope's user is its teacher, else None."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    return (
        ClassSession.objects.filter(pk=pk, school_class__teacher=user)
        .values_list("pk", flat=True)
        .first()
    )


class DashboardConsumer(PlatformConsumer):
    """Push the teacher's live tables (seats, presence, turns, scores, news) as they change."""

    render_task: asyncio.Task | None = None
    # The changes no render has read yet: of the whole dashboard, or only of these
    # tables (a move, a lesson at a table).
    whole = False
    tables: frozenset[int] = frozenset()
    # The page's tab is hidden (the teacher shows the projector view, another tab): the
    # changes wait, and the page is drawn whole when it is seen again.
    hidden = False
    drawn_at = 0.0  # when the last drawing began (time.monotonic)

    async def connect(self) -> None:
        """Accept the session's teacher only."""
        pk = self.scope["url_route"]["kwargs"]["pk"]
        self.session_id = await database_sync_to_async(teacher_session_id)(self.scope, pk)
        if self.session_id is None:
            await self.close(code=CLOSE_REFUSED)
            return
        self.language = scope_language(self.scope)
        for group in self.listened_groups():
            await self.join(group)
        await self.accept()
        self.drawn_at = time.monotonic()
        await self.push()

    def listened_groups(self) -> list[str]:
        """Return the channel-layer groups whose news make this socket redraw."""
        return [dashboard_group(self.session_id)]

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Follow the page's visibility (``{"type": "visibility", "hidden": bool}``, sent by
        static/js/dashboard_visibility.js); ignore anything else: controls are HTTP forms."""
        hidden = page_hidden(text_data)
        if hidden is None or hidden == self.hidden:
            return
        self.hidden = hidden
        if not hidden:  # seen again: whatever changed meanwhile, one drawing of the whole
            self.whole = True
            self.start_render()

    async def dashboard_changed(self, event: dict) -> None:
        """Re-render the tables after a move, a presence change or a control.

        A change after a quiet DASHBOARD_COALESCE_SECONDS is drawn at once; the changes
        that follow within that time make one render at its end (bots at many tables
        would otherwise re-render the page for every move); a change that
        arrives while a render reads the tables makes another one after it. A change of
        some tables only (the event names its ``table``) sends those tables' parts,
        which the page swaps in by their ids; any other redraws the whole.
        """
        table = event.get("table")
        if table is None:
            self.whole = True
        else:
            self.tables = self.tables | {table}
        self.start_render()

    def start_render(self) -> None:
        """Draw the changes soon, unless a drawing is under way or nobody sees the page."""
        if not self.hidden and (self.render_task is None or self.render_task.done()):
            self.render_task = self.start_task(self.push_soon)

    async def push_soon(self) -> None:
        while self.whole or self.tables:
            # The first change after a quiet second is drawn at once (a nickname on
            # the join screen as its student joins); the next wait for the second's end.
            wait = self.drawn_at + DASHBOARD_COALESCE_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if self.hidden:
                return  # the changes wait for the page to be seen again
            whole, tables = self.whole, self.tables
            self.whole, self.tables = False, frozenset()
            self.drawn_at = time.monotonic()
            if whole:
                await self.push()
            else:
                await self.push_tables(set(tables))

    async def push_tables(self, tables: set[int]) -> None:
        draw = in_drawing_thread(self.session_id, render_tables)
        html = await draw(self.session_id, self.language, tables)
        await self.send_or_end(html)

    async def push(self) -> None:
        draw = in_drawing_thread(self.session_id, render_dashboard)
        html = await draw(self.session_id, self.language)
        await self.send_or_end(html)

    async def send_or_end(self, html: str | None) -> None:
        """Send the fragment; no fragment means the session is gone: end the socket."""
        if html is None:
            await self.close(code=CLOSE_ENDED)
        else:
            await self.send(text_data=html)
