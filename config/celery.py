"""The Celery application: broker and results on the platform's Redis."""

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init
from django.db import close_old_connections

from config.collector import tune_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def tune_collector_in_worker(**kwargs: Any) -> None:
    """Set up the collector of each worker process, forked ready (config.collector)."""
    tune_collector()


# Celery's Django fix-up closes every database connection before and after each task
# unless CELERY_DB_REUSE_MAX (config.settings) spares it; on PostgreSQL each bot move and
# timer then started a server process of its own. The worker keeps its connection as
# the ASGI servers do (DB_CONN_MAX_AGE), with Django's own rule around each task, as
# around a request: closed once too old, or unusable after an error.
@task_prerun.connect
def close_old_connections_before_task(**kwargs: Any) -> None:
    close_old_connections()


@task_postrun.connect
def close_old_connections_after_task(**kwargs: Any) -> None:
    close_old_connections()
