"""The patch-mode group of the bench (``patched_*``): what each case times, and
that it covers every operation patch mode takes over.

Each case runs the same operation three ways: Gymnasium's objects plain,
the same objects patched, and gymspaces' own classes. Seeded alike, the
three first calls give the same result (shared memory compared by layout).
"""

from __future__ import annotations

import multiprocessing.sharedctypes
import warnings
from typing import Any

import pytest
from support.differential import assert_same_value

import gymspaces.gymnasium
from benchmarks import patched
from benchmarks.cases import CASES, library
from gymspaces.gymnasium import _operations
from gymspaces.gymnasium._release import SPACE_NAMES

PATCHED_CASES = [case for case in CASES if case.kernels is not None]


def _layout(value: Any) -> Any:
    """Shared memory as (type code, length) per leaf, through tuples and dicts."""
    if isinstance(value, multiprocessing.sharedctypes.SynchronizedArray):
        return ("shared", value.get_obj()._type_, len(value))  # type: ignore[attr-defined]
    if isinstance(value, tuple):
        return tuple(_layout(item) for item in value)
    if isinstance(value, dict):
        return {key: _layout(item) for key, item in value.items()}
    return value


def _first_call(build: Any, lib: Any, patch: bool) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not patch:
            return _layout(build(lib)())
        with gymspaces.gymnasium.patched():
            return _layout(build(lib)())


@pytest.mark.parametrize("case", PATCHED_CASES, ids=lambda case: case.key)
def test_patched_case_times_the_same_result_three_ways(case):
    gymnasium_lib, gymspaces_lib = library("gymnasium"), library("gymspaces")
    plain = _first_call(case.setup, gymnasium_lib, patch=False)
    assert_same_value(_first_call(case.setup, gymspaces_lib, patch=True), plain, f"{case.key}: patched")
    assert_same_value(_first_call(case.kernels, gymspaces_lib, patch=False), plain, f"{case.key}: kernels")


def test_patched_cases_cover_every_operation_patch_mode_takes_over():
    """Every (class, operation) pair patch mode takes has a case; none it leaves to Gymnasium does."""
    timed = {patched._operation_of(case.key) for case in PATCHED_CASES}
    operations = {*_operations.METHODS, *_operations.HELPERS}
    # Gymnasium has no flatdim of a Graph or Sequence, and no shared memory for them;
    # the reading half of shared memory is timed with the writing half.
    impossible = {("Graph", "flatdim"), ("Sequence", "flatdim")} | {
        (name, helper)
        for helper in ("write_to_shared_memory", "read_from_shared_memory")
        for name in ("Graph", "Sequence")
    }
    expected = {
        (name, operation)
        for operation in operations - {"read_from_shared_memory"}
        for name in SPACE_NAMES
        if _operations.taken(name, operation) and (name, operation) not in impossible
    }
    assert sorted(expected - timed) == []
    assert sorted(pair for pair in timed if not _operations.taken(*pair)) == []


def test_every_row_left_to_gymnasium_has_a_case_that_gives_the_same_result_plain_and_taken():
    """Each left row's claim is re-measured by a ``left_*`` case (benchmarks/left.py): one per row, whose
    sides compute what Gymnasium computes, plain and with the row taken anyway."""
    from benchmarks import left
    from benchmarks.cases import CASES_BY_KEY

    rows = {key for key, row in _operations.OPERATIONS.items() if row.left is not None and key[0] in SPACE_NAMES}
    assert rows and set(left.LEFT) == rows
    for name, operation in rows:
        case = CASES_BY_KEY[left.key_of(name, operation)]
        gymnasium_lib, gymspaces_lib = library("gymnasium"), library("gymspaces")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with case.entered(gymnasium_lib):
                plain = _layout(case.setup(gymnasium_lib)())
            with case.entered(gymspaces_lib):
                taken = _layout(case.setup(gymspaces_lib)())
        assert_same_value(taken, plain, case.key)
    # The claims carry no figures of their own: the case measures them.
    assert not any(" us" in claim for claim in left.LEFT.values())
    assert left.notes({left.key_of("Text", "contains"): {"gymnasium": 4e-7, "gymspaces": 5e-7}}) == [
        f"left: Text.contains: {left.LEFT['Text', 'contains']}; measured 0.40 us plain, 0.50 us taken"
    ]
