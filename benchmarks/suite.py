"""pytest-benchmark suite: every case of :mod:`benchmarks.cases` on both libraries.

Each case is parametrised by implementation (``"gymspaces"``, ``"gymnasium"``)
and put in the pytest-benchmark group named after its key, so the two sit side
by side in one table and the ratio of their medians is read within one run.
The ``import`` case also times ``import numpy`` as a baseline, every micro
case has a third parametrisation, ``floor``: the least work the case must do
(:mod:`benchmarks.floors`), timed in the same run, and every patch-mode
case one named ``kernels``: gymspaces' own classes on the same operation
(:mod:`benchmarks.patched`). The start-up cases (:mod:`benchmarks.startup`)
have a test of their own: pairs of fresh interpreters, with and without
patch mode.

``python -m benchmarks`` runs this module with ``pytest.main``;
``benchmarks/test_suite.py`` re-exports it for ``pytest benchmarks``. Without Gymnasium only the gymnasium parametrisation is
skipped, and gymspaces is benchmarked alone.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks import startup
from benchmarks.cases import (
    CASES,
    CASES_BY_KEY,
    STARTUP_KEYS,
    Case,
    import_command,
    library,
)
from benchmarks.floors import FLOORS
from benchmarks.patched import KERNELS

IMPLEMENTATIONS = ("gymspaces", "gymnasium")
FLOOR = "floor"  # the implementation name of a case's lower bound
PARAMETERS = [
    pytest.param(case, implementation, id=f"{case.key}-{implementation}")
    for case in CASES
    if case.key not in STARTUP_KEYS
    for implementation in IMPLEMENTATIONS
    + ((FLOOR,) if case.key in FLOORS else ())
    + ((KERNELS,) if case.kernels is not None else ())
]
STARTUP_PARAMETERS = [pytest.param(CASES_BY_KEY[key], id=key) for key in startup.STARTUPS]
IMPORT_ROUNDS_FLOOR = 5  # each round starts an interpreter: a few are enough

_libraries: dict[str, Any] = {}


def _library(name: str) -> Any:
    """The library namespace of ``name``; skips the test when Gymnasium is absent."""
    if name not in _libraries:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _libraries[name] = library(name)
        except ImportError:
            if name != "gymnasium":
                raise
        if name not in _libraries:
            # Skipped outside the except clause: CPython 3.15 formats the skip's
            # context, an ImportError of a gymnasium.* module, by importing its
            # package again, which fails where Gymnasium is blocked.
            pytest.skip("not installed: gymnasium")
    return _libraries[name]


def _version(implementation: str) -> str:
    if implementation in (FLOOR, KERNELS):
        implementation = "gymspaces"
    module = sys.modules.get(implementation)
    return str(getattr(module, "__version__", "unknown"))


def _label(benchmark: Any, case: Case, implementation: str) -> None:
    """Group, name and annotate one measurement the same way in every run."""
    benchmark.group = case.key
    benchmark.extra_info.update(
        case=case.key, implementation=implementation, label=case.label, version=_version(implementation)
    )
    # pytest-benchmark matches runs by ``fullname`` (the node id by default).
    # A fixed name lets `pytest benchmarks --benchmark-compare=FILE` line up
    # with JSON written by `python -m benchmarks`, whose node ids differ.
    benchmark.fullname = f"benchmarks/suite.py::test_case[{case.key}-{implementation}]"


def _import_rounds(config: Any) -> int:
    return max(IMPORT_ROUNDS_FLOOR, int(config.getoption("benchmark_min_rounds")))


@pytest.fixture(autouse=True, scope="module")
def _gymnasium_unpatched() -> Iterator[None]:
    """Plain Gymnasium for the whole suite, whatever the environment says.

    ``GYMSPACES_PATCH=1`` (exported by ``python -m gymspaces.gymnasium`` to
    the processes it starts) patches an interpreter at start-up, which would
    time gymspaces against itself. The suite unpatches and unsets it (so the
    fresh interpreters of the ``import`` case are plain too); only the
    end-to-end cases patch, inside gymspaces' side. Both are put back after.
    """
    variable = os.environ.pop("GYMSPACES_PATCH", None)
    patching = sys.modules.get("gymspaces.gymnasium._patch")  # only this module patches
    if patching is not None and not patching.is_patched():
        patching = None
    if patching is not None:
        patching.unpatch()
    try:
        yield
    finally:
        if patching is not None:
            patching.patch()
        if variable is not None:
            os.environ["GYMSPACES_PATCH"] = variable


# Calibrate on the fastest of repeated runs: a single cold first call (lazy
# handles, cold caches) otherwise makes pytest-benchmark time one call per
# round, and timer overhead then swamps sub-microsecond cases.
CALIBRATION = pytest.mark.benchmark(warmup=True, warmup_iterations=10_000)


@CALIBRATION
@pytest.mark.parametrize(("case", "implementation"), PARAMETERS)
def test_case(benchmark: Any, request: Any, case: Case, implementation: str) -> None:
    """Time one case on one implementation (or its floor)."""
    if implementation == FLOOR:
        _label(benchmark, case, implementation)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func = FLOORS[case.key](_library("gymspaces"))
        benchmark(func)
        return
    if implementation == KERNELS:  # gymspaces' own classes, outside patch mode
        _label(benchmark, case, implementation)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func = case.kernels(_library("gymspaces"))  # type: ignore[misc]
        benchmark(func)
        return
    lib = _library(implementation)
    _label(benchmark, case, implementation)
    with contextlib.ExitStack() as stack:
        stack.enter_context(case.entered(lib))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            func = case.setup(lib)
        stack.callback(getattr(func, "close", lambda: None))
        benchmark.extra_info.update(getattr(func, "extra_info", {}))  # the real loops' plain share
        if case.slow:
            rounds = _import_rounds(request.config)
            benchmark.pedantic(func, rounds=rounds, iterations=1, warmup_rounds=1)
        else:
            benchmark(func)


@pytest.mark.parametrize("case", STARTUP_PARAMETERS)
def test_startup(benchmark: Any, case: Case) -> None:
    """Time a start-up case in pairs of fresh interpreters, with and without patch mode.

    pytest-benchmark times whole pairs (its own figures say little); the
    suite reads each side's CPU times from ``extra_info``.
    """
    _label(benchmark, case, startup.WITH)
    timer = case.setup(None)
    assert isinstance(timer, startup.PairTimer)
    try:
        if not timer.available():
            pytest.skip(timer.startup.missing)
        timer.pair()  # writes the bytecode caches and warms the page cache: not kept
        timer.times = startup.PairedTimes()
        benchmark.pedantic(timer.pair, rounds=startup.PAIRS, iterations=1)
    finally:
        timer.close()
    benchmark.extra_info.update(
        startup={"with": timer.times.with_, "without": timer.times.without, "clock": startup.CLOCK}
    )


def test_import_baseline(benchmark: Any, request: Any) -> None:
    """Time ``import numpy`` in a fresh interpreter, next to the ``import`` case."""
    _label(benchmark, CASES_BY_KEY["import"], "numpy")
    benchmark.fullname = "benchmarks/suite.py::test_import_baseline"
    rounds = _import_rounds(request.config)
    benchmark.pedantic(import_command("numpy"), rounds=rounds, iterations=1, warmup_rounds=1)


__all__ = ["FLOOR", "IMPLEMENTATIONS", "test_case", "test_import_baseline", "test_startup"]
