"""docs/lessons.md is generated from the data and committed as generated."""

import pytest
from django.core.management import call_command

from lessons import docgen

pytestmark = pytest.mark.django_db


def test_the_committed_docs_equal_the_generated_ones():
    committed = docgen.DOC_PATH.read_text(encoding="utf-8")
    assert committed == docgen.render(), "run `python manage.py lessons_doc` and commit"


def test_the_docs_list_every_card_kind_purpose_sign_and_key_event():
    text = docgen.render()
    words = ("`sanction`", "`ai_training`", "`judicial`", "`databreach_discovered`", "`frozen`")
    for word in words:
        assert word in text


def test_the_command_writes_the_file(tmp_path):
    out = tmp_path / "lessons.md"
    call_command("lessons_doc", output=str(out))
    assert out.read_text(encoding="utf-8") == docgen.render()
