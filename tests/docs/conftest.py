"""The built documentation, once per test session.

``GYMSPACES_DOCS_BUILD=<folder>`` names an HTML build to check instead;
otherwise the docs are built here (Sphinx and its theme are in the ``test``
extra), with warnings as errors (``python -m sphinx -W -b html docs <tmp>``),
once for the session -- once for all xdist workers too: the first builds under
a lock, the others find the build.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: each worker builds its own
        yield
        return
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def built_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the HTML build of docs/."""
    given = os.environ.get("GYMSPACES_DOCS_BUILD")
    if given:
        return Path(given)
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    output = shared / "docs-html"
    with _locked(shared / "docs-html.lock"):
        if not (output / "index.html").exists():
            env = {key: value for key, value in os.environ.items() if not key.startswith("GYMSPACES_")}
            result = subprocess.run(
                [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                 "-d", str(shared / "docs-doctrees"), str(ROOT / "docs"), str(output)],
                capture_output=True, text=True, timeout=600, env=env,
            )
            if result.returncode != 0:
                # A failed build leaves no index.html for the next worker to trust.
                (output / "index.html").unlink(missing_ok=True)
                pytest.fail(f"the docs build failed:\n{result.stdout}{result.stderr}")
    return output
