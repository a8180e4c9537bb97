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
    assert stats["options"] == {"time_mode": "turns"}  # no clock in a simulation


def test_a_simulation_counts_time_deadlines_in_turns_unless_told(capsys):
    args = ["data_tycoon", "--games", "2", "--json", "--quiet", "--option", "time_mode=clock"]
    assert simulate.main(args) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"time_mode": "clock"}
    assert simulate.main(["conspiranoia", "--games", "2", "--json", "--quiet"]) == 0
    assert "time_mode" not in json.loads(capsys.readouterr().out)["options"]


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


def test_a_game_without_roles_reports_none(capsys):
    assert simulate.main(["data_tycoon", "--games", "2", "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["roles"] == {}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "expert"])
def test_the_data_thief_wins_30_to_45_percent_between_heuristic_bots(players, variant, capsys):
    """The balance of docs/rules/data_thief.md: the simulator reports the thief's win
    rate per role, and it stays between 30 % and 45 % at every table size."""
    args = ["data_thief", "--games", "400", "--players", str(players), "--variant", variant]
    assert simulate.main([*args, "--bots", "heuristic", "--json", "--quiet"]) == 0
    stats = json.loads(capsys.readouterr().out)
    thief = stats["roles"]["thief"]
    assert thief["seats_played"] == 400
    assert stats["roles"]["manager"]["seats_played"] == 400 * (players - 1)
    assert 0.30 <= thief["win_rate"] <= 0.45, thief


def test_the_report_has_a_line_per_role(capsys):
    simulate.main(["data_thief", "--games", "4", "--players", "3", "--quiet"])
    out = capsys.readouterr().out
    assert "win rate per role" in out and "thief" in out and "manager" in out
