"""WebSocket routes of live play: the table protocol (docs/protocol.md), the session's
lobby and the teacher's live dashboard."""

from django.urls import path

from live.consumers import PlayConsumer, WatchConsumer
from live.session_sockets import DashboardConsumer, SessionConsumer

websocket_urlpatterns = [
    path("ws/session/<str:code>/", SessionConsumer.as_asgi(), name="ws_session"),
    path("ws/teacher/sessions/<int:pk>/live/", DashboardConsumer.as_asgi(), name="ws_dashboard"),
    path("ws/play/<str:code>/", PlayConsumer.as_asgi(), name="ws_play"),
    path("ws/table/<int:table_id>/watch/", WatchConsumer.as_asgi(), name="ws_watch"),
]
