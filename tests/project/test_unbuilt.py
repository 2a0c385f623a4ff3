"""A gymspaces folder without its compiled kernels fails to import with one clear error.

Python run in a source checkout imports the checkout's ``gymspaces`` folder,
whose kernels exist only as ``.pyx`` sources until ``pip install -e .`` builds
them. The tests copy the package under test (Python files, stubs and, for a
partial build, some of its compiled modules) into a temporary folder and import
it there in a Python started without ``site`` (no editable-install finder can
supply the kernels from elsewhere, unless a test puts a stand-in for one), with
numpy on ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import gymspaces

TESTED = Path(gymspaces.__file__).resolve().parent


def _copy(root: Path, *, kernels: bool, source_tree: bool) -> Path:
    """The package under test copied to ``root/gymspaces``, with its compiled
    modules for this Python (``kernels``) or without, and the files that mark a
    source checkout (``source_tree``)."""
    package = root / "gymspaces"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for path in TESTED.iterdir():
        if path.suffix in (".py", ".pyi") or (kernels and path.name.endswith(suffixes)):
            package.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, package / path.name)
    if source_tree:
        (root / "pyproject.toml").write_text("[project]\nname = 'gymspaces'\n")
        (root / "setup.py").write_text("")
    return package


# What an editable install of another checkout puts on sys.meta_path (setuptools'
# import finder, after the path search): every ``gymspaces.*`` module the path
# search did not find is looked up in that checkout's folder.
OTHER_INSTALL = f"""
import importlib.machinery, sys

class OtherInstall:
    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        parent, _, _ = fullname.rpartition(".")
        if parent == "gymspaces":
            return importlib.machinery.PathFinder.find_spec(fullname, [{str(TESTED)!r}])
        return None

sys.meta_path.append(OtherInstall)
"""


def _import(root: Path, prelude: str = "") -> subprocess.CompletedProcess[str]:
    numpy_home = str(Path(np.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), numpy_home])}
    env.pop("GYMSPACES_PATCH", None)
    code = prelude + "\nimport gymspaces; print(gymspaces.Discrete(3, seed=0).sample())"
    return subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=120,
    )


def _single_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "partially initialized module" not in result.stderr
    assert "During handling" not in result.stderr and "direct cause" not in result.stderr, result.stderr
    assert result.stderr.count("Traceback") == 1, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: gymspaces imported from "), result.stderr
    return last


def test_source_tree_without_kernels_says_to_build_them(tmp_path: Path) -> None:
    package = _copy(tmp_path, kernels=False, source_tree=True)
    message = _single_error(_import(tmp_path))
    assert f"{package} has no compiled kernels for CPython {sys.version_info[0]}.{sys.version_info[1]}" in message
    assert "gymspaces._box" in message and "not built" in message
    assert "`pip install -e .`" in message and "run Python from another folder" in message


def test_partial_build_names_the_missing_kernel(tmp_path: Path) -> None:
    package = _copy(tmp_path, kernels=True, source_tree=True)
    for built in package.glob("_box.*"):
        if built.suffix != ".pyi":
            built.unlink()
    message = _single_error(_import(tmp_path))
    assert "(gymspaces._box not built)" in message


def test_another_install_lends_no_kernels(tmp_path: Path) -> None:
    """With an editable install of another checkout present, this checkout's
    Python does not run that checkout's kernels: its own are not built."""
    package = _copy(tmp_path, kernels=False, source_tree=True)
    message = _single_error(_import(tmp_path, OTHER_INSTALL))
    assert f"{package} has no compiled kernels" in message and "`pip install -e .`" in message


def test_another_install_lends_no_missing_kernel(tmp_path: Path) -> None:
    package = _copy(tmp_path, kernels=True, source_tree=True)
    for built in package.glob("_text.*"):
        if built.suffix != ".pyi":
            built.unlink()
    message = _single_error(_import(tmp_path, OTHER_INSTALL))
    assert "(gymspaces._text not built)" in message


def test_the_stand_in_install_lends_kernels(tmp_path: Path) -> None:
    """The stand-in does what an editable install's finder does: a ``gymspaces``
    whose folder has no kernels (here a bare module, so that no check runs)
    would get the tested package's."""
    code = OTHER_INSTALL + (
        "import types; package = types.ModuleType('gymspaces'); "
        f"package.__path__ = [{str(tmp_path)!r}]; sys.modules['gymspaces'] = package\n"
        "import gymspaces._rng as rng; print(rng.__file__)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and Path(result.stdout.strip()).parent == TESTED, result.stderr


def test_installed_copy_without_kernels_says_to_reinstall(tmp_path: Path) -> None:
    _copy(tmp_path, kernels=False, source_tree=False)
    message = _single_error(_import(tmp_path))
    assert "Reinstall gymspaces" in message and "pip install" not in message  # not on the package index yet


def test_complete_copy_imports(tmp_path: Path) -> None:
    _copy(tmp_path, kernels=True, source_tree=True)
    result = _import(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() in ("0", "1", "2")
