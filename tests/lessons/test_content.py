"""The shipped content is complete: every card of every game opens a lesson, in four languages."""

import re

import pytest
from django.core.management import call_command

from games.registry import all_games
from lessons import content
from lessons.links import lesson_for_card
from lessons.models import Lesson, LessonLink, LessonText, QuizQuestion, QuizQuestionText
from lessons.texts import article_number

pytestmark = pytest.mark.django_db

LANGUAGES = {"en", "es", "fr", "ru"}
TEXT_FIELDS = ("title", "short", "body", "discussion", "case_authority", "case_outcome")
# An exact citation: an article number, then any paragraphs and points, like 6(1)(a).
CITATION = re.compile(r"^\d{1,2}(\(\d+\))?(\([a-z]\))?$")
# The end of a sentence: ., ! or ? (maybe with closing quotes) before a space or the end.
SENTENCE_END = re.compile(r"[.!?…]+[»”\"')]*(?=\s|$)")
RANGE = re.compile(r"(\d+)\s*(?:to|a|à|\u2013|-)\s*(\d+)")  # \u2013: en dash
SENSITIVE_SIGNS = {"health", "love", "biometric", "genetic", "political", "religious"}


def every_card():
    """Yield (game, variant, card) for every card of every variant of every registered game."""
    for game in all_games():
        for variant in game.variants:
            for card in game.cards(variant):
                yield game, variant, card


def test_the_migration_loaded_every_lesson_of_the_fixtures():
    assert Lesson.objects.count() == len(content.read_lessons()) >= 20
    assert LessonLink.objects.filter(game="data_tycoon").exists()


def test_every_card_of_every_registered_game_opens_a_lesson():
    missing = [
        (game.slug, variant, card["id"], card["kind"])
        for game, variant, card in every_card()
        if lesson_for_card(game, card) is None
    ]
    assert not missing, missing


def test_data_tycoon_links_every_kind_purpose_and_sign_explicitly():
    links = LessonLink.objects.filter(game="data_tycoon", event="")
    kinds = {link.kind for link in links}
    purposes = {link.attributes["purpose"] for link in links if "purpose" in link.attributes}
    signs = {link.attributes["sign"] for link in links if "sign" in link.attributes}
    game = next(game for game in all_games() if game.slug == "data_tycoon")
    cards = game.cards("expert")
    assert kinds == {card["kind"] for card in cards}
    assert purposes == {card["purpose"] for card in cards if card["purpose"]}
    assert signs == {card["sign"] for card in cards if card["sign"]}
    assert len(purposes) == 9 and len(signs) == 7


@pytest.mark.parametrize(
    ("event", "qualifier"),
    [
        ("frozen", ""),
        ("treasure_built", ""),
        ("databreach_called", ""),
        ("databreach_discovered", ""),
        ("treasures_lost", "sanction"),
        ("attack", "sanction"),
        ("countered", "lawyer"),
        ("countered", "cybersecurity"),
    ],
)
def test_data_tycoon_links_the_events_that_matter(event, qualifier):
    assert LessonLink.objects.filter(game="data_tycoon", event=event, qualifier=qualifier).exclude(
        lesson=None
    )


def test_a_breach_called_and_a_breach_hidden_open_different_lessons():
    called = LessonLink.objects.get(game="data_tycoon", event="databreach_called").lesson
    hidden = LessonLink.objects.get(game="data_tycoon", event="databreach_discovered").lesson
    assert called != hidden
    assert called is not None
    assert {"33", "34"} <= set(called.articles)


def test_every_link_resolves_to_a_lesson():
    links = LessonLink.objects.all()
    assert links
    for link in links:
        assert link.lesson is not None or link.card_field, link
        if link.event:
            assert not (link.kind or link.attributes), link


def test_card_links_name_only_the_attributes_their_game_declares():
    links = LessonLink.objects.filter(event="")
    assert links
    declared = {game.slug: set(game.link_attributes) for game in all_games()}
    for link in links:
        assert set(link.attributes) <= declared[link.game], link


def test_every_lesson_has_every_language_and_field():
    lessons = list(Lesson.objects.prefetch_related("texts"))
    assert len(lessons) >= 20
    for lesson in lessons:
        texts = {text.language: text for text in lesson.texts.all()}
        assert set(texts) == LANGUAGES, lesson
        for language, text in texts.items():
            for field in TEXT_FIELDS:
                assert getattr(text, field).strip(), (lesson.slug, language, field)
        assert 1990 < lesson.case_year < 2100, lesson


def test_every_lesson_cites_existing_gdpr_articles():
    lessons = list(Lesson.objects.all())
    assert len(lessons) >= 20
    for lesson in lessons:
        assert lesson.articles, lesson
        for article in lesson.articles:
            assert CITATION.match(article), (lesson.slug, article)
            number = article_number(article)
            assert number is not None and 1 <= number <= 99, (lesson.slug, article)


def cited_numbers(text: str) -> set[str]:
    """Return every number in the text, with ranges like "12 to 14" or "37-39" filled in."""
    numbers = set(re.findall(r"\d+", text))
    for start, end in RANGE.findall(text):
        numbers.update(str(n) for n in range(int(start), int(end) + 1))
    return numbers


def test_the_texts_cite_the_lesson_articles_in_every_language():
    """The texts name each article number, so a reader sees where the rule is written."""
    lessons = list(Lesson.objects.prefetch_related("texts"))
    assert len(lessons) >= 20
    for lesson in lessons:
        texts = lesson.texts.all()
        assert {text.language for text in texts} == LANGUAGES, lesson
        assert lesson.articles, lesson
        for text in texts:
            numbers = cited_numbers(text.body + " " + text.case_outcome + " " + text.short)
            for article in lesson.articles:
                assert str(article_number(article)) in numbers, (lesson.slug, text.language)


def test_sensitive_signs_cite_article_9_and_judicial_data_article_10():
    links = LessonLink.objects.filter(game="data_tycoon", kind="dataset")
    signed = [link for link in links if link.attributes.get("sign")]
    assert len(signed) == 7
    for link in signed:
        assert link.lesson is not None
        numbers = {article_number(article) for article in link.lesson.articles}
        if link.attributes["sign"] == "judicial":
            assert 10 in numbers and 9 not in numbers, link
        else:
            assert link.attributes["sign"] in SENSITIVE_SIGNS
            assert 9 in numbers, link


def test_every_short_explanation_is_at_most_two_sentences():
    lessons = list(Lesson.objects.prefetch_related("texts"))
    assert len(lessons) >= 20
    for lesson in lessons:
        texts = lesson.texts.all()
        assert {text.language for text in texts} == LANGUAGES, lesson
        for text in texts:
            sentences = SENTENCE_END.findall(text.short.strip())
            assert 1 <= len(sentences) <= 2, (lesson.slug, text.language, text.short)


def test_every_lesson_has_one_to_three_quiz_questions_with_one_right_answer():
    lessons = list(Lesson.objects.all())
    assert len(lessons) >= 20
    for lesson in lessons:
        assert 1 <= lesson.questions.count() <= 3, lesson
    questions = list(QuizQuestion.objects.prefetch_related("texts"))
    assert len(questions) >= len(lessons)  # one question a lesson at least
    for question in questions:
        texts = {text.language: text for text in question.texts.all()}
        assert set(texts) == LANGUAGES, question
        sizes = {len(text.choices) for text in texts.values()}
        assert len(sizes) == 1 and sizes.pop() >= 2, question
        for text in texts.values():
            assert text.text.strip() and text.explanation.strip(), question
            assert len(set(text.choices)) == len(text.choices), (question, text.language)
            assert 0 <= question.answer < len(text.choices), question


def test_core_lessons_have_questions_for_the_quiz():
    core = Lesson.objects.filter(core=True)
    assert core.count() >= 3
    assert all(lesson.questions.exists() for lesson in core)


def test_loading_again_changes_nothing():
    before = (Lesson.objects.count(), QuizQuestion.objects.count(), LessonLink.objects.count())
    counts = content.load()
    after = (Lesson.objects.count(), QuizQuestion.objects.count(), LessonLink.objects.count())
    assert before == after == (counts["lessons"], counts["questions"], counts["links"])


@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_gets_the_shipped_lessons_back():
    """Tests on transactional_db flush every table: the lessons are loaded again after it."""
    call_command("flush", interactive=False, verbosity=0)
    assert Lesson.objects.count() == len(content.read_lessons())
    assert LessonLink.objects.filter(game="data_tycoon").exists()


def stored_content() -> dict[str, list]:
    """Every row of the lessons tables by what it is (texts without their own ids)."""
    return {
        "lessons": list(Lesson.objects.order_by("pk").values_list()),
        "texts": sorted(LessonText.objects.values_list(*["lesson_id", "language", *TEXT_FIELDS])),
        "questions": list(QuizQuestion.objects.order_by("pk").values_list()),
        "question texts": sorted(
            map(
                repr,
                QuizQuestionText.objects.values_list(
                    "question_id", "language", "text", "choices", "explanation"
                ),
            )
        ),
        "links": sorted(
            map(
                repr,
                LessonLink.objects.values_list(
                    "game", "kind", "attributes", "event", "qualifier", "card_field", "lesson_id"
                ),
            )
        ),
    }


@pytest.mark.django_db(transaction=True)
def test_content_into_empty_tables_is_what_the_row_by_row_load_makes():
    """Into empty tables the content goes in a few inserts: the same rows, with the same
    ids, as the row-by-row load gives."""
    call_command("flush", interactive=False, verbosity=0)  # then loaded into empty tables
    at_once = stored_content()
    assert at_once["texts"] and at_once["question texts"] and at_once["links"]
    # made in the row-by-row load's order, lesson after lesson: so with its ids
    shipped = content.read_lessons()
    assert list(Lesson.objects.order_by("pk").values_list("slug", flat=True)) == [
        lesson["slug"] for lesson in shipped
    ]
    assert list(QuizQuestion.objects.order_by("pk").values_list("lesson__slug", "number")) == [
        (lesson["slug"], number)
        for lesson in shipped
        for number in range(1, len(lesson["quiz_answers"]) + 1)
    ]
    # the row-by-row load puts back what is changed or gone
    LessonText.objects.filter(language="fr").update(title="?", body="?")
    QuizQuestionText.objects.filter(language="ru").delete()
    QuizQuestion.objects.filter(number=1).update(answer=0)
    Lesson.objects.update(order=0, case_year=1999)
    content.load()
    assert stored_content() == at_once
