"""Static typing: mypy on the package, mypy --strict on a typed user program, stubtest.

Each check runs mypy in a subprocess from the checkout root (so that the
``[tool.mypy]`` configuration in pyproject.toml applies) with its cache in a
temporary directory.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mypy  # noqa: F401  (the test extra installs it: a missing mypy must fail, not skip)
import pytest

ROOT = Path(__file__).resolve().parents[2]
# The compiled modules, each with its gymspaces/<name>.pyi stub (the Gymnasium
# layer's included): found from the sources, so a new kernel is stubtested too.
KERNELS = sorted(
    ".".join(path.relative_to(ROOT / "gymspaces").with_suffix("").parts) for path in (ROOT / "gymspaces").rglob("_*.pyx")
)


def _tested_from_the_tree() -> bool:
    """Whether the gymspaces under test is this tree's (an editable install) or
    an installed copy elsewhere (CI tests the wheel with a tree of the sdist)."""
    import gymspaces

    return Path(gymspaces.__file__).resolve().is_relative_to(ROOT)


def _run(*args: str, cache: Path | None = None, cwd: Path = ROOT) -> None:
    env = dict(os.environ) if cache is None else {**os.environ, "MYPY_CACHE_DIR": str(cache)}
    completed = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, (
        f"`python -m {' '.join(args)}` exited with {completed.returncode}:\n"
        f"{completed.stdout}\n{completed.stderr}"
    )


def test_stubs_cover_every_kernel() -> None:
    setup = (ROOT / "setup.py").read_text()
    for name in KERNELS:
        assert f'"{name}"' in setup
        assert (ROOT / "gymspaces" / f"{name.replace('.', '/')}.pyi").is_file()


def test_mypy_package(tmp_path: Path) -> None:
    _run("mypy", "gymspaces", cache=tmp_path)


def test_mypy_strict_example(tmp_path: Path) -> None:
    _run("mypy", "--strict", "tests/project/typing_example.py", cache=tmp_path)


def test_stubtest(tmp_path: Path) -> None:
    # stubtest takes its cache directory from the config file only. It checks
    # the stubs against the modules Python imports: run it where the gymspaces
    # under test is found first (the tree, or the installed copy from elsewhere).
    config = tmp_path / "stubtest.ini"
    config.write_text(f"[mypy]\ncache_dir = {tmp_path / 'cache'}\n")
    _run(
        "mypy.stubtest",
        "--mypy-config-file",
        str(config),
        "--allowlist",
        str(ROOT / "stubtest_allowlist.txt"),
        *[f"gymspaces.{name}" for name in KERNELS],
        cwd=ROOT if _tested_from_the_tree() else tmp_path,
    )


def test_example_runs(tmp_path: Path) -> None:
    if _tested_from_the_tree():
        _run("tests.project.typing_example")
    else:  # the installed copy: keep the tree's uncompiled sources off sys.path
        completed = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "project" / "typing_example.py")],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert completed.returncode == 0, completed.stdout + completed.stderr
