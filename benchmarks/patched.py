"""Patch-mode cases: Gymnasium's own space objects, plain and patched, beside gymspaces' own classes.

Each ``patched_*`` case is one operation that patch mode installs on
Gymnasium's classes (``sample``, ``contains``) or registers with Gymnasium's
helpers (the flatten family, the vector helpers), on one kind of space,
timed three ways in the same run:

* ``gymnasium``: Gymnasium's space objects, plain;
* ``gymspaces``: the same objects, built by Gymnasium, with patch mode on
  (the case's context, :func:`benchmarks.e2e.context`);
* ``kernels``: gymspaces' own classes on the same operation, what the
  kernels give without patch mode's decisions.

So the patched gain is plain / patched, the kernels' gain plain / kernels,
and *kept* their quotient: the share of the kernels' gain that reaches
users who change no line. Operations patch mode leaves to Gymnasium
(``docs/patching.md``) have no case: there both sides run the same code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.libraries import library

KERNELS = "kernels"
"""The implementation name of a patched case's third column."""

SEED = 42
BATCH = 8

Build = Callable[[Any], Any]

SPACES: dict[str, Build] = {
    "box": lambda lib: lib.Box(-1, 1, (3,), np.float32),
    "box_image": lambda lib: lib.Box(0, 255, (84, 84, 3), np.uint8),
    "discrete": lambda lib: lib.Discrete(6),
    "multi_binary": lambda lib: lib.MultiBinary(8),
    "multi_discrete": lambda lib: lib.MultiDiscrete([5, 2, 2]),
    "text": lambda lib: lib.Text(8),
    "tuple": lambda lib: lib.Tuple((lib.Discrete(5), lib.Box(-1, 1, (2,), np.float32))),
    "dict": lambda lib: lib.Dict(
        {"position": lib.Box(-1, 1, (3,), np.float32), "mode": lib.Discrete(5), "buttons": lib.MultiBinary(4)}
    ),
    "sequence": lambda lib: lib.Sequence(lib.Box(0, 1, (2,), np.float32)),
    "graph": lambda lib: lib.Graph(lib.Box(-1, 1, (2,), np.float32), lib.Discrete(3)),
    "oneof": lambda lib: lib.OneOf((lib.Discrete(3), lib.Box(-1, 1, (2,), np.float32))),
}
"""One space of each kind patch mode covers (a Box twice: a small vector and an image)."""

_MASKS: dict[str, Callable[[], Any]] = {
    "discrete": lambda: np.array([1, 0, 1, 1, 0, 1], dtype=np.int8),
    "multi_binary": lambda: np.array([2, 2, 0, 1, 2, 2, 1, 0], dtype=np.int8),
    "multi_discrete": lambda: (
        np.array([1, 0, 1, 0, 1], dtype=np.int8), np.array([1, 1], dtype=np.int8), np.array([0, 1], dtype=np.int8)
    ),
    "text": lambda: (None, (np.arange(62) % 3 != 0).astype(np.int8)),
    "tuple": lambda: (np.array([0, 1, 1, 0, 1], dtype=np.int8), None),
    "dict": lambda: {"position": None, "mode": np.array([0, 1, 1, 0, 1], dtype=np.int8), "buttons": None},
}
_PROBABILITIES: dict[str, Callable[[], Any]] = {
    "discrete": lambda: np.array([0.1, 0.2, 0.3, 0.1, 0.2, 0.1]),
    "multi_binary": lambda: np.linspace(0.05, 0.95, 8),
    "multi_discrete": lambda: (np.full(5, 0.2), np.array([0.3, 0.7]), np.array([0.5, 0.5])),
}
FLATTENED = tuple(SPACES)
"""The kinds whose flatten and unflatten are timed: every one."""
MEASURED = ("box", "discrete", "multi_binary", "multi_discrete", "text", "tuple", "dict", "oneof")
"""The kinds whose ``flatdim`` is timed (a Graph's or Sequence's raises)."""
BATCHED = tuple(SPACES)
"""The kinds timed through ``batch_space(...).sample()``, ``concatenate`` and ``iterate``."""
SHARED = ("box", "discrete", "multi_binary", "multi_discrete", "text", "tuple", "dict", "oneof")
"""The kinds timed through the shared-memory helpers (Gymnasium has none for Graph or Sequence)."""

def _space(kind: str, lib: Any) -> Any:
    space = SPACES[kind](lib)
    space.seed(SEED)
    return space


def _sample(kind: str, argument: str | None) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space = _space(kind, lib)
        # The method is looked up on each call, as ``env.action_space.sample()``
        # does: a bound method kept from before a patch runs what it was bound to.
        if argument == "mask":
            mask = _MASKS[kind]()
            return lambda: space.sample(mask=mask)
        if argument == "probability":
            probability = _PROBABILITIES[kind]()
            return lambda: space.sample(probability=probability)
        return lambda: space.sample()

    return operation


def _contains(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space = _space(kind, lib)
        element = space.sample()
        return lambda: space.contains(element)

    return operation


def _flatten(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space = _space(kind, lib)
        element, flatten = space.sample(), lib.flatten
        return lambda: flatten(space, element)

    return operation


def _unflatten(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space = _space(kind, lib)
        flat, unflatten = lib.flatten(space, space.sample()), lib.unflatten
        return lambda: unflatten(space, flat)

    return operation


def _flatdim(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space, flatdim = _space(kind, lib), lib.flatdim
        return lambda: flatdim(space)

    return operation


def _batch_sample(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        batched = lib.batch_space(_space(kind, lib), BATCH)
        batched.seed(SEED)
        return lambda: batched.sample()

    return operation


def _items(kind: str, lib: Any) -> tuple[Any, list[Any]]:
    space = _space(kind, lib)
    return space, [space.sample() for _ in range(BATCH)]


def _concatenate(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space, items = _items(kind, lib)
        out, concatenate = lib.create_empty_array(space, BATCH), lib.concatenate
        return lambda: concatenate(space, items, out)

    return operation


def _iterate(kind: str) -> Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space, items = _items(kind, lib)
        batch = lib.concatenate(space, items, lib.create_empty_array(space, BATCH))
        batched, iterate = lib.batch_space(space, BATCH), lib.iterate
        return lambda: list(iterate(batched, batch))

    return operation


def _shared_memory(kind: str) -> Build:
    """One AsyncVectorEnv step's traffic: a worker writes its element, the parent reads all."""

    def operation(lib: Any) -> Callable[[], Any]:
        space = _space(kind, lib)
        element, memory = space.sample(), lib.create_shared_memory(space, BATCH)
        write, read = lib.write_to_shared_memory, lib.read_from_shared_memory

        def step() -> Any:
            write(space, 3, element, memory)
            return read(space, memory, BATCH)

        return step

    return operation


# The Gymnasium class of each kind.
CLASSES = {
    "box": "Box", "box_image": "Box", "discrete": "Discrete", "multi_binary": "MultiBinary",
    "multi_discrete": "MultiDiscrete", "text": "Text", "tuple": "Tuple", "dict": "Dict", "sequence": "Sequence",
    "graph": "Graph", "oneof": "OneOf",
}
# The operation patch mode takes over in each case, by the suffix of its key.
INTERCEPTED = {
    "sample": "sample", "sample_mask": "sample", "sample_probability": "sample", "contains": "contains",
    "flatten": "flatten", "unflatten": "unflatten", "flatdim": "flatdim", "batch_sample": "sample",
    "concatenate": "concatenate", "iterate": "iterate", "shared_memory": "write_to_shared_memory",
}


def _operations() -> dict[str, tuple[str, Build]]:
    """Every patched case: key -> (label, operation on a library namespace).

    Only what patch mode takes over: an operation it leaves to Gymnasium
    (``gymspaces.gymnasium._operations.taken``) runs the same code plain and
    patched, and has no case.
    """
    try:
        from gymspaces.gymnasium._operations import taken
    except ImportError:  # no Gymnasium: no patch mode to time
        return {}
    return {key: entry for key, entry in _all_operations().items() if taken(*_operation_of(key))}


def _operation_of(key: str) -> tuple[str, str]:
    """(Gymnasium class name, operation) of the case ``key``."""
    rest = key[len("patched_"):]
    kind = max((kind for kind in CLASSES if rest.startswith(kind + "_")), key=len)
    return CLASSES[kind], INTERCEPTED[rest[len(kind) + 1:]]


def _all_operations() -> dict[str, tuple[str, Build]]:
    table: dict[str, tuple[str, Build]] = {}
    for kind in SPACES:
        table[f"patched_{kind}_sample"] = (f"{kind}.sample()", _sample(kind, None))
    for kind in _MASKS:
        table[f"patched_{kind}_sample_mask"] = (f"{kind}.sample(mask)", _sample(kind, "mask"))
    for kind in _PROBABILITIES:
        table[f"patched_{kind}_sample_probability"] = (f"{kind}.sample(probability)", _sample(kind, "probability"))
    for kind in SPACES:
        table[f"patched_{kind}_contains"] = (f"{kind}.contains", _contains(kind))
    for kind in FLATTENED:
        table[f"patched_{kind}_flatten"] = (f"flatten({kind})", _flatten(kind))
        table[f"patched_{kind}_unflatten"] = (f"unflatten({kind})", _unflatten(kind))
    for kind in MEASURED:
        table[f"patched_{kind}_flatdim"] = (f"flatdim({kind})", _flatdim(kind))
    for kind in BATCHED:
        table[f"patched_{kind}_batch_sample"] = (f"batch_space({kind}, {BATCH}).sample()", _batch_sample(kind))
        table[f"patched_{kind}_concatenate"] = (f"concatenate {BATCH} {kind}", _concatenate(kind))
        table[f"patched_{kind}_iterate"] = (f"iterate {BATCH} {kind}", _iterate(kind))
    for kind in SHARED:
        table[f"patched_{kind}_shared_memory"] = (f"shared memory write+read, {kind} x {BATCH}", _shared_memory(kind))
    return table


OPERATIONS = _operations()


def setup(operation: Build) -> Callable[[Any], Callable[[], Any]]:
    """The ``Case.setup`` of a patched case: Gymnasium's objects on both sides
    (the case's context patches gymspaces' side)."""

    def build(lib: Any) -> Callable[[], Any]:
        return operation(library("gymnasium"))

    return build


def kernels(operation: Build) -> Callable[[Any], Callable[[], Any]]:
    """The ``Case.kernels`` of a patched case: gymspaces' own classes."""

    def build(lib: Any) -> Callable[[], Any]:
        return operation(library("gymspaces"))

    return build


__all__ = ["BATCH", "KERNELS", "OPERATIONS", "SPACES", "kernels", "setup"]
