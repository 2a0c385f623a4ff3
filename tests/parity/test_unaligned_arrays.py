"""Arrays whose data is not aligned to their item size, given to every kernel that reads
typed elements: the same results as Gymnasium.

A typed read of an unaligned address is undefined in C (it works on x86-64 and
aarch64 today, but a compiler may vectorize the loop with aligned loads, which
fault). The kernels read such arrays through an aligned copy, or leave them to
numpy; these tests hand each of them one, as a view one byte into a buffer.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from support.differential import assert_same_outcome, assert_same_state, assert_same_value, outcome, seeded_pair

import gymspaces
import gymspaces.utils
from gymspaces import _flatten


def unaligned(values) -> np.ndarray:
    """The same values in an array whose data starts one byte past an aligned address."""
    values = np.ascontiguousarray(values)
    raw = np.zeros(values.nbytes + 1, np.uint8)
    view = raw[1:].view(values.dtype).reshape(values.shape)
    view[...] = values
    assert view.itemsize == 1 or not view.flags.aligned
    return view


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int32, np.int64])
def test_box_contains_and_flatten_of_an_unaligned_value(dtype):
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(0, 5, (7,), dtype), 0)
    x = unaligned(gym_box.sample())
    assert gs_box.contains(x) == gym_box.contains(x)
    assert_same_value(gymspaces.utils.flatten(gs_box, x), gymnasium.spaces.utils.flatten(gym_box, x))
    bad = unaligned(np.full(7, 9, dtype))
    assert gs_box.contains(bad) is gym_box.contains(bad) is False


@pytest.mark.parametrize("attribute", ["low", "high"])
def test_box_samples_with_an_unaligned_bound(attribute):
    gs_box, gym_box = seeded_pair(lambda lib: lib.Box(-1.0, 2.0, (9,), np.float64), 3)
    for box in (gs_box, gym_box):
        setattr(box, attribute, unaligned(getattr(box, attribute)))
    for _ in range(3):
        assert_same_value(gs_box.sample(), gym_box.sample())
    assert_same_state(gs_box, gym_box)


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64])
def test_multi_discrete_contains_flatten_and_an_unaligned_nvec(dtype):
    gs_space, gym_space = seeded_pair(lambda lib: lib.MultiDiscrete(np.array([3, 4, 5]), start=[-1, 0, 2], dtype=dtype), 1)
    assert_same_value(gs_space.sample(), sample := gym_space.sample())
    x = unaligned(sample)
    assert gs_space.contains(x) == gym_space.contains(x)
    assert_same_value(gymspaces.utils.flatten(gs_space, x), gymnasium.spaces.utils.flatten(gym_space, x))
    for space in (gs_space, gym_space):
        space.nvec = unaligned(space.nvec)
        space.start = unaligned(space.start)
    for _ in range(3):
        assert_same_value(gs_space.sample(), gym_space.sample())
    mask = (np.array([1, 0, 1], np.int8), np.array([0, 1, 1, 0], np.int8), np.array([1, 1, 0, 0, 1], np.int8))
    assert_same_value(gs_space.sample(mask=mask), gym_space.sample(mask=mask))
    assert_same_state(gs_space, gym_space)


def test_discrete_and_multi_binary_sample_with_an_unaligned_probability():
    gs_discrete, gym_discrete = seeded_pair(lambda lib: lib.Discrete(4), 2)
    probability = unaligned(np.array([0.1, 0.2, 0.3, 0.4]))
    assert_same_value(gs_discrete.sample(probability=probability), gym_discrete.sample(probability=probability))
    gs_binary, gym_binary = seeded_pair(lambda lib: lib.MultiBinary(5), 2)
    probability = unaligned(np.array([0.1, 0.9, 0.5, 0.0, 1.0]))
    assert_same_value(gs_binary.sample(probability=probability), gym_binary.sample(probability=probability))
    assert_same_state(gs_discrete, gym_discrete)
    assert_same_state(gs_binary, gym_binary)


def test_batched_kernels_read_unaligned_batches_as_their_rows():
    space = gymspaces.Dict({"d": gymspaces.Discrete(5, start=-2), "m": gymspaces.MultiDiscrete([3, 4], dtype=np.int32),
                            "b": gymspaces.Box(-1, 1, (3,), np.float32)}, seed=4)
    batch = space.sample_batch(6)
    moved = {key: unaligned(value) for key, value in batch.items()}
    assert_same_value(gymspaces.utils.flatten_batch(space, moved), gymspaces.utils.flatten_batch(space, batch))
    assert_same_value(_flatten.flatten_rows(space, moved), _flatten.flatten_rows(space, batch))
    discrete = space["d"]
    assert_same_value(discrete.contains_batch(moved["d"]), discrete.contains_batch(batch["d"]))


def test_an_unaligned_out_is_refused_with_a_clear_error():
    space = gymspaces.Box(0, 1, (3,), np.float64, seed=0)
    out = unaligned(np.zeros((4, 3)))
    result = outcome(lambda: space.sample_batch(4, out=out))
    assert result.raised and type(result.error) is ValueError
    assert "aligned" in str(result.error)
    assert_same_outcome(outcome(lambda: space.sample_batch(4, out=out)), result, same_message=True)
