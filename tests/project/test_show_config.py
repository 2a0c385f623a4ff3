"""``gymspaces.show_config()`` and ``python -m gymspaces --version --verbose``: what build this is."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import gymspaces
from gymspaces import _rng

SECTIONS = {
    "gymspaces": {"version", "debug_build"},
    "build": {"cython", "numpy", "compiler"},
    "running": {"numpy", "python", "implementation", "platform"},
    "pcg64": {"path", "inline", "fallback_reason"},
    "self_checks": {"state_copy_layout", "inline_pcg64", "kernel_draws"},
    "platforms": {"tested", "built_not_tested", "this_one_tested"},
    "free_threading": {"built_for_free_threaded_python", "gil_enabled", "tested", "note"},
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GYMSPACES_")}
    return subprocess.run([sys.executable, "-m", "gymspaces", *args], capture_output=True, text=True,
                          timeout=120, env=environment)


def test_the_dicts_hold_every_section_and_key() -> None:
    facts = gymspaces.show_config(mode="dicts")
    assert facts is not None
    assert {name: set(section) for name, section in facts.items()} == SECTIONS


def test_the_facts_are_the_builds() -> None:
    facts = gymspaces.show_config(mode="dicts")
    assert facts is not None
    assert facts["gymspaces"] == {"version": gymspaces.__version__, "debug_build": _rng.DEBUG_BUILD}
    assert facts["running"]["numpy"] == np.__version__
    # setup.py recorded the versions the build ran with: an isolated build's
    # (pip's build environment) need not be installed here, but they meet
    # pyproject.toml's build requirements (Cython 3, numpy 2).
    assert re.fullmatch(r"3\.\d+\.\d+\S*", facts["build"]["cython"]), facts["build"]
    assert re.fullmatch(r"2\.\d+\.\d+\S*", facts["build"]["numpy"]), facts["build"]
    assert facts["build"]["compiler"].split()[0] in ("gcc", "clang", "MSVC")
    assert facts["pcg64"] == {"path": _rng.PCG64_PATH, "inline": _rng.PCG64_INLINE,
                              "fallback_reason": _rng.PCG64_FALLBACK_REASON}
    assert facts["pcg64"]["inline"] == (facts["pcg64"]["fallback_reason"] is None)
    assert facts["self_checks"] == {"state_copy_layout": _rng.PCG64_STATE_COPY, "inline_pcg64": _rng.PCG64_INLINE,
                                    "kernel_draws": True}
    threads = facts["free_threading"]
    assert threads["built_for_free_threaded_python"] == _rng.FREE_THREADED_BUILD
    assert threads["gil_enabled"] == (sys._is_gil_enabled() if hasattr(sys, "_is_gil_enabled") else None)
    assert threads["tested"] is False
    # Tested: what .ci/run builds and tests; the rest of the wheel matrix is built only.
    platforms = facts["platforms"]
    assert platforms["tested"] == ["Linux x86_64", "Linux aarch64 (under qemu-user)"]
    assert platforms["built_not_tested"] == ["macOS x86_64", "macOS arm64", "Windows AMD64"]
    import platform
    assert platforms["this_one_tested"] == (sys.platform == "linux" and platform.machine() in ("x86_64", "aarch64"))


def test_the_printed_form_names_every_fact(capsys: pytest.CaptureFixture[str]) -> None:
    assert gymspaces.show_config() is None
    printed = capsys.readouterr().out
    facts = gymspaces.show_config(mode="dicts")
    assert facts is not None
    assert printed.splitlines()[0] == f"gymspaces {gymspaces.__version__}"
    for value in (facts["build"]["cython"], facts["build"]["numpy"], facts["build"]["compiler"],
                  facts["running"]["numpy"], facts["running"]["python"], facts["pcg64"]["path"]):
        assert value in printed
    for label in ("debug build:", "state-copy layout:", "inline PCG64 draws:", "kernel draws", "Py_GIL_DISABLED",
                  "GIL enabled now:", "no free-threaded build of gymspaces has been tested"):
        assert label in printed
    assert ("inline (" in printed) == facts["pcg64"]["inline"]
    assert max(map(len, printed.splitlines())) <= 100  # a terminal's width, a bug report's too


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="mode"):
        gymspaces.show_config(mode="json")


def test_the_config_is_loaded_only_when_asked_for() -> None:
    result = subprocess.run([sys.executable, "-c", "import sys, gymspaces; print('gymspaces._config' in sys.modules)"],
                            capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "False", result.stderr


def test_version_verbose_prints_the_version_then_the_config() -> None:
    result = run("--version", "--verbose")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"gymspaces {gymspaces.__version__}"
    assert "PCG64:" in lines and f"  128-bit arithmetic: {_rng.PCG64_PATH}" in lines
    assert run("--version").stdout == f"gymspaces {gymspaces.__version__}\n"


@pytest.mark.parametrize(("arguments", "problem"), [
    (["--verbose"], "--verbose only goes after --version"),
    (["--verbose", "--version"], "--verbose only goes after --version"),
    (["--help", "--verbose"], "--help --verbose: options that do not go together"),
    (["--version", "--verbsoe"], "unknown option --verbsoe (did you mean --verbose?)"),
])
def test_other_combinations_are_usage_errors(arguments: list[str], problem: str) -> None:
    result = run(*arguments)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[0] == f"python -m gymspaces: error: {problem}"
