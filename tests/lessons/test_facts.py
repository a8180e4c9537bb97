"""The GDPR facts of the shipped lessons and glossary: figures and real cases, in every language.

The figures come from ../shared/gdpr-reference.md (Art. 8, 33, 83 and the cases listed
there) and, for the cases it does not list, from the authority's or the Court's own
decision. A test fails when a translation or an edit drifts from them.
"""

import re

import pytest

from debrief import glossary
from lessons.content import read_lessons
from lessons.texts import article_number

LANGUAGES = ("en", "es", "fr", "ru")
LESSONS = {lesson["slug"]: lesson for lesson in read_lessons()}

# slug: (year of the case, figures its outcome must state, a case number if a court's)
CASES: dict[str, tuple[int, list[str | tuple[str, ...]], str | None]] = {
    "right-of-access": (2022, ["20"], None),  # Garante and CNIL, Clearview AI
    "rectification-portability": (2025, [], "C-247/23"),  # Deldits
    "ethnic-origin-trade-union": (2021, ["2.75"], None),  # Dutch AP, Tax Administration
    "objection-erasure": (2021, ["746"], None),  # CNPD Luxembourg, Amazon Europe
    "disinformation": (2018, ["87", "500000"], None),  # ICO, Cambridge Analytica
    "personal-data": (2016, [], "C-582/14"),
    "purpose-limitation": (2023, ["390"], None),  # DPC, Meta, January 2023
    "sanctions": (2023, [("1.2", "1200")], None),  # DPC, Meta, May 2023 (billion)
    "accountability": (2020, ["50"], None),  # Conseil d'État upholds the CNIL's fine
    "transparency": (2019, ["50"], None),  # CNIL, Google LLC, January 2019
    "security": (2020, ["20", "400000"], None),  # ICO, British Airways, October 2020
    "breach-notification": (2020, ["20", "183"], None),
    "hidden-breach": (2018, ["600000", "2016"], None),  # Dutch AP, Uber
    "consent": (2019, [], "C-673/17"),  # Planet49
    "minimisation": (2020, ["35.3"], None),  # Hamburg, H&M
    "storage-deadlines": (2019, ["14.5"], None),  # Berlin, Deutsche Wohnen
    "complaint-erasure": (2014, [], "C-131/12"),  # Google Spain
    "restriction": (2023, ["2023"], None),  # Garante, ChatGPT limitation
    "records-of-processing": (2022, ["20"], None),  # CNIL, Clearview AI
    "health-data": (2018, ["400000"], None),  # CNPD Portugal, Barreiro hospital
    "sex-life-data": (2021, ["65"], None),  # Datatilsynet, Grindr (NOK)
    "biometric-data": (2019, ["200000"], None),  # Swedish authority, school (SEK)
    "genetic-data": (2025, ["2.31", "2023"], None),  # ICO, 23andMe
    "political-opinions": (2018, ["87", "500000"], None),  # ICO, Facebook
    "religious-beliefs": (2018, [], "C-25/17"),  # Jehovah's Witnesses
    "criminal-data": (2021, [], "C-439/19"),  # Latvian penalty points
    "direct-marketing": (2021, ["746"], None),  # CNPD Luxembourg, Amazon
    "smart-services": (2023, ["345", "13", "17"], None),  # DPC, TikTok
    "profiling": (2023, [], "C-634/21"),  # SCHUFA
    "international-transfers": (2020, ["2020"], "C-311/18"),  # Schrems II
    "scientific-research": (2017, ["1.6"], None),  # ICO, Royal Free / DeepMind
    "ai-training": (2024, ["15"], None),  # Garante, OpenAI, December 2024
    "geolocation": (2019, ["1.2"], None),  # Datatilsynet, Taxa 4x35 (DKK)
    "paper-files": (2019, ["275000", "500000", "92000"], None),  # ICO, Doorstep Dispensaree
    "clean-desk": (2018, ["35000", "18"], None),  # ICO, Bayswater Medical Centre (DPA 1998)
    "shredding": (2020, ["72"], None),  # Datatilsynet criticises its own paper waste
    "phishing": (2022, ["4.4", "113000"], None),  # ICO, Interserve
    "ransomware-backups": (2021, ["14"], None),  # HSE Ireland, Conti, 14 May 2021
    "malware-updates": (2018, ["500000", "15"], None),  # ICO, Equifax Ltd (DPA 1998)
    "passwords-mfa": (2025, ["3.07", "79404", "890"], None),  # ICO, Advanced
    "encryption": (2022, ["8000"], None),  # UODO, Dobrzyniewo Duże (PLN)
    "misdirected-email": (2021, ["10000", "105", "65"], None),  # ICO, HIV Scotland
    "access-rights": (2019, ["460000", "350000"], None),  # Dutch AP, HagaZiekenhuis
    "security-by-design": (2020, ["18.4", "339"], None),  # ICO, Marriott
    "breach-after-theft": (2021, ["136437"], None),  # UODO, ENEA (PLN)
    "incident-records": (2020, ["450000", "72"], None),  # DPC, Twitter
    "dpia": (2019, ["200000"], None),  # Swedish authority, school facial recognition (SEK)
    "dpo": (2019, ["200000"], None),  # the same case: a municipality, a public body
    "pseudonymisation-anonymisation": (2022, ["20"], None),  # Garante and CNIL, Clearview AI
    "processor-contract": (2018, ["87", "500000"], None),  # ICO, Cambridge Analytica
}


def numbers(text: str) -> set[str]:
    """Return the numbers in a text, thousands separators dropped, decimal commas as dots."""
    text = re.sub(r"(?<=\d)[\s\u00a0\u202f.,](?=\d{3}(?!\d))", "", text)
    text = re.sub(r"(?<=\d),(?=\d)", ".", text)
    return set(re.findall(r"\d+(?:\.\d+)?", text))


def test_every_shipped_lesson_has_its_case_checked():
    assert set(CASES) == set(LESSONS)


@pytest.mark.parametrize("slug", sorted(CASES))
def test_the_real_case_states_the_right_year_and_figures_in_every_language(slug):
    year, figures, case_number = CASES[slug]
    lesson = LESSONS[slug]
    assert lesson["case_year"] == year
    for language in LANGUAGES:
        text = lesson[language]
        found = numbers(text["case_authority"] + " " + text["case_outcome"])
        for figure in figures:
            options = figure if isinstance(figure, tuple) else (figure,)
            assert found & set(options), (slug, language, figure)
        if case_number:
            assert case_number in text["case_authority"], (slug, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rule_figures_are_right_in_every_language(language):
    def text(slug):
        lesson = LESSONS[slug][language]
        quiz = " ".join(q["explanation"] for q in lesson["quiz"])
        return numbers(" ".join((lesson["short"], lesson["body"], quiz)))

    assert "72" in text("breach-notification")  # Art. 33(1)
    assert "72" in text("hidden-breach")
    assert {"10", "2", "20", "4"} <= text("sanctions")  # Art. 83(4) and 83(5)
    assert {"10", "2"} <= text("hidden-breach")  # Art. 83(4) for not notifying
    assert {"16", "13", "14", "15"} <= text("consent")  # Art. 8; Spain 14, France 15
    assert {"6"} <= text("purpose-limitation")  # six lawful bases of Art. 6(1)


def test_the_sanctions_quiz_has_the_ceiling_of_article_83_5_as_its_answer():
    lesson = LESSONS["sanctions"]
    for language in LANGUAGES:
        question = lesson[language]["quiz"][0]
        right = question["choices"][lesson["quiz_answers"][0]]
        assert {"20", "4"} <= numbers(right), language


def test_the_articles_lessons_rest_on_are_the_ones_the_reference_names():
    articles = {slug: {article_number(a) for a in LESSONS[slug]["articles"]} for slug in LESSONS}
    assert articles["criminal-data"] == {10}
    assert {33, 34} <= articles["breach-notification"]
    assert {7, 8} <= articles["consent"]
    assert 17 in articles["complaint-erasure"] and 77 in articles["complaint-erasure"]
    assert 21 in articles["direct-marketing"]
    assert 22 in articles["profiling"]
    assert {44, 45, 46} <= articles["international-transfers"]
    assert 89 in articles["scientific-research"]
    assert {58, 83} <= articles["sanctions"]
    assert articles["dpia"] == {35}
    assert articles["dpo"] == {37, 38, 39}
    assert {4, 32} <= articles["pseudonymisation-anonymisation"]
    assert 28 in articles["processor-contract"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_glossary_states_the_figures_of_the_gdpr(language):
    entries = glossary.articles()

    def text(number):
        return numbers(entries[number][language]["text"])

    assert {"13", "16"} <= text(8)
    assert "72" in text(33)
    assert {"10", "2", "20", "4"} <= text(83)


def test_the_glossary_keeps_the_conditions_of_articles_33_and_83():
    entries = glossary.articles()
    assert "where feasible" in entries[33]["en"]["text"]
    assert "unless" in entries[33]["en"]["text"]
    assert "whichever" in entries[83]["en"]["text"]
    assert "worldwide" in entries[83]["en"]["text"]
