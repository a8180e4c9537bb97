"""WebSocket routes of every app, gathered for the ASGI application."""

from classroom.routing import websocket_urlpatterns as classroom_routes
from games.routing import websocket_urlpatterns as games_routes

websocket_urlpatterns = [*classroom_routes, *games_routes]
