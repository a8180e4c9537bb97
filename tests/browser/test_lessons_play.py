"""In Chromium, on the live server: a student plays a special card and sees its
GDPR lesson card, the game ends, the student answers the quiz, the teacher sees the
answers on the dashboard and the results page.

Everything is real (ASGI server, Redis channel layer, the Celery worker playing the
bot). The position is seeded so that the game is short: the deck is empty, the student
holds a Transparency card and a Dataset, the bot one Dataset; the student attacks the
bot with Transparency, the bot accepts and lays its card, the student lays the last one.
"""

import os
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from classroom import actions
from classroom.models import Table
from games.matches import sync_timers
from games.models import Match, MatchTimer
from lessons.models import LessonMoment, QuizAnswer
from tests.games.arrange import Picker, arrange

os.environ.setdefault("BOT_DELAY_SECONDS", "0.05")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Browser-teacher-passw0rd"
TIMEOUT = 15_000


@pytest.fixture
def teacher(django_user_model):
    return django_user_model.objects.create_user(username="mr-lessons", password=PASSWORD)


def open_session(teacher):
    """Open a session of tables of two, bots filling, lesson cards in "show" mode."""
    school_class = actions.do_create_class(teacher, "Year 9 Lessons")
    return actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=True,
    )


def start_and_seed(session):
    """Start the session and seed the short position; return the student and the card."""
    actions.do_start_session(session)
    participant = session.participants.get()
    table = Table.objects.get(session=session)
    seat = table.seats.get(participant=participant).number
    bot = 1 - seat
    pick = Picker("standard")
    card = pick("transparency")
    state = arrange(
        variant="standard",
        deck=[],
        turn=seat,
        hands={seat: [card, pick(colour="red")], bot: [pick(colour="blue")]},
    )
    match = Match.objects.get(pk=table.match_id)
    match.snapshot = state.to_json()
    match.save(update_fields=["snapshot"])
    MatchTimer.objects.filter(match=match).delete()
    sync_timers(match, state)
    return participant, card


def log_in(page, base_url):
    page.goto(f"{base_url}/login/")
    page.get_by_label("Username").fill("mr-lessons")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()


def student_joins(browser, base_url, session):
    """Join with the form on a phone-sized device; return the context, page and errors."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(f"{base_url}/join/")
    page.get_by_label("Game code").fill(session.join_code)
    page.get_by_label("Nickname").fill("Alice Fox")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.get_by_role("heading", name="Hello, Alice Fox!")).to_be_visible()
    return context, page


def plays_transparency_and_reads_the_lesson(page, card, artifacts_dir):
    """Play the Transparency card against the bot; the lesson card shows; dismiss it."""
    page.locator(f'.dt-cards--hand button[data-key="hand:{card}"]').click()
    page.locator(".tray button[data-action]", has_text="Play it against").first.click()
    lesson = page.locator('[data-slot="lesson"]')
    expect(lesson).to_be_visible()
    expect(lesson.locator("h2")).to_have_text("Transparency: people have a right to know")
    expect(lesson.locator(".lesson-card__articles")).to_contain_text("13, 14, 15")
    more = lesson.get_by_role("link", name="More")
    expect(more).to_have_attribute("href", "/lessons/transparency/")
    expect(more).to_have_attribute("target", "_blank")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=artifacts_dir / "lesson-card-360x740.png")
    lesson.get_by_role("button", name="Got it").click()
    expect(lesson).to_be_hidden()


def plays_to_the_end(page):
    """The bot accepts and lays its card; the student lays the last card: game over."""
    deadline = time.monotonic() + 60
    while not page.locator(".panel--end").count():
        assert time.monotonic() < deadline, "the game did not end"
        hand = page.locator(".dt-cards--hand button.dt-card")
        if hand.count() and not page.locator("#game.is-busy").count():
            try:
                hand.first.click(timeout=2_000)
                page.locator(".tray button[data-action]").first.click(timeout=2_000)
            except PlaywrightError:  # the board re-rendered meanwhile: try again
                pass
        page.wait_for_timeout(200)


def answers_the_quiz(page: Page) -> int:
    """Answer every question (the first choice), one at a time; return how many."""
    expect(page.get_by_role("heading", name="What did you learn?")).to_be_visible()
    answered = 0
    while page.get_by_role("button", name="Answer").count():
        page.locator('input[name="choice"]').first.check()
        page.get_by_role("button", name="Answer").click()
        expect(page.locator(".quiz-feedback")).to_be_visible()  # explained after each
        answered += 1
        assert answered <= 5
    expect(page.get_by_role("heading", name="Finished:")).to_be_visible()
    return answered


def teacher_sees_the_answers(browser, base_url, session, artifacts_dir):
    """The dashboard says who finished the quiz; the results page has the answers."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    log_in(page, base_url)
    page.goto(f"{base_url}/teacher/sessions/{session.pk}/live/")
    quiz = page.locator(".live-lessons")
    expect(quiz).to_contain_text("Quiz: 1 of 1 student finished.")
    expect(quiz.locator(".live-quiz")).to_contain_text("Alice Fox")
    page.screenshot(path=artifacts_dir / "teacher-dashboard-1280x900.png")
    quiz.get_by_role("link", name="Quiz answers and lesson moments").click()
    expect(page.get_by_role("heading", name="1 of 1 student finished")).to_be_visible()
    expect(page.locator("body")).to_contain_text("Alice Fox")
    expect(page.locator("body")).to_contain_text("Transparency")
    page.screenshot(path=artifacts_dir / "teacher-results-1280x900.png")
    context.close()


def test_a_student_sees_the_lesson_card_then_answers_the_quiz(
    browser, live_server_url, celery_worker, teacher, artifacts_dir
):
    session = open_session(teacher)
    context, page = student_joins(browser, live_server_url, session)
    participant, card = start_and_seed(session)
    # The lobby goes to the table by itself once the session starts, and a navigation
    # racing with it is aborted (net::ERR_ABORTED, on either side). Let the lobby's move
    # end, then load the table again, as often as a racing navigation aborts it, so that
    # it shows the seeded position.
    table_url = f"{live_server_url}/play/{session.join_code}/"
    for attempt in range(3):
        try:
            page.wait_for_url(f"**/play/{session.join_code}/")
            page.goto(table_url)
            break
        except PlaywrightError:
            if attempt == 2:
                raise
    expect(page.locator(f'.dt-cards--hand button[data-key="hand:{card}"]')).to_be_visible()

    plays_transparency_and_reads_the_lesson(page, card, artifacts_dir)
    assert LessonMoment.objects.filter(
        session=session, lesson__slug="transparency", event="attack"
    ).exists()

    plays_to_the_end(page)
    invite = page.locator('[data-slot="quiz"]')
    expect(invite).to_be_visible()
    expect(invite.get_by_role("link", name="Lesson library")).to_have_attribute("href", "/lessons/")
    page.screenshot(path=artifacts_dir / "end-quiz-invite-360x740.png")
    invite.get_by_role("link", name="Take the quiz").click()

    answered = answers_the_quiz(page)
    assert 3 <= answered <= 5
    assert QuizAnswer.objects.filter(participant=participant).count() == answered
    assert page.errors == []
    context.close()

    teacher_sees_the_answers(browser, live_server_url, session, artifacts_dir)
