"""``make test`` runs the suite as parts at once; a failing part's summary (the tests that
failed) is printed last, where the tail of a CI log shows it."""

import pytest

from config import run

pytestmark = pytest.mark.services


def test_a_failing_parts_failed_tests_are_printed_after_every_parts_output(
    tmp_path, monkeypatch, capsys
):
    (tmp_path / "test_fine.py").write_text("def test_fine():\n    assert True\n")
    (tmp_path / "test_broken.py").write_text(
        "def test_broken():\n    assert 1 == 2, 'broken on purpose'\ndef test_whole():\n    pass\n"
    )
    monkeypatch.setattr(run, "PART_LOGS", tmp_path / "logs")
    parts = {
        "broken": ("sqlite", ["-p", "no:cacheprovider", str(tmp_path / "test_broken.py")]),
        "fine": ("sqlite", ["-p", "no:cacheprovider", str(tmp_path / "test_fine.py")]),
    }

    assert run.test_in_parts(parts) == 1

    printed = capsys.readouterr().out
    summary = printed.index("what failed in part 'broken'")
    assert printed.index("part 'fine': exit 0") > summary
    assert "part 'broken': exit 1" in printed
    after = printed[summary:]
    assert "FAILED" in after and "test_broken.py::test_broken" in after
    assert "test_whole" not in after  # the summary, not the whole output
    assert "what failed in part 'fine'" not in printed
    # The part shown on the terminal is kept in its log too.
    assert "1 passed" in (tmp_path / "logs" / "fine.log").read_text()


def test_a_part_that_ended_before_its_summary_shows_its_last_lines():
    output = "\n".join(f"line {n}" for n in range(100))
    assert run.failure_summary(output, tail=3) == "line 97\nline 98\nline 99"
    with_summary = "a\nb\n=== short test summary info ===\nFAILED x.py::t\n=== 1 failed ==="
    assert run.failure_summary(with_summary).startswith("=== short test summary info")
