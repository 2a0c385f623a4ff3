"""Shared pytest configuration for the gymspaces suite.

Hypothesis runs without an example database so that the suite never writes
outside ``tests/`` and every run is independent of earlier ones.
"""

from __future__ import annotations

import gymnasium.spaces
import pytest
from hypothesis import HealthCheck, settings

import gymspaces

settings.register_profile(
    "gymspaces",
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("gymspaces")


@pytest.fixture(params=[gymspaces, gymnasium.spaces], ids=["gymspaces", "gymnasium"])
def lib(request):
    """Either library's spaces module; for tests whose assertions hold for both."""
    return request.param
