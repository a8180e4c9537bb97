"""WebSocket routes of live play (the table protocol, docs/protocol.md)."""

from django.urls import path

from games.consumers import PlayConsumer, WatchConsumer

websocket_urlpatterns = [
    path("ws/play/<str:code>/", PlayConsumer.as_asgi(), name="ws_play"),
    path("ws/table/<int:table_id>/watch/", WatchConsumer.as_asgi(), name="ws_watch"),
]
