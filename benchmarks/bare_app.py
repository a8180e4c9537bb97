"""The ASGI application of ``benchmarks.bare``: one Channels consumer, nothing else.

A socket of ``ws/bare/<table>/`` joins its table's group; an ``act`` it sends is fanned
out to the group as a state of 2 KB. The channel layer is the platform's
(``config.channel_layer.PlatformChannelLayer``, on channels-redis's pub/sub layer), or
channels-redis's core layer with ``BARE_LAYER=core``, on ``REDIS_URL``.
"""

from __future__ import annotations

import os

import django
from django.conf import settings

LAYERS = {
    "platform": "config.channel_layer.PlatformChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}

settings.configure(
    INSTALLED_APPS=["channels"],
    CHANNEL_LAYERS={
        "default": {
            "BACKEND": LAYERS[os.environ.get("BARE_LAYER", "platform")],
            "CONFIG": {"hosts": [{"address": os.environ["REDIS_URL"]}], "prefix": "bare"},
        }
    },
)
django.setup()

import orjson  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

# A state's worth of bytes, as a JSON string field.
PADDING = "x" * 2000


class BareConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"bare-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        data = text_data if text_data is not None else bytes_data
        assert data is not None  # Channels passes a frame's text or its bytes
        message = orjson.loads(data)
        state = {"type": "state", "version": message["version"], "view": PADDING}
        await self.channel_layer.group_send(self.group, {"type": "table.state", "state": state})

    async def table_state(self, event: dict) -> None:
        await self.send(text_data=orjson.dumps(event["state"]).decode())


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/bare/<int:table>/", BareConsumer.as_asgi())])}
)
