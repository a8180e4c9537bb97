"""A database machine gone without a word (powered off, the network cut) sends no reset:
a query sent to it waited on the kernel's own limit, about 15 minutes, and held the
thread that sent it, with every table that thread serves. The platform's PostgreSQL
connections now give up after ``DB_TCP_USER_TIMEOUT_SECONDS``, and a new one's attempt
after that or ``DB_CONNECT_TIMEOUT``, whichever comes first."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.namespaces import network_namespaces

pytestmark = pytest.mark.skipif(
    not network_namespaces(),
    reason="a network namespace of the test's own needs root, unshare and ip",
)

TIMEOUT_SECONDS = 2


def test_a_query_sent_to_a_database_machine_gone_silent_fails_in_time():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DB_TCP_USER_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
    }
    done = subprocess.run(
        ["unshare", "--net", sys.executable, "-m", "tests.platform.dead_database_peer"],
        check=False,  # its stderr is shown below when it failed
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["error"] is not None, f"the query still waited after {answer}"
    # The kernel counts from the first resend, and its backoff rounds the limit up.
    assert TIMEOUT_SECONDS - 0.5 <= answer["seconds"] < 15
    # A new connection's attempt waits too, as it does for a machine gone silent (a cut
    # that refused it at once would not be one), and gives up as well.
    assert answer["connect_error"] is not None, f"the connection was made: {answer}"
    assert TIMEOUT_SECONDS - 0.5 <= answer["connect_seconds"] < 15
