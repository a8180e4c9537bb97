"""The golden playthroughs: regenerate with ``python -m games.golden`` after a rule change."""

import pytest

from games.golden import cases, render


@pytest.mark.parametrize(
    ("game", "variant", "path"), cases(), ids=[path.name for _, _, path in cases()]
)
def test_golden_playthrough_is_unchanged(game, variant, path):
    assert path.exists(), "run: python -m games.golden"
    expected = path.read_text(encoding="utf-8").splitlines()
    assert expected, f"{path.name} is empty; rerun python -m games.golden"
    actual = render(game, variant).splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path.name} line {number} changed; rerun python -m games.golden"
    assert len(actual) == len(expected)
