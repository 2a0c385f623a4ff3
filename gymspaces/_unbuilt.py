"""The check, at import, that gymspaces' compiled kernels are built beside its Python files.

Running Python in a source checkout (or an unpacked sdist) imports the
``gymspaces`` folder there, which has only the kernels' ``.pyx`` sources until
they are built in place. Without this check the first missing kernel surfaces
as ``cannot import name '_box' from partially initialized module 'gymspaces'
(most likely due to a circular import)`` -- or, worse, is found elsewhere: an
editable install of another checkout puts an import finder on
``sys.meta_path`` that answers for every ``gymspaces.*`` module the path
search did not find, and this folder's Python would run that checkout's
kernels.

The module imports nothing beyond what the interpreter has loaded at start-up
(``import gymspaces`` runs :func:`missing_kernels` every time).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def missing_kernels() -> list[str]:
    """The package's kernels (``gymspaces._box``, ...) with no extension module for this Python beside them.

    Every kernel ships a ``.pyi`` stub beside its compiled module and has a
    ``.pyx`` source in a checkout. (The kernels of ``gymspaces.gymnasium`` are
    found by the path search alone, and ``benchmarks``'s kernel is imported by
    the benchmarks only.)
    """
    # One directory listing: this runs at every import of gymspaces.
    names = set(os.listdir(PACKAGE))
    kernels = {name[: -len(".pyx")] for name in names if name.startswith("_") and name.endswith((".pyx", ".pyi"))}
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return [
        f"gymspaces.{kernel}"
        for kernel in sorted(kernels)
        if not any(kernel + suffix in names for suffix in suffixes)
    ]


def unbuilt_error(missing: list[str]) -> ImportError:
    """One ImportError that says which kernels are missing and what to do."""
    import platform

    python = f"{platform.python_implementation()} {sys.version_info.major}.{sys.version_info.minor}"
    source = os.path.dirname(PACKAGE)
    shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    if all(os.path.exists(os.path.join(source, name)) for name in ("pyproject.toml", "setup.py")):
        advice = (
            f"This is the gymspaces source folder {source}: its kernels are built in place by "
            f"`pip install -e .` run there (with this Python); or, to use an installed "
            f"gymspaces, run Python from another folder (and keep {source} off PYTHONPATH). "
            f"The kernels of another install are not used: they may be built from other sources."
        )
    else:
        # Not a pip command: gymspaces is not on the package index yet.
        advice = "Reinstall gymspaces for this Python, from the checkout or wheel it came from."
    return ImportError(
        f"gymspaces imported from {PACKAGE} has no compiled kernels for {python} "
        f"({shown} not built). {advice}",
        name="gymspaces",
        path=os.path.join(PACKAGE, "__init__.py"),
    )
