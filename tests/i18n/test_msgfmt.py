"""Every catalogue compiles cleanly with GNU msgfmt's own checks (``--check``: the
header, the plural forms and each format string's placeholders), as the
translators' tools would compile it."""

import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

CATALOGUES = sorted((Path(settings.BASE_DIR) / "locale").glob("*/LC_MESSAGES/*.po"))


def test_there_are_catalogues():
    assert len(CATALOGUES) >= 8  # en, es, fr, ru: django and djangojs


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: f"{p.parts[-3]}-{p.stem}")
def test_msgfmt_check_finds_no_error(po, tmp_path):
    result = subprocess.run(
        ["msgfmt", "--check-format", "--check", "-o", str(tmp_path / "out.mo"), str(po)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr.lower(), result.stderr
