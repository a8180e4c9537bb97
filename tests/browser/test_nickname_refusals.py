"""In Chromium, on a phone: the join form refuses a look-alike of a taken nickname and a
reversed one, saying why, and keeps what was typed."""

# ruff: noqa: RUF001 - look-alike letters are what this test is about

import pytest
from playwright.sync_api import expect

from classroom import actions
from tests.browser.classroom import TIMEOUT, student_joins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_join_form_refuses_impostors(
    browser, live_server_url, django_user_model, artifacts_dir
):
    teacher = django_user_model.objects.create_user(username="ms-nick", password="x-Long-pw-9")
    school_class = actions.do_create_class(teacher, "9C")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=4,
        bots_fill=False,
    )
    first, _page = student_joins(browser, live_server_url, session.join_code, "mallory")

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    for impostor, reason in [
        ("mаllory", "already uses this nickname"),  # a Cyrillic a
        ("\u202eecila", "turn the text around"),
        ("Ѕh1t Head", "not allowed"),
    ]:
        page.goto(f"{live_server_url}/join/")
        page.get_by_label("Game code").fill(session.join_code)
        page.get_by_label("Nickname").fill(impostor)
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.get_by_text(reason)).to_be_visible()
        expect(page.get_by_label("Nickname")).to_have_value(impostor)
        page.screenshot(path=artifacts_dir / f"refused-{len(impostor)}.png", full_page=True)
    assert list(session.participants.values_list("nickname", flat=True)) == ["mallory"]
    context.close()
    first.close()
