"""``python -m gymspaces``: sample every space and, with Gymnasium, compare speed.

With Gymnasium installed it also runs one unmodified Gymnasium program
(Taxi with masked random actions) plain and under patch mode, and says how
long each took and whether their results are identical.
"""

from __future__ import annotations

import contextlib
import importlib
import statistics
import time
import timeit
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

import gymspaces

SEED = 42


@dataclass(frozen=True)
class Case:
    """One operation, built against either library (``lib`` is a spaces module)."""

    label: str
    build: Callable[[Any], Any]
    call: Callable[[Any], Callable[[], Any]]


def _unmasked(space: Any) -> Callable[[], Any]:
    return space.sample


def _masked(mask: np.ndarray) -> Callable[[Any], Callable[[], Any]]:
    return lambda space: lambda: space.sample(mask=mask)


CASES = [
    Case("Discrete(10).sample()", lambda lib: lib.Discrete(10, seed=SEED), _unmasked),
    Case(
        "Discrete(10).sample(mask)",
        lambda lib: lib.Discrete(10, seed=SEED),
        _masked(np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 0], dtype=np.int8)),
    ),
    Case("Box(-1,1,(3,)).sample()", lambda lib: lib.Box(-1, 1, (3,), seed=SEED), _unmasked),
    Case(
        "Box(0,255,(84,84,3),uint8).sample()",
        lambda lib: lib.Box(0, 255, (84, 84, 3), np.uint8, seed=SEED),
        _unmasked,
    ),
    Case("Box(-inf,inf,(64,)).sample()", lambda lib: lib.Box(-np.inf, np.inf, (64,), seed=SEED), _unmasked),
    Case("MultiBinary(10).sample()", lambda lib: lib.MultiBinary(10, seed=SEED), _unmasked),
    Case("MultiDiscrete([5,2,2]).sample()", lambda lib: lib.MultiDiscrete([5, 2, 2], seed=SEED), _unmasked),
    Case("Text(10).sample()", lambda lib: lib.Text(10, seed=SEED), _unmasked),
    Case(
        "Tuple((Discrete(3),Box(0,1,(2,)))).sample()",
        lambda lib: lib.Tuple((lib.Discrete(3), lib.Box(0, 1, (2,))), seed=SEED),
        _unmasked,
    ),
    Case(
        "Dict(a=Discrete(4),b=Box(0,1,(2,))).sample()",
        lambda lib: lib.Dict(a=lib.Discrete(4), b=lib.Box(0, 1, (2,)), seed=SEED),
        _unmasked,
    ),
    Case("Sequence(Discrete(5)).sample()", lambda lib: lib.Sequence(lib.Discrete(5), seed=SEED), _unmasked),
    Case(
        "Graph(Box(0,1,(2,)),Discrete(3)).sample()",
        lambda lib: lib.Graph(lib.Box(0, 1, (2,)), lib.Discrete(3), seed=SEED),
        _unmasked,
    ),
    Case(
        "OneOf((MultiBinary(4),Discrete(3))).sample()",
        lambda lib: lib.OneOf((lib.MultiBinary(4), lib.Discrete(3)), seed=SEED),
        _unmasked,
    ),
]


def median_seconds(func: Callable[[], Any], budget: float = 0.05, repeats: int = 7) -> float:
    """Median time of one call, from ``repeats`` batches sized to about ``budget`` seconds."""
    number, elapsed = 1, 0.0
    while elapsed < budget / 5:
        number *= 4
        elapsed = timeit.timeit(func, number=number)
    number = max(1, int(number * (budget / repeats) / max(elapsed, 1e-9)))
    return statistics.median(t / number for t in timeit.repeat(func, number=number, repeat=repeats))


def _reference() -> ModuleType | None:
    try:
        return importlib.import_module("gymnasium.spaces")
    except ImportError:
        return None


def _is_graph_instance(value: Any) -> bool:
    # gymspaces' GraphInstance and Gymnasium's are distinct named tuples.
    return isinstance(value, tuple) and getattr(value, "_fields", None) == ("nodes", "edges", "edge_links")


def _describe(value: Any, nested: bool = False) -> str:
    """A short text of a sample: arrays abridged, composite samples spelled out
    with their items' values (``(1, [0.5 -0.1])``, ``{mode: 2, pos: [..]}``)."""
    if isinstance(value, np.ndarray):
        # Inside a composite sample, fewer digits leave room for the other items.
        return np.array2string(value, threshold=6, edgeitems=2, precision=3 if nested else None)
    if _is_graph_instance(value):
        edges = 0 if value.edge_links is None else len(value.edge_links)
        return f"{len(value.nodes)} nodes, {edges} edges"
    if isinstance(value, tuple):
        items = [_describe(item, nested=True) for item in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_describe(item, nested=True)}" for key, item in value.items()) + "}"
    if nested and isinstance(value, np.generic):
        return str(value)
    return repr(value)


SAMPLE_WIDTH = 16
"""The sample column's width: with the longest operation and the three figures, the table fits 100 columns."""


def _format_sample(value: Any, width: int = SAMPLE_WIDTH) -> str:
    text = " ".join(_describe(value).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:9.3f}"


def main(argv: list[str] | None = None) -> int:
    reference = _reference()
    print(f"gymspaces {gymspaces.__version__}  (numpy {np.__version__})")
    if reference is None:
        from gymspaces._gymnasium_releases import install_hint

        print(f"Gymnasium not installed: timing gymspaces alone (to compare: {install_hint()}).")
    else:
        import gymnasium

        print(f"compared with Gymnasium {gymnasium.__version__} in the same process (medians)")
    print()
    label_width = max(len(case.label) for case in CASES)
    header = f"{'operation':{label_width}} {'sample':{SAMPLE_WIDTH}} {'gymspaces us':>12}"
    if reference is not None:
        header += f" {'gymnasium us':>12} {'speedup':>7} {'same':>4}"
    print(header)
    print("-" * len(header))
    for case in CASES:
        ours = case.build(gymspaces)
        sample = case.call(ours)()
        if reference is None:
            ours_time = median_seconds(case.call(ours))
            line = f"{case.label:{label_width}} {_format_sample(sample):{SAMPLE_WIDTH}} {_us(ours_time):>12}"
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = case.build(reference)
                same = _same(sample, case.call(theirs)())
                ours_time = median_seconds(case.call(ours))
                reference_time = median_seconds(case.call(theirs))
            line = (
                f"{case.label:{label_width}} {_format_sample(sample):{SAMPLE_WIDTH}} {_us(ours_time):>12} "
                f"{_us(reference_time):>12} {reference_time / ours_time:6.1f}x "
                f"{'yes' if same else 'NO':>4}"
            )
        print(line)
    if reference is not None:
        print()
        # The program is a function of this module: the line names no script
        # (a reader would look for it), and the command for one's own comes after.
        print("An unmodified Gymnasium program, run plain and under patch mode in this process:")
        print(loop_line())
        print("A program of yours under patch mode: python -m gymspaces.gymnasium --report YOUR_SCRIPT.py")
    return 0


def taxi_random(steps: int = 8000) -> Any:
    """Taxi with uniformly random legal actions (``sample(info["action_mask"])``):
    the demo's unmodified Gymnasium program, and the benchmarks' ``real_taxi_random``."""
    import gymnasium

    env = gymnasium.make("Taxi-v4")
    observation, info = env.reset(seed=0)
    env.action_space.seed(0)
    episode_return, returns = 0.0, []
    for _ in range(steps):
        observation, reward, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
        episode_return += float(reward)
        if terminated or truncated:
            returns.append(episode_return)
            episode_return = 0.0
            observation, info = env.reset()
    env.close()
    return returns, observation


@contextlib.contextmanager
def plain_gymnasium() -> Iterator[None]:
    """Gymnasium unpatched inside, as it was after."""
    from gymspaces.gymnasium import is_patched, patch, unpatch

    was_patched = is_patched()
    unpatch()
    try:
        yield
    finally:
        if was_patched:
            patch()


def loop_line(rounds: int = 3) -> str:
    """One line: the Taxi program run plain and patched (the best of ``rounds``
    alternating runs each), both times, the gain and whether the results are identical."""
    from gymspaces.gymnasium import patched

    times: dict[str, list[float]] = {"plain": [], "patched": []}
    results: dict[str, Any] = {}
    for _ in range(rounds):
        for side in times:
            with warnings.catch_warnings(), (patched() if side == "patched" else plain_gymnasium()):
                warnings.simplefilter("ignore")
                start = time.perf_counter()
                results[side] = taxi_random()
                times[side].append(time.perf_counter() - start)
    plain, fast = min(times["plain"]), min(times["patched"])
    same = "results identical" if _same(results["plain"], results["patched"]) else "RESULTS DIFFER"
    return f"  {TAXI_LABEL}: plain {plain:.3f} s, patched {fast:.3f} s ({plain / fast:.1f}x), {same}"


TAXI_LABEL = "Taxi-v4, 8000 random masked steps"


def _same(a: Any, b: Any) -> bool:
    """Exact equality of two first samples drawn from the same seed (value, type,
    dtype), item by item through tuples, dicts (in key order) and graph instances."""
    if _is_graph_instance(a) and _is_graph_instance(b):
        return all(_same(x, y) for x, y in zip(a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, (np.ndarray, np.generic)):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return bool(a == b)
