"""A small typed user program: must pass ``mypy --strict`` (see tests/project/test_typing.py).

It is also run as a plain script by the test, so every line is real, working code.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray
from typing_extensions import assert_type  # typing.assert_type needs Python 3.11

import gymspaces
from gymspaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, OneOf, Space, Text, Tuple
from gymspaces.gymnasium import from_gymnasium, to_gymnasium
from gymspaces.vector import (
    batch_space, concatenate, create_empty_array, create_shared_memory, iterate, read_from_shared_memory,
)


def make_observation_space(seed: int) -> Dict:
    return Dict(
        {
            "position": Box(-1.0, 1.0, shape=(2,)),
            "pixels": Box(0, 255, shape=(4, 4), dtype=np.uint8),
            "mode": Discrete(3),
            "buttons": MultiBinary(4),
        },
        seed=seed,
    )


def action_of(space: Discrete, mask: NDArray[np.int8]) -> int:
    return int(space.sample(mask=mask))


def main() -> None:
    # Generic spaces: element types follow Gymnasium's.
    position: Box[np.float32] = Box(-1.0, 1.0, shape=(2,), seed=0)
    pixels: Box[np.uint8] = Box(0, 255, shape=(4, 4), dtype=np.uint8, seed=0)
    actions: Discrete[np.int64] = Discrete(4, seed=0)
    small: Discrete[np.int8] = Discrete(4, dtype=np.int8, seed=0)
    keys: MultiDiscrete[np.int64] = MultiDiscrete([2, 3], seed=0)

    point: NDArray[np.float32] = position.sample()
    image: NDArray[np.uint8] = pixels.sample()
    action: np.int64 = actions.sample()
    tiny: np.int8 = small.sample()
    combo: NDArray[np.int64] = keys.sample()
    assert position.contains(point) and pixels.contains(image) and combo.shape == (2,)
    assert action in actions and tiny in small

    # Masks and probabilities.
    mask = np.array([0, 1, 1, 0], dtype=np.int8)
    assert action_of(actions, mask) in (1, 2)
    weighted = actions.sample(probability=np.array([0.0, 0.0, 0.0, 1.0]))
    assert int(weighted) == 3
    bits = MultiBinary(4, seed=1).sample(mask=np.array([0, 1, 2, 2], dtype=np.int8))
    assert bits[0] == 0 and bits[1] == 1
    word: str = Text(5, seed=2).sample()
    assert len(word) <= 5

    # Composite spaces.
    pair: Tuple[Any] = Tuple((actions, position), seed=3)
    first: Space[Any] = pair[0]
    assert first is actions
    sample_pair = pair.sample()
    assert pair.contains(sample_pair)
    either = OneOf((actions, position), seed=4)
    index, value = either.sample()
    assert either.contains((index, value))
    observation_space = make_observation_space(seed=5)
    observation: dict[str, Any] = observation_space.sample()
    assert observation_space.contains(observation)

    # Flattening.
    flat = gymspaces.flatten(observation_space, observation)
    assert isinstance(flat, np.ndarray)
    width: int = gymspaces.flatdim(observation_space)
    assert flat.shape == (width,)
    flat_space = gymspaces.flatten_space(observation_space)
    assert isinstance(flat_space, Box) and flat_space.shape == (width,)
    restored = gymspaces.unflatten(observation_space, flat)
    assert isinstance(restored, dict) and restored.keys() == observation.keys()

    # Batched sampling and membership (gymspaces extensions).
    batch = observation_space.sample_batch(8)
    verdict = observation_space.contains_batch(batch)
    assert verdict.shape == (8,) and bool(verdict.all())
    rows = Discrete(5, seed=6).sample_batch(3, mask=np.ones((3, 5), dtype=np.int8))
    assert rows.shape == (3,)

    # Vector helpers.
    batched_space = batch_space(observation_space, n=3)
    assert isinstance(batched_space, Dict)
    items = [observation_space.sample() for _ in range(3)]
    out = create_empty_array(observation_space, n=3)
    stacked = concatenate(observation_space, items, out)
    assert len(list(iterate(batched_space, stacked))) == 3
    # The single-buffer layout, gymspaces' own keyword, type-checks as the helper's.
    memory = create_shared_memory(observation_space, 3, single_buffer=True)
    assert len(read_from_shared_memory(observation_space, memory, 3)) == len(observation_space)

    # Conversion to and from Gymnasium.
    theirs = to_gymnasium(observation_space)
    ours = from_gymnasium(theirs)
    assert ours == observation_space
    # Each class converts to its namesake, type parameters included.
    assert_type(to_gymnasium(pixels), gymnasium.spaces.Box[np.uint8])
    assert_type(from_gymnasium(gymnasium.spaces.Discrete(3)), Discrete[np.int64])
    assert_type(from_gymnasium(gymnasium.spaces.Text(4)), Text)


if __name__ == "__main__":
    main()
    print("ok")
