"""What build of gymspaces this is: :func:`gymspaces.show_config`'s facts.

Loaded only when they are asked for (``gymspaces.show_config()``, ``python -m
gymspaces --version --verbose``), so that ``import gymspaces`` pays nothing for
them. Every fact is read from the build itself: the versions and the compiler
are compiled into ``gymspaces._rng`` (see setup.py), the self-checks ran when
gymspaces was imported.
"""

from __future__ import annotations

import platform
import sys
import textwrap
from typing import Any

import numpy as np

from gymspaces import _rng
from gymspaces._version import __version__

# Sections of facts, each a dict of name -> value.
Config = dict[str, dict[str, Any]]

FREE_THREADING_NOTE = (
    "no free-threaded build of gymspaces has been tested (no 3.13t/3.14t interpreter was at hand), "
    "and none declares itself compatible: on a free-threaded CPython, importing gymspaces turns the GIL on"
)
# What CI builds and tests (.ci/run), and what the wheel configuration builds
# besides ([tool.cibuildwheel] in pyproject.toml), as (sys.platform, machine).
TESTED_PLATFORMS = {("linux", "x86_64"): "Linux x86_64", ("linux", "aarch64"): "Linux aarch64 (under qemu-user)"}
BUILT_NOT_TESTED = ("macOS x86_64", "macOS arm64", "Windows AMD64")
WIDTH = 100
"""The printed form's widest line."""


def _gil_enabled() -> bool | None:
    """``sys._is_gil_enabled()`` where the interpreter has it (3.13+), else None."""
    is_gil_enabled = getattr(sys, "_is_gil_enabled", None)
    return None if is_gil_enabled is None else bool(is_gil_enabled())


def config() -> Config:
    """The build's facts, by section (the form ``show_config(mode="dicts")`` returns)."""
    return {
        "gymspaces": {"version": __version__, "debug_build": bool(_rng.DEBUG_BUILD)},
        "build": {
            "cython": _rng.BUILD_CYTHON,
            "numpy": _rng.BUILD_NUMPY,
            "compiler": _rng.COMPILER,
        },
        "running": {
            "numpy": np.__version__,
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "platform": f"{sys.platform} {platform.machine()}",
        },
        "pcg64": {
            "path": _rng.PCG64_PATH,
            "inline": bool(_rng.PCG64_INLINE),
            "fallback_reason": _rng.PCG64_FALLBACK_REASON,
        },
        "self_checks": {
            "state_copy_layout": bool(_rng.PCG64_STATE_COPY),
            "inline_pcg64": bool(_rng.PCG64_INLINE),
            # gymspaces._selfcheck raises at import when it fails: here, it passed.
            "kernel_draws": True,
        },
        "platforms": {
            "tested": list(TESTED_PLATFORMS.values()),
            "built_not_tested": list(BUILT_NOT_TESTED),
            "this_one_tested": (sys.platform, platform.machine().lower()) in TESTED_PLATFORMS,
        },
        "free_threading": {
            "built_for_free_threaded_python": bool(_rng.FREE_THREADED_BUILD),
            "gil_enabled": _gil_enabled(),
            "tested": False,
            "note": FREE_THREADING_NOTE,
        },
    }


def _passed(ok: bool) -> str:
    return "passed" if ok else "FAILED"


def render(facts: Config) -> str:
    """The printed form of :func:`config`'s facts."""
    pcg64, checks, threads, platforms = facts["pcg64"], facts["self_checks"], facts["free_threading"], facts["platforms"]
    if pcg64["inline"]:
        drawing = "inline (bulk fills of numpy.random.PCG64 run the step in the kernels)"
    else:
        drawing = f"numpy's function pointer for every draw ({pcg64['fallback_reason']})"
    gil = threads["gil_enabled"]
    lines = [
        f"gymspaces {facts['gymspaces']['version']}",
        "build:",
        f"  Cython: {facts['build']['cython']}",
        f"  numpy (built against): {facts['build']['numpy']}",
        f"  compiler: {facts['build']['compiler']}",
        f"  debug build: {'yes' if facts['gymspaces']['debug_build'] else 'no'}",
        "running:",
        f"  numpy: {facts['running']['numpy']}",
        f"  Python: {facts['running']['python']} ({facts['running']['implementation']}, {facts['running']['platform']})",
        "PCG64:",
        f"  128-bit arithmetic: {pcg64['path']}",
        f"  draws: {drawing}",
        "import self-checks:",
        f"  state-copy layout: {_passed(checks['state_copy_layout'])}",
        f"  inline PCG64 draws: {_passed(checks['inline_pcg64'])}",
        f"  kernel draws (gymspaces._selfcheck): {_passed(checks['kernel_draws'])}",
        "platforms:",
        f"  tested in CI: {'; '.join(platforms['tested'])}",
        f"  wheels built, not tested: {', '.join(platforms['built_not_tested'])}",
        f"  this one: {'tested' if platforms['this_one_tested'] else 'not tested'} ({facts['running']['platform']})",
        "free threading:",
        f"  built for a free-threaded CPython (Py_GIL_DISABLED): {'yes' if threads['built_for_free_threaded_python'] else 'no'}",
        f"  GIL enabled now: {'yes (no sys._is_gil_enabled: before 3.13 it always is)' if gil is None else ('yes' if gil else 'no')}",
        *textwrap.wrap(threads["note"], WIDTH, initial_indent="  note: ", subsequent_indent="        "),
    ]
    return "\n".join(lines)


def show_config(mode: str = "stdout") -> Config | None:
    """Print the build's facts (``mode="stdout"``) or return them (``mode="dicts"``)."""
    if mode == "dicts":
        return config()
    if mode == "stdout":
        print(render(config()))
        return None
    raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")
