"""The deck builder in Chromium: the live check names a broken rule as the teacher types,
under the strict CSP, readable at every size and clean for axe (serious, critical)."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from classroom.catalogue import deck_games
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.browser.screens import VIEWPORTS, check, log_in
from tests.browser.test_csp import LISTEN
from tests.ui.harness import split_words

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ("phone-390", "tablet", "projector")


def test_the_deck_builder_checks_live_and_saves(browser, live_server_url, artifacts_dir):
    get_user_model().objects.create_user(username="screens", password=PASSWORD)
    games = deck_games()
    assert games
    game = games[0]
    start = next(iter(game.starter_decks()))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(LISTEN)
    log_in(context, live_server_url)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    axe = Axe()
    problems: list[str] = []
    violations: list[str] = []

    page.goto(live_server_url + reverse("classroom:deck_list"))
    for size in SIZES:
        page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
        check(page, "deck-list", size, folder=artifacts_dir, problems=problems, axe=axe)

    violations += page.evaluate("window.__cspViolations")
    create = reverse("classroom:deck_create", args=[game.slug])
    page.goto(f"{live_server_url}{create}?start={start}")
    check_box = page.locator("#deck-check")
    expect(check_box).to_contain_text(str(len(game.starter_decks()[start]["cards"])))
    # one copy too many of the first card: the live check names the broken rule
    first = game.deck_catalogue()[0]
    field = page.locator(f"#id_card__{first['key']}")
    field.fill(str(first["allowed"] + 1))
    expect(check_box.locator(".alert--warning li")).to_have_count(1)
    for size in SIZES:
        page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS[size], strict=True)))
        check(page, "deck-form-refused", size, folder=artifacts_dir, problems=problems, axe=axe)
        # a card's name breaks between words only ("Data Minimisatio|n" on a phone once)
        problems += [f"{size}: {word}" for word in split_words(page, ".deck-card label")]
    field.fill(str(first["allowed"]))
    expect(check_box.locator(".alert--info")).to_be_visible()
    page.locator("#id_name").fill("Our lab")
    violations += page.evaluate("window.__cspViolations")
    with page.expect_navigation():
        page.locator(".deck-form [type=submit]").click()
    expect(page.locator("main")).to_contain_text("Our lab")

    violations += page.evaluate("window.__cspViolations")
    # Russian, whose card names hold the longest words, on a phone
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ru", "url": live_server_url}]
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server_url}{create}?start={start}")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.screenshot(path=artifacts_dir / "deck-form-ru-phone-390.png", full_page=True)
    problems += [f"ru phone: {word}" for word in split_words(page, ".deck-card label")]
    assert violations == []
    assert problems == [], "\n".join(problems)
    context.close()
