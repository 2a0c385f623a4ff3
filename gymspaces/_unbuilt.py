"""The error for a gymspaces whose compiled kernels are not there.

Running Python in a source checkout (or an unpacked sdist) imports the
``gymspaces`` folder there, which has only the kernels' ``.pyx`` sources until
they are built in place; without this check the first missing kernel surfaces
as ``cannot import name '_box' from partially initialized module 'gymspaces'
(most likely due to a circular import)``.
"""

from __future__ import annotations

import importlib.machinery
import platform
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def missing_kernels() -> list[str]:
    """The package's kernels (``gymspaces._box``, ...) with no extension module for this Python.

    Every kernel ships a ``.pyi`` stub beside its compiled module and has a
    ``.pyx`` source in a checkout. (``benchmarks``'s kernel is imported by
    the benchmark CLI only, not by ``import gymspaces``.)
    """
    names = {path.stem for pattern in ("_*.pyi", "_*.pyx") for path in PACKAGE.glob(pattern)}
    return [
        f"gymspaces.{name}"
        for name in sorted(names)
        if not any((PACKAGE / (name + suffix)).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    ]


def unbuilt_error(missing: list[str]) -> ImportError:
    """One ImportError that says which kernels are missing and what to do."""
    python = f"{platform.python_implementation()} {sys.version_info.major}.{sys.version_info.minor}"
    source = PACKAGE.parent
    shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    if (source / "pyproject.toml").exists() and (source / "setup.py").exists():
        advice = (
            f"This is the gymspaces source folder {source}: its kernels are built in place by "
            f"`pip install -e .` run there (with this Python); or, to use an installed "
            f"gymspaces, run Python from another folder (and keep {source} off PYTHONPATH)."
        )
    else:
        advice = "Reinstall gymspaces for this Python: `pip install --force-reinstall gymspaces`."
    return ImportError(
        f"gymspaces imported from {PACKAGE} has no compiled kernels for {python} "
        f"({shown} not built). {advice}",
        name="gymspaces",
        path=str(PACKAGE / "__init__.py"),
    )
