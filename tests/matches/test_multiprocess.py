"""One writer per match across processes: two ASGI servers on one database never both apply."""

import json
import subprocess
import sys
import time

import pytest

from games.matches import create_match, load_state

CHILD = r"""
import json, sys, time
import django
django.setup()
from games.engine import IllegalAction
from games.matches import StaleVersion, apply_action
match_id, seat = int(sys.argv[1]), int(sys.argv[2])
action, start = json.loads(sys.argv[3]), float(sys.argv[4])
time.sleep(max(0.0, start - time.time()))
try:
    applied = apply_action(match_id, seat, action, expected_version=0)
    print("applied", applied.version)
except (StaleVersion, IllegalAction) as refused:
    print("refused", type(refused).__name__)
"""


@pytest.mark.django_db(transaction=True)
def test_concurrent_actions_from_several_processes_never_both_apply(service_env):
    match = create_match("data_tycoon", "expert", 2, seed=3)
    state = load_state(match)
    seat = state.to_move()[0]
    action = state.legal_actions(seat)[0]
    start = time.time() + 3.0  # every child is up by then (Django set up), then all go at once
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(match.pk), str(seat), json.dumps(action), str(start)],
            env=service_env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outcomes = []
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        outcomes.append(out.split()[0])

    assert sorted(outcomes) == ["applied", "refused", "refused", "refused"]
    match.refresh_from_db()
    assert match.version == 1
    assert list(match.actions.values_list("version", flat=True)) == [1]
