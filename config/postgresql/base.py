"""PostgreSQL, with the connection health check skipped for a connection in steady use.

Django's health check (``CONN_HEALTH_CHECKS``) runs ``SELECT 1`` before the first query
after every ``close_old_connections``, and Channels calls that around every piece of a
socket's database work: one more round trip to the database for each move and each
step of a socket's connect. A connection used less than ``HEALTH_CHECK_IDLE_SECONDS``
ago is taken as alive; one idle longer is checked as before. A connection that failed
meanwhile is still found: the failed query marks it (Django's ``errors_occurred``) and
it is checked, and closed, before its next use.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

# A dropped connection (a database restart, a network or proxy timeout) is most often
# one that sat idle; one in use a moment ago answered then.
HEALTH_CHECK_IDLE_SECONDS = 5.0


class DatabaseWrapper(base.DatabaseWrapper):
    used_at: float | None = None

    def close_if_health_check_failed(self) -> None:
        """Check the connection only when it sat idle (a new one is not checked before the
        next ``close_old_connections`` anyway)."""
        used_at = self.used_at
        if used_at is not None and time.monotonic() - used_at < HEALTH_CHECK_IDLE_SECONDS:
            self.health_check_done = True
        super().close_if_health_check_failed()

    def _cursor(self, name=None):
        cursor = super()._cursor(name)
        self.used_at = time.monotonic()
        return cursor
