"""requirements.lock against pyproject.toml and against the running virtual environment.

After an edit of pyproject's dependencies, ``make lock`` must be run (and the lock
committed); these tests fail until it is. See the README's "Dependencies".
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from dataclasses import dataclass

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from config.services import BASE_DIR

LOCK = BASE_DIR / "requirements.lock"
PYPROJECT = BASE_DIR / "pyproject.toml"
# The extras that `make lock` resolves together with the runtime dependencies.
LOCKED_EXTRAS = ("dev", "postgres")
HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})")


@dataclass(frozen=True)
class Locked:
    name: str  # canonical (PEP 503) name
    specifier: str  # as written, e.g. "==5.2.19"
    hashes: tuple[str, ...]
    marker: Marker | None

    @property
    def version(self) -> str | None:
        """The pinned version, or None when the line is not a single '=='."""
        specs = self.specifier.split(",")
        exact = specs[0].startswith("==") and not specs[0].startswith("===")
        if len(specs) == 1 and exact and "*" not in specs[0]:
            return specs[0][2:]
        return None


def parse_lock(text: str) -> dict[str, Locked]:
    """Return the requirements of a hashed requirements file, by canonical name."""
    text = re.sub(r"\\\n", " ", text)  # join continuation lines
    locked: dict[str, Locked] = {}
    for raw in text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", raw).strip()  # comments
        if not line or line.startswith("-"):  # blank, or an option such as --index-url
            continue
        requirement_text = line.split(" --", 1)[0].strip()
        requirement = Requirement(requirement_text)
        name = canonicalize_name(requirement.name)
        if name in locked:
            raise ValueError(f"{name} is listed twice")
        locked[name] = Locked(
            name=name,
            specifier=str(requirement.specifier),
            hashes=tuple(HASH.findall(line)),
            marker=requirement.marker,
        )
    return locked


def declared_requirements(pyproject: dict) -> list[Requirement]:
    """The runtime dependencies and the locked extras' requirements of a pyproject."""
    project = pyproject["project"]
    texts = list(project["dependencies"])
    for extra in LOCKED_EXTRAS:
        texts += project["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


def lock_problems(declared: list[Requirement], locked: dict[str, Locked]) -> list[str]:
    """What in the lock does not match pyproject: unpinned, unhashed, out of range, missing."""
    problems = []
    for entry in locked.values():
        if entry.version is None:
            problems.append(f"{entry.name}: not pinned with == ({entry.specifier or 'no version'})")
        if not entry.hashes:
            problems.append(f"{entry.name}: no --hash=sha256: line")
    for requirement in declared:
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        name = canonicalize_name(requirement.name)
        pinned = locked.get(name)
        if pinned is None:
            problems.append(f"{requirement}: not in the lock (run make lock)")
        elif pinned.version is not None and not requirement.specifier.contains(
            Version(pinned.version), prereleases=True
        ):
            problems.append(
                f"{requirement}: the lock pins {pinned.version}, outside the range (run make lock)"
            )
    return problems


def install_problems(locked: dict[str, Locked], installed: dict[str, str]) -> list[str]:
    """What differs between the lock and the installed distributions (name -> version)."""
    problems = []
    for name, entry in locked.items():
        if entry.marker is not None and not entry.marker.evaluate():
            continue
        if name not in installed:
            problems.append(f"{name}=={entry.version}: locked but not installed (make install)")
        elif entry.version is None or Version(installed[name]) != Version(entry.version):
            problems.append(
                f"{name}: {installed[name]} installed, the lock says {entry.specifier}"
                " (make install)"
            )
    return problems


def installed_distributions() -> dict[str, str]:
    return {
        canonicalize_name(dist.metadata["Name"]): dist.version
        for dist in importlib.metadata.distributions()
    }


@pytest.fixture(scope="module")
def locked() -> dict[str, Locked]:
    return parse_lock(LOCK.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def declared() -> list[Requirement]:
    return declared_requirements(tomllib.loads(PYPROJECT.read_text(encoding="utf-8")))


def test_every_declared_requirement_is_pinned_hashed_and_in_range(declared, locked):
    assert len(declared) >= 20
    assert lock_problems(declared, locked) == []


def test_the_lock_pins_the_declared_packages_and_their_dependencies(declared, locked):
    declared_names = {canonicalize_name(r.name) for r in declared}
    assert declared_names <= set(locked)
    # The dependencies of dependencies are locked too (pip check in make install
    # checks them all): a few that only arrive that way.
    assert {"kombu", "asgiref", "sqlparse", "numpy"} <= set(locked) - declared_names


def test_the_running_environment_holds_exactly_the_locked_versions(locked):
    assert install_problems(locked, installed_distributions()) == []


SAMPLE_LOCK = """\
# a header
django==5.2.19 \\
    --hash=sha256:{a} \\
    --hash=sha256:{b}
    # via dataprotect-classroom (pyproject.toml)
redis==8.1.0 \\
    --hash=sha256:{a}
    # via celery
""".format(a="a" * 64, b="b" * 64)


def test_parse_lock_reads_pins_and_hashes():
    locked = parse_lock(SAMPLE_LOCK)
    assert set(locked) == {"django", "redis"}
    assert locked["django"].version == "5.2.19"
    assert locked["django"].hashes == ("a" * 64, "b" * 64)
    assert locked["redis"].hashes == ("a" * 64,)


def test_lock_problems_finds_unpinned_unhashed_missing_and_out_of_range():
    locked = parse_lock(SAMPLE_LOCK + "tqdm>=4.66\nsegno==1.6.6\n")
    declared = [
        Requirement(text)
        for text in ["Django>=5.2,<5.3", "redis>=9", "tqdm>=4.66", "segno", "Babel>=2.14"]
    ]
    problems = lock_problems(declared, locked)
    assert problems == [
        "tqdm: not pinned with == (>=4.66)",
        "tqdm: no --hash=sha256: line",
        "segno: no --hash=sha256: line",
        "redis>=9: the lock pins 8.1.0, outside the range (run make lock)",
        "Babel>=2.14: not in the lock (run make lock)",
    ]
    assert lock_problems(declared[:1], parse_lock(SAMPLE_LOCK)) == []


def test_install_problems_finds_other_versions_and_missing_packages():
    locked = parse_lock(SAMPLE_LOCK)
    assert install_problems(locked, {"django": "5.2.19", "redis": "8.1.0", "pip": "23.2.1"}) == []
    assert install_problems(locked, {"django": "5.2.20", "pip": "23.2.1"}) == [
        "django: 5.2.20 installed, the lock says ==5.2.19 (make install)",
        "redis==8.1.0: locked but not installed (make install)",
    ]
