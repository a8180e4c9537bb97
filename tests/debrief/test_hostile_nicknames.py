"""Any nickname the join form accepts makes a debrief: nicknames become chart labels,
table cells and CSV fields, and none of them may break the export."""

import json
import unicodedata

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from classroom.forms import JoinForm
from classroom.nicknames import validate_nickname
from debrief import charts
from debrief.actions import do_request_export
from debrief.export import run_export
from debrief.models import DebriefExport
from tests.debrief import recorded
from tests.debrief.pdf_fonts import drawn_glyphs

# Math and markup in every syntax a renderer might read: matplotlib's mathtext, TeX,
# HTML, Django templates, CSV formulas; and scripts and emoji that DejaVu Sans, the
# report's font, lacks (the PDF draws them in the Noto fonts that `make` installs).
HOSTILE = [
    r"$\undefinedcmd$",
    "$x^2$ and $",
    r"back\slash\\",
    "<b>bold</b>",
    "{{ session }}",
    "=1+2",
    "50% sure",
    "Zoë ñandú",
    "Лиса Алиса",
    "李小龍",
    "김민준",
    "राम",
    "مرحبا",
    "😀 smile",
    "Ana 🦊",
]


def test_the_hostile_nicknames_are_accepted_by_the_join_form():
    for nickname in HOSTILE:
        form = JoinForm({"code": "ABCDEF", "nickname": nickname})
        assert form.is_valid() or "code" in form.errors, (nickname, form.errors)
        assert "nickname" not in form.errors, (nickname, form.errors)


@pytest.mark.django_db
def test_a_session_of_hostile_nicknames_exports(teacher_a, monkeypatch):
    monkeypatch.setattr(recorded, "NICKNAMES", HOSTILE)
    session = recorded.record_session(teacher_a, students=len(HOSTILE), table_size=4)
    export = do_request_export(session, teacher_a)
    run_export(export.pk)
    export = DebriefExport.objects.get(pk=export.pk)
    assert export.status == "done", export.error
    assert set(export.files) == {"html", "pdf", "csv", "json"}
    html = (export.folder() / export.files["html"]).read_text(encoding="utf-8")
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html
    csv_text = (export.folder() / export.files["csv"]).read_text(encoding="utf-8")
    assert r"$\undefinedcmd$" in csv_text
    # Every character of every nickname is drawn from a font that has it, never as a box.
    fonts = drawn_glyphs((export.folder() / export.files["pdf"]).read_bytes())
    assert "DejaVu-Sans" in fonts and all(fonts.values()), fonts
    assert [name for name, glyphs in fonts.items() if 0 in glyphs] == [], (
        f"the PDF draws boxes (fonts embedded: {sorted(fonts)}): run `make fonts` as root"
    )


def _accepted(raw: str) -> bool:
    try:
        validate_nickname(raw)
    except ValidationError:
        return False
    return True


nickname_text = st.text(
    st.characters(blacklist_categories=["Cs"]),  # a list: typed as category names
    min_size=2,
    max_size=20,
).filter(_accepted)


# Any script is drawn: matplotlib only measures the labels (in DejaVu Sans, which lacks
# many scripts: it warns), the SVG keeps them as text for the PDF's fonts to draw.
@pytest.mark.filterwarnings("ignore:Glyph .* missing from font:UserWarning")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(nickname_text, min_size=1, max_size=4, unique=True))
def test_any_accepted_nickname_is_a_chart_label(names):
    labels = [validate_nickname(name) for name in names]
    assert charts.bar_chart(labels, list(range(len(labels))), "t").startswith("<svg")
    panels = [
        charts.Panel("a", "step", {label: [0, 1] for label in labels}),
        charts.Panel("b", "line", {label: [3, 2] for label in labels}),
    ]
    assert charts.score_chart(panels, [1, 2], "t", "c").startswith("<svg")


# What a student might paste or a program might send: control characters, direction
# controls, invisible characters. The join rules refuse or remove them, so an export
# never receives one.
RAW_WITH_CONTROLS = [
    "Tab\tName",
    "Line\nBreak",
    "Bell\x07",
    "Esc\x1b[31mRed",
    "Null\x00Byte",
    "\u202eecila",
    "mal\u200blory",
    "Zero\u200d\u200dJoin",
    "Soft\u00adHyphen",
    "\ufeffBom",
]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _hidden(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in {"Cc", "Cf"} and c not in "\r\n"]


@pytest.mark.django_db
def test_exports_receive_no_control_character_from_a_nickname(teacher_a, monkeypatch):
    names = [name for name in map(_accepted_as, RAW_WITH_CONTROLS) if name]
    assert names == ["Tab Name", "Line Break", "mallory", "ZeroJoin", "SoftHyphen", "Bom"]
    monkeypatch.setattr(recorded, "NICKNAMES", names)
    session = recorded.record_session(teacher_a, students=len(names), table_size=3)
    export = do_request_export(session, teacher_a)
    run_export(export.pk)
    export = DebriefExport.objects.get(pk=export.pk)
    assert export.status == "done", export.error
    csv_text = (export.folder() / export.files["csv"]).read_text(encoding="utf-8")
    assert "SoftHyphen" in csv_text and _hidden(csv_text) == []
    json_text = (export.folder() / export.files["json"]).read_text(encoding="utf-8")
    strings = list(_strings(json.loads(json_text)))
    assert "mallory" in strings
    assert [s for s in strings if _hidden(s)] == []


def _accepted_as(raw: str) -> str | None:
    try:
        return validate_nickname(raw)
    except ValidationError:
        return None
