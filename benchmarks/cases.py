"""Benchmark cases shared by ``benchmarks/`` and ``python -m benchmarks``.

A case builds, for one library, the zero-argument callable to time. The same
case runs against gymspaces and against Gymnasium 1.4.0 in one process, so the
figure that matters is the ratio of the two medians.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks import e2e, left, patched, realloop, startup
from benchmarks.libraries import library

SEED = 42


@dataclass(frozen=True)
class Case:
    """One benchmarked operation.

    ``key`` names it in the targets file and in reports; ``setup(lib)``
    returns the callable to time for a library namespace (see :func:`library`).
    ``slow`` cases take long enough per call (``import`` starts a process,
    ``real_*`` run a whole program) that the suite times a few explicit
    rounds instead of calibrating.
    ``beyond`` cases time gymspaces' batched APIs, which Gymnasium lacks,
    against Gymnasium's best equivalent, or (``gymnasium_*`` keys) Gymnasium's
    own helpers on a Dict, or (``e2e_*`` keys) an unmodified Gymnasium loop,
    patched against unpatched, or (``*_large`` keys) bulk draws of thousands
    of values; they may have floors
    of their own but stay out of the geometric mean, which compares
    gymspaces' API with Gymnasium's call for call.
    """

    key: str
    label: str
    setup: Callable[[Any], Callable[[], Any]]
    slow: bool = False
    beyond: bool = False
    context: Callable[[Any], Any] | None = None
    """Context manager factory (given the library) around setup and timing:
    the end-to-end cases run gymspaces' side with Gymnasium patched."""
    kernels: Callable[[Any], Callable[[], Any]] | None = None
    """A third column (:mod:`benchmarks.patched`): the same operation on
    gymspaces' own classes, what the kernels give without patch mode."""

    def entered(self, lib: Any) -> contextlib.AbstractContextManager[Any]:
        """The case's context for ``lib``, or one that does nothing."""
        return self.context(lib) if self.context is not None else contextlib.nullcontext()


def _dict4(lib: Any) -> Any:
    return lib.Dict(
        {
            "position": lib.Box(-1, 1, (3,)),
            "velocity": lib.Box(-1, 1, (3,)),
            "mode": lib.Discrete(5),
            "buttons": lib.MultiDiscrete([3, 4]),
        },
        seed=SEED,
    )


def _keyword_call(method: Callable[..., Any], kwargs: dict[str, Any]) -> Callable[[], Any]:
    """``method`` called with ``kwargs`` written out as keywords, as users write the call.

    ``method(**kwargs)`` unpacks a dict on every call, which costs a compiled
    method about 0.2 us more than ``method(mask=m)``: harness overhead, not the
    library's.
    """
    if len(kwargs) == 1:
        (name, value), = kwargs.items()
        if name == "mask":
            return lambda: method(mask=value)
        if name == "probability":
            return lambda: method(probability=value)
        if name == "num_nodes":
            return lambda: method(num_nodes=value)
    return lambda: method(**kwargs)


def _sampler(build: Callable[[Any], Any], **kwargs: Any) -> Callable[[Any], Callable[[], Any]]:
    def setup(lib: Any) -> Callable[[], Any]:
        space = build(lib)
        space.seed(SEED)
        if kwargs:
            return _keyword_call(space.sample, kwargs)
        return space.sample

    setup.sampled = ((build,), kwargs)  # type: ignore[attr-defined]  # read by bench.floors
    return setup


MASK10 = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0], dtype=np.int8)
P1000 = np.random.default_rng(0).random(1000)
P1000 /= P1000.sum()
MIXED_LOW = np.array([-np.inf, 0.0, -np.inf, -1.0] * 4)
MIXED_HIGH = np.array([np.inf, np.inf, 1.0, 1.0] * 4)
MD_MASK = (
    np.array([1, 0, 1, 0, 1], dtype=np.int8),
    np.array([1, 1], dtype=np.int8),
    np.array([0, 1], dtype=np.int8),
)


def _dict_contains(lib: Any) -> Callable[[], Any]:
    space = _dict4(lib)
    element = space.sample()
    return lambda: space.contains(element)


def _dict_flatten(lib: Any) -> Callable[[], Any]:
    space = _dict4(lib)
    element = space.sample()
    return lambda: lib.flatten(space, element)


def _dict_unflatten(lib: Any) -> Callable[[], Any]:
    space = _dict4(lib)
    flat = lib.flatten(space, space.sample())
    return lambda: lib.unflatten(space, flat)


def _discrete_flatten(lib: Any) -> Callable[[], Any]:
    space = lib.Discrete(100)
    value = np.int64(42)
    return lambda: lib.flatten(space, value)


def _box_contains(lib: Any) -> Callable[[], Any]:
    space = lib.Box(-1, 1, (3,), np.float32)
    value = np.zeros(3, np.float32)
    return lambda: space.contains(value)


def _discrete_contains(lib: Any) -> Callable[[], Any]:
    space = lib.Discrete(10)
    value = np.int64(3)
    return lambda: space.contains(value)


def _batched_dict_sample(lib: Any) -> Callable[[], Any]:
    space = lib.batch_space(_dict4(lib), 8)
    space.seed(SEED)
    return space.sample


def _dict_samples(lib: Any, count: int) -> tuple[Any, list[Any]]:
    space = _dict4(lib)
    return space, [space.sample() for _ in range(count)]


def _concatenate(lib: Any) -> Callable[[], Any]:
    space, items = _dict_samples(lib, 8)
    out = lib.create_empty_array(space, 8)
    return lambda: lib.concatenate(space, items, out)


def _iterate(lib: Any) -> Callable[[], Any]:
    space, items = _dict_samples(lib, 8)
    batch = lib.concatenate(space, items, lib.create_empty_array(space, 8))
    batched = lib.batch_space(space, 8)
    return lambda: list(lib.iterate(batched, batch))


def _to_jsonable(lib: Any) -> Callable[[], Any]:
    space, items = _dict_samples(lib, 64)
    return lambda: space.to_jsonable(items)


MASKS_64 = (np.random.default_rng(1).random((64, 10)) < 0.5).astype(np.int8)
MASKS_64[5] = 0  # a row with nothing allowed


def _discrete_batch_mask(lib: Any) -> Callable[[], Any]:
    """64 masked Discrete(10) draws, one mask row each.

    gymspaces: ``Discrete.sample_batch(64, mask=(64, 10) array)``. Gymnasium's
    best equivalent: the batched space ``batch_space(Discrete(10), 64)`` (a
    MultiDiscrete) sampled with a tuple of the 64 row masks.
    """
    if lib.name == "gymspaces":
        space = lib.Discrete(10, seed=SEED)
        return lambda: space.sample_batch(64, mask=MASKS_64)
    batched = lib.batch_space(lib.Discrete(10, seed=SEED), 64)
    rows = tuple(MASKS_64)
    return lambda: batched.sample(mask=rows)


def _dict_contains_batch(lib: Any) -> Callable[[], Any]:
    """Membership of 64 Dict samples: ``contains_batch`` vs a loop of ``contains``."""
    space = _dict4(lib)
    items = [space.sample() for _ in range(64)]
    if lib.name == "gymspaces":
        batch = lib.concatenate(space, items, lib.create_empty_array(space, 64))
        return lambda: space.contains_batch(batch)
    return lambda: np.array([space.contains(item) for item in items], dtype=np.bool_)


def _dict_sample_batch(lib: Any) -> Callable[[], Any]:
    """8 Dict samples as one batch: ``sample_batch`` vs ``batch_space(space, 8).sample()``."""
    space = _dict4(lib)
    if lib.name == "gymspaces":
        return lambda: space.sample_batch(8)
    batched = lib.batch_space(space, 8)
    return batched.sample


def _dict_flatten_batch(lib: Any) -> Callable[[], Any]:
    """Flat rows of 64 Dict samples: ``flatten_batch`` vs stacking ``flatten`` of each."""
    space = _dict4(lib)
    items = [space.sample() for _ in range(64)]
    if lib.name == "gymspaces":
        batch = lib.concatenate(space, items, lib.create_empty_array(space, 64))
        return lambda: lib.flatten_batch(space, batch)
    return lambda: np.stack([lib.flatten(space, item) for item in items])


# The gymnasium_* cases: Gymnasium code calling Gymnasium's functions on
# Gymnasium's spaces, unchanged; gymspaces' side runs them patched (the case's
# context, benchmarks.e2e.context).


def _gymnasium_flatten_dict(lib: Any) -> Callable[[], Any]:
    """Gymnasium's ``flatten`` (what ``FlattenObservation`` calls) on Gymnasium's Dict."""
    import gymnasium.spaces
    from gymnasium.spaces.utils import flatten

    space = _dict4(gymnasium.spaces)
    x = space.sample()
    return lambda: flatten(space, x)


def _gymnasium_unflatten_dict(lib: Any) -> Callable[[], Any]:
    """Gymnasium's ``unflatten`` (the inverse of ``FlattenObservation``) on Gymnasium's Dict."""
    import gymnasium.spaces
    from gymnasium.spaces.utils import flatten, unflatten

    space = _dict4(gymnasium.spaces)
    flat = flatten(space, space.sample())
    return lambda: unflatten(space, flat)


def _gymnasium_vector_sample(lib: Any) -> Callable[[], Any]:
    """A vector env's ``observation_space.sample()``: Gymnasium's ``batch_space(Dict, 8)``."""
    import gymnasium.spaces
    from gymnasium.vector.utils import batch_space

    batched = batch_space(_dict4(gymnasium.spaces), 8)
    batched.seed(SEED)
    return batched.sample


def _box_image_pickle(lib: Any) -> Callable[[], Any]:
    """``pickle.loads(pickle.dumps(space))`` of an image Box (compact pickles shrink it 100x)."""
    import pickle

    space = lib.Box(0, 255, (84, 84, 3), np.uint8, seed=SEED)
    return lambda: pickle.loads(pickle.dumps(space)).low


def _shared_memory_dict(lib: Any) -> Callable[[], Any]:
    """Shared memory for 8 Dict elements: one buffer (gymspaces) vs one per leaf (Gymnasium)."""
    space = _dict4(lib)
    if lib.name == "gymspaces":
        return lambda: len(lib.create_shared_memory(space, 8, single_buffer=True))
    return lambda: len(lib.create_shared_memory(space, 8))


def _shm_dict_write_read(lib: Any) -> Callable[[], Any]:
    """One AsyncVectorEnv step's shared-memory traffic: a worker's write, the parent's read.

    Gymnasium's per-leaf layout for both libraries, each with its own helpers.
    """
    space = _dict4(lib)
    x = space.sample()
    memory = lib.create_shared_memory(space, 8)
    write, read = lib.write_to_shared_memory, lib.read_from_shared_memory

    def step() -> Any:
        write(space, 3, x, memory)
        return read(space, memory, 8)

    return step


def _gymnasium_shm_dict_write_read(lib: Any) -> Callable[[], Any]:
    """:func:`_shm_dict_write_read` through Gymnasium's own helpers, on Gymnasium's Dict."""
    import gymnasium.spaces
    from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

    space = _dict4(gymnasium.spaces)
    x = space.sample()
    memory = create_shared_memory(space, 8)

    def step() -> Any:
        write_to_shared_memory(space, 3, x, memory)
        return read_from_shared_memory(space, memory, 8)

    return step


IMPORTED_MODULES = {"gymspaces": "gymspaces", "gymnasium": "gymnasium.spaces", "numpy": "numpy"}
"""What the ``import`` case imports for each implementation (``numpy`` is the baseline)."""


def _child_environment() -> dict[str, str]:
    """The environment of the child interpreters of the ``import`` case.

    The child must import the very gymspaces this process imported, even when
    that came from a path the child would not search by default (pytest's
    rootdir insertion, for instance). Installed copies need nothing added.
    """
    import sysconfig

    import gymspaces

    env = dict(os.environ)
    root = str(Path(gymspaces.__file__).resolve().parent.parent)
    installed = {str(Path(sysconfig.get_path(name)).resolve()) for name in ("purelib", "platlib")}
    if root not in installed:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


def import_command(name: str) -> Callable[[], None]:
    """A callable that imports ``IMPORTED_MODULES[name]`` in a fresh interpreter.

    Parameters
    ----------
    name : str
        ``"gymspaces"``, ``"gymnasium"`` or ``"numpy"``.

    Returns
    -------
    callable
        Runs ``python -c "import MODULE"`` and raises ``RuntimeError`` with the
        child's stderr if the import fails.
    """
    command = [sys.executable, "-c", f"import {IMPORTED_MODULES[name]}"]
    env = _child_environment()

    def run() -> None:
        child = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if child.returncode:
            raise RuntimeError(f"{' '.join(command)} failed:\n{child.stderr}")

    return run


def _import(lib: Any) -> Callable[[], Any]:
    return import_command(lib.name)


def _startup(key: str) -> Callable[[Any], Callable[[], Any]]:
    """The setup of start-up case ``key``: a timer that runs one pair of interpreters per call."""
    return lambda lib: startup.PairTimer(startup.STARTUPS[key], _child_environment())


CASES: list[Case] = [
    Case("discrete_sample", "Discrete(10).sample()", _sampler(lambda lib: lib.Discrete(10))),
    Case("discrete_sample_mask", "Discrete(10).sample(mask)", _sampler(lambda lib: lib.Discrete(10), mask=MASK10)),
    Case(
        "discrete_sample_probability",
        "Discrete(1000).sample(probability)",
        _sampler(lambda lib: lib.Discrete(1000), probability=P1000),
    ),
    Case("box_sample", "Box(-1,1,(3,)).sample()", _sampler(lambda lib: lib.Box(-1, 1, (3,), np.float32))),
    Case(
        "box_sample_image",
        "Box(0,255,(84,84,3),uint8).sample()",
        _sampler(lambda lib: lib.Box(0, 255, (84, 84, 3), np.uint8)),
    ),
    Case(
        "box_sample_unbounded",
        "Box(-inf,inf,(64,)).sample()",
        _sampler(lambda lib: lib.Box(-np.inf, np.inf, (64,))),
    ),
    Case(
        "box_sample_mixed",
        "Box(mixed bounds,(16,)).sample()",
        _sampler(lambda lib: lib.Box(MIXED_LOW, MIXED_HIGH, dtype=np.float64)),
    ),
    Case("multi_discrete_sample", "MultiDiscrete([5,2,2]).sample()", _sampler(lambda lib: lib.MultiDiscrete([5, 2, 2]))),
    Case(
        "multi_discrete_sample_mask",
        "MultiDiscrete([5,2,2]).sample(mask)",
        _sampler(lambda lib: lib.MultiDiscrete([5, 2, 2]), mask=MD_MASK),
    ),
    Case("multi_binary_sample", "MultiBinary(10).sample()", _sampler(lambda lib: lib.MultiBinary(10))),
    Case("text_sample", "Text(10).sample()", _sampler(lambda lib: lib.Text(10))),
    Case("sequence_sample", "Sequence(Box(0,1)).sample()", _sampler(lambda lib: lib.Sequence(lib.Box(0, 1)))),
    Case(
        "graph_sample",
        "Graph(Box(3),Discrete(3)).sample(num_nodes=10)",
        _sampler(lambda lib: lib.Graph(lib.Box(0, 1, (3,)), lib.Discrete(3)), num_nodes=10),
    ),
    Case("dict_sample", "Dict(4 keys).sample()", _sampler(_dict4)),
    Case("dict_contains", "Dict(4 keys).contains", _dict_contains),
    Case("dict_flatten", "flatten(Dict(4 keys))", _dict_flatten),
    Case("dict_unflatten", "unflatten(Dict(4 keys))", _dict_unflatten),
    Case("discrete_flatten", "flatten(Discrete(100))", _discrete_flatten),
    Case("box_contains", "Box(3).contains", _box_contains),
    Case("discrete_contains", "Discrete(10).contains", _discrete_contains),
    Case("batch_dict_sample", "batch_space(Dict, 8).sample()", _batched_dict_sample),
    Case("concatenate_dict", "concatenate 8 Dict samples", _concatenate),
    Case("iterate_dict", "iterate 8 Dict samples", _iterate),
    Case("dict_to_jsonable", "to_jsonable 64 Dict samples", _to_jsonable),
    # Beyond Gymnasium: batched calls vs Gymnasium's best equivalent.
    Case("discrete_sample_batch_mask", "Discrete(10).sample_batch(64, mask)", _discrete_batch_mask, beyond=True),
    Case("dict_contains_batch", "Dict(4 keys).contains_batch(64)", _dict_contains_batch, beyond=True),
    Case("dict_sample_batch", "Dict(4 keys).sample_batch(8)", _dict_sample_batch, beyond=True),
    Case("dict_flatten_batch", "flatten_batch 64 Dict samples", _dict_flatten_batch, beyond=True),
    Case("box_image_pickle", "pickle round trip of Box(0,255,(84,84,3),uint8)", _box_image_pickle, beyond=True),
    Case("shared_memory_dict", "create_shared_memory(Dict(4 keys), 8)", _shared_memory_dict, beyond=True),
    # Bulk draws: thousands of values a call, where Gymnasium's time is mostly
    # numpy's own vectorised fill and gymspaces' is the PCG64 step itself (the
    # cases that tell one build's 128-bit arithmetic from another's, see
    # show_config). Out of the geometric mean, which compares the cost of a
    # call; the image Box, in it, is the bulk case of typical observations.
    Case(
        "box_sample_large",
        "Box(-1,1,(10000,),float32).sample()",
        _sampler(lambda lib: lib.Box(-1, 1, (10000,), np.float32)),
        beyond=True,
    ),
    Case(
        "multi_discrete_sample_large",
        "MultiDiscrete([7]*1000).sample()",
        _sampler(lambda lib: lib.MultiDiscrete([7] * 1000)),
        beyond=True,
    ),
    Case("multi_binary_sample_large", "MultiBinary(1000).sample()", _sampler(lambda lib: lib.MultiBinary(1000)), beyond=True),
    # The same calls on both sides (Gymnasium's layout): in the geometric mean.
    Case("shm_dict_write_read", "write+read shared memory, Dict(4 keys), 8 envs", _shm_dict_write_read),
    # Gymnasium code calling Gymnasium's helpers on Gymnasium's spaces, patched
    # vs plain: what patch mode gives code that changes no line.
    *[
        Case(key, label, setup, beyond=True, context=e2e.context)
        for key, label, setup in (
            ("gymnasium_shm_dict_write_read", "gymnasium write+read shared memory, Dict(4 keys), 8 envs",
             _gymnasium_shm_dict_write_read),
            ("gymnasium_flatten_dict", "gymnasium flatten of a Dict(4 keys)", _gymnasium_flatten_dict),
            ("gymnasium_unflatten_dict", "gymnasium unflatten of a Dict(4 keys)", _gymnasium_unflatten_dict),
            ("gymnasium_vector_sample", "gymnasium batch_space(Dict, 8).sample()", _gymnasium_vector_sample),
        )
    ],
    # End to end: unmodified Gymnasium loops, patched (gymspaces) vs unpatched.
    *[
        Case(key, label, e2e.setup(key), beyond=True, context=e2e.context)
        for key, label in (
            ("e2e_cartpole_sync", "SyncVectorEnv 8 x CartPole-v1 step"),
            ("e2e_dict_sync", "SyncVectorEnv 8 x Dict-observation env step"),
            ("e2e_dict_async", "AsyncVectorEnv (shared memory) 4 x Dict env step"),
            ("e2e_flatten_observation", "FlattenObservation(Dict env) step"),
            ("e2e_epsilon_greedy", "CartPole epsilon-greedy step"),
        )
    ],
    # Patch mode, operation by operation: Gymnasium's own objects plain and
    # patched, and gymspaces' own classes as the third column.
    *[
        Case(key, label, patched.setup(operation), beyond=True, context=e2e.context, kernels=patched.kernels(operation))
        for key, (label, operation) in patched.OPERATIONS.items()
    ],
    # What patch mode leaves to Gymnasium: plain, and taken anyway (is Gymnasium still as fast?).
    *[Case(key, label, setup, beyond=True, context=context) for key, (label, setup, context) in left.cases().items()],
    # Real loops: whole programs, one run per round, patched vs plain (slow:
    # a few explicit rounds). The PettingZoo and MiniGrid ones are skipped
    # unless those packages are installed (the clients extra).
    *[
        Case(key, loop.label, realloop.setup(key), slow=True, beyond=True, context=e2e.context)
        for key, loop in realloop.LOOPS.items()
    ],
    Case("import", "import in a fresh interpreter", _import, slow=True),
    # Start-up cost: the same program with and without patch mode, in pairs of
    # fresh interpreters (benchmarks.startup); no Gymnasium side, no ratio.
    *[Case(key, item.label, _startup(key), slow=True, beyond=True) for key, item in startup.STARTUPS.items()],
]

CASES_BY_KEY = {case.key: case for case in CASES}
STARTUP_KEYS = frozenset(startup.STARTUPS)
"""The start-up cases: timed in pairs by the suite's own test, not per library."""
