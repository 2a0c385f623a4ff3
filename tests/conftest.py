"""Shared pytest configuration for the gymspaces suite.

Hypothesis runs without an example database, and keeps its caches in a
temporary directory, so that the suite never writes into the checkout and
every run is independent of earlier ones.

With ``GYMSPACES_TEST_PATCHED=1`` the whole session runs with
``gymspaces.gymnasium.patch()`` on: the differential tests then compare
gymspaces with Gymnasium's classes running gymspaces' kernels, and the
Gymnasium-client tests run on patched Gymnasium (CI runs a selection so).
Gymnasium's side then runs gymspaces' kernels too, so to compare patched
Gymnasium with plain Gymnasium, run the same tests twice:
``GYMSPACES_TEST_CAPTURE=<file> GYMSPACES_TEST_CAPTURE_MODE=write`` unpatched,
then ``...MODE=compare`` patched (:mod:`support.capture_plugin`; tests/README.md).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import gymnasium.spaces
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.configuration import set_hypothesis_home_dir

import gymspaces
from support import capture_plugin
from support.switches import switch

# The benchmarks (``benchmarks/`` at the checkout's top) are not installed: tests
# import them from the checkout. Appended, not put first, so that ``gymspaces``
# stays the package under test (a wheel's, when one is installed).
CHECKOUT = str(Path(__file__).resolve().parents[1])
if CHECKOUT not in sys.path:
    sys.path.append(CHECKOUT)

set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "gymspaces-tests-hypothesis")
settings.register_profile(
    "gymspaces",
    database=None,
    derandomize=True,  # the same examples on every run: no flaky failures
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
)
settings.load_profile("gymspaces")

PATCHED_SESSION = switch("GYMSPACES_TEST_PATCHED")
if PATCHED_SESSION:
    from gymspaces.gymnasium import patch

    patch()


def pytest_configure(config):
    capture_plugin.configure(config)  # GYMSPACES_TEST_CAPTURE: record, or compare with, plain outcomes


@pytest.fixture(autouse=True, scope="session")
def _subprocesses_import_the_tested_gymspaces(tmp_path_factory):
    """Run the session from an empty folder when the working folder holds a
    ``gymspaces`` source folder that is not the package under test.

    Testing a regular install with the tests of a source tree (``pytest`` run in
    the tree), Python subprocesses that tests start (``python -c``, ``-m``) put
    their working folder first on ``sys.path``: they would import the tree's
    ``gymspaces``, whose kernels are not built, instead of the installed one.
    """
    tested = Path(gymspaces.__file__).resolve().parent
    shadowing = Path.cwd() / "gymspaces" / "__init__.py"
    if not shadowing.exists() or shadowing.resolve().parent == tested:
        yield
        return
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    try:
        yield
    finally:
        os.chdir(here)


@pytest.fixture(params=[gymspaces, gymnasium.spaces], ids=["gymspaces", "gymnasium"])
def lib(request):
    """Either library's spaces module; for tests whose assertions hold for both."""
    return request.param


@pytest.fixture
def unpatched():
    """Run a test with Gymnasium unpatched, leaving the session as it was found
    (patched throughout under ``GYMSPACES_TEST_PATCHED=1``)."""
    from gymspaces.gymnasium import is_patched, patch, unpatch

    session_patched = is_patched()
    unpatch()
    try:
        yield
    finally:
        unpatch()
        if session_patched:
            patch()
