"""The Celery application: broker and results on the platform's Redis."""

import os

from celery import Celery
from celery.signals import worker_process_init

from config.collector import tune_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def tune_collector_in_worker(**kwargs) -> None:
    """Set up the collector of each worker process, forked ready (config.collector)."""
    tune_collector()
