"""Teacher-facing pages in Chromium: the launch form's Variant list holds the chosen
game's variants only (static/js/session_form.js), and an error page (404) is the site's
own, translated, and fits a phone. Screenshots under test-artifacts/."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Page, expect

from classroom import actions, catalogue
from tests.browser.classroom import PASSWORD, TIMEOUT
from tests.browser.screens import VIEWPORTS, check, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = ("phone-390", "tablet", "projector")
VARIANT_OPTIONS = """
(select) => [...select.options].map((option) => [option.value, option.dataset.game || ""])
"""


def sized(page: Page, size: str) -> None:
    width, height = VIEWPORTS[size]
    page.set_viewport_size({"width": width, "height": height})


def test_the_variant_list_shows_the_chosen_games_variants_only(
    browser, live_server_url, artifacts_dir
):
    teacher = get_user_model().objects.create_user(username="screens", password=PASSWORD)
    school_class = actions.do_create_class(teacher, "5C")
    context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB")
    log_in(context, live_server_url)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(live_server_url + reverse("classroom:session_create", args=[school_class.pk]))
    game_select, variant = page.locator("#id_game"), page.locator("#id_variant")
    games = catalogue.available_games()
    assert len(games) > 1
    for game in [*games[1:], games[0]]:  # a change of game, each game once
        game_select.select_option(game.slug)
        expect(variant.locator("optgroup")).to_have_count(1)
        assert variant.evaluate(VARIANT_OPTIONS) == [["", ""]] + [
            [slug, game.slug] for slug in game.variants
        ]
    # A variant the next game also has ("standard") stays chosen; else its default.
    tycoon = catalogue.find_game("data_tycoon")
    thief = catalogue.find_game("data_thief")
    assert tycoon is not None and thief is not None
    game_select.select_option(tycoon.slug)
    variant.select_option("standard")
    game_select.select_option(thief.slug)
    assert variant.input_value() == "standard"
    game_select.select_option(tycoon.slug)
    variant.select_option("lawyers")
    assert "lawyers" not in thief.variants
    game_select.select_option(thief.slug)
    assert variant.input_value() == ""
    axe = Axe()
    problems: list[str] = []
    for size in SIZES:
        sized(page, size)
        check(page, "session-form", size, folder=artifacts_dir, problems=problems, axe=axe)
    assert not problems, problems
    context.close()


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_a_missing_page_is_the_sites_own_in_the_visitors_language(
    browser, live_server_url, artifacts_dir, language
):
    context = browser.new_context(locale=language)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server_url}]
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    axe = Axe()
    problems: list[str] = []
    for size in SIZES:
        sized(page, size)
        response = page.goto(live_server_url + "/no-such-page/")
        assert response is not None and response.status == 404
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("main a[href='/']")).to_be_visible()
        check(page, f"{language}-404", size, folder=artifacts_dir, problems=problems, axe=axe)
    assert not problems, problems
    context.close()


# The label a phone writes before a number, in front of each cell (CSS ::before), and
# the cell's data-label it is made of.
LABEL = "(cell) => [getComputedStyle(cell, '::before').content, cell.dataset.label]"
RANKING = """
<!doctype html><html lang="{language}"><head>
<link rel="stylesheet" href="{base}/static/css/app.css">
<link rel="stylesheet" href="{base}/static/css/game.css">
</head><body><table class="ranking"><tbody>
<tr class="is-winner"><th scope="row">Hugo</th><td data-label="Points">100</td></tr>
</tbody></table></body></html>
"""


@pytest.mark.parametrize(("language", "colon"), [("fr", "\u00a0: "), ("en", ": ")])
def test_a_phones_labels_put_a_space_before_the_colon_in_french(
    browser, live_server_url, language, colon
):
    """The phone's end ranking (game.css) and the privacy page's table write "Points : 100"
    in French, as the catalogue does, and "Points: 100" in English."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=language)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server_url}]
    )
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(live_server_url + reverse("debrief:privacy"))
    expect(page.locator("html")).to_have_attribute("lang", language)
    label, name = page.locator("table.privacy-table td[data-label]").first.evaluate(LABEL)
    assert label == f'"{name}{colon}"', label
    page.goto(live_server_url + "/static/css/app.css")  # same origin for the stylesheets
    page.set_content(RANKING.format(language=language, base=live_server_url))
    label, name = page.locator(".ranking td[data-label]").evaluate(LABEL)
    assert label == f'"{name}{colon}"', label
    context.close()
