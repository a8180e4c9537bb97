"""The socket counts that pages keep for tests and support (window.dpSockets) count a drop.

The game client is served by tests/ui/harness.py's FakeTable; the htmx lobby by the live
server, its socket passed through Playwright so that the test can drop it.
"""

import pytest
from playwright.sync_api import expect

from classroom import actions
from tests.browser.sockets import socket_counts
from tests.ui.harness import FakeTable, find_state, serve_page

pytestmark = [pytest.mark.browser]

TIMEOUT = 15_000


def test_the_game_client_counts_a_reconnect(browser):
    table = FakeTable(find_state(lambda s: s.ply == 0, variant="beginner"), bots=False)
    context = browser.new_context(locale="en-GB")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        serve_page(page, table)
        page.wait_for_selector(".board > section")
        assert socket_counts(page)["reconnects"] == 0
        table.sockets[0].close(code=1011, reason="server restart")
        table.sockets.clear()
        counts = socket_counts(page, opened=2)
        assert (counts["opened"], counts["reconnects"]) == (2, 1)
        assert counts["lastClose"]["code"] == 1011
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_the_htmx_lobby_counts_a_reconnect(browser, live_server_url, django_user_model):
    teacher = django_user_model.objects.create_user(username="ms-sockets", password="x-Long-pw-1")
    school_class = actions.do_create_class(teacher, "Year 8 Sockets")
    session = actions.do_create_session(
        school_class,
        game="data_tycoon",
        variant="standard",
        language="en",
        table_size=2,
        bots_fill=False,
    )
    routes = []

    def pass_through(route):
        route.connect_to_server()
        routes.append(route)

    context = browser.new_context(locale="en-GB")
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.route_web_socket("**/ws/**", pass_through)
        page.goto(f"{live_server_url}/join/")
        page.get_by_label("Game code").fill(session.join_code)
        page.get_by_label("Nickname").fill("Cleo Cat")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.get_by_role("heading", name="Hello, Cleo Cat!")).to_be_visible()
        assert socket_counts(page)["reconnects"] == 0
        routes[-1].close(code=1012, reason="service restart")  # htmx retries after 1012
        counts = socket_counts(page, opened=2)
        assert (counts["opened"], counts["reconnects"]) == (2, 1)
        assert counts["lastClose"]["code"] == 1012
    finally:
        context.close()
