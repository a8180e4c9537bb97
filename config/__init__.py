"""Project configuration: settings, URLs, ASGI application, Celery app, service runner."""

from .celery import app as celery_app

__all__ = ["celery_app"]
