"""The garbage collector of the server processes (config.collector)."""

import os
import subprocess
import sys

from django.conf import settings

SHOW = "import gc, config.asgi; print(gc.get_freeze_count(), *gc.get_threshold())"


def test_the_asgi_server_freezes_what_it_built_and_collects_young_objects_less_often():
    """Importing the ASGI application (what uvicorn does before serving) leaves Django's
    and the apps' objects frozen, out of every collection, and the young generation's
    threshold at the setting's, not the interpreter's 700."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    shown = subprocess.run(
        [sys.executable, "-c", SHOW], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    frozen, *thresholds = (int(number) for number in shown)
    assert tuple(thresholds) == settings.GC_THRESHOLDS
    assert thresholds[0] > 700
    assert frozen > 50_000  # Django, the apps, the URL patterns (without the set-up: 0)
