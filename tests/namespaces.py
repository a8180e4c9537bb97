"""Whether a test may make a network namespace of its own, for the "machines" it cuts
off from each other (as root, with unshare and iproute2's ip, where the kernel allows it)."""

import functools
import os
import shutil
import subprocess


@functools.cache
def network_namespaces() -> bool:
    """Tell whether ``unshare --net`` runs here, with ``ip`` to set the namespace up."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False)
    return probe.returncode == 0


def open_loopback() -> None:
    """Bring up a new namespace's loopback, with its local routing table's rule moved
    after the rules ``cut_off`` adds (before it, they could not catch local traffic)."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "rule", "del", "pref", "0", "lookup", "local"], check=True)
    subprocess.run(["ip", "rule", "add", "pref", "100", "lookup", "local"], check=True)


def cut_off(port: int, cut: bool = True) -> None:
    """Discard every TCP packet to or from ``port`` on the namespace's loopback (``cut``),
    or no more: blackhole routing rules, which answer nothing (no reset, no ICMP), as a
    machine powered off or a cut network. Only in a namespace ``open_loopback`` set up."""
    verb = "add" if cut else "del"
    for pref, direction in (("10", "dport"), ("11", "sport")):
        rule = ["pref", pref, "to", "127.0.0.1", "ipproto", "tcp", direction, str(port)]
        subprocess.run(["ip", "rule", verb, *rule, "blackhole"], check=True)
