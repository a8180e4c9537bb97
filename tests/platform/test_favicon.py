"""The site's icon: named by every page, and /favicon.ico (asked for by browsers on pages
that name none) answers instead of a 404 in the server's log."""

from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_pages_name_the_icon_and_favicon_ico_leads_to_it(client):
    home = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/img/favicon.svg"' in home
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/img/favicon.svg"
    icon = finders.find("img/favicon.svg")
    assert icon is not None and Path(icon).read_text(encoding="utf-8").startswith("<svg")
