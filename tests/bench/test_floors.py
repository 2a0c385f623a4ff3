"""The floors of the benchmark cases (``benchmarks.floors``): honest, and shaped like the work.

A floor must do at least the work its case must do: the same draws (counted on
the PCG64 streams, and equal to Gymnasium's by sample-stream parity), and an
output of the same structure, types, shapes and dtypes as the case's result.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from benchmarks import cases as bench_cases
from benchmarks import floors
from benchmarks._floor import Floor


@pytest.fixture(scope="module")
def libs():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bench_cases.library("gymspaces"), bench_cases.library("gymnasium")


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 1000, 123_457])
def test_pcg64_distance_counts_raw_draws(steps):
    bits = np.random.PCG64(steps)
    before = bits.state
    bits.random_raw(steps)
    assert floors.pcg64_distance(before, bits.state) == steps


def test_pcg64_distance_refuses_other_streams():
    with pytest.raises(ValueError, match="different streams"):
        floors.pcg64_distance(np.random.PCG64(1).state, np.random.PCG64(2).state)
    with pytest.raises(ValueError, match="PCG64"):
        floors.pcg64_distance(np.random.MT19937(1).state, np.random.MT19937(1).state)


def test_every_micro_case_has_a_floor():
    assert set(floors.FLOORS) == set(floors.MICRO_KEYS)
    assert "import" not in floors.FLOORS and not any(key.startswith("e2e_") for key in floors.FLOORS)


SAMPLED = [case for case in bench_cases.CASES if hasattr(case.setup, "sampled")]


@pytest.mark.parametrize("case", SAMPLED, ids=[case.key for case in SAMPLED])
def test_draws_counted_are_gymnasiums(libs, case):
    """The draws a floor makes are the ones Gymnasium's sampling consumes."""
    (build,), kwargs = case.setup.sampled
    counts = []
    for lib in libs:
        space = build(lib)
        space.seed(bench_cases.SEED)
        counts.append(floors.draws_per_call(space, lambda: space.sample(**kwargs), calls=200))
    assert counts[0] == counts[1] > 0


def test_image_box_draws_one_word_per_pixel(libs):
    space = libs[0].Box(0, 255, (84, 84, 3), np.uint8, seed=0)
    assert floors.draws_per_call(space, space.sample, calls=3) == 84 * 84 * 3


def _structure(value, lengths=True):
    """Types, shapes and dtypes of a result tree (what a floor must reproduce).

    Without ``lengths``, the lengths that vary from sample to sample (of
    Sequence and Graph samples) are left out.
    """
    if isinstance(value, dict):
        return ("dict", tuple((key, _structure(item, lengths)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        items = tuple(_structure(item, lengths) for item in value)
        return (type(value).__name__, items if lengths else tuple(sorted(set(items))))
    if isinstance(value, np.ndarray):
        return ("array", value.shape if lengths else value.shape[1:], value.dtype.str, value.flags.owndata)
    return (type(value).__name__,)


VARYING = {"sequence_sample", "graph_sample"}


OBJECT_FLOORS = sorted(set(floors.FLOORS) - {"box_image_pickle", "shared_memory_dict", "concatenate_dict"})


@pytest.mark.parametrize("key", OBJECT_FLOORS)
def test_floor_builds_what_the_case_returns(libs, key):
    gs = libs[0]
    case = bench_cases.CASES_BY_KEY[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = case.setup(gs)()
        floor = floors.FLOORS[key](gs)
    first, second = floor(), floor()
    lengths = key not in VARYING
    assert _structure(first, lengths) == _structure(expected, lengths)
    if isinstance(first, (np.ndarray, dict, list, tuple, str)):
        assert first is not second  # built anew on every call


def test_concatenate_floor_writes_out_in_place(libs):
    floor = floors.FLOORS["concatenate_dict"](libs[0])
    out = floor()
    for array in out.values():
        array[...] = 0
    assert floor() is out
    assert all(array.any() for array in out.values())  # every leaf of out written again


def test_views_stay_views_and_arrays_are_new():
    data = np.arange(12.0).reshape(4, 3)
    floor = Floor(None, 0, None, None, [data[1], data.copy()])
    view, array = floor()
    assert not view.flags.owndata and np.shares_memory(view, data) and view.tolist() == [3.0, 4.0, 5.0]
    assert array.flags.owndata and not np.shares_memory(array, data) and array.shape == (4, 3)


def test_floor_draws_advance_only_its_own_generator():
    generator = np.random.default_rng(5)
    reference = np.random.default_rng(5)
    floor = Floor(generator, 1000, None, None, np.zeros(3))
    floor()
    reference.bit_generator.random_raw(1000)
    assert generator.bit_generator.state == reference.bit_generator.state


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ((None, 1, None, None, None), ValueError),
        ((np.random.default_rng(), -1, None, None, None), ValueError),
        ((None, 0, None, None, object()), TypeError),
        ((None, 0, None, None, {"a": {1, 2}}), TypeError),
    ],
)
def test_bad_floors_are_refused(arguments, error):
    with pytest.raises(error):
        Floor(*arguments)

