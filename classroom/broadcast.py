"""Tell a session's open WebSockets that its lobby changed, once the change is committed."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def session_group(session_id: int) -> str:
    """Return the channel-layer group of a session."""
    return f"session-{session_id}"


def send_now(session_id: int, event: dict) -> None:
    """Send an event to the session's group right away."""
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(session_group(session_id), event)


def lobby_changed(session_id: int, reason: str) -> None:
    """Broadcast, after the current transaction commits, that the lobby changed."""
    event = {"type": "lobby.changed", "reason": reason}
    transaction.on_commit(lambda: send_now(session_id, event))
