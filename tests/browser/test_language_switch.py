"""In Chromium, on the live server: a student of a French session switches to Spanish in
the lobby, then to Russian in the game, on the same phone; each screen is wholly in
the chosen language (the interface, the card names, the log, the lesson card, the quiz)
under the matching ``<html lang>``, while the session stays French.

The seeded position is test_lessons_play's: the student attacks the bot with a
Transparency card (its lesson card shows), then the game ends in a few moves.
"""

import html
import os

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from classroom import actions
from classroom.models import ClassSession
from games.describe import card_namer
from lessons.actions import lesson_card
from lessons.models import Lesson
from tests.browser.test_lessons_play import TIMEOUT, plays_to_the_end, start_and_seed
from tests.i18n.test_catalogues import catalogue
from tests.live.conftest import open_session

os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NICKNAME = "Alice Fox"


def django_text(language: str, msgid: str, **params: object) -> str:
    with translation.override(language):
        text = gettext(msgid)
    return text % params if params else text


def js_text(language: str, msgid: str) -> str:
    """A string of the browser client in ``language``, from its catalogue."""
    catalog = catalogue(language, "djangojs")
    assert catalog is not None
    message = catalog[msgid]
    assert message is not None and isinstance(message.string, str) and message.string, msgid
    return message.string


def card_name(card: str, language: str) -> str:
    return card_namer("data_tycoon", "standard", language)(card)


def lesson_title(language: str) -> str:
    return lesson_card(Lesson.objects.get(slug="transparency"), None, language)["title"]


@pytest.fixture
def french_session(django_user_model):
    teacher = django_user_model.objects.create_user(username="mme-langues", password="x-Pass-98")
    return open_session(actions.do_create_class(teacher, "4e B"), bots=True, language="fr")


def switch_language(page: Page, code: str) -> None:
    """Use the language switch: choose the language named in itself, then submit."""
    switch = page.locator("form.language-switcher")
    switch.locator("select").select_option(code)
    switch.locator('button[type="submit"]').click()
    expect(page.locator("html")).to_have_attribute("lang", code)


def joins_in_french_and_switches_to_spanish(page, base_url, session, artifacts_dir):
    """The join link is in the session's language, whatever the phone's; the lobby's
    switch names each language in itself."""
    page.goto(f"{base_url}/join/{session.join_code}/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.locator('input[name="nickname"]').fill(NICKNAME)
    page.locator('main form button[type="submit"]').click()
    hello_fr = django_text("fr", "Hello, %(name)s!", name=NICKNAME)
    expect(page.get_by_role("heading", name=hello_fr)).to_be_visible()
    options = page.locator("#language-select option")
    expect(options).to_have_text(["English", "Español", "Français", "Русский"])
    switch_language(page, "es")
    hello_es = django_text("es", "Hello, %(name)s!", name=NICKNAME)
    expect(page.get_by_role("heading", name=hello_es)).to_be_visible()
    page.screenshot(path=artifacts_dir / "language-lobby-es-390x844.png")


def reaches_the_seeded_table(page, base_url, session):
    """Start the session on the seeded position; return the student's special card."""
    _participant, card = start_and_seed(session)
    table_url = f"{base_url}/play/{session.join_code}/"
    for attempt in range(3):  # the lobby's own move to the table may abort a goto
        try:
            page.wait_for_url(f"**/play/{session.join_code}/")
            page.goto(table_url)
            break
        except PlaywrightError:
            if attempt == 2:
                raise
    return card


def plays_in_spanish(page, card, artifacts_dir):
    """The page, the card names, the client's words, the lesson card and the log: Spanish."""
    hand_card = page.locator(f'.dt-cards--hand button[data-key="hand:{card}"]')
    expect(hand_card).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#log-title")).to_have_text(django_text("es", "Game log"))
    expect(hand_card).to_contain_text(card_name(card, "es"))
    assert card_name(card, "es") != card_name(card, "fr")
    hand_card.click()
    against = js_text("es", "Play it against %s").split("%s")[0].strip()
    page.locator(".tray button[data-action]", has_text=against).first.click()
    lesson = page.locator('[data-slot="lesson"]')
    expect(lesson).to_be_visible()
    expect(lesson.locator("h2")).to_have_text(lesson_title("es"))
    page.screenshot(path=artifacts_dir / "language-lesson-es-390x844.png")
    lesson.get_by_role("button", name=js_text("es", "Got it")).click()
    expect(lesson).to_be_hidden()
    expect(page.locator('[data-slot="log"]')).to_contain_text(card_name(card, "es"))


def switches_to_russian_and_ends_with_the_quiz(page, card, artifacts_dir):
    """The game's switch: the page, the cards, the log, the quiz come back in Russian."""
    switch_language(page, "ru")
    log = page.locator('[data-slot="log"]')
    expect(page.locator("#log-title")).to_have_text(django_text("ru", "Game log"))
    expect(page.locator("#game")).to_have_attribute("data-language", "ru")
    # the last action's lines, in Russian (a phone's collapsed log shows the newest)
    expect(log.locator("li").first).to_be_attached()
    expect(page.locator('[data-slot="log-latest"]')).to_be_visible()
    expect(log).not_to_contain_text(card_name(card, "es"))
    page.screenshot(path=artifacts_dir / "language-game-ru-390x844.png")
    plays_to_the_end(page)
    invite = page.locator('[data-slot="quiz"]')
    expect(invite).to_be_visible()
    expect(invite.locator("h2")).to_have_text(django_text("ru", "What did you learn?"))
    page.screenshot(path=artifacts_dir / "language-quiz-invite-ru-390x844.png")
    invite.locator('[data-role="quiz-link"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("main")).to_contain_text(html.unescape(django_text("ru", "Answer")))
    page.screenshot(path=artifacts_dir / "language-quiz-ru-390x844.png")


def test_a_student_switches_language_in_the_lobby_and_in_the_game(
    browser, live_server_url, celery_worker, french_session, artifacts_dir
):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    joins_in_french_and_switches_to_spanish(page, live_server_url, french_session, artifacts_dir)
    card = reaches_the_seeded_table(page, live_server_url, french_session)
    plays_in_spanish(page, card, artifacts_dir)
    switches_to_russian_and_ends_with_the_quiz(page, card, artifacts_dir)
    assert ClassSession.objects.get(pk=french_session.pk).language == "fr"
    assert not errors, errors
    context.close()
