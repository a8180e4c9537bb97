"""The web server serves the debrief's pages and queues its exports without loading the
report's drawing stack: matplotlib alone is about 40 MB in each process that imports
it, and only the Celery worker draws (here, the export the server queued)."""

import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import start_asgi
from tests.debrief.conftest import logged_in
from tests.debrief.test_export import wait_for
from tests.live.protocol_driver import teacher_post

pytestmark = pytest.mark.django_db(transaction=True)

# What the report's drawing loads: matplotlib's and kiwisolver's compiled modules.
DRAWING = ("matplotlib", "kiwisolver")


def loaded_libraries(pid: int) -> set[str]:
    """Return the files a process has mapped (its compiled modules among them)."""
    maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
    return {line.split()[-1] for line in maps if len(line.split()) >= 6}


def test_the_web_server_serves_a_debrief_without_the_drawing_stack(
    service_env, celery_worker, recorded, teacher_a, clean_exports
):
    cookie = logged_in(teacher_a).cookies["sessionid"].value
    server, url = start_asgi(service_env)
    try:
        debrief = reverse("debrief:session", args=[recorded.pk])
        table = recorded.tables.order_by("number").first()
        replay = reverse("debrief:replay", args=[recorded.pk, table.number])
        for page in (debrief, replay):
            request = urllib.request.Request(url + page, headers={"Cookie": f"sessionid={cookie}"})
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 200, page
        assert teacher_post(url, cookie, debrief, debrief) == 200  # queued, then its status
        (export,) = recorded.debrief_exports.all()
        assert server.process is not None  # started
        libraries = loaded_libraries(server.process.pid)
        assert any("sqlite" in path for path in libraries)  # the maps are read
        assert not [path for path in libraries if any(name in path for name in DRAWING)]
        # The worker, which draws, has the export done: nothing is left running after.
        assert wait_for(export.pk).status == "done"
    finally:
        server.stop()
