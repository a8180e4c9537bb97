"""Python's garbage collector in the long-running processes (the ASGI server, the Celery
worker): set up for a heap of some hundred thousand objects that live as long as the
process, and a stream of short-lived ones (every move's messages, states and rows).

With the interpreter's defaults a busy server (1,000 students on two processes)
collected its young objects 30 times a second and its whole heap every few seconds,
walking the objects of Django, the apps and the games' catalogues each time: 7 to 11 %
of a core per process, 15 to 20 % of its CPU (measured with ``gc.callbacks``).
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune_collector() -> None:
    """Freeze the objects this process has built so far and collect less often.

    Called once a process is set up: what it built then (modules, Django's apps and URL
    patterns, the settings) lives as long as it does, so the collector leaves it aside
    (``gc.freeze``; in a forked child, its pages also stay shared with the parent). The
    young generation's threshold goes from 700 objects to ``GC_THRESHOLDS``' first:
    most of what a move allocates is freed by its reference count before a collection,
    so fewer survivors reach the old generations and fewer full collections run.
    """
    gc.set_threshold(*settings.GC_THRESHOLDS)
    gc.freeze()
