"""The table protocol's sockets: a student's seat, and the projector's public view.

``ws/play/<code>/`` serves a student's seat (the signed cookie, or a program's seat token
sent as the first message: never in the URL, which access logs keep),
``ws/table/<id>/watch/`` the teacher's projector (the public view). Each socket joins
the session's group (start, end, removal), its table's group and its seat's group (the
projector: the public view's). After an accepted action the write path sends each
seat's group that seat's new ``state``, built once for all its sockets, so no seat is
ever sent another seat's view and no socket re-reads the match; a socket reads the
stored table itself only when it connects, resyncs or finds it missed a version.
Writes go through ``live.write.act``. The consumer knows no game's rules:
docs/protocol.md is the contract.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeGuard

import orjson
from channels.consumer import get_handler_name
from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from classroom import identity, ratelimit
from classroom.actions import do_seat_connected, do_touch_participant
from classroom.broadcast import seat_group, session_group, table_group
from classroom.codes import normalize_code
from classroom.models import ClassSession, Participant, Seat, Table
from classroom.payloads import BadPayload
from classroom.payloads import parse as parse_payload
from classroom.presence import seat_players, table_seats
from classroom.services import (
    SERVICE_ERRORS,
    again_on_lost_connection,
    close_if_lost,
    describe,
    running_again,
)
from games import clock
from games.commit import CommitUnanswered
from games.engine import IllegalAction
from games.matches import LESSON_PAUSE, PAUSED, MatchPaused, StaleVersion, UnreadableState
from live import heartbeat, messages, write
from live.session_sockets import scope_language
from live.sockets import (
    CLOSE_TRY_AGAIN,
    SOCKET_NUMBERS,
    ClientGone,
    P,
    PlatformConsumer,
    R,
    in_table_thread,
)
from live.throttle import (
    MESSAGE_BURST,
    MESSAGES_PER_SECOND,
    RESYNC_BURST,
    RESYNCS_PER_SECOND,
    Bucket,
)

logger = logging.getLogger(__name__)

CLOSE_ENDED = 4000
CLOSE_REMOVED = 4001
# A refused seat socket closes with 4403 and one message whatever the reason (an unknown
# code, a forged or missing seat token, another session's seat), so it tells nobody
# whether a code exists; refused attempts count as wrong codes (classroom.ratelimit).
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY = 4429
# Seconds a socket without a seat cookie has to send its seat token.
TOKEN_SECONDS = 10


class Refused(Exception):
    """The socket may not connect: an error code and the close code."""

    def __init__(self, code: str, close_code: int, language: str = "en") -> None:
        super().__init__(code)
        self.code = code
        self.close_code = close_code
        self.language = language


AUTH_MESSAGES = {
    "forbidden": lambda: gettext("You may not connect to this table."),
    "rate_limited": lambda: gettext("Too many attempts with a wrong code. Please wait a minute."),
}


def message_in(language: str, template: str, params: dict | None = None) -> str:
    """Translate an English template into ``language`` and fill in its parameters."""
    with translation.override(language):
        text = gettext(template)
        return text % params if params else text


PAYLOAD_REFUSALS = {
    "too_large": gettext_noop("This message is too long."),
    "too_deep": gettext_noop("This message is nested too deeply."),
    "not_json": gettext_noop("This message is not part of the table protocol."),
}
# What a player is told when the match's holds refuse an action (MatchPaused.reason).
PAUSE_REFUSALS = {
    PAUSED: gettext_noop("The game is paused."),
    LESSON_PAUSE: gettext_noop("Wait a moment: everyone at the table reads the lesson first."),
}
# A match whose stored state this release can neither read nor rebuild from its log
# (games.matches.UnreadableState): the socket stays open and says so, rather than close
# and be opened again, each time in vain.
CANNOT_GO_ON = gettext_noop(
    "This game cannot go on after the platform's update. Your teacher can end the session "
    "and open a new one."
)
SERVICE_REFUSALS = {
    "unavailable": gettext_noop(
        "The server is busy for a moment and could not answer. Try again in a few seconds."
    ),
    "server_error": gettext_noop("Something went wrong on the server. Try again."),
}


def is_integer(value: object) -> TypeGuard[int]:
    """Tell whether a JSON value is an integer: ``true`` and ``false`` are not, though
    Python counts them as 1 and 0 (``"version": false`` would pass for version 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def message_text(message: dict) -> str:
    """Return a protocol message as compact JSON text."""
    return messages.json_bytes(message).decode()


class TableConsumer(PlatformConsumer):
    """What the seat and spectator sockets share: groups, messages, the protocol's replies."""

    session_id: int | None = None
    participant_id: int | None = None
    table_id: int | None = None
    seat: int | None = None
    seat_pk: int | None = None
    language = "en"
    last_version: int | None = None
    # Whether a bot plays this socket's seat now (the teacher handed it to a bot).
    bot_playing = False
    # The deck (``messages.deck``) whose card catalogue this socket was sent.
    catalogue_sent: tuple[str, str, frozenset[str]] | None = None
    # The seat found for this socket, counted on it once the socket joined its table.
    located_seat_pk: int | None = None
    number = 0  # this socket's (SOCKET_NUMBERS), set on connect

    # Connection

    async def connect(self) -> None:
        """Accept, authenticate, then send ``hello`` and ``state`` (or ``waiting``)."""
        self.number = next(SOCKET_NUMBERS)
        self.messages_in = Bucket(MESSAGES_PER_SECOND, MESSAGE_BURST)
        self.resyncs = Bucket(RESYNCS_PER_SECOND, RESYNC_BURST)
        self.told_too_fast = False
        await self.accept()
        await self.admit()

    async def admit(self) -> None:
        """Authenticate, then join the session and send the table; refuse with a close code."""
        try:
            await self.in_database(self.authenticate)()
        except Refused as refused:
            with translation.override(refused.language):
                text = AUTH_MESSAGES[refused.code]()
            await self.send_error(refused.code, text)  # version null: no table yet
            await self.close(code=refused.close_code)
            return
        assert self.session_id is not None  # authenticate set it
        await self.join(session_group(self.session_id))
        await self.find_table()

    def authenticate(self) -> None:
        """Set session_id, language and the seat or table; raise Refused otherwise."""
        raise NotImplementedError

    def in_database(self, func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
        """Return ``func`` as a coroutine function run in this socket's table thread (the
        one of its socket number until it knows its table)."""
        return in_table_thread(self.table_id if self.table_id is not None else self.number, func)

    async def on_release(self) -> None:
        """The seat counts one socket less, however the socket ended."""
        heartbeat.leave(self)
        if self.seat_pk is not None:
            seat_pk, self.seat_pk = self.seat_pk, None
            await self.in_database(self.count_on_seat)(seat_pk, -1)

    async def on_failure(self, message: dict, code: str) -> None:
        """A service failed while handling a message: say so; the socket stays open."""
        await self.send_error(
            code, message_in(self.language, SERVICE_REFUSALS[code]), self.last_version
        )

    def behind(self, stored_version: int) -> bool:
        """Tell whether the match stored is newer than the last state this socket sent:
        a state lost with a Redis that died before writing it to disk (kill -9, found by
        benchmarks/chaos.py) would otherwise leave a student never told it is their turn,
        since a lost state is noticed only at the next one, and none comes. The
        heartbeat (live.heartbeat) asks."""
        return self.last_version is not None and stored_version > self.last_version

    def catch_up(self) -> None:
        """Send the stored state, beside the socket's other work."""
        self.start_task(self.send_state)

    async def find_table(self) -> None:
        """Send hello and state when the socket has a table, else ``waiting``."""
        if self.table_id is None:
            await self.in_database(self.locate_seat)()
        if self.table_id is None:
            session_state = await self.in_database(self.session_state)()
            await self.send_json({"type": "waiting", "session_state": session_state})
            return
        await self.join(table_group(self.table_id))
        await self.join(seat_group(self.table_id, self.seat))
        try:
            if self.seat is not None and self.seat_pk is None:
                hello, state = await self.in_database(self.count_in_and_build)()
                heartbeat.join(self)
            else:
                hello, state = await self.in_database(self.build_full)()
        except UnreadableState:
            await self.cannot_go_on()
            return
        await self.send_json(hello)
        await self.send_state(state, force=True)

    async def cannot_go_on(self) -> None:
        """Say that this table's match cannot go on (logged with its cause)."""
        logger.exception("Table %s cannot be shown to its socket", self.table_id)
        await self.send_error("cannot_go_on", message_in(self.language, CANNOT_GO_ON))

    @again_on_lost_connection  # a read: safe to run twice
    def locate_seat(self) -> None:
        """Find this socket's table (a student's seat); spectators know it already."""
        assert self.participant_id is not None  # a student's socket, authenticated
        seat = Seat.objects.filter(
            participant_id=self.participant_id, table__session=self.session_id
        ).first()
        if seat is not None:
            self.table_id, self.seat, self.located_seat_pk = seat.table_id, seat.number, seat.pk

    @staticmethod
    def count_on_seat(seat_pk: int, delta: int) -> None:
        """Count this socket on (+1) or off (-1) its seat, on a connection checked first:
        a count may not run twice, as the reads around it do on a dropped connection."""
        close_if_lost()
        do_seat_connected(seat_pk, delta)

    def count_in_and_build(self) -> tuple[dict, dict]:
        """Count this socket on its seat, then build its ``hello`` and ``state``."""
        assert self.located_seat_pk is not None  # a seat found by locate_seat
        self.count_on_seat(self.located_seat_pk, +1)
        # Counted: from here on, release() takes the socket off the count again.
        self.seat_pk = self.located_seat_pk
        return self.build_full()

    @again_on_lost_connection  # a read: safe to run twice
    def session_state(self) -> str:
        assert self.session_id is not None  # authenticate set it
        return ClassSession.objects.values_list("state", flat=True).get(pk=self.session_id)

    # Messages out

    async def send_json(self, message: dict) -> None:
        """Send one message; each carries the match version this socket last saw."""
        message.setdefault("version", self.last_version)
        await self.send(text_data=message_text(message))

    @again_on_lost_connection  # a read: safe to run twice
    def build_full(self) -> tuple[dict, dict]:
        assert self.table_id is not None  # the socket found its table
        snap = messages.load_table(self.table_id)
        self.bot_playing = self.seat is not None and snap.bot_plays(self.seat)
        state = messages.state_message(snap, self.seat, self.language)
        hello = messages.hello_message(snap, self.seat, self.language)
        hello.setdefault("version", state["version"])
        # The catalogue is the bulk of a hello: a socket gets it once per deck.
        deck = messages.deck(snap)
        if deck == self.catalogue_sent:
            del hello["catalogue"]
        self.catalogue_sent = deck
        return hello, state

    @again_on_lost_connection  # a read: safe to run twice
    def build_state(self, since: int | None = None) -> dict:
        assert self.table_id is not None  # the socket found its table
        snap = messages.load_table(self.table_id)
        return messages.state_message(snap, self.seat, self.language, since)

    async def send_state(self, state: dict | None = None, force: bool = False) -> None:
        """Send this seat's state, unless that version was sent already."""
        if state is None:
            since = None if force else self.last_version
            try:
                state = await self.in_database(self.build_state)(since)
            except UnreadableState:
                await self.cannot_go_on()
                return
        if not force and state["version"] == self.last_version:
            return
        self.last_version = state["version"]
        await self.send_json(messages.in_language(state, self.language))

    async def send_too_fast(self) -> None:
        await self.send_error(
            "too_fast",
            message_in(
                self.language,
                gettext_noop("Too many messages at once: wait a moment, the table is up to date."),
            ),
            self.last_version,
        )

    async def send_error(self, code: str, message: str, version: int | None = None) -> None:
        await self.send_json(
            {"type": "error", "code": code, "message": message, "version": version}
        )

    # Messages in

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Answer ``act``, ``resync`` and ``ping``; refuse anything else."""
        if self.session_id is None:
            # Not admitted: a service failed during the admission and the socket closes
            # with "try again" (``failed``). A message the client sent before it heard the
            # close has no student or table to go to; the client comes back and asks again.
            return
        if not self.messages_in.take():
            # One answer per flood, not one per message: a flood must not make the
            # server write as much as it reads.
            if not self.told_too_fast:
                self.told_too_fast = True
                await self.send_too_fast()
            return
        self.told_too_fast = False
        try:
            message = parse_payload(text_data if text_data is not None else bytes_data)
            kind = message["type"]
        except BadPayload as bad:
            await self.send_error(
                "bad_message",
                message_in(self.language, PAYLOAD_REFUSALS[bad.reason]),
                self.last_version,
            )
            return
        except (TypeError, KeyError):
            kind, message = None, {}
        if kind == "ping":
            await self.send_json({"type": "pong", "server_time": messages.iso(clock.now())})
        elif kind == "resync":
            if self.resyncs.take():
                await self.find_table()
            else:
                await self.send_too_fast()
        elif kind == "act":
            await self.act(message)
        elif kind == "dismiss":
            await self.dismiss(message)
        else:
            await self.send_error(
                "bad_message",
                message_in(
                    self.language, gettext_noop("This message is not part of the table protocol.")
                ),
                self.last_version,
            )

    async def act(self, message: dict) -> None:
        """Apply the client's action through the match's one writer; refuse with a reason."""
        if self.seat is None or self.table_id is None:
            await self.send_error(
                "not_seated",
                message_in(self.language, gettext_noop("You have no seat at this table.")),
                self.last_version,
            )
            return
        version, action = message.get("version"), message.get("action")
        if not is_integer(version) or not isinstance(action, dict):
            await self.send_error(
                "bad_message",
                message_in(self.language, gettext_noop("An action needs a version and an action.")),
                self.last_version,
            )
            return
        try:
            loop = asyncio.get_running_loop()
            error = await self.in_database(self.apply)(version, action, loop)
        except CommitUnanswered as failure:
            # Sent to the database and never answered, and not found since: it may be
            # stored. The next state the table gets tells.
            logger.warning("act at table %s of unknown outcome: %s", self.table_id, failure)
            error = self.error(
                "unconfirmed",
                gettext_noop(
                    "The server could not confirm your move: it may have been played. Your "
                    "screen will show it as soon as the server answers again."
                ),
                self.last_version,
            )
        except SERVICE_ERRORS as failure:
            # Raised before the move was stored (live.write.act keeps what follows the commit
            # from failing the move): the player must know it was not played.
            logger.warning("act at table %s not stored: %s", self.table_id, describe(failure))
            error = self.error(
                "not_stored",
                gettext_noop(
                    "The server is busy and your move was not stored. Try it again in a moment."
                ),
                self.last_version,
            )
        if error is not None:
            await self.send_json(error)
            if error["code"] == "stale_version":
                await self.send_state(force=True)

    @again_on_lost_connection  # a move carries its version: safe to run twice
    def apply(
        self, version: int, action: dict, loop: asyncio.AbstractEventLoop | None = None
    ) -> dict | None:
        """Apply the action (sync); return the error message to send, or None. The
        states of an accepted action go out on ``loop``, this socket's event loop."""
        # The table and its seats, read once for this check and the write path (the
        # match is read by the write path, under the match's lock: an ended session's
        # matches are finished, a paused one's held).
        found = messages.action_table(table_id=self.table_id)
        seat = found.seat(self.seat) if found is not None else None
        if found is None or seat is None:  # the teacher removed the table or the seat meanwhile
            return self.error(
                "not_seated", gettext_noop("You have no seat at this table."), self.last_version
            )
        match_id = found.table.match_id
        if seat.bot_kind:
            return self.error(
                "bot_playing",
                gettext_noop("A bot plays this seat now."),
                messages.stored_version(match_id),
            )
        try:
            write.act(
                match_id, self.seat, action, version, loop=loop, found=found, resent=running_again()
            )
        except StaleVersion as stale:
            return self.error(
                "stale_version",
                gettext_noop(
                    "Something changed at the table before your move: here is the new state."
                ),
                stale.current,
            )
        except MatchPaused as held:  # the match's holds, checked by the write path
            return self.error(
                held.reason, PAUSE_REFUSALS[held.reason], messages.stored_version(match_id)
            )
        except IllegalAction as refusal:
            return self.error(
                refusal.code, refusal.message, messages.stored_version(match_id), refusal.params
            )
        except UnreadableState:
            logger.exception("A move at table %s cannot be played", self.table_id)
            return self.error("cannot_go_on", CANNOT_GO_ON, self.last_version)
        return None

    async def dismiss(self, message: dict) -> None:
        """A lesson card was read: the seat is no longer waited for (the projector's
        teacher, with ``"all": true``, ends the lesson pause for the whole table)."""
        moment = message.get("moment")
        everyone = message.get("all") is True and self.seat is None
        if self.table_id is None or not (is_integer(moment) or everyone):
            await self.send_error(
                "bad_message",
                message_in(self.language, gettext_noop("A dismiss needs the moment's id.")),
                self.last_version,
            )
            return
        if self.seat is None and not everyone:
            return  # the projector only hides its card
        await self.in_database(self.dismiss_now)(moment, everyone)

    def dismiss_now(self, moment: int | None, everyone: bool) -> None:
        assert self.table_id is not None  # dismiss checked it
        match_id = Table.objects.values_list("match_id", flat=True).get(pk=self.table_id)
        write.dismiss_lesson(match_id, moment, self.seat, everyone=everyone)

    def error(
        self, code: str, template: str, version: int | None, params: dict | None = None
    ) -> dict:
        return {
            "type": "error",
            "code": code,
            "message": message_in(self.language, template, params),
            "version": version,
        }

    # Group events

    async def table_states(self, event: dict) -> None:
        """The write path's states after one action, every listening seat's in one
        message to the table: send this socket's seat's (the projector's: the public),
        then handle the table messages that follow the move (``then``)."""
        key = messages.audience_key(self.seat)
        if "texts" in event:
            text = event["texts"].get(key)
            if text is not None:
                await self.state_text(event, text)
        else:  # a server of the previous release sent the states as objects
            state = event["states"].get(key)
            if state is not None:
                await self.table_state({"state": state, "log": event["log"]})
        # What the move opened (a lesson card), after the state of the move it is about.
        for message in event.get("then", ()):
            handler = getattr(self, get_handler_name(message), None)
            if handler is not None:
                await handler(message)

    async def state_text(self, event: dict, text: bytes) -> None:
        """Send this seat's state of ``table.states``, written once as JSON by the write
        path, with the log in this socket's language joined to it; or, when this socket
        missed a version, read the table (the log then covers every action since the
        last state it sent)."""
        version, log = event["version"], event["logs"].get(self.language)
        if self.last_version is not None and version <= self.last_version:
            return  # sent already (this socket read the table after the action)
        if self.last_version is None or version > self.last_version + 1 or log is None:
            await self.send_state()
            return
        if event["cards"]:  # a lesson pause: its cards in this socket's language
            await self.send_state({**orjson.loads(text), "log": orjson.loads(log)})
            return
        self.last_version = version
        await self.send(text_data=messages.state_with_log(text, log).decode())

    async def table_state(self, event: dict) -> None:
        """One seat's state with its log in every language, as a server of the previous
        release sent it (to the seat's group, or in ``table.states``): send it with the
        log in this socket's language, or, when this socket missed a version, read the
        table."""
        state, log = event["state"], event["log"].get(self.language)
        if state["seat"] != self.seat:
            return
        if self.last_version is not None and state["version"] <= self.last_version:
            return  # sent already (this socket read the table after the action)
        if self.last_version is None or state["version"] > self.last_version + 1 or log is None:
            await self.send_state()
            return
        await self.send_state({**state, "log": log})

    async def table_lesson(self, event: dict) -> None:
        """A lesson moment: the seats involved and the projector show its card."""
        if self.seat is not None and self.seat not in event["seats"]:
            return
        # The card in this socket's language (lessons.moments builds it in each one).
        lesson = event.get("languages", {}).get(self.language, event["lesson"])
        await self.send_json(
            {
                "type": "lesson",
                "moment": event["moment"],
                "lesson": lesson,
                "event": event["event"],
                "seats": event["seats"],
                "pause": event["pause"],
            }
        )

    async def table_lesson_dismissed(self, event: dict) -> None:
        """Someone dismissed a lesson card; once nobody is waited for, play goes on."""
        await self.send_json(
            {"type": "lesson_dismissed", "moment": event["moment"], "waiting": event["waiting"]}
        )
        if event["over"]:
            await self.send_state(force=True)

    async def table_paused(self, event: dict) -> None:
        await self.send_json({"type": "paused"})
        await self.send_state(force=True)

    async def table_resumed(self, event: dict) -> None:
        await self.send_json({"type": "resumed"})
        await self.send_state(force=True)

    async def table_presence(self, event: dict) -> None:
        players = event.get("players", {}).get(self.language)
        if players is None:  # sent without them (a server of the previous release)
            players = await self.in_database(self.build_players)()
        await self.send_json({"type": "presence", "players": players})
        mine = next((p for p in players if p["seat"] == self.seat), None)
        if mine is not None and (mine["bot"] is not None) != self.bot_playing:
            # the seat went to a bot or came back: its controls go or come back
            self.bot_playing = mine["bot"] is not None
            await self.send_state(force=True)

    def build_players(self) -> list[dict]:
        assert self.table_id is not None  # a table's event: the socket joined its group
        with translation.override(self.language):
            return seat_players(table_seats(self.table_id))

    async def lobby_changed(self, event: dict) -> None:
        """Session-wide news: the start, the end, a removal."""
        reason = event.get("reason")
        if reason == ClassSession.State.FINISHED:
            text = message_in(
                self.language, gettext_noop("The teacher ended the session. Thank you!")
            )
            await self.send_json({"type": "ended", "message": text})
            await self.close(code=CLOSE_ENDED)
        elif reason == "moved" and event.get("participant") == self.participant_id:
            device = getattr(self, "device_id", None)
            if device is not None and device != event.get("device"):
                text = message_in(
                    self.language,
                    gettext_noop("Your teacher moved your place to another device."),
                )
                await self.send_json({"type": "removed", "message": text})
                await self.close(code=CLOSE_REMOVED)
        elif reason == "kicked" and self.participant_id is not None:
            if await self.in_database(self.was_removed)():
                text = message_in(
                    self.language, gettext_noop("The teacher removed you from this session.")
                )
                await self.send_json({"type": "removed", "message": text})
                await self.close(code=CLOSE_REMOVED)
        elif self.table_id is None and reason in {"running", "paused"}:
            await self.find_table()

    def was_removed(self) -> bool:
        assert self.participant_id is not None  # lobby_changed checked it
        return Participant.objects.filter(pk=self.participant_id, kicked=True).exists()


class PlayConsumer(TableConsumer):
    """A student's seat: ``ws/play/<code>/`` with the seat cookie, or a program's first
    message ``{"type": "auth", "token": <seat token>}``."""

    device_id: str | None = None
    token: str | None = None
    awaiting_token = False
    # Set up from the token message: a service failing meanwhile closes the socket, as
    # when it fails while connecting (PlatformConsumer.failed), so the client comes back.
    setting_up = False

    async def admit(self) -> None:
        """Without a seat cookie, wait for the seat token before authenticating."""
        cookies = self.scope.get("cookies", {})
        if self.token is None and identity.participant_id_from(cookies) is None:
            self.awaiting_token = True
            self.start_task(self.token_deadline)
            return
        await super().admit()

    async def token_deadline(self) -> None:
        await asyncio.sleep(TOKEN_SECONDS)
        if self.awaiting_token:
            await self.take_token("")

    async def take_token(self, token: str) -> None:
        self.awaiting_token = False
        self.token = token
        self.setting_up = True
        await super().admit()
        self.setting_up = False

    async def failed(self, message: dict, code: str) -> None:
        await super().failed(message, code)
        if self.setting_up and message.get("type") != "websocket.connect":
            with contextlib.suppress(ClientGone):
                await self.close(code=CLOSE_TRY_AGAIN)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The first message of a socket without a seat cookie is its seat token."""
        if not self.awaiting_token:
            await super().receive(text_data, bytes_data)
            return
        try:
            message = parse_payload(text_data if text_data is not None else bytes_data)
            token = message["token"] if message["type"] == "auth" else ""
        except (BadPayload, TypeError, KeyError):
            token = ""
        await self.take_token(token if isinstance(token, str) else "")

    @again_on_lost_connection  # reads, and a student's last seen: safe to run twice
    def authenticate(self) -> None:
        """Admit the seat the credential names when it is in this open session; else
        count a wrong attempt and refuse. The code itself is never looked up, so the
        answer is the same for a code that exists and one that does not."""
        code = normalize_code(self.scope["url_route"]["kwargs"]["code"])
        cookies = self.scope.get("cookies", {})
        device_id = identity.device_id_from(cookies)
        if self.token is not None:
            participant = identity.participant_from_token(self.token)
        else:
            participant = identity.current_participant(cookies)
            self.device_id = device_id
        session = participant.session if participant is not None else None
        if (
            participant is not None
            and session is not None
            and session.join_code == code
            and session.state != ClassSession.State.FINISHED
            and not participant.kicked
            and (self.device_id is None or self.device_id == participant.device_id)
        ):
            do_touch_participant(participant)
            self.session_id = session.pk
            self.participant_id = participant.pk
            # The student's language, as on their play page: their choice, else the session's.
            self.language = identity.chosen_language(cookies, session.language)
            return
        # Known from the credential alone, never from the code in the URL.
        fallback = session.language if session is not None else scope_language(self.scope)
        language = identity.chosen_language(cookies, fallback)
        client = self.scope.get("client") or ("unknown", 0)
        if not ratelimit.take_attempt(client[0], device_id):
            raise Refused("rate_limited", CLOSE_TOO_MANY, language)
        raise Refused("forbidden", CLOSE_FORBIDDEN, language)


class WatchConsumer(TableConsumer):
    """The projector: the public view of one table, for the teacher who owns the session."""

    @again_on_lost_connection  # a read: safe to run twice
    def authenticate(self) -> None:
        user = self.scope.get("user")
        table = (
            Table.objects.select_related("session__school_class")
            .filter(pk=self.scope["url_route"]["kwargs"]["table_id"])
            .first()
        )
        if (
            table is None
            or user is None
            or not user.is_authenticated
            or table.session.school_class.teacher_id != user.pk
        ):
            raise Refused("forbidden", CLOSE_FORBIDDEN, scope_language(self.scope))
        self.session_id = table.session_id
        self.table_id = table.pk
        self.language = scope_language(self.scope)
