"""Tell a session's open WebSockets that its lobby changed, once the change is committed."""

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def session_group(session_id: int) -> str:
    """Return the channel-layer group of a session."""
    return f"session-{session_id}"


def _loop_running_in_this_thread() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def send_now(session_id: int, event: dict) -> None:
    """Send an event to the session's group right away; log, never raise, on failure.

    The change it announces is already committed: a lost message must not turn the
    teacher's or student's request into an error (pages resync when they reconnect).
    """
    group = session_group(session_id)

    def send():
        try:
            async_to_sync(get_channel_layer().group_send)(group, event)
        except Exception:
            logger.exception("could not send %s to %s", event.get("type"), group)

    if _loop_running_in_this_thread():
        # A synchronous caller inside a busy event loop (not the ASGI server's case,
        # which runs views in worker threads): send from a helper thread.
        helper = threading.Thread(target=send, name="classroom-broadcast")
        helper.start()
        helper.join(10)
    else:
        send()


def lobby_changed(session_id: int, reason: str) -> None:
    """Broadcast, after the current transaction commits, that the lobby changed."""
    event = {"type": "lobby.changed", "reason": reason}
    transaction.on_commit(lambda: send_now(session_id, event))
