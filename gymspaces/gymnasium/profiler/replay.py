"""The estimate of what patch mode removed: kept calls replayed plain and compiled.

While recording, patch mode keeps a pickled copy of a few calls of each
operation (the 1st, 2nd, 4th, 8th, ... call not inside another; only calls on
spaces made of Gymnasium's own classes with pickle-safe arguments, whose
pickling runs no code of the program and draws nothing:
:mod:`gymspaces.gymnasium.profiler.recording`). At report time the estimate
(:mod:`gymspaces.gymnasium.profiler.estimate`) runs this module in a separate
interpreter, which replays them: each
call runs repeatedly on a fresh copy of its space and arguments, first with
Gymnasium unpatched, then patched, each timed per call (the best of a few
repeats). Nothing runs in the program's process,
so its results and generators cannot change.

The estimate prices an operation's compiled calls in the program with these
times per call (the program's own measured time is inflated by the
recording). Shared memory is replayed on a shared
memory of the replay's own of the same layout; ``create_shared_memory`` is not
replayed (it allocates).

The same interpreter measures what importing gymspaces' layer costs once
Gymnasium is imported (the estimate's ``REPLAY_PROGRAM`` times it before
anything else): part of patch mode's start-up, which the program's process
cannot time itself (its imports ran before any of gymspaces' code).

Run by the estimate's ``REPLAY_PROGRAM`` (``python -c``): pickled kept calls on
stdin, JSON on stdout.
"""

from __future__ import annotations

import json
import pickle
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

_MIN_SECONDS = 2e-4  # per timed batch of calls
_REPEATS = 3


def _operation(label: str, space: Any, rest: tuple[Any, ...], kwargs: dict[str, Any]) -> Callable[[], Any]:
    """A call of ``label`` as the program made it, through Gymnasium's public names."""
    import gymnasium.spaces.utils as space_utils
    import gymnasium.vector.utils as vector_utils
    import numpy as np

    if "." in label:
        method = getattr(type(space), label.split(".", 1)[1])
        return lambda: method(space, *rest, **kwargs)
    if hasattr(space_utils, label) and label in ("flatdim", "flatten", "unflatten"):
        helper = getattr(space_utils, label)
        return lambda: helper(space, *rest, **kwargs)
    helper = getattr(vector_utils, label)
    if label == "iterate":  # Gymnasium's iterates lazily: the work is in the consuming
        return lambda: list(helper(space, *rest, **kwargs))
    if label == "create_empty_array":
        arguments = list(rest)
        if len(arguments) > 1:
            arguments[1] = getattr(np, arguments[1])
        return lambda: helper(space, *arguments, **kwargs)
    if label == "write_to_shared_memory":
        index, value = (*rest, *(kwargs[key] for key in ("index", "value") if key in kwargs))
        memory = vector_utils.create_shared_memory(space, n=index + 1)
        return lambda: helper(space, index, value, memory)
    if label == "read_from_shared_memory":
        n = rest[0] if rest else kwargs.get("n", 1)
        memory = vector_utils.create_shared_memory(space, n=n)
        return lambda: helper(space, memory, n)
    raise ValueError(f"no replay for {label}")


def _per_call(call: Callable[[], Any]) -> float:
    call()
    clock = time.perf_counter
    calls = 1
    while True:
        start = clock()
        for _ in range(calls):
            call()
        elapsed = clock() - start
        if elapsed >= _MIN_SECONDS or calls >= 1 << 20:
            break
        calls *= 2
    best = elapsed / calls
    for _ in range(_REPEATS - 1):
        start = clock()
        for _ in range(calls):
            call()
        best = min(best, (clock() - start) / calls)
    return best


def _time_all(kept_calls: list[bytes]) -> list[float | None]:
    times: list[float | None] = []
    for kept in kept_calls:
        try:
            label, space, rest, kwargs = pickle.loads(kept)
            times.append(_per_call(_operation(label, space, rest, kwargs)))
        except Exception:  # a call that cannot be replayed is left out of the estimate
            times.append(None)
    return times


def main(imported: float | None = None) -> None:
    """Replay the pickled kept calls on stdin; print ``{"import": imported, "calls":
    [[label, plain s, compiled s], ...]}``.

    Parameters
    ----------
    imported : float, optional
        Seconds this interpreter took to import gymspaces' layer (timed before this module was imported).
    """
    kept_calls: list[bytes] = pickle.loads(sys.stdin.buffer.read())
    warnings.simplefilter("ignore")
    from gymspaces.gymnasium import is_patched, patch, unpatch

    unpatch()
    plain = _time_all(kept_calls)
    patch()
    if not is_patched():
        raise SystemExit("Gymnasium could not be patched in the replay")
    compiled = _time_all(kept_calls)
    labels = [pickle.loads(kept)[0] for kept in kept_calls]
    calls = [[label, p, c] for label, p, c in zip(labels, plain, compiled)]
    json.dump({"import": imported, "calls": calls}, sys.stdout)
