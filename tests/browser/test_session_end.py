"""In Chromium, on the live server, on a 390x844 phone: what a student's page does when
the game stops for them without a "Game over".

- The teacher ends the session mid-game: the table page stops (no control left, the
  sticky bar no longer says "Your turn"), says so and invites to the quiz; after a
  reload the lobby's "ended" page invites to the quiz too, and the quiz opens.
- The browser's Back button from the table: the lobby's address, which the lobby's htmx
  request had answered with an empty body, shows a page again (the table).
- The teacher removes the student mid-game: the game's header goes with the board, and
  Back shows a page.

Everything is real (ASGI server, Redis channel layer, the Celery worker playing the
bots). Screenshots in test-artifacts/<test>/, in English and Russian.
"""

import os

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from classroom import actions
from classroom.models import Participant
from lessons.models import Quiz
from tests.browser.classroom import TIMEOUT

# Read by the child services (uvicorn, the Celery worker) when the session starts them.
os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Every control of the board that a tap or the keyboard could still use: a button (or
# a hand card's role="button") neither disabled nor inside an inert part of the page.
LIVE_CONTROLS = """() => [...document.querySelectorAll(
    '.board button, .board [role="button"], .board [data-action], .board [tabindex="0"]')]
  .filter((el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true'
    && !el.closest('[inert]') && el.getClientRects().length > 0)
  .map((el) => el.outerHTML.slice(0, 120))"""


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="ms-end", password="x-Passw0rd-x")


def open_session(teacher, language="en"):
    """A Data-Tycoon session of tables of two, a bot at each student's table."""
    school_class = actions.do_create_class(teacher, "Year 9 End")
    return actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="beginner",
        language=language,
        table_size=2,
        bots_fill=True,
    )


def student_joins(browser, base_url, session, nickname="Alice Fox"):
    """Join with the form on a phone; return the context and the page, in the lobby."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{base_url}/join/")
    page.locator("#id_code").fill(session.join_code)
    page.locator("#id_nickname").fill(nickname)
    page.locator("button.button--huge[type=submit]").click()
    page.wait_for_url(f"**/lobby/{session.join_code}/")
    expect(page.locator("#lobby-live")).to_be_visible()
    return context, page


def start_and_reach_the_table(page, session):
    """The teacher starts; the lobby takes the student to the table by itself (the start
    may reach the lobby twice, the second navigation aborting the first: wait again)."""
    actions.do_start_session(session)
    for attempt in range(3):
        try:
            page.wait_for_url(f"**/play/{session.join_code}/")
            break
        except PlaywrightError:
            if attempt == 2:
                raise
    expect(page.locator(".board > section").first).to_be_visible()


def wait_for_my_turn(page):
    """Wait until the hand offers a move (a real <button> card: a legal play)."""
    expect(page.locator(".dt-cards--hand button.dt-card").first).to_be_visible(timeout=30_000)


def in_viewport(page: Page, locator: Locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.usefixtures("celery_worker")  # the bots
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_session_ended_mid_game_leads_the_student_to_the_quiz(
    browser, live_server_url, teacher, artifacts_dir, language
):
    with translation.override(language):
        ended_text = gettext("The teacher ended the session. Thank you!")
        lobby_ended = (
            gettext("The teacher has ended this session.") + " " + gettext("Thank you for playing!")
        )
        take_quiz = gettext("Take the quiz")
        library = gettext("Lesson library")
        your_turn = gettext("Your turn")
    session = open_session(teacher, language)
    context, page = student_joins(browser, live_server_url, session)
    start_and_reach_the_table(page, session)
    wait_for_my_turn(page)
    # the student scrolled down to the table, and chose a card: its tray is open
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator(".dt-cards--hand button.dt-card").first.click()
    expect(page.locator(".tray")).to_be_visible()
    page.screenshot(path=artifacts_dir / f"{language}-1-playing-390.png")

    actions.do_end_session(session)

    notice = page.locator('[data-slot="notice"]')
    expect(notice).to_have_text(ended_text)
    invite = page.locator('[data-slot="quiz"]')
    expect(invite).to_be_visible()
    quiz_link = invite.get_by_role("link", name=take_quiz)
    expect(quiz_link).to_have_attribute("href", "/lessons/quiz/")
    expect(invite.get_by_role("link", name=library)).to_have_attribute("href", "/lessons/")
    # the student sees it where they were: the notice and the invitation in view
    page.wait_for_timeout(300)  # a smooth scroll, if any, ends
    assert in_viewport(page, notice), notice.bounding_box()
    assert in_viewport(page, quiz_link), quiz_link.bounding_box()
    # the game stopped: no control left, the bar no longer says it is this seat's turn
    assert page.evaluate(LIVE_CONTROLS) == []
    expect(page.locator(".tray")).to_have_count(0)
    expect(page.locator('[data-slot="turn"]')).not_to_contain_text(your_turn)
    expect(page.locator('[data-slot="countdown"]')).to_be_hidden()
    assert not page.title().startswith("▶")
    page.screenshot(path=artifacts_dir / f"{language}-2-ended-390.png")
    page.screenshot(path=artifacts_dir / f"{language}-2-ended-390-full.png", full_page=True)

    # a reload: the table is gone, the lobby's "ended" page still offers the quiz
    page.reload()
    page.wait_for_url(f"**/lobby/{session.join_code}/")
    expect(page.locator("#lobby-live")).to_contain_text(lobby_ended)
    lobby_quiz = page.get_by_role("link", name=take_quiz)
    expect(lobby_quiz).to_be_visible()
    expect(lobby_quiz).to_have_attribute("href", "/lessons/quiz/")
    expect(page.get_by_role("link", name=library)).to_have_attribute("href", "/lessons/")
    page.screenshot(path=artifacts_dir / f"{language}-3-lobby-after-reload-390.png")

    lobby_quiz.click()
    page.wait_for_url("**/lessons/quiz/")
    expect(page.locator(".quiz-form")).to_be_visible()  # a question, not "opens later"
    page.screenshot(path=artifacts_dir / f"{language}-4-quiz-390.png")
    participant = Participant.objects.get(session=session)
    assert Quiz.objects.filter(session=session, participant=participant).exists()
    assert page.errors == []
    context.close()


def test_back_from_the_table_shows_a_page(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    session = open_session(teacher)
    context, page = student_joins(browser, live_server_url, session)
    start_and_reach_the_table(page, session)

    page.go_back()
    page.wait_for_load_state()
    # the lobby's address: not an empty document, a working page (the table, or the lobby)
    expect(page.locator("body")).not_to_be_empty()
    expect(page.locator(".board > section, #lobby-live").first).to_be_visible()
    assert page.evaluate("document.body.innerText.trim().length") > 20
    page.screenshot(path=artifacts_dir / "back-from-play-390.png")
    assert page.errors == []
    context.close()


def test_a_student_removed_mid_game_loses_the_game_header_and_back_shows_a_page(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    session = open_session(teacher)
    context, page = student_joins(browser, live_server_url, session)
    start_and_reach_the_table(page, session)
    expect(page.locator('[data-slot="turn"]')).to_be_visible()

    actions.do_kick_participant(Participant.objects.get(session=session))

    with translation.override("en"):
        removed = gettext("The teacher removed you from this session.")
    expect(page.locator('[data-slot="notice"]')).to_have_text(removed)
    # no trace of the game left: whose turn, the score, the countdown, the log
    expect(page.locator('[data-slot="turn"]')).to_be_hidden()
    expect(page.locator('[data-slot="score"]')).to_be_hidden()
    expect(page.locator('[data-slot="countdown"]')).to_be_hidden()
    expect(page.locator('[data-slot="log-box"]')).to_be_hidden()
    expect(page.locator(".board > *")).to_have_count(0)
    page.screenshot(path=artifacts_dir / "removed-390.png")

    page.go_back()
    page.wait_for_load_state()
    expect(page.locator("body")).not_to_be_empty()
    assert page.evaluate("document.body.innerText.trim().length") > 20
    expect(
        page.get_by_role("heading", name="You have been removed from this session")
    ).to_be_visible()
    page.screenshot(path=artifacts_dir / "removed-back-390.png")
    assert page.errors == []
    context.close()
