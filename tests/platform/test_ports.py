"""The ports the test harness and the benchmarks give the services they start."""

import socket

from config import services
from config.services import ephemeral_ports, free_port


def test_a_free_port_is_below_the_ports_outgoing_connections_take():
    """A service killed and started again on its port must not find it taken by an
    outgoing connection's local port, which the system draws from its ephemeral range."""
    ports = {free_port() for _ in range(50)}
    assert len(ports) > 40
    assert all(1024 <= port < ephemeral_ports().start for port in ports)
    for port in ports:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
            server.bind(("127.0.0.1", port))
            server.listen()


def test_a_port_in_use_is_not_given(monkeypatch):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", free_port()))
        taken.listen()
        used = taken.getsockname()[1]
        # Only two ports to draw from: the one in use and the one below it.
        monkeypatch.setattr(services, "ephemeral_ports", lambda: range(used + 1, 61000))
        monkeypatch.setattr(services, "FREE_PORTS_SPAN", 2)
        assert {free_port() for _ in range(20)} == {used - 1}
