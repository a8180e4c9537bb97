"""Whether a test may make a network namespace of its own, for the "machines" it cuts
off from each other (as root, with unshare and iproute2's ip and tc, where the kernel
allows it)."""

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path


@functools.cache
def network_namespaces() -> bool:
    """Tell whether ``unshare --net`` runs here, and ``ip`` and ``tc`` can set the
    namespace up and cut a port off in it (``open_loopback``, ``cut_off``)."""
    if os.geteuid() != 0 or not all(map(shutil.which, ("unshare", "ip", "tc"))):
        return False
    probe = subprocess.run(
        ["unshare", "--net", sys.executable, "-c", PROBE],
        capture_output=True,
        check=False,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return probe.returncode == 0


PROBE = (
    "from tests.namespaces import cut_off, open_loopback\n"
    "open_loopback()\ncut_off(1)\ncut_off(1, cut=False)"
)


def open_loopback() -> None:
    """Bring up a new namespace's loopback."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)


def cut_off(port: int, cut: bool = True) -> None:
    """Hold every TCP packet to or from ``port`` on the namespace's loopback (``cut``), or
    no more: no reset, no ICMP, as a machine powered off or a cut network. A connection
    made meanwhile waits for its answer, as does a query on one made before.

    The packets go to a traffic class of 8 bits a second (``tc`` with ``htb``: a kernel
    without netem's or iptables' modules has it), where they wait (a SYN would take a
    minute); the class and what waits in it are dropped when the cut ends, and TCP
    sends again. The kernel's other loopback traffic goes by a class of its own, at
    full speed. Only in a namespace ``open_loopback`` set up: one cut at a time."""
    if not cut:
        subprocess.run(["tc", "qdisc", "del", "dev", "lo", "root"], check=True)
        return
    tc = ("tc", "class", "add", "dev", "lo", "parent", "1:", "classid")
    for command in (
        ("tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "htb", "default", "10"),
        (*tc, "1:10", "htb", "rate", "100gbit"),
        (*tc, "1:20", "htb", "rate", "8bit", "ceil", "8bit", "burst", "1", "cburst", "1"),
        *(
            (
                "tc",
                "filter",
                "add",
                "dev",
                "lo",
                "parent",
                "1:",
                "protocol",
                "ip",
                "prio",
                prio,
                "u32",
                "match",
                "ip",
                "protocol",
                "6",
                "0xff",
                "match",
                "ip",
                direction,
                str(port),
                "0xffff",
                "flowid",
                "1:20",
            )
            for prio, direction in (("1", "dport"), ("2", "sport"))
        ),
    ):
        # stderr kept: htb warns of the classes' quantum, which does not matter here
        subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
