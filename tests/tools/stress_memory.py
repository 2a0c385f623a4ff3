#!/usr/bin/env python
"""Memory stress of gymspaces: no RSS growth and no reference leaks over many calls.

Usage::

    python tests/tools/stress_memory.py [--calls N] [--json FILE]

Two phases, each of ``N`` calls in total (default 1,000,000), split evenly
across the space kinds (Box, Discrete, MultiBinary, MultiDiscrete, Text,
Tuple, Dict, Sequence, Graph, OneOf and a nested Dict of all of them):

* ``success``: ``sample`` (plain and masked/weighted), ``contains``,
  ``flatten``, ``unflatten``, ``vector.concatenate`` and ``vector.iterate``;
* ``failure``: calls that raise (bad masks and probabilities, wrong-shape
  ``unflatten`` input, ``flatten`` of invalid elements, constructor errors,
  bad seeds, misused vector helpers, ...) or reject garbage (``contains`` of
  garbage). Every call is checked to fail the expected way.

Each phase first runs a warm-up (10% of its calls, at least 20 rounds of
every operation) so that caches, free lists and allocator arenas reach their
steady state, then measures the resident set size (RSS, from
``/proc/self/statm``; ``resource`` elsewhere) and ``sys.getallocatedblocks()``,
runs the remaining calls, and measures again.

Verdict (exit status 1 on failure):

* RSS growth over the measured part of a phase must stay within
  ``RSS_ALLOWANCE`` (4 MiB). RSS is page-granular and the allocators keep
  freed memory (pymalloc arenas are 1 MiB in CPython 3.11, glibc keeps its
  heap top and per-size free lists), so a healthy process wanders by up to a
  few MiB (observed: under 0.5 MiB). A leak of 16 bytes per call over the
  default run's 900,000 measured calls is 13.7 MiB, far above it; at the CI
  size (180,000 measured calls) the RSS check catches leaks of >= 24 bytes
  per call, and the block check below catches smaller Python-object leaks.
* Python-level allocated blocks (``sys.getallocatedblocks()``) may grow by at
  most ``BLOCK_ALLOWANCE`` (2,000: bounded caches, e.g. dtype promotions and
  dispatch caches, may still gain a few entries; observed: under 400). One
  object leaked per call is one block per measured call, orders of magnitude
  more at any size from ``--calls 30000`` up.
* ``sys.getrefcount`` of the objects passed into the calls (spaces, masks,
  probabilities, garbage inputs) must be the same after the run as after the
  warm-up: a reference leaked on an error path shows up as growth there.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import gymspaces as gs
from gymspaces import utils
from gymspaces import vector

MIB = 1024 * 1024
RSS_ALLOWANCE = 4 * MIB
BLOCK_ALLOWANCE = 2000
DEFAULT_CALLS = 1_000_000
WARMUP_FRACTION = 0.1
MIN_WARMUP_ROUNDS = 20
BATCH = 3  # samples per vector.concatenate / iterate call


def rss_bytes() -> int:
    """Current resident set size of this process."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):  # not Linux: peak RSS is the best proxy
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if platform.system() == "Darwin" else peak * 1024


# --------------------------------------------------------------------------- spaces


def build_spaces() -> dict[str, gs.Space]:
    box = gs.Box(np.array([-1.0, -np.inf, 0.0]), np.array([1.0, np.inf, np.inf]), dtype=np.float64, seed=1)
    spaces = {
        "Box": box,
        "Discrete": gs.Discrete(5, start=2, seed=2),
        "MultiBinary": gs.MultiBinary(6, seed=3),
        "MultiDiscrete": gs.MultiDiscrete([3, 4, 5], seed=4),
        "Text": gs.Text(6, min_length=1, charset="abcde", seed=5),
        "Tuple": gs.Tuple([gs.Discrete(3), gs.Box(0, 1, (2,), np.float32)], seed=6),
        "Dict": gs.Dict(
            {"pos": gs.Box(-1, 1, (2,), np.float32), "id": gs.Discrete(4), "flags": gs.MultiBinary(3)},
            seed=7,
        ),
        "Sequence": gs.Sequence(gs.Box(0, 1, (2,), np.float32), seed=8),
        "Graph": gs.Graph(gs.Box(0, 1, (3,), np.float32), gs.Discrete(3), seed=9),
        "OneOf": gs.OneOf([gs.Discrete(3), gs.Box(0, 1, (2,), np.float32)], seed=10),
        "nested": gs.Dict(
            {
                "obs": gs.Tuple([gs.Sequence(gs.Discrete(4), stack=True), gs.MultiDiscrete([2, 3])]),
                "text": gs.Text(3, charset="xyz"),
                "graph": gs.Graph(gs.Discrete(3), None),
                "choice": gs.OneOf([gs.MultiBinary(2), gs.Dict({"v": gs.Box(-1, 1, (1,))})]),
            },
            seed=11,
        ),
    }
    return spaces


# Valid masks / probabilities for the kinds that take them.
def valid_sample_kwargs(kind: str) -> list[dict[str, Any]]:
    i8 = np.int8
    if kind == "Discrete":
        return [{"mask": np.array([0, 1, 1, 0, 1], i8)}, {"probability": np.array([0.1, 0.2, 0.3, 0.4, 0.0])}]
    if kind == "MultiBinary":
        return [{"mask": np.array([0, 1, 2, 2, 1, 0], i8)}, {"probability": np.linspace(0, 1, 6)}]
    if kind == "MultiDiscrete":
        return [{"mask": (np.array([1, 0, 1], i8), np.array([0, 0, 1, 1], i8), np.ones(5, i8))}]
    if kind == "Text":
        return [{"mask": (3, np.array([1, 0, 1, 0, 1], i8))}, {"probability": (None, np.full(5, 0.2))}]
    if kind == "Tuple":
        return [{"mask": (np.array([0, 1, 1], i8), None)}]
    if kind == "Dict":
        return [{"mask": {"pos": None, "id": np.array([1, 0, 0, 1], i8), "flags": np.array([2, 2, 1], i8)}}]
    if kind == "Sequence":
        return [{"mask": (np.array([1, 2, 3]), None)}]
    if kind == "Graph":
        return [{"num_nodes": 3}, {"num_nodes": 4, "num_edges": 5}]
    if kind == "OneOf":
        return [{"mask": (np.array([1, 0, 0], i8), None)}]
    return []


def success_ops(kind: str, space: gs.Space) -> list[tuple[str, Callable[[], Any]]]:
    """The calls of the success phase for one space, each expected to return."""
    pool = [space.sample() for _ in range(4)]
    flats = [utils.flatten(space, x) for x in pool]
    batched = vector.batch_space(space, BATCH)
    out = vector.create_empty_array(space, BATCH)
    items = pool[:BATCH]
    batch = vector.concatenate(space, items, vector.create_empty_array(space, BATCH))
    state = {"i": 0}

    def nxt() -> int:
        state["i"] = (state["i"] + 1) % len(pool)
        return state["i"]

    def contains() -> Any:
        if not space.contains(pool[nxt()]):
            raise AssertionError(f"{kind}: a sample is not in its space")

    ops: list[tuple[str, Callable[[], Any]]] = [
        ("sample", space.sample),
        ("contains", contains),
        ("flatten", lambda: utils.flatten(space, pool[nxt()])),
        ("unflatten", lambda: utils.unflatten(space, flats[nxt()])),
        ("vector.concatenate", lambda: vector.concatenate(space, items, out)),
        ("vector.iterate", lambda: list(vector.iterate(batched, batch))),
    ]
    for j, kwargs in enumerate(valid_sample_kwargs(kind)):
        ops.append((f"sample[{j}]", lambda kwargs=kwargs: space.sample(**kwargs)))
    return ops


# --------------------------------------------------------------------------- failing calls


class Garbage:
    """An object no space contains and no helper accepts."""


GARBAGE = Garbage()
BAD_MASK_SHAPE = np.array([1, 0], np.int8)
BAD_MASK_DTYPE = np.ones(5, np.float32)
BAD_MASK_VALUES = np.full(5, 2, np.int8)
BAD_PROB_SUM = np.full(5, 0.3)
BAD_PROB_NEGATIVE = np.array([-0.5, 1.5, 0.0, 0.0, 0.0])
BAD_FLAT = np.zeros(97)
BAD_SEED = -1

# Objects whose reference counts must not move across the failure phase.
TRACKED: dict[str, Any] = {
    "garbage": GARBAGE,
    "bad_mask_shape": BAD_MASK_SHAPE,
    "bad_mask_dtype": BAD_MASK_DTYPE,
    "bad_mask_values": BAD_MASK_VALUES,
    "bad_prob_sum": BAD_PROB_SUM,
    "bad_prob_negative": BAD_PROB_NEGATIVE,
    "bad_flat": BAD_FLAT,
}


def failure_ops(kind: str, space: gs.Space) -> list[tuple[str, Callable[[], Any], Any]]:
    """``(name, call, expected)``: ``expected`` is an exception class the call must raise,
    or ``False`` for a ``contains`` that must reject its argument."""
    i8 = np.int8
    ops: list[tuple[str, Callable[[], Any], Any]] = [
        ("contains(garbage)", lambda: space.contains(GARBAGE), False),
        ("contains(bad array)", lambda: space.contains(BAD_FLAT), False),
        ("unflatten(wrong size)", lambda: utils.unflatten(space, BAD_FLAT), Exception),
        ("seed(-1)", lambda: space.seed(BAD_SEED), Exception),
        ("batch_space(garbage)", lambda: vector.batch_space(GARBAGE, 2), TypeError),
    ]
    add = ops.append
    if kind == "Box":
        add(("sample(mask)", lambda: space.sample(mask=BAD_MASK_SHAPE), gs.error.Error))
        add(("sample(probability)", lambda: space.sample(probability=BAD_PROB_SUM), gs.error.Error))
        overflow = gs.Box(-1.7e308, 1.7e308, (2,), np.float64, seed=0)
        add(("sample(overflow)", overflow.sample, OverflowError))
        add(("Box(mismatched bounds)", lambda: gs.Box(np.zeros(3), np.ones(2)), Exception))
        add(("Box(low > high)", lambda: gs.Box(1.0, 0.0, (2,)), Exception))
        add(("iterate(garbage)", lambda: list(vector.iterate(space, GARBAGE)), Exception))
    elif kind == "Discrete":
        add(("sample(mask shape)", lambda: space.sample(mask=BAD_MASK_SHAPE), AssertionError))
        add(("sample(mask dtype)", lambda: space.sample(mask=BAD_MASK_DTYPE), AssertionError))
        add(("sample(mask values)", lambda: space.sample(mask=BAD_MASK_VALUES), AssertionError))
        add(("sample(probability sum)", lambda: space.sample(probability=BAD_PROB_SUM), AssertionError))
        add(("sample(probability<0)", lambda: space.sample(probability=BAD_PROB_NEGATIVE), AssertionError))
        add(("sample(mask+probability)",
             lambda: space.sample(mask=BAD_MASK_VALUES, probability=BAD_PROB_SUM), ValueError))
        add(("flatten(out of range)", lambda: utils.flatten(space, 100), Exception))
        add(("Discrete(0)", lambda: gs.Discrete(0), ValueError))
        add(("iterate(Discrete)", lambda: list(vector.iterate(space, GARBAGE)), TypeError))
    elif kind == "MultiBinary":
        add(("sample(mask shape)", lambda: space.sample(mask=BAD_MASK_SHAPE), AssertionError))
        add(("sample(mask dtype)", lambda: space.sample(mask=np.ones(6, np.float32)), AssertionError))
        add(("sample(probability>1)", lambda: space.sample(probability=np.full(6, 1.5)), AssertionError))
        add(("MultiBinary(-1)", lambda: gs.MultiBinary(-1), Exception))
    elif kind == "MultiDiscrete":
        add(("sample(mask length)", lambda: space.sample(mask=(np.ones(3, i8),)), AssertionError))
        add(("sample(mask values)",
             lambda: space.sample(mask=(BAD_MASK_VALUES[:3], np.ones(4, i8), np.ones(5, i8))), AssertionError))
        add(("sample(probability sum)",
             lambda: space.sample(probability=(BAD_PROB_SUM[:3], np.full(4, 0.25), np.full(5, 0.2))),
             AssertionError))
        add(("MultiDiscrete([0])", lambda: gs.MultiDiscrete([0]), ValueError))
        add(("flatten(wrong shape)", lambda: utils.flatten(space, BAD_FLAT), Exception))
    elif kind == "Text":
        add(("sample(charset mask length)", lambda: space.sample(mask=(None, BAD_MASK_SHAPE)), AssertionError))
        add(("sample(length > max)", lambda: space.sample(mask=(99, None)), AssertionError))
        add(("sample(probability sum)", lambda: space.sample(probability=(None, BAD_PROB_SUM)), AssertionError))
        add(("Text(-1)", lambda: gs.Text(-1), ValueError))
        add(("flatten(garbage)", lambda: utils.flatten(space, GARBAGE), Exception))
    elif kind == "Tuple":
        add(("Tuple([1, 2])", lambda: gs.Tuple([1, 2]), TypeError))
        add(("sample(mask length)", lambda: space.sample(mask=(None,)), AssertionError))
        add(("sample(bad child mask)", lambda: space.sample(mask=(BAD_MASK_SHAPE, None)), AssertionError))
        add(("flatten(garbage)", lambda: utils.flatten(space, GARBAGE), Exception))
    elif kind == "Dict":
        add(("Dict({'a': 1})", lambda: gs.Dict({"a": 1}), TypeError))
        add(("sample(mask keys)", lambda: space.sample(mask={"zz": None}), Exception))
        add(("flatten({})", lambda: utils.flatten(space, {}), KeyError))
        add(("concatenate(garbage)",
             lambda: vector.concatenate(space, [GARBAGE], vector.create_empty_array(space, 1)), Exception))
    elif kind == "Sequence":
        add(("Sequence(5)", lambda: gs.Sequence(5), TypeError))
        add(("sample(length mask type)", lambda: space.sample(mask=("bad", None)), TypeError))
        add(("sample(length < 0)", lambda: space.sample(mask=(-1, None)), AssertionError))
        add(("flatten(garbage)", lambda: utils.flatten(space, GARBAGE), Exception))
    elif kind == "Graph":
        add(("Graph(Box, 5)", lambda: gs.Graph(gs.Box(0, 1, (2,)), 5), TypeError))
        add(("sample(num_nodes=0)", lambda: space.sample(num_nodes=0), AssertionError))
        add(("sample(edge mask)", lambda: space.sample(mask=(None, BAD_MASK_SHAPE), num_edges=2), AssertionError))
        add(("flatten(garbage)", lambda: utils.flatten(space, GARBAGE), Exception))
    elif kind == "OneOf":
        add(("OneOf([])", lambda: gs.OneOf([]), ValueError))
        add(("sample(mask length)", lambda: space.sample(mask=(None,)), AssertionError))
        add(("contains((9, x))", lambda: space.contains((9, 0)), False))
        add(("flatten(garbage)", lambda: utils.flatten(space, GARBAGE), Exception))
    elif kind == "nested":
        add(("sample(mask garbage)", lambda: space.sample(mask=GARBAGE), Exception))
        add(("flatten({})", lambda: utils.flatten(space, {}), KeyError))
        add(("create_empty_array(garbage)", lambda: vector.create_empty_array(GARBAGE, 2), TypeError))
    return ops


def expect_failure(name: str, call: Callable[[], Any], expected: Any) -> Callable[[], None]:
    """Wrap ``call`` into a call that checks it fails the expected way."""
    if expected is False:

        def rejected() -> None:
            if call() is not False:
                raise RuntimeError(f"{name}: expected False")

        return rejected

    def raising() -> None:
        try:
            call()
        except expected:
            return
        raise RuntimeError(f"{name}: did not raise {expected.__name__}")

    return raising


# --------------------------------------------------------------------------- driver


def run_rounds(ops_by_kind: dict[str, list[Callable[[], Any]]], calls: int) -> int:
    """Make ``calls`` calls, split evenly across the kinds, cycling through each
    kind's operations."""
    per_kind, extra = divmod(calls, len(ops_by_kind))
    for index, ops in enumerate(ops_by_kind.values()):
        rounds, rest = divmod(per_kind + (index < extra), len(ops))
        for _ in range(rounds):
            for op in ops:
                op()
        for op in ops[:rest]:
            op()
    return calls


def measure() -> tuple[int, int]:
    gc.collect()
    return rss_bytes(), sys.getallocatedblocks()


def run_phase(name: str, ops_by_kind: dict[str, list[Callable[[], Any]]], calls: int,
              tracked: dict[str, Any]) -> dict[str, Any]:
    longest = max(len(ops) for ops in ops_by_kind.values())
    warm_rounds = MIN_WARMUP_ROUNDS * longest * len(ops_by_kind)
    warm = min(calls, max(int(calls * WARMUP_FRACTION), warm_rounds))
    start = time.perf_counter()
    warm_calls = run_rounds(ops_by_kind, warm)
    rss_before, blocks_before = measure()
    refs_before = {key: sys.getrefcount(obj) for key, obj in tracked.items()}
    measured_calls = run_rounds(ops_by_kind, calls - warm)
    rss_after, blocks_after = measure()
    refs_after = {key: sys.getrefcount(obj) for key, obj in tracked.items()}
    elapsed = time.perf_counter() - start
    leaked_refs = {key: refs_after[key] - refs_before[key] for key in tracked if refs_after[key] != refs_before[key]}
    return {
        "phase": name,
        "warmup_calls": warm_calls,
        "measured_calls": measured_calls,
        "calls": warm_calls + measured_calls,
        "rss_before": rss_before,
        "rss_after": rss_after,
        "rss_growth": rss_after - rss_before,
        "blocks_before": blocks_before,
        "blocks_after": blocks_after,
        "blocks_growth": blocks_after - blocks_before,
        "refcount_changes": leaked_refs,
        "seconds": round(elapsed, 2),
        "ok": (rss_after - rss_before <= RSS_ALLOWANCE and blocks_after - blocks_before <= BLOCK_ALLOWANCE
               and not leaked_refs),
    }


def print_table(results: list[dict[str, Any]]) -> None:
    def mib(value: int) -> str:
        return f"{value / MIB:8.2f}"

    header = (f"{'phase':<9} {'calls':>10} {'warm-up':>9} {'RSS before':>11} {'RSS after':>10} "
              f"{'growth':>9} {'blocks Δ':>9} {'refs Δ':>7} {'time s':>7}  verdict")
    print(header)
    print("-" * len(header))
    for r in results:
        refs = sum(abs(v) for v in r["refcount_changes"].values())
        print(f"{r['phase']:<9} {r['calls']:>10,} {r['warmup_calls']:>9,} {mib(r['rss_before'])} MiB"
              f" {mib(r['rss_after'])} MiB {r['rss_growth'] / MIB:+7.2f} MiB {r['blocks_growth']:>+9,}"
              f" {refs:>7} {r['seconds']:>7.1f}  {'ok' if r['ok'] else 'FAIL'}")
    print(f"(growth = RSS after - RSS before over the measured calls; allowance "
          f"{RSS_ALLOWANCE / MIB:.0f} MiB RSS, {BLOCK_ALLOWANCE:,} allocated blocks, 0 references)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=DEFAULT_CALLS,
                        help="calls per phase, split evenly across the space kinds (default 1,000,000)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--inject-leak", action="store_true",
                        help="(checks the checker) one failing call leaks a reference to its argument "
                             "and 64 bytes per call: the run must then FAIL")
    args = parser.parse_args(argv)
    if args.calls < 1:
        parser.error("--calls must be positive")

    # Warnings (e.g. the Box overflow's RuntimeWarning) are ignored: an "ignore"
    # filter returns before touching any registry, so warnings add no state.
    warnings.simplefilter("ignore")
    spaces = build_spaces()
    success = {}
    failure = {}
    for kind, space in spaces.items():
        success[kind] = [op for _, op in success_ops(kind, space)]
        failure[kind] = [expect_failure(f"{kind}.{name}", call, expected)
                         for name, call, expected in failure_ops(kind, space)]
    if args.inject_leak:
        leaked: list[Any] = []

        def leaky() -> None:
            leaked.append((GARBAGE, bytes(64)))
            raise ValueError("injected leak")

        failure["Box"].append(expect_failure("Box.injected-leak", leaky, ValueError))
    tracked = dict(TRACKED)
    tracked.update({f"space:{kind}": space for kind, space in spaces.items()})
    tracked.update({f"generator:{kind}": space.np_random for kind, space in spaces.items()})

    print(f"gymspaces stress: {len(spaces)} space kinds, {args.calls:,} calls per phase, "
          f"Python {platform.python_version()}, numpy {np.__version__}")
    results = [run_phase("success", success, args.calls, tracked),
               run_phase("failure", failure, args.calls, tracked)]
    print_table(results)
    for r in results:
        if r["refcount_changes"]:
            print(f"{r['phase']}: reference counts changed: {r['refcount_changes']}")
    ok = all(r["ok"] for r in results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"calls": args.calls, "rss_allowance": RSS_ALLOWANCE,
                       "block_allowance": BLOCK_ALLOWANCE, "ok": ok, "phases": results}, handle, indent=2)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
