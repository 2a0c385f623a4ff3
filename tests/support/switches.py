"""The test run's on/off variables (``GYMSPACES_TEST_PATCHED``, ``GYMSPACES_REQUIRE_*``...),
read as gymspaces reads its own (``gymspaces._env_vars``): ``1``, ``true``, ``yes``
or ``on`` is on, ``0``, ``false``, ``no``, ``off``, empty or unset is off."""

from __future__ import annotations

import os

from gymspaces._env_vars import OFF, ON, flag

__all__ = ["switch"]


def switch(name: str) -> bool:
    """Whether the variable ``name`` is on; a value neither on nor off stops the run
    (a typo must not turn a required check off)."""
    value = flag(name)
    if value is None:
        raise SystemExit(f"{name}={os.environ[name]!r}: set it to one of {', '.join(ON)} or {', '.join(map(repr, OFF))}")
    return value
