"""One writer per match across processes: two ASGI servers on one database never both apply."""

import json
import subprocess
import sys
import time

import pytest

from games.matches import create_match, load_state
from games.models import Match, MatchTimer
from tests.live.helpers import drive_to_call_window

CHILD = r"""
import json, sys, time
import django
django.setup()
from games.engine import IllegalAction
from games.matches import StaleVersion, apply_action
match_id, seat = int(sys.argv[1]), json.loads(sys.argv[2])
action, start = json.loads(sys.argv[3]), float(sys.argv[4])
expected = json.loads(sys.argv[5])
time.sleep(max(0.0, start - time.time()))
try:
    applied = apply_action(match_id, seat, action, expected_version=expected)
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
    outcomes = race(service_env, match, seat, action, expected_version=0)

    assert sorted(outcomes) == ["applied", "refused", "refused", "refused"]
    match.refresh_from_db()
    assert match.version == 1
    assert list(match.actions.values_list("version", flat=True)) == [1]


def race(
    env: dict[str, str],
    match: Match,
    seat: int | None,
    action: dict,
    *,
    expected_version: int | None,
    processes: int = 4,
) -> list[str]:
    """Send one action from several processes at the same instant; return their outcomes."""
    start = time.time() + 3.0  # every child is up by then (Django set up), then all go at once
    argv = [json.dumps(seat), json.dumps(action), str(start), json.dumps(expected_version)]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, str(match.pk), *argv],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    outcomes = []
    for child in children:
        out, err = child.communicate(timeout=60)
        assert child.returncode == 0, err
        outcomes.append(out.split()[0])
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_timer_expiry_sent_by_several_processes_applies_once(service_env):
    """The referee sends no version: the row lock alone keeps the writes apart."""
    match = create_match("data_tycoon", "expert", 2, seed=3)
    drive_to_call_window(match, seed=3)
    version = match.version
    timer = MatchTimer.objects.get(match=match)
    outcomes = race(service_env, match, None, timer.action, expected_version=None)

    assert sorted(outcomes) == ["applied", "refused", "refused", "refused"]
    match.refresh_from_db()
    assert match.version == version + 1
    assert match.actions.get(version=version + 1).action == timer.action
    assert not MatchTimer.objects.filter(pk=timer.pk).exists()
