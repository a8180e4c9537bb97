"""ASGI entry point: Django for HTTP, Channels consumers for WebSocket."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the routing imports models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config import database, serverlogs  # noqa: E402
from config.collector import tune_collector  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402

serverlogs.install()
database.install()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
# Last: what the server built to get here lives as long as it does.
tune_collector()
