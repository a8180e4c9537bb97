"""The UI in en, es, fr and ru: the gettext catalogues are complete, correct and current.

For each language and both domains (``django`` for Python and templates, ``djangojs``
for the browser client in static/js) the ``.po`` file must have every message
translated, none fuzzy, the same placeholders and HTML tags as the English text, and
exactly the messages the source marks today. The source is extracted two ways:

* with Babel (always): Python files with Django's gettext keywords, templates through
  Django's own ``templatize`` (what ``makemessages`` feeds to xgettext), static/js
  with Babel's JavaScript extractor. A string marked in the source and missing from a
  catalogue fails the test, so a new string cannot stay untranslated.
* with ``makemessages`` itself (when GNU gettext is installed) on a temporary copy of
  the source, compared message for message with the committed catalogues.

The view tests render the home page and the join page in each language (by the
browser's Accept-Language, by the language switcher's cookie, and by the session's
language for a student who follows a join link).
"""

from __future__ import annotations

import fnmatch
import gettext
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse
from django.utils.translation.template import templatize

from classroom import actions

ROOT = Path(django_settings.BASE_DIR)
LOCALE = ROOT / "locale"
LANGUAGES = ["en", "es", "fr", "ru"]
DOMAINS = ["django", "djangojs"]
# The --ignore list of the makemessages command that builds the catalogues:
#   manage.py makemessages -l en -l es -l fr -l ru --ignore=.venv --ignore=var
#       --ignore=test-artifacts --ignore=tests --no-obsolete   (and again with -d djangojs)
# plus Django's own default ignore patterns.
IGNORE = [".venv", "var", "test-artifacts", "tests"]
DJANGO_DEFAULT_IGNORE = ["CVS", ".*", "*~", "*.pyc"]
EXTENSIONS = {"django": {".py", ".html", ".txt"}, "djangojs": {".js"}}
# The keywords makemessages passes to xgettext, on top of xgettext's defaults.
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "gettext_noop": None,
    "gettext_lazy": None,
    "ngettext_lazy": (1, 2),
    "ngettext_noop": (1, 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
NPLURALS = {"en": 2, "es": 2, "fr": 2, "ru": 3}
# msgfmt lets a plural form drop the count when it serves at most this many n in 0..1000.
MSGFMT_FEW_USES = 5
# One translated string per language on the home page and on the join page.
HOME = {
    "en": "Learn data protection by playing",
    "es": "Aprende protección de datos jugando",
    "fr": "Apprends la protection des données en jouant",
    "ru": "Изучай защиту данных, играя",
}
JOIN = {
    "en": "Join a game",
    "es": "Unirse a una partida",
    "fr": "Rejoindre une partie",
    "ru": "Войти в игру",
}

NAMED = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
POSITIONAL = re.compile(r"%(?!\()[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
BRACES = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")
TAGS = re.compile(r"</?[a-zA-Z][^>]*>")


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


@cache
def catalogue(language: str, domain: str) -> Catalog | None:
    """Return the parsed .po file, or None when it does not exist."""
    path = po_path(language, domain)
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def key(context: str | None, msgid: str | Sequence[str]) -> tuple:
    return (context, msgid if isinstance(msgid, str) else tuple(msgid))


def catalogue_keys(catalog: Catalog | None) -> set:
    return {key(m.context, m.id) for m in catalog if m.id} if catalog is not None else set()


def ignored(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in IGNORE + DJANGO_DEFAULT_IGNORE)


def source_files(domain: str) -> Iterator[Path]:
    """Yield the files makemessages reads for the domain, as it walks the tree."""
    skip = {Path(django_settings.STATIC_ROOT).resolve(), Path(django_settings.MEDIA_ROOT).resolve()}
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(
            d for d in dirnames if not ignored(d) and (Path(dirpath) / d).resolve() not in skip
        )
        for name in sorted(filenames):
            if Path(name).suffix in EXTENSIONS[domain] and not ignored(name):
                yield Path(dirpath) / name


@cache
def extracted(domain: str) -> dict:
    """Return {(context, msgid): first file} of every string the source marks."""
    found: dict[tuple, str] = {}
    for path in source_files(domain):
        if path.suffix == ".js":
            method, source = "javascript", path.read_bytes()
        elif path.suffix == ".py":
            method, source = "python", path.read_bytes()
        else:
            # templatize keeps the line numbers and blanks out everything but the
            # gettext calls; its indentation means nothing, and Python's tokenizer
            # would trip on it.
            text = templatize(path.read_text(encoding="utf-8"), origin=str(path))
            method = "python"
            source = "\n".join(line.lstrip() for line in text.split("\n")).encode()
        messages = extract(
            method,
            io.BytesIO(source),
            keywords=KEYWORDS,
            options={"encoding": "utf-8", "parse_template_string": True},
        )
        for _lineno, msgid, _comments, context in messages:
            found.setdefault(key(context, msgid), str(path.relative_to(ROOT)))
    return found


def forms(message: Message) -> list[str]:
    assert message.string is not None  # read_po gives "" for a missing translation
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, (list, tuple)) else [message.id]


def placeholders(text: str) -> tuple[set[str], list[str], set[str]]:
    return (
        set(NAMED.findall(text)),
        sorted(m.group(0) for m in POSITIONAL.finditer(text.replace("%%", ""))),
        set(BRACES.findall(text)),
    )


def tags(text: str) -> list[str]:
    return sorted(TAGS.findall(text))


# --------------------------------------------------------------------- settings


def test_settings_offer_the_four_languages():
    assert [code for code, _name in django_settings.LANGUAGES] == LANGUAGES
    assert LOCALE in [Path(p) for p in django_settings.LOCALE_PATHS]
    assert django_settings.USE_I18N
    assert "django.middleware.locale.LocaleMiddleware" in django_settings.MIDDLEWARE


# --------------------------------------------------------------- catalogues


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_exists_when_the_source_marks_strings(language, domain):
    if extracted(domain):
        assert po_path(language, domain).exists(), f"run makemessages -l {language} -d {domain}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_header(language, domain):
    catalog = catalogue(language, domain)
    if catalog is None:
        pytest.skip(f"no {domain} catalogue (the source marks no {domain} string)")
    assert not catalog.fuzzy, "the header is marked fuzzy: Babel would not compile it"
    assert str(catalog.locale) == language
    assert catalog.num_plurals == NPLURALS[language]
    if language == "ru":
        expression = catalog.plural_expr.replace(" ", "")
        assert expression == ("(n%10==1&&n%100!=11?0:n%10>=2&&n%10<=4&&(n%100<10||n%100>=20)?1:2)")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language, domain):
    catalog = catalogue(language, domain)
    if catalog is None:
        pytest.skip(f"no {domain} catalogue (the source marks no {domain} string)")
    assert len(catalog), f"{language}/{domain}.po has no message"
    untranslated, fuzzy, wrong_forms = [], [], []
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            fuzzy.append(message.id)
        if not all(forms(message)):
            untranslated.append(message.id)
        if message.pluralizable and len(forms(message)) != NPLURALS[language]:
            wrong_forms.append(message.id)
    assert not untranslated, f"{len(untranslated)} untranslated in {language}: {untranslated}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {language}: {fuzzy}"
    assert not wrong_forms, f"plural forms must number {NPLURALS[language]}: {wrong_forms}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_placeholders_and_tags(language, domain):
    """Every form keeps the English placeholders (%(name)s, %s, {name}) and HTML tags.

    In a plural message, a form that the language uses for a few numbers only (like
    msgstr[0] for 1 in Spanish, or 0 and 1 in French) may follow the singular, which
    may drop the count ("shown once", "a Data-Treasure"); a form used for many
    numbers (like Russian msgstr[0]: 1, 21, 31...) must keep the plural's
    placeholders. That is the rule of ``msgfmt --check``.
    """
    catalog = catalogue(language, domain)
    if catalog is None:
        pytest.skip(f"no {domain} catalogue (the source marks no {domain} string)")
    plural = gettext.c2py(catalog.plural_expr)
    uses = Counter(plural(n) for n in range(1001))
    assert len(catalog), f"{language}/{domain}.po has no message"
    problems = []
    for message in catalog:
        if not message.id:
            continue
        originals = ids(message)
        for index, form in enumerate(forms(message)):
            if len(originals) == 1:
                allowed = [placeholders(originals[0])]
            elif uses[index] <= MSGFMT_FEW_USES:
                allowed = [placeholders(originals[0]), placeholders(originals[1])]
            else:
                allowed = [placeholders(originals[1])]
            if placeholders(form) not in allowed:
                problems.append((originals[0], form))
            if tags(form) != tags(originals[min(index, len(originals) - 1)]):
                problems.append((originals[0], form))
    assert not problems, "\n".join(f"{a!r} -> {b!r}" for a, b in problems)


# French sets a no-break space before : ; ! ? and », and after «: a plain one lets a
# line start with the sign ("Lancer une séance pour «" / "4B »" on a phone).
FRENCH_BREAKABLE_SIGN = re.compile(r" [:;!?»]|« ")


@pytest.mark.parametrize("domain", DOMAINS)
def test_french_keeps_its_signs_on_the_line_of_their_word(domain):
    catalog = catalogue("fr", domain)
    assert catalog is not None and len(catalog)
    found = [
        form
        for message in catalog
        if message.id
        for form in forms(message)
        if FRENCH_BREAKABLE_SIGN.search(form)
    ]
    assert not found, found


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_babel_checkers_find_no_error(language, domain):
    """Babel's own checks (python-format compatibility, plural counts), as compile runs them.

    One known disagreement is allowed: Babel compares msgstr[0] with the singular
    only, so a Russian msgstr[0] (1, 21, 31...) that keeps the plural's count, as
    msgfmt requires, is "unknown" to Babel when the English singular drops it.
    """
    catalog = catalogue(language, domain)
    if catalog is None:
        pytest.skip(f"no {domain} catalogue (the source marks no {domain} string)")
    errors = []
    for message, errs in catalog.check():
        plural_names = placeholders(ids(message)[-1])[0]
        real = [
            str(e)
            for e in errs
            if not (
                message.pluralizable
                and str(e).startswith("unknown named placeholder")
                and str(e).split("'")[1] in plural_names
            )
        ]
        if real:
            errors.append((message.id, real))
    assert not errors, errors


def test_english_catalogue_repeats_the_english_text():
    assert catalogue("en", "django"), "no English messages"
    for domain in DOMAINS:
        catalog = catalogue("en", domain)
        for message in catalog or []:
            if message.id:
                assert forms(message)[0] == ids(message)[0], message.id


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_covers_every_marked_string(language, domain):
    """A string marked for translation in the source must be in every catalogue."""
    have = catalogue_keys(catalogue(language, domain))
    missing = {k: where for k, where in extracted(domain).items() if k not in have}
    assert not missing, (
        f"{len(missing)} marked string(s) missing from locale/{language}/LC_MESSAGES/"
        f"{domain}.po (run makemessages and translate them): "
        + "; ".join(f"{k[1]!r} ({where})" for k, where in sorted(missing.items(), key=str))
    )


def test_engine_messages_are_extracted():
    """The rules engines mark their English templates with a local gettext_noop."""
    marked = extracted("django")
    sources = {where for where in marked.values()}
    assert "games/data_tycoon/rules.py" in sources
    assert "games/data_tycoon/text.py" in sources
    assert (None, "It is %(player)s's turn.") in marked
    assert (None, "Please wait: it is not your turn.") in marked


GETTEXT = all(shutil.which(tool) for tool in ("xgettext", "msgmerge", "msguniq"))


@cache
def makemessages_keys(workdir: str) -> dict:
    """Run makemessages on a copy of the source; return each domain's msgids."""
    src = Path(workdir) / "src"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            ".venv-tools",
            "var",
            "test-artifacts",
            "tests",
            "locale",
            "__pycache__",
            ".hypothesis",
            ".pytest_cache",
            ".ruff_cache",
            "*.egg-info",
        ),
    )
    (src / "locale").mkdir()
    env = {
        **os.environ,
        "VAR_DIR": str(Path(workdir) / "var"),
        "SECRET_KEY": "makemessages-in-a-copy",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    ignores = [f"--ignore={p}" for p in IGNORE]
    result = {}
    for domain in DOMAINS:
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "makemessages",
                "-l",
                "en",
                "-d",
                domain,
                *ignores,
                "--no-obsolete",
            ],
            cwd=src,
            env=env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        path = src / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            with path.open("rb") as handle:
                result[domain] = catalogue_keys(read_po(handle))
        else:
            result[domain] = set()
    return result


@pytest.fixture(scope="module")
def makemessages_run(tmp_path_factory):
    if not GETTEXT:
        pytest.skip("GNU gettext (xgettext, msgmerge) is not installed")
    return makemessages_keys(str(tmp_path_factory.mktemp("makemessages")))


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogue_is_what_makemessages_makes_today(makemessages_run, language, domain):
    """The committed catalogues hold exactly the messages makemessages extracts now."""
    fresh = makemessages_run[domain]
    have = catalogue_keys(catalogue(language, domain))
    missing, stale = sorted(fresh - have, key=str), sorted(have - fresh, key=str)
    assert not missing, f"not in {language}/{domain}.po yet: {[k[1] for k in missing]}"
    assert not stale, f"no longer in the source, still in {language}/{domain}.po: {stale}"


def test_babel_extraction_agrees_with_makemessages(makemessages_run):
    """The Babel stand-in (for machines without gettext) finds what xgettext finds."""
    for domain in DOMAINS:
        assert set(extracted(domain)) == makemessages_run[domain], domain


# ------------------------------------------------------------------- views


@pytest.fixture(scope="module")
def compiled_catalogues():
    """Compile stale .mo files with Babel, as ``make messages`` does."""
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=po.parts[-3])
            with mo.open("wb") as handle:
                write_mo(handle, catalog)


@pytest.fixture
def fresh_translations(compiled_catalogues, settings):
    """Make Django reload the catalogues (re-setting LOCALE_PATHS clears its cache)."""
    settings.LOCALE_PATHS = list(settings.LOCALE_PATHS)


def page(client: Client, url: str, **headers: Any) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_follow_accept_language(fresh_translations, language):
    header = {"HTTP_ACCEPT_LANGUAGE": f"{language},en;q=0.5"}
    home = page(Client(), reverse("home"), **header)
    assert HOME[language] in home
    assert f'<html lang="{language}"' in home
    assert JOIN[language] in page(Client(), reverse("classroom:join"), **header)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_follow_the_language_cookie(fresh_translations, language):
    client = Client()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    other = "ru" if language != "ru" else "es"
    header = {"HTTP_ACCEPT_LANGUAGE": other}
    assert HOME[language] in page(client, reverse("home"), **header)
    assert JOIN[language] in page(client, reverse("classroom:join"), **header)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_language_switcher_sets_the_language(fresh_translations, language):
    client = Client()
    home = page(client, reverse("home"))
    assert 'action="/i18n/setlang/"' in home and f'value="{language}"' in home
    response = client.post(
        reverse("set_language"), {"language": language, "next": reverse("classroom:join")}
    )
    assert response.status_code == 302
    assert client.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == language
    assert JOIN[language] in page(client, response["Location"])


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_session_language_applies_to_its_students(
    fresh_translations, django_user_model, language
):
    teacher = django_user_model.objects.create_user(username="i18n-teacher", password="x-Pass-9876")
    school_class = actions.do_create_class(teacher, "i18n")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language=language,
        table_size=4,
        bots_fill=True,
    )
    browser = "es" if language != "es" else "fr"
    body = page(
        Client(),
        reverse("classroom:join_code", args=[session.join_code]),
        HTTP_ACCEPT_LANGUAGE=browser,
    )
    assert JOIN[language] in body
    assert JOIN[browser] not in body


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_javascript_catalogue_is_served_in_each_language(fresh_translations, language):
    catalog = catalogue(language, "djangojs")
    if catalog is None:
        pytest.skip("no djangojs catalogue")
    sample = next(
        m for m in catalog if m.id and not m.pluralizable and (language == "en" or m.string != m.id)
    )
    client = Client()
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("javascript-catalog"))
    assert response.status_code == 200
    assert json.dumps(sample.string) in response.content.decode()
