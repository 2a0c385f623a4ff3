"""The floor of every micro case: the least work the case must do, timed in the same run.

A case's floor is one compiled call (:class:`benchmarks._floor.Floor`)
that makes exactly as many 64-bit draws as the case consumes (counted, not
assumed: the distance its PCG64 states travel over many calls), reads every
input leaf once, writes every output byte, and creates output objects shaped
like the case's result with numpy's and CPython's C constructors (views where
the case returns views, ``out=`` written in place). No checks, no dispatch, no
parity with Gymnasium's draw order: ``gymspaces / floor`` is the distance to
what the machine allows for that work.

Cases whose work is not in-process object creation have floors of another
kind: ``import`` is floored by ``import numpy`` (the suite's ``numpy`` row),
``shared_memory_dict`` by one ``multiprocessing`` shared allocation of the same
bytes, ``box_image_pickle`` by a pickle round trip of the Box's parameters plus
creating its bound arrays. End-to-end cases time whole environments and have
no floor.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from benchmarks import cases as c
from benchmarks._floor import Floor

DRAW_COUNT_CALLS = 1000
"""Calls over which a case's draws are counted (masks and rejection vary per call)."""

_PCG64_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
_MASK128 = (1 << 128) - 1


def pcg64_distance(before: Mapping[str, Any], after: Mapping[str, Any]) -> int:
    """How many 64-bit outputs separate two states of one PCG64 stream.

    Parameters
    ----------
    before, after : dict
        ``bit_generator.state`` of the same stream (same increment) at two times.

    Returns
    -------
    int
        The number of ``next_uint64`` steps from ``before`` to ``after``
        (O'Neill's jump-distance algorithm, one bit per round).

    Examples
    --------
    >>> import numpy as np
    >>> bits = np.random.PCG64(0)
    >>> before = bits.state
    >>> _ = bits.random_raw(1000)
    >>> pcg64_distance(before, bits.state)
    1000
    """
    if before["bit_generator"] != "PCG64" or after["bit_generator"] != "PCG64":
        raise ValueError("draws are counted on PCG64 streams only")
    state, target = before["state"]["state"], after["state"]["state"]
    increment = before["state"]["inc"]
    if after["state"]["inc"] != increment:
        raise ValueError("the two states belong to different streams")
    multiplier, bit, distance = _PCG64_MULTIPLIER, 1, 0
    while state != target:
        if state & bit != target & bit:
            state = (state * multiplier + increment) & _MASK128
            distance |= bit
        bit <<= 1
        increment = ((multiplier + 1) * increment) & _MASK128
        multiplier = (multiplier * multiplier) & _MASK128
    return distance


def generators(space: Any) -> Iterator[np.random.Generator]:
    """The generator of every space of a tree (each once)."""
    seen: set[int] = set()
    stack = [space]
    while stack:
        node = stack.pop()
        generator = node.np_random
        if id(generator) not in seen:
            seen.add(id(generator))
            yield generator
        spaces = getattr(node, "spaces", None)
        stack.extend(spaces.values() if isinstance(spaces, dict) else spaces or ())
        for name in ("feature_space", "node_space", "edge_space"):
            child = getattr(node, name, None)
            if child is not None:
                stack.append(child)


def draws_per_call(space: Any, call: Callable[[], Any], calls: int = DRAW_COUNT_CALLS) -> int:
    """The 64-bit draws one ``call()`` takes from ``space``'s generators, averaged and rounded.

    Fractions come from rejection sampling and from 32-bit draws, two to a
    64-bit step; rounding keeps the floor at the case's average work.
    """
    call()  # lazily created generators exist from here on
    tree = list(generators(space))
    before = [generator.bit_generator.state for generator in tree]
    for _ in range(calls):
        call()
    after = [generator.bit_generator.state for generator in tree]
    total = sum(pcg64_distance(a, b) for a, b in zip(before, after))
    return int(total / calls + 0.5)


def _size(value: Any) -> int:
    """Bytes and items of a result tree (to pick a typical one of varying results)."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return sum(_size(item) for item in value) + len(value)
    return 1


def typical(call: Callable[[], Any], samples: int = 101) -> Any:
    """The result of median size among ``samples`` calls (Sequence and Graph samples vary in length)."""
    results = sorted((call() for _ in range(samples)), key=_size)
    return results[len(results) // 2]


def _floor(draws: int, inputs: Any, target: Any, template: Any) -> Callable[[], Any]:
    generator = np.random.default_rng(c.SEED) if draws else None
    return Floor(generator, draws, inputs, target, template).run


def _drawing(
    build: Callable[[Any], Any], draw: Callable[[Any], Any], arguments: dict[str, Any]
) -> Callable[[Any], Callable[[], Any]]:
    """Floor of a case that draws: ``draw(space)`` on ``build(lib)`` seeded, its counted
    draws and a new result of typical size; array ``arguments`` (masks) are read."""

    def setup(lib: Any) -> Callable[[], Any]:
        space = build(lib)
        space.seed(c.SEED)
        call = lambda: draw(space)  # noqa: E731
        return _floor(draws_per_call(space, call), tuple(arguments.values()) or None, None, typical(call))

    return setup


def _sample(build: Callable[[Any], Any], **kwargs: Any) -> Callable[[Any], Callable[[], Any]]:
    """Floor of ``build(lib).sample(**kwargs)``."""
    return _drawing(build, lambda space: space.sample(**kwargs), kwargs)


def _sample_batch(build: Callable[[Any], Any], n: int, **kwargs: Any) -> Callable[[Any], Callable[[], Any]]:
    """Floor of ``build(lib).sample_batch(n, **kwargs)``."""
    return _drawing(build, lambda space: space.sample_batch(n, **kwargs), kwargs)


def _transform(make: Callable[[Any], tuple[Any, Any]]) -> Callable[[Any], Callable[[], Any]]:
    """Floor of a case that turns inputs into a new result: ``make(lib)`` gives both."""

    def setup(lib: Any) -> Callable[[], Any]:
        inputs, result = make(lib)
        return _floor(0, inputs, None, result)

    return setup


def _output_only(make: Callable[[Any], tuple[Any, Any]]) -> Callable[[Any], Callable[[], Any]]:
    """Floor of a case whose result is made of new Python objects, one per input element:
    those objects alone, without the separate read of the inputs.

    The case reads each input element while it builds the object for it; the
    compiled floor can only read first and build after, a second walk that
    made ``dict_to_jsonable``'s floor as slow as the case itself (distance
    0.9x to 1.0x). Without the read it stays a strict part of the case's work.
    """

    def setup(lib: Any) -> Callable[[], Any]:
        _, result = make(lib)
        return _floor(0, None, None, result)

    return setup


def _dict_element(lib: Any) -> tuple[Any, Any]:
    space = c._dict4(lib)
    return space.sample(), True


def _box_element(lib: Any) -> tuple[Any, Any]:
    return np.zeros(3, np.float32), True


def _discrete_element(lib: Any) -> tuple[Any, Any]:
    return np.int64(3), True


def _dict_flatten(lib: Any) -> tuple[Any, Any]:
    space = c._dict4(lib)
    x = space.sample()
    return x, lib.flatten(space, x)


def _dict_unflatten(lib: Any) -> tuple[Any, Any]:
    space = c._dict4(lib)
    flat = lib.flatten(space, space.sample())
    return flat, lib.unflatten(space, flat)


def _discrete_flatten(lib: Any) -> tuple[Any, Any]:
    value = np.int64(42)
    return value, lib.flatten(lib.Discrete(100), value)


def _iterate(lib: Any) -> tuple[Any, Any]:
    space, items = c._dict_samples(lib, 8)
    batch = lib.concatenate(space, items, lib.create_empty_array(space, 8))
    return batch, list(lib.iterate(lib.batch_space(space, 8), batch))


def _to_jsonable(lib: Any) -> tuple[Any, Any]:
    space, items = c._dict_samples(lib, 64)
    return items, space.to_jsonable(items)


def _contains_batch(lib: Any) -> tuple[Any, Any]:
    space, items = c._dict_samples(lib, 64)
    batch = lib.concatenate(space, items, lib.create_empty_array(space, 64))
    return batch, space.contains_batch(batch)


def _flatten_batch(lib: Any) -> tuple[Any, Any]:
    space, items = c._dict_samples(lib, 64)
    batch = lib.concatenate(space, items, lib.create_empty_array(space, 64))
    return batch, lib.flatten_batch(space, batch)


def _concatenate(lib: Any) -> Callable[[], Any]:
    """Floor of ``concatenate``: read the 8 samples, write every byte of ``out`` in place."""
    space, items = c._dict_samples(lib, 8)
    return _floor(0, items, lib.create_empty_array(space, 8), None)


_batched_sample = _sample(lambda lib: lib.batch_space(c._dict4(lib), 8))


def _box_image_pickle(lib: Any) -> Callable[[], Any]:
    """A pickle round trip of what defines the Box (bounds as scalars, shape, dtype,
    generator state), then its two full bound arrays built by the compiled floor."""
    space = lib.Box(0, 255, (84, 84, 3), np.uint8, seed=c.SEED)
    parameters = (0, 255, space.shape, space.dtype.str, space.np_random.bit_generator.state)
    bounds = _floor(0, None, None, (space.low, space.high))

    def run() -> Any:
        pickle.loads(pickle.dumps(parameters))
        return bounds()

    return run


def _shared_memory(lib: Any) -> Callable[[], Any]:
    """One shared allocation holding the 8 elements' bytes (the least any layout needs)."""
    import multiprocessing as mp

    space = c._dict4(lib)
    nbytes = sum(math.prod(leaf.shape) * leaf.dtype.itemsize for leaf in space.spaces.values()) * 8
    return lambda: mp.RawArray("B", nbytes)


def _shm_write_read(lib: Any) -> Callable[[], Any]:
    """Floor of writing one element into shared memory and reading the batch back:
    read the element, write its bytes in place into row 3 of every leaf, build the views."""
    space = c._dict4(lib)
    memory = lib.create_shared_memory(space, 8)
    views = lib.read_from_shared_memory(space, memory, 8)
    rows = {key: view[3:4] for key, view in views.items()}
    return _floor(0, space.sample(), rows, views)


FLOORS: dict[str, Callable[[Any], Callable[[], Any]]] = {
    "discrete_flatten": _transform(_discrete_flatten),
    "dict_contains": _transform(_dict_element),
    "box_contains": _transform(_box_element),
    "discrete_contains": _transform(_discrete_element),
    "dict_flatten": _transform(_dict_flatten),
    "dict_unflatten": _transform(_dict_unflatten),
    "batch_dict_sample": _batched_sample,
    "concatenate_dict": _concatenate,
    "iterate_dict": _transform(_iterate),
    "dict_to_jsonable": _output_only(_to_jsonable),
    "discrete_sample_batch_mask": _sample_batch(lambda lib: lib.Discrete(10), 64, mask=c.MASKS_64),
    "dict_contains_batch": _transform(_contains_batch),
    "dict_sample_batch": _sample_batch(c._dict4, 8),
    "dict_flatten_batch": _transform(_flatten_batch),
    "box_image_pickle": _box_image_pickle,
    "shared_memory_dict": _shared_memory,
    "shm_dict_write_read": _shm_write_read,
}
"""Floor setups by case key, each given the gymspaces library namespace (see :func:`cases.library`)."""

for _case in c.CASES:
    _sampled = getattr(_case.setup, "sampled", None)
    if _sampled is not None:
        FLOORS[_case.key] = _sample(*_sampled[0], **_sampled[1])

MICRO_KEYS = frozenset(case.key for case in c.CASES if not case.slow and case.context is None)
"""The micro cases: every case but ``import`` and the end-to-end loops."""

__all__ = ["FLOORS", "MICRO_KEYS", "draws_per_call", "generators", "pcg64_distance"]
