"""The simulator: ``python -m games.simulate`` and ``manage.py simulate``."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import simulate

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_prints_json_statistics(capsys):
    args = ["data_tycoon", "--games", "6", "--players", "3", "--variant", "expert"]
    assert simulate.main([*args, "--bots", "heuristic,random", "--json", "--quiet"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["games"] == 6 and set(stats["bots"]) == {"heuristic", "random"}
    assert sum(b["seats_played"] for b in stats["bots"].values()) == 18
    assert abs(sum(stats["seats"].values()) - 1) < 1e-3
    assert stats["turns"]["mean"] > 0 and stats["cards_played"]["dataset"] > 0
    assert sum(stats["decided_by"].values()) == 6


def test_simulate_prints_a_report_and_a_progress_bar_on_stderr(capsys):
    simulate.main(["data_tycoon", "--games", "3", "--expire", "0.2", "--option", "time_mode=clock"])
    out, err = capsys.readouterr()
    assert "win rate per bot" in out and "turns per game" in out and "cards played" in out
    assert "3/3" in err


@pytest.mark.parametrize(
    "args",
    [
        ["nope"],
        ["data_tycoon", "--players", "7"],
        ["data_tycoon", "--variant", "nope"],
        ["data_tycoon", "--bots", "genius"],
        ["data_tycoon", "--option", "bogus"],
    ],
)
def test_simulate_rejects_bad_input(args, capsys):
    with pytest.raises(SystemExit) as info:
        simulate.main([*args, "--games", "1", "--quiet"])
    assert info.value.code == 2


@pytest.mark.skipif(not (ROOT / "manage.py").exists(), reason="the Django project is not here yet")
def test_manage_py_simulate_wraps_the_simulator():
    proc = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "simulate",
            "data_tycoon",
            "--games",
            "2",
            "--json",
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 2
