"""The real ASGI server believes X-Forwarded-For only from TRUSTED_PROXIES: by default a
process on the same machine (a same-host proxy, a script) cannot choose the address the
wrong-code limit counts."""

import json
import urllib.error
import urllib.request

import pytest
from django.conf import settings

from classroom import ratelimit
from config.services import proxy_arguments
from tests.conftest import start_asgi

pytestmark = pytest.mark.django_db(transaction=True)

WRONG = "QQQQQQ"  # no session exists in these tests: every code is wrong
FORWARDED = [f"203.0.113.{n}" for n in range(1, 40)]


def join_status(url: str, forwarded_for: str) -> int:
    """POST a join with a wrong code, claiming to come from ``forwarded_for``."""
    request = urllib.request.Request(
        f"{url}/join/",
        data=json.dumps({"code": WRONG, "nickname": "Sam"}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wrong_codes(env: dict[str, str]) -> list[int]:
    """Send one more wrong code than the limit, each from another claimed address."""
    server, url = start_asgi(env)
    try:
        tries = settings.JOIN_RATE_LIMIT + 1
        return [join_status(url, address) for address in FORWARDED[:tries]]
    finally:
        server.stop()
        for address in ["127.0.0.1", *FORWARDED]:
            ratelimit.reset(address)


def test_a_forwarded_address_from_an_untrusted_client_is_ignored(service_env):
    env = {k: v for k, v in service_env.items() if k != "TRUSTED_PROXIES"}
    statuses = wrong_codes(env)
    assert statuses[:-1] == [404] * settings.JOIN_RATE_LIMIT
    assert statuses[-1] == 429  # all counted against 127.0.0.1, whatever the header says


def test_a_trusted_proxy_names_the_client(service_env):
    statuses = wrong_codes({**service_env, "TRUSTED_PROXIES": "127.0.0.1"})
    assert statuses == [404] * (settings.JOIN_RATE_LIMIT + 1)  # one try per client


def test_the_servers_arguments_follow_the_setting():
    assert proxy_arguments({}) == ["--no-proxy-headers"]
    assert proxy_arguments({"TRUSTED_PROXIES": " 10.0.0.2 , 10.0.0.3,"}) == [
        "--proxy-headers",
        "--forwarded-allow-ips",
        "10.0.0.2,10.0.0.3",
    ]
