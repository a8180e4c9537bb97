"""WebSocket routes of the classroom app."""

from django.urls import path

from classroom.consumers import DashboardConsumer, SessionConsumer

websocket_urlpatterns = [
    path("ws/session/<str:code>/", SessionConsumer.as_asgi(), name="ws_session"),
    path("ws/teacher/sessions/<int:pk>/live/", DashboardConsumer.as_asgi(), name="ws_dashboard"),
]
