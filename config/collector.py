"""Python's garbage collector in the long-running processes (the ASGI server, the Celery
worker): set up for a heap of some hundred thousand objects that live as long as the
process, and bursts of short-lived ones.

The collector of the young generation runs when the tracked objects allocated since
its last run, less those freed, pass a threshold (the interpreter's: 700). Unpacking
one move's message from the channel layer makes about a thousand at once, so with the
default nearly every message a socket received ran a collection; every few seconds one
of them walked the whole heap. At 1,000 students on two processes that was 8 to 10 % of
a core per process (``gc.callbacks``, CPU time), and p95 act-to-every-view 394 ms; with
5,000 and the startup objects frozen, under 0.02 s in 10 s and 110 ms (docs/benchmarks.md, "Load").
"""

from __future__ import annotations

import gc

from django.conf import settings


def tune_collector() -> None:
    """Freeze the objects this process has built so far and raise the thresholds.

    Called once a process is set up: what it built then (modules, Django's apps and URL
    patterns, the settings) lives as long as it does, so the collector leaves it aside
    (``gc.freeze``; in a forked child, its pages also stay shared with the parent).
    ``GC_THRESHOLDS``' first is above a message's burst of objects; the garbage of real
    cycles (a socket's tasks when it closes) waits a little longer for its collection.
    """
    gc.set_threshold(*settings.GC_THRESHOLDS)
    gc.freeze()
