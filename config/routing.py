"""WebSocket routes of the platform, gathered for the ASGI application."""

from live.routing import websocket_urlpatterns

__all__ = ["websocket_urlpatterns"]
