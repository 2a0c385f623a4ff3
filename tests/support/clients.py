"""Import a framework for the client tests: skip without it, unless CI forbids skipping.

``.ci/run`` installs the ``clients`` extra and sets ``GYMSPACES_REQUIRE_CLIENTS=1``,
which turns a missing framework into an import error instead of a skip.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest

REQUIRED = os.environ.get("GYMSPACES_REQUIRE_CLIENTS", "0") not in ("", "0")


def framework(name: str) -> Any:
    """``import name``; a skip when it is missing, unless GYMSPACES_REQUIRE_CLIENTS=1."""
    if REQUIRED:
        return importlib.import_module(name)
    return pytest.importorskip(name)
