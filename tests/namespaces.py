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
