"""Interleaved timing of both sides of a case, for the gate's second look at a miss.

pytest-benchmark times one side of a case, then the other. On this machine
class a slow spell (another tenant; every process runs ~1.8x slower for one
to several seconds) can cover one side and not the other. Here both sides
run in short alternating blocks, so a spell covers neighbouring blocks of
both sides alike and the ratio within a pair of blocks stays what the code
gives.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.cases import Case, library
from gymspaces._demo import plain_gymnasium

SIDES = ("gymspaces", "gymnasium")
PAIRS = 21  # blocks per side of a micro or end-to-end case
# A slow case's block is one whole program (about a second), so a spell can
# still cover one side of a pair: in a CI trial the middle half of
# real_cartpole_cleanrl's seven pairs ran from 0.99x to 1.30x. Eleven pairs
# take about 15 s a case and need six spoilt pairs to move the median.
SLOW_PAIRS = 11
BLOCK_SECONDS = 0.02


@dataclass
class Interleaved:
    """Seconds per call of each side, one figure per block, in the order timed."""

    gymspaces: list[float]
    gymnasium: list[float]

    def __add__(self, other: Interleaved) -> Interleaved:
        """The pairs of both timings, as one."""
        return Interleaved(self.gymspaces + other.gymspaces, self.gymnasium + other.gymnasium)

    @property
    def pair_ratios(self) -> list[float]:
        """Gymnasium / gymspaces of each pair of neighbouring blocks, sorted."""
        return sorted(theirs / ours for ours, theirs in zip(self.gymspaces, self.gymnasium))

    @property
    def quartiles(self) -> dict[str, list[float]]:
        """Each side's first and third quartiles of its blocks' times (a run's ``spread``)."""
        found = {}
        for side, times in (("gymspaces", self.gymspaces), ("gymnasium", self.gymnasium)):
            ordered = sorted(times)
            found[side] = [ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]]
        return found

    @property
    def median_pair(self) -> dict[str, float]:
        """Both sides' figures in the pair with the median ratio.

        Judged pair by pair rather than on each side's median: a spell that
        starts or ends during the measurement shifts the two medians by
        different amounts, but the two blocks of one pair together.
        """
        pairs = sorted(zip(self.gymspaces, self.gymnasium), key=lambda pair: pair[1] / pair[0])
        ours, theirs = pairs[(len(pairs) - 1) // 2]
        return {"gymspaces": ours, "gymnasium": theirs}


def _set_up(case: Case, lib: Any, stack: contextlib.ExitStack) -> Callable[[], Any]:
    """The callable the suite times for ``case`` on ``lib``, set up inside the case's context."""
    with case.entered(lib), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        func = case.setup(lib)
    stack.callback(getattr(func, "close", lambda: None))
    return func


def _block(func: Callable[[], Any], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        func()
    return (time.perf_counter() - start) / calls


def _calls_per_block(func: Callable[[], Any], seconds: float) -> int:
    calls = 1
    while _block(func, calls) * calls < seconds:
        calls *= 2
    return calls


def kernels_side(case: Case) -> Case:
    """``case`` with gymspaces' side on its ``kernels`` (gymspaces' own classes, unpatched, as the suite times
    them): interleaved, the pairs give a patched case's kernels gain instead of its patched gain."""
    assert case.kernels is not None, case.key
    kernels, setup = case.kernels, case.setup

    def sides(lib: Any) -> Callable[[], Any]:
        return kernels(lib) if lib.name == "gymspaces" else setup(lib)

    def context(lib: Any) -> contextlib.AbstractContextManager[Any]:
        return case.entered(lib) if lib.name != "gymspaces" else contextlib.nullcontext()

    return Case(case.key, case.label, sides, slow=case.slow, beyond=case.beyond, context=context)


def time_interleaved(case: Case, pairs: int | None = None, block_seconds: float = BLOCK_SECONDS) -> Interleaved:
    """Time ``case`` on both libraries in ``pairs`` pairs of alternating blocks.

    Each side is set up once (as the suite sets it up) and its context is
    entered again around each of its blocks, so the end-to-end cases run
    gymspaces' side patched and Gymnasium's plain. Gymnasium goes first in
    every other pair. A block is one call of a slow case, else as many calls
    as fill ``block_seconds``.
    """
    if pairs is None:
        pairs = SLOW_PAIRS if case.slow else PAIRS
    libs = {side: library(side) for side in SIDES}
    funcs: dict[str, Callable[[], Any]] = {}
    with contextlib.ExitStack() as built:
        # Plain Gymnasium around it all, as in the suite: an interpreter
        # patched at start-up would otherwise time gymspaces against itself.
        built.enter_context(plain_gymnasium())
        for side in SIDES:
            funcs[side] = _set_up(case, libs[side], built)
        calls = dict.fromkeys(SIDES, 1)
        if not case.slow:
            for side in SIDES:
                with case.entered(libs[side]):
                    calls[side] = _calls_per_block(funcs[side], block_seconds)
        timed: dict[str, list[float]] = {side: [] for side in SIDES}
        for pair in range(pairs):
            for side in SIDES[::-1] if pair % 2 else SIDES:
                with case.entered(libs[side]):
                    if not case.slow:
                        funcs[side]()  # the first call after the context changed may be cold
                    timed[side].append(_block(funcs[side], calls[side]))
    return Interleaved(timed["gymspaces"], timed["gymnasium"])


__all__ = ["BLOCK_SECONDS", "PAIRS", "SLOW_PAIRS", "Interleaved", "kernels_side", "time_interleaved"]
