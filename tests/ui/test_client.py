"""The protocol side of the browser client: versions, resync, reconnection, errors, pause.

The page talks to tests/ui/harness.py's FakeTable through Playwright's WebSocket
routing, so the test can drop the socket, skip versions or refuse a move.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.ui.harness import FakeTable, find_state, serve_page

pytestmark = [pytest.mark.browser]

TIMEOUT = 10_000


def first_turn():
    return find_state(lambda s: s.ply == 0, variant="beginner")


@pytest.fixture
def seat_page(browser):
    """Return a function opening the seat-0 page on a table; close the contexts after."""
    contexts = []

    def open_page(table):
        context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="en-GB")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        serve_page(page, table)
        page.wait_for_selector(".board > section")
        return page

    yield open_page
    for context in contexts:
        context.close()


def sent(table, kind):
    return [m for m in table.sent if m["type"] == kind]


def wait_for_sent(page, table, kind, count=1):
    for _ in range(100):
        if len(sent(table, kind)) >= count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the page sent no {kind!r}: {table.sent}")


def play_first_card(page):
    """Choose the first playable hand card and its first play."""
    page.locator(".dt-cards--hand button.dt-card").first.click()
    page.locator(".dt-cards--table button.is-target, .tray button[data-action]").first.click()


def test_act_carries_the_version_and_the_action_unchanged(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    legal = table.state.legal_actions(0)
    play_first_card(page)
    wait_for_sent(page, table, "act")
    act = sent(table, "act")[0]
    assert act["version"] == 0
    assert act["action"] in legal
    assert table.version == 1  # the engine accepted it


def test_a_version_gap_is_drawn_without_a_resync(seat_page):
    """Every state is a full view: the page takes the new version and acts on it."""
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    table.version += 2  # two changes the page never saw
    table.broadcast(table.state_message([]))
    play_first_card(page)
    wait_for_sent(page, table, "act")

    assert sent(table, "act")[0]["version"] == 2
    assert sent(table, "resync") == []


def test_reconnects_after_a_drop_and_resyncs(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    first = page.locator(".dt-cards--hand button.dt-card").first
    named = first.aria_snapshot()  # '- button "Simple dataset yellow"'
    assert "dataset" in named.lower()
    table.sockets[0].close(code=1011, reason="server restart")
    table.sockets.clear()
    expect(page.locator("[data-slot=status]")).to_contain_text("Connection lost")
    wait_for_sent(page, table, "resync")
    expect(page.locator("[data-slot=status]")).to_have_text("Connected.")
    assert len(table.sockets) == 1
    # the resync's hello has no catalogue: the page keeps the one it got, cards named
    page.wait_for_function("window.dpSockets && window.dpSockets.opened === 2")
    expect(first).to_have_attribute("data-card", re.compile(r"^dt-"))
    assert first.aria_snapshot() == named


def test_a_move_without_an_answer_is_reported_then_checked_by_reconnecting(seat_page):
    """A socket can die without a close event: the move must not vanish in silence."""
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    table.answering = False
    play_first_card(page)
    wait_for_sent(page, table, "act")
    errors = page.locator("[data-slot=errors]")
    expect(errors).to_contain_text("may not have been stored", timeout=12_000)
    wait_for_sent(page, table, "resync")  # a new socket asks for the truth
    expect(page.locator("[data-slot=status]")).to_have_text("Connected.")
    stats = page.evaluate("window.dpSockets")
    assert stats["reconnects"] == 1 and stats["opened"] == 2
    assert table.version == 0  # the move was never stored, and the page can play again
    expect(page.locator(".dt-cards--hand button.dt-card").first).to_be_enabled()


def test_the_page_says_when_the_server_cannot_be_reached(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    table.reachable = False
    table.sockets[0].close(code=1006, reason="gone")
    table.sockets.clear()
    status = page.locator("[data-slot=status]")
    expect(status).to_contain_text("Connection lost. Trying again in")
    expect(status).to_contain_text("The server cannot be reached", timeout=12_000)
    # Sockets that open and are closed at once do not reset the backoff: the next try
    # is seconds away, not half a second (a whole class would hammer the server).
    # Counted from a retry just made (not from when the status was first seen, which a
    # loaded machine may notice late): the next one waits 4 s ± 25 %, a reset one 0.5 s.
    tries = page.evaluate("window.dpSockets.reconnects")
    page.wait_for_function("n => window.dpSockets.reconnects > n", arg=tries, timeout=10_000)
    tries = page.evaluate("window.dpSockets.reconnects")
    page.wait_for_timeout(1200)
    assert page.evaluate("window.dpSockets.reconnects") == tries
    table.reachable = True
    expect(status).to_have_text("Connected.", timeout=20_000)


def test_a_refused_move_shows_the_servers_message(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    table.version += 1  # the game moved on without this page: its move is stale
    play_first_card(page)
    errors = page.locator("[data-slot=errors]")
    expect(errors).to_have_attribute("role", "alert")
    expect(errors).to_contain_text("The game moved on.")
    # the page got the current state right after, and can play again
    expect(page.locator(".dt-cards--hand button.dt-card").first).to_be_enabled()


def test_pause_shows_a_notice_and_no_controls(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    assert page.locator(".dt-cards--hand button.dt-card").count() > 0
    table.paused = True
    table.broadcast({"type": "paused"})
    table.broadcast(table.state_message([]))
    expect(page.locator("[data-slot=notice]")).to_contain_text("paused")
    expect(page.locator("#game [data-action], .dt-cards--hand button")).to_have_count(0)
    table.paused = False
    table.broadcast({"type": "resumed"})
    table.broadcast(table.state_message([]))
    expect(page.locator("[data-slot=notice]")).to_be_hidden()
    expect(page.locator(".dt-cards--hand button.dt-card").first).to_be_visible()


def test_a_seat_handed_to_a_bot_says_so_and_has_no_controls(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    players = table.hello()["players"]
    handed = [dict(p, bot="heuristic") if p["seat"] == 0 else p for p in players]
    table.broadcast({"type": "presence", "players": handed})
    table.broadcast(dict(table.state_message([]), legal_actions=[]))  # what the server sends
    notice = page.locator("[data-slot=notice]")
    expect(notice).to_contain_text("A bot is playing for you")
    expect(page.locator("#game [data-action], .dt-cards--hand button")).to_have_count(0)
    table.broadcast({"type": "presence", "players": players})  # the teacher gave it back
    table.broadcast(table.state_message([]))
    expect(notice).to_be_hidden()
    expect(page.locator(".dt-cards--hand button.dt-card").first).to_be_visible()


def test_countdown_follows_the_deadline_with_the_server_clock(seat_page):
    state = find_state(
        lambda s: s.view(0)["window"] and s.view(0)["window"]["kind"] == "call_data",
        variant="beginner",
    )
    table = FakeTable(state, bots=False)
    page = seat_page(table)
    countdown = page.locator("[data-slot=countdown]")
    expect(countdown).to_be_visible()
    expect(countdown).to_contain_text("Call DATA!")
    expect(countdown).to_contain_text("seconds")
    assert page.get_by_role("button", name="DATA!").count() == 1


def test_removed_and_ended_notices(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    table.broadcast({"type": "ended", "message": "The teacher has ended the session."})
    expect(page.locator("[data-slot=notice]")).to_contain_text("ended the session")
    table.broadcast({"type": "removed", "message": "You have been removed."})
    expect(page.locator("[data-slot=notice]")).to_contain_text("removed")
    expect(page.locator(".board [data-action]")).to_have_count(0)


def test_log_lines_are_shown_once_per_version(seat_page):
    table = FakeTable(first_turn(), bots=False)
    page = seat_page(table)
    log = page.locator("[data-slot=log] li")
    count = log.count()
    assert count > 0
    table.broadcast(table.state_message())  # a resync repeats the same version's lines
    page.wait_for_timeout(300)
    assert log.count() == count


def test_pure_helpers(seat_page):
    """Backoff, server time parsing and card-name splitting (kit.js), run in the page's engine."""
    page = seat_page(FakeTable(first_turn(), bots=False))
    result = page.evaluate(
        """async () => {
          const client = await import("/static/js/play/client.js");
          const kit = await import("/static/js/play/kit.js");
          return {
            backoff: [0, 1, 2, 3, 10].map((n) => client.backoffMs(n, () => 0.5)),
            low: client.backoffMs(0, () => 0), high: client.backoffMs(0, () => 1),
            iso: client.serverTimeMs("2026-11-30T10:15:02.120Z"),
            seconds: client.serverTimeMs(1796000000.5),
            ms: client.serverTimeMs(1796000000500),
            sensitive: kit.nameParts("Dataset sensible: salud (rojo)"),
            french: kit.nameParts("Finalité : prospection commerciale"),
            simple: kit.nameParts("Simple dataset (red)"),
            special: kit.nameParts("Lawyer"),
            bracketed: kit.nameParts("DPIA (Impact Assessment)", {colour: false}),
            uncoloured: kit.nameParts("Avatar: Greys (aliens)", {colour: false}),
            key: kit.actionKey({card: "dt-1", type: "play"})
              === kit.actionKey({type: "play", card: "dt-1"}),
          };
        }"""
    )
    assert result["backoff"] == [500, 1000, 2000, 4000, 5000]
    assert (result["low"], result["high"]) == (375, 625)
    assert result["iso"] == 1796033702120
    assert result["seconds"] == result["ms"] == 1796000000500
    assert result["sensitive"] == {"head": "Dataset sensible", "label": "salud", "colour": "rojo"}
    assert result["french"] == {
        "head": "Finalité",
        "label": "prospection commerciale",
        "colour": "",
    }
    assert result["simple"] == {"head": "", "label": "Simple dataset", "colour": "red"}
    assert result["special"] == {"head": "", "label": "Lawyer", "colour": ""}
    # a card with no colour keeps its brackets: they are part of its name
    assert result["bracketed"] == {"head": "", "label": "DPIA (Impact Assessment)", "colour": ""}
    assert result["uncoloured"] == {"head": "Avatar", "label": "Greys (aliens)", "colour": ""}
    assert result["key"] is True


class GameThatCannotGoOn(FakeTable):
    """The server of a match it can neither read nor rebuild: an error for a greeting."""

    def on_connect(self, ws):
        self.sockets.append(ws)
        ws.on_message(lambda raw: self.on_message(ws, raw))
        ws.send(json.dumps(self.error("cannot_go_on", REASON)))


REASON = "This game cannot go on after the platform's update."


def test_a_game_that_cannot_go_on_shows_why_in_the_board_s_place(browser):
    table = GameThatCannotGoOn(first_turn(), bots=False)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    serve_page(page, table)
    expect(page.locator(".board")).to_have_text(REASON)
    expect(page.locator("[data-slot=status]")).to_have_text("Connected.")
    page.wait_for_timeout(1500)  # no reconnection: it was an answer
    assert len(table.sockets) == 1
    context.close()
