"""Shared fixtures of the benchmark suite: each case runs on both libraries."""

import pytest


@pytest.fixture(params=["gymspaces", "gymnasium"])
def lib(request):
    """The spaces module under test; cases are grouped so both sit side by side."""
    if request.param == "gymspaces":
        import gymspaces

        return gymspaces
    gymnasium_spaces = pytest.importorskip("gymnasium.spaces")
    return gymnasium_spaces
