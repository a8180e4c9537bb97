"""Read a page's socket counts (``window.dpSockets``, docs/ui.md) in browser tests."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

TIMEOUT = 15_000


def socket_counts(page: Page, opened: int = 1) -> dict[str, Any]:
    """Return the page's counts once at least `opened` sockets have opened."""
    page.wait_for_function(
        "n => window.dpSockets && window.dpSockets.opened >= n", arg=opened, timeout=TIMEOUT
    )
    return page.evaluate("() => ({...window.dpSockets})")


def assert_no_reconnect(page: Page, who: str) -> None:
    """Assert that the page's one socket opened once and never had to reconnect."""
    counts = socket_counts(page)
    assert (counts["opened"], counts["reconnects"]) == (1, 0), f"{who}'s page: {counts}"
