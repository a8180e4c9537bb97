"""Students are minors: pages load nothing from anywhere but the platform itself."""

from urllib.parse import urlparse

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PUBLIC_PAGES = ["/", "/join/", "/login/", "/signup/"]


@pytest.mark.parametrize("path", PUBLIC_PAGES)
def test_public_page_requests_only_its_own_origin(browser, live_server_url, path, artifacts_dir):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    response = page.goto(live_server_url + path)
    page.wait_for_load_state("networkidle")

    assert response.status == 200
    own = urlparse(live_server_url).netloc
    foreign = [url for url in requested if urlparse(url).netloc not in {own, ""}]
    assert foreign == []
    assert not page.context.cookies() or all(
        cookie["domain"] in {"127.0.0.1", "localhost"} for cookie in page.context.cookies()
    )
    page.screenshot(path=artifacts_dir / "page.png", full_page=True)
    context.close()
