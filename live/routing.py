"""WebSocket routes of live play: the table protocol (docs/protocol.md), the session's
lobby, the teacher's live dashboard and the join screen."""

from django.urls import path

from live.consumers import PlayConsumer, WatchConsumer
from live.screen_sockets import JoinScreenConsumer
from live.session_sockets import DashboardConsumer, SessionConsumer

websocket_urlpatterns = [
    path("ws/session/<str:code>/", SessionConsumer.as_asgi(), name="ws_session"),
    path("ws/teacher/sessions/<int:pk>/live/", DashboardConsumer.as_asgi(), name="ws_dashboard"),
    path("ws/teacher/sessions/<int:pk>/screen/", JoinScreenConsumer.as_asgi(), name="ws_screen"),
    path("ws/play/<str:code>/", PlayConsumer.as_asgi(), name="ws_play"),
    path("ws/table/<int:table_id>/watch/", WatchConsumer.as_asgi(), name="ws_watch"),
]
