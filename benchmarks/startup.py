"""Start-up cost cases: what patch mode adds to a fresh interpreter, timed in pairs of whole processes.

Each case runs two commands, the same program with and without patch mode,
alternately (with, without; without, with; ...), and keeps the child's CPU
time (user + system, from ``os.wait4``): other tenants of the machine slow
its wall clock far more than the CPU time a process needs. The children run on
one processor (where the system lets a process choose): on several, NumPy's
OpenBLAS threads spin on the others while the interpreter starts and count the
same wall time again, about doubling both sides' CPU time. The figure reported
is the median of the paired differences, in which a slow spell over one pair
moves both of its processes alike.

The children inherit this process's environment without ``GYMSPACES_PATCH``,
which only the side that tests the start-up hook sets, on purpose. They keep
their bytecode caches in a directory of their own (``PYTHONPYCACHEPREFIX``),
written by a first pair that is not kept: a source tree without caches, or an
environment that forbids writing them (``PYTHONDONTWRITEBYTECODE``), would
otherwise time compiling gymspaces' modules on every start.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

PATCH_VARIABLE = "GYMSPACES_PATCH"
WITH, WITHOUT = "gymspaces", "without"  # the implementation names of the two sides in a run's medians
PAIRS = 30  # each process is about 0.05-0.5 s: a stable median in under a minute a case
CLOCK = "child CPU time (user + system, os.wait4), on one processor"


@dataclass(frozen=True)
class Side:
    """One command of a pair: ``python -c CODE``, with ``GYMSPACES_PATCH`` set to ``patch`` or unset."""

    code: str
    patch: str | None = None

    @property
    def shown(self) -> str:
        """The command as a user would type it."""
        prefix = f"{PATCH_VARIABLE}={self.patch} " if self.patch is not None else ""
        return f'{prefix}python -c "{self.code}"'


@dataclass(frozen=True)
class Startup:
    """A start-up case: ``with_`` is the program with patch mode, ``without`` the same program plain."""

    key: str
    label: str
    with_: Side
    without: Side
    check: str
    """Code run once with ``with_``'s environment before timing: fails when patch mode is not in effect."""
    missing: str
    """The reason shown when ``check`` fails (what is not installed)."""


_PATCH_CALL = Side("import gymnasium, gymspaces.gymnasium as g; g.patch()")
_GYMNASIUM = Side("import gymnasium")
_HOOK_MISSING = "not installed: the start-up hook gymspaces-patch.pth"

STARTUPS: dict[str, Startup] = {
    startup.key: startup
    for startup in (
        Startup(
            "startup_patch",
            "patch() after import gymnasium, fresh interpreter",
            _PATCH_CALL,
            _GYMNASIUM,
            "import gymnasium, gymspaces.gymnasium as g; g.patch(); assert g.is_patched()",
            "not installed: gymnasium",
        ),
        Startup(
            "startup_hook",
            "GYMSPACES_PATCH=1, an interpreter that never imports Gymnasium",
            Side("pass", "1"),
            Side("pass"),
            "import sys; assert sys.modules.get('gymspaces._autopatch')",
            _HOOK_MISSING,
        ),
        Startup(
            "startup_hook_gymnasium",
            "GYMSPACES_PATCH=1, then import gymnasium",
            Side("import gymnasium", "1"),
            _GYMNASIUM,
            "import gymnasium; from gymspaces.gymnasium import is_patched; assert is_patched()",
            _HOOK_MISSING,
        ),
    )
}
"""The start-up cases by case key."""


_REPLACED = frozenset({PATCH_VARIABLE, "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX"})


def environment(base: Mapping[str, str], patch: str | None, cache: str) -> dict[str, str]:
    """``base`` with ``GYMSPACES_PATCH`` unset (or set to ``patch``) and bytecode cached under ``cache``."""
    env = {name: value for name, value in base.items() if name not in _REPLACED}
    env["PYTHONPYCACHEPREFIX"] = cache
    if patch is not None:
        env[PATCH_VARIABLE] = patch
    return env


@contextlib.contextmanager
def _on_one_processor() -> Iterator[None]:
    """Within the block, this process (and the children it starts, which inherit
    the setting) runs on one processor; nothing changes where the system has no
    ``sched_setaffinity``."""
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        yield
    finally:
        os.sched_setaffinity(0, allowed)


def cpu_seconds(code: str, env: Mapping[str, str]) -> float:
    """Run ``python -c code`` to its end and return its CPU time (user + system) in seconds.

    Raises
    ------
    RuntimeError
        With the child's stderr, if it exits non-zero.
    """
    with _on_one_processor():  # set at the fork: the parent is pinned only while it starts the child
        child = subprocess.Popen(
            [sys.executable, "-c", code], env=dict(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
    assert child.stderr is not None
    errors = child.stderr.read()  # to its end: a full pipe would block the child
    child.stderr.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    if child.returncode:
        raise RuntimeError(f"python -c {code!r} failed:\n{errors.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime


@dataclass
class PairedTimes:
    """CPU seconds of each side, one figure per pair, in the order timed."""

    with_: list[float] = field(default_factory=list)
    without: list[float] = field(default_factory=list)

    @property
    def added(self) -> float:
        """The median of the paired differences (with - without), in seconds."""
        return statistics.median(a - b for a, b in zip(self.with_, self.without))


class PairTimer:
    """Times the two sides of a start-up case, one pair per call, the order swapped every pair.

    Parameters
    ----------
    startup : Startup
        The case.
    base : mapping of str to str
        The environment both children start from (``GYMSPACES_PATCH`` is
        removed from it, and set again only where ``startup`` sets it).
    """

    def __init__(self, startup: Startup, base: Mapping[str, str]) -> None:
        self.startup = startup
        self.cache = tempfile.mkdtemp(prefix="gymspaces-bench-pycache-")
        self.envs = {side: environment(base, side.patch, self.cache) for side in (startup.with_, startup.without)}
        self.times = PairedTimes()

    def close(self) -> None:
        """Remove the children's bytecode caches."""
        shutil.rmtree(self.cache, ignore_errors=True)

    def available(self) -> bool:
        """Whether patch mode is in effect on the ``with`` side (runs ``startup.check`` once)."""
        try:
            cpu_seconds(self.startup.check, self.envs[self.startup.with_])
        except RuntimeError:
            return False
        return True

    def pair(self) -> None:
        """Run one pair; the side that goes first alternates, so neither always meets warmer caches."""
        sides = [(self.startup.with_, self.times.with_), (self.startup.without, self.times.without)]
        if len(self.times.with_) % 2:
            sides.reverse()
        for side, figures in sides:
            figures.append(cpu_seconds(side.code, self.envs[side]))

    __call__ = pair


__all__ = ["CLOCK", "PAIRS", "PATCH_VARIABLE", "STARTUPS", "WITH", "WITHOUT", "PairTimer", "PairedTimes", "Side", "Startup",
           "cpu_seconds", "environment"]
