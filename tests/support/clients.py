"""The client tests' shared parts: import a framework, run it plain and then patched.

``.ci/run`` installs the ``clients`` extra and sets ``GYMSPACES_REQUIRE_CLIENTS=1``,
which turns a missing framework into an import error instead of a skip.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from gymspaces.gymnasium import is_patched, patched
from support.switches import switch

REQUIRED = switch("GYMSPACES_REQUIRE_CLIENTS")

_T = TypeVar("_T")


def framework(name: str) -> Any:
    """``import name``; a skip when it is missing, unless GYMSPACES_REQUIRE_CLIENTS=1."""
    if REQUIRED:
        return importlib.import_module(name)
    return pytest.importorskip(name)


def plain_and_patched(run: Callable[[], _T]) -> tuple[_T, _T]:
    """``run()`` on plain Gymnasium, then on patched Gymnasium: ``(plain, patched)``.

    Both runs reach the processes the framework starts. A forked worker
    inherits its parent's state; a spawned one is a new interpreter, patched
    at start-up by gymspaces' ``.pth`` hook when ``GYMSPACES_PATCH`` is on, so
    the variable is off for the plain run and ``1`` for the patched one (and
    as before after). Call it from a test that starts unpatched (conftest's
    ``unpatched`` fixture: a session run with ``GYMSPACES_TEST_PATCHED=1`` is
    patched throughout).
    """
    assert not is_patched(), "the plain run would be patched: use the unpatched fixture"
    before = os.environ.get("GYMSPACES_PATCH")
    try:
        os.environ.pop("GYMSPACES_PATCH", None)
        plain = run()
        os.environ["GYMSPACES_PATCH"] = "1"
        with patched():
            compiled = run()
    finally:
        if before is None:
            os.environ.pop("GYMSPACES_PATCH", None)
        else:
            os.environ["GYMSPACES_PATCH"] = before
    assert not is_patched()
    return plain, compiled
