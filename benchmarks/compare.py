"""``python -m benchmarks --compare BASE.json [--fail-above PCT]``: this run's speedups against a saved run's.

A case's **speedup** is a ratio read within one run: Gymnasium's median over
gymspaces' (for the patch-mode, end-to-end and real-loop cases, plain
Gymnasium over patched Gymnasium), and for a ``patched_*`` case also plain
Gymnasium over gymspaces' own classes (its *kernels* gain, named
``KEY (kernels)``). Ratios, not times, are compared, so the baseline may come
from another machine: both sides of a ratio ran on the same one.

With a threshold ``PCT`` a speedup has **regressed** when
``now < base * (1 - PCT/100)`` and **improved** when
``now > base * (1 + PCT/100)``; :func:`compare` pairs the speedups of two
runs, :func:`render_comparison` prints them and :func:`verdict` gives the exit
status. ``--fail-above`` makes regressions fail (:data:`EXIT_REGRESSED`), after
``benchmarks.gate.confirm_regressions`` has timed each of them again.

Examples
--------
>>> from benchmarks.results import Run
>>> base = Run(medians={"dict_flatten": {"gymspaces": 1e-6, "gymnasium": 20e-6}})
>>> now = Run(medians={"dict_flatten": {"gymspaces": 2e-6, "gymnasium": 20e-6}})
>>> comparison = compare(now, base, name="base.json", threshold=15, gating=True)
>>> [(s.name, f"{s.base:.0f}x", f"{s.now:.0f}x", f"{s.change:+.0%}") for s in comparison.regressions]
[('dict_flatten', '20x', '10x', '-50%')]
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from benchmarks.cases import CASES_BY_KEY
from benchmarks.errors import EXIT_OK, EXIT_REGRESSED, UsageError
from benchmarks.patched import KERNELS
from benchmarks.publish import FORMAT, load_figures
from benchmarks.results import COUNTED, Run
from benchmarks.table import aligned, fit

REPORT_THRESHOLD = 10.0
"""The threshold (percent) of the changes listed when ``--fail-above`` is not given."""
REMEASURED = "*"
MAIN = ""
"""The measure of a case's own speedup (Gymnasium over gymspaces, or plain over patched)."""
MEASURES = ((MAIN, "gymspaces"), (KERNELS, KERNELS))
"""Each measure and the implementation Gymnasium's median is divided by."""


SIGNIFICANCE = 0.01
"""A re-measured speedup is called regressed only if chance alone would put as many of its pairs past the
threshold less often than this (:func:`sign_test`)."""


def sign_test(ratios: Iterable[float], line: float) -> float:
    """The one-sided sign test of interleaved pair ratios against ``line``: the chance of at least as many
    ratios below ``line`` as observed if each pair fell on either side of it with even odds.

    >>> round(sign_test([0.9] * 17 + [1.1] * 4, 1.0), 4)
    0.0036
    """
    ratios = list(ratios)
    below = sum(ratio < line for ratio in ratios)
    total = len(ratios)
    return sum(math.comb(total, k) for k in range(below, total + 1)) / 2**total


def regressed(base: float, now: float, threshold: float) -> bool:
    """Whether a speedup fell by more than ``threshold`` percent: ``now < base * (1 - threshold/100)``."""
    return now < base * (1 - threshold / 100)


def improved(base: float, now: float, threshold: float) -> bool:
    """Whether a speedup rose by more than ``threshold`` percent: ``now > base * (1 + threshold/100)``."""
    return now > base * (1 + threshold / 100)


@dataclass
class Speedup:
    """One speedup of a case in both runs."""

    key: str
    measure: str
    """:data:`MAIN`, or ``"kernels"`` for a patched case's kernels gain."""
    base: float
    now: float
    remeasured: int = 0
    """How many times it was timed again, interleaved, before it was judged."""
    chance: float | None = None
    """After re-measurement, the chance that as many of its interleaved pairs would fall past the threshold
    if it had not regressed (a one-sided sign test); it is called regressed only below :data:`SIGNIFICANCE`."""
    low: float | None = None
    """A timed baseline's speedup at the low edge of its spread (Gymnasium's first quartile over the other
    side's third), where the baseline kept its quartiles; never above ``base``."""

    @property
    def name(self) -> str:
        return self.key if self.measure == MAIN else f"{self.key} ({self.measure})"

    @property
    def change(self) -> float:
        """``now / base - 1``: +0.10 is 10% faster relative to Gymnasium than the baseline was."""
        return self.now / self.base - 1


@dataclass
class Comparison:
    """The speedups of a run against a baseline's, and the cases only one of them has."""

    name: str
    """What the baseline is called in the output (its file)."""
    threshold: float
    """Percent; from ``--fail-above``, else :data:`REPORT_THRESHOLD`."""
    gating: bool
    """Whether regressions fail (``--fail-above`` given)."""
    speedups: list[Speedup] = field(default_factory=list)
    only_now: list[str] = field(default_factory=list)
    only_base: list[str] = field(default_factory=list)
    described: str = ""
    """When and where the baseline was run, if known."""
    timed: bool = True
    """Whether the speedups are timed (else two instruction counts are compared)."""
    refused: str = ""
    """Why ``--fail-above`` does not gate this comparison (a timed run with nothing to judge a fall on)."""

    def line(self, speedup: Speedup) -> float:
        """The speedup below which ``speedup`` fell past the threshold: ``base x (1 - PCT/100)``, from the low
        edge of the baseline's spread instead of its median for a timed run."""
        base = speedup.low if self.timed and speedup.low is not None else speedup.base
        return base * (1 - self.threshold / 100)

    def fell(self, speedup: Speedup) -> bool:
        """Whether ``speedup`` is below :meth:`line` on this run's figures."""
        return speedup.now < self.line(speedup)

    @property
    def regressions(self) -> list[Speedup]:
        """The speedups below the line on their figures, less those their re-measured pairs do not show."""
        return [s for s in self.speedups if self.fell(s) and not self.within_noise(s)]

    @property
    def failures(self) -> list[Speedup]:
        """The regressions that fail the command: every one of a count; of a timed run, only those shown by
        pairs measured in this run (their sign test below :data:`SIGNIFICANCE`), and none if refused."""
        if not self.gating or self.refused:
            return []
        return [s for s in self.regressions if not self.timed or (s.chance is not None and s.chance < SIGNIFICANCE)]

    def within_noise(self, speedup: Speedup) -> bool:
        """Whether ``speedup`` fell on its figures but its re-measured pairs do not show it (sign test)."""
        return speedup.chance is not None and speedup.chance >= SIGNIFICANCE

    @property
    def noise(self) -> list[Speedup]:
        """The speedups below the threshold on their figures that the sign test did not call regressed."""
        return [s for s in self.speedups if self.fell(s) and self.within_noise(s)]

    @property
    def improvements(self) -> list[Speedup]:
        return [s for s in self.speedups if improved(s.base, s.now, self.threshold)]


def speedups_of(run: Run, keys: Iterable[str] | None = None) -> dict[tuple[str, str], float]:
    """Every speedup of ``run`` by ``(case key, measure)``, only of the cases ``keys`` if given."""
    wanted = None if keys is None else set(keys)
    found = {}
    for key, medians in run.medians.items():
        if wanted is not None and key not in wanted:
            continue
        plain = medians.get("gymnasium")
        if plain is None or plain <= 0:
            continue
        for measure, implementation in MEASURES:
            side = medians.get(implementation)
            if side is not None and side > 0:
                found[key, measure] = plain / side
    return found


def _order(name: tuple[str, str]) -> tuple[int, str, str]:
    """Cases in the order the bench lists them (cases unknown to this version last), each case's own
    speedup before its kernels gain."""
    order = list(CASES_BY_KEY)
    key, measure = name
    return (order.index(key) if key in CASES_BY_KEY else len(order), key, measure)


def _names(pairs: Iterable[tuple[str, str]]) -> list[str]:
    return [key if measure == MAIN else f"{key} ({measure})" for key, measure in sorted(pairs, key=_order)]


def compare(
    run: Run,
    baseline: Run,
    *,
    name: str,
    threshold: float | None = None,
    gating: bool = False,
    cases: Iterable[str] | None = None,
) -> Comparison:
    """Pair the speedups of ``run`` with those of ``baseline``.

    Parameters
    ----------
    run, baseline : Run
        This run and the saved one.
    name : str
        What the baseline is called in the output.
    threshold : float, optional
        Percent (``--fail-above``); default :data:`REPORT_THRESHOLD`, for the listing only.
    gating : bool
        Whether a regression fails the command (see :func:`verdict`).
    cases : iterable of str, optional
        The cases run (``--cases``): only these are compared or listed as missing from one run.

    Returns
    -------
    Comparison
    """
    keys = None if cases is None else list(cases)
    timed = not run.mode == baseline.mode == COUNTED
    if not timed:
        run = _on_base_reference(run, baseline)
    now, base = speedups_of(run, keys), speedups_of(baseline, keys)
    lows = low_edges(baseline, keys) if timed else {}
    both = sorted(set(now) & set(base), key=_order)
    refused = ""
    if timed and gating and both and not lows:
        refused = (
            f"{name} keeps no spread of its times (quartiles), and a timed fall is judged against it: "
            "save the baseline with --json, or --figures of this version"
        )
    return Comparison(
        name,
        REPORT_THRESHOLD if threshold is None else threshold,
        gating,
        [Speedup(key, measure, base[key, measure], now[key, measure], low=lows.get((key, measure)))
         for key, measure in both],
        _names(set(now) - set(base)),
        _names(set(base) - set(now)),
        describe(baseline),
        timed,
        refused,
    )


def low_edges(run: Run, keys: Iterable[str] | None = None) -> dict[tuple[str, str], float]:
    """Each speedup of a timed ``run`` at the low edge of its spread: Gymnasium's first quartile over the
    other side's third (at most the speedup of the medians), where the run kept both."""
    medians = speedups_of(run, keys)
    found = {}
    for (key, measure), speedup in medians.items():
        side = dict(MEASURES)[measure]
        spread = run.spread.get(key, {})
        if "gymnasium" in spread and side in spread and spread[side][1] > 0:
            found[key, measure] = min(speedup, spread["gymnasium"][0] / spread[side][1])
    return found


def _on_base_reference(run: Run, baseline: Run) -> Run:
    """``run`` with Gymnasium's counts of ``baseline``: two counts compare gymspaces' own instructions.

    Gymnasium's count of a case moves a little with the heap it finds (an
    image's pickle: up to 8% between two counts of the same code, measured),
    gymspaces' far less; divided by the baseline's Gymnasium count on both
    sides, a speedup changes exactly as gymspaces' own count does.
    """
    medians = {}
    for key, sides in run.medians.items():
        reference = baseline.medians.get(key, {}).get("gymnasium")
        medians[key] = {**sides, "gymnasium": reference} if reference is not None else dict(sides)
    return dataclasses.replace(run, medians=medians)


def describe(run: Run) -> str:
    """When, where and how a run was made, as far as its file says."""
    identity = run.identity
    mode = f"{run.mode} mode" if run.mode else ""
    parts = [identity.get("date"), identity.get("python"), identity.get("system"), mode]
    return ", ".join(str(part) for part in parts if part)


def load_baseline(path: str | os.PathLike[str]) -> Run:
    """The run of ``--compare BASE``: pytest-benchmark JSON (``--json``) or a figures file (``--figures``).

    Raises
    ------
    UsageError
        If the file cannot be read, is neither, or holds no Gymnasium figure (so no speedup).
    """
    try:
        run = load_figures(path).run
    except UsageError as error:
        if str(path) in str(error):
            raise
        raise UsageError(f"--compare {path}: {error}") from None
    if not speedups_of(run):
        raise UsageError(
            f"--compare {path}: no speedup to compare with (no case has both a gymspaces and a Gymnasium "
            f"median); it takes the JSON of --json or of --figures ({FORMAT}) from a run with Gymnasium"
        )
    return run


def check_threshold(value: float | None, compare_path: str | None) -> None:
    """``--fail-above`` needs ``--compare`` and a percentage in [0, 100)."""
    if value is None:
        return
    if compare_path is None:
        raise UsageError("--fail-above PCT judges a --compare BASE.json; give the baseline too")
    if not 0 <= value < 100:
        raise UsageError(f"--fail-above takes a percentage from 0 to below 100, not {value:g}")


def _ratio(value: float) -> str:
    return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"


def render_comparison(comparison: Comparison) -> list[str]:
    """The comparison as lines of at most 100 columns: the regressed and improved speedups, and the cases
    only one run has."""
    c = comparison
    pct = f"{c.threshold:g}%"
    where = f" ({c.described})" if c.described else ""
    lines = [
        f"speedups against {c.name}{where}:",
        f"{len(c.speedups)} compared, {len(c.regressions)} regressed, {len(c.improvements)} improved",
        "speedup = Gymnasium / gymspaces in one run (plain / patched in patch mode)",
        f"regressed: now < base x (1 - {pct}); improved: now > base x (1 + {pct})",
    ]
    if c.timed and any(s.low is not None for s in c.speedups):
        lines.append(
            "timed: base is the median ratio; the line starts from its spread's low edge (Gymnasium's first "
            "quartile / the other side's third), and a fall fails only if pairs measured in this run show it"
        )
    if not c.gating:
        lines.append("regressions are listed, not failed (see --fail-above)")
    elif c.refused:
        lines.append(f"--fail-above does not gate this run: {c.refused}")
    table = [["case", "base", "now", "change", "verdict"]]
    for label, speedups, sign in (("REGRESSED", c.regressions, 1), ("improved", c.improvements, -1)):
        for s in sorted(speedups, key=lambda s: sign * s.change):  # the largest change first
            mark = REMEASURED if s.remeasured else ""
            table.append([s.name, _ratio(s.base), _ratio(s.now), f"{s.change:+.1%}", label + mark])
    if len(table) > 1:
        lines.append("")
        lines.extend(aligned(table))
    if any(s.remeasured for s in c.regressions + c.improvements):
        lines.append(f"{REMEASURED} re-measured, both sides interleaved, before it was judged (notes above)")
    for s in c.noise:
        lines.append(
            f"within noise: {s.name} {_ratio(s.base)} -> {_ratio(s.now)} ({s.change:+.1%}) on its median pair, but "
            f"its re-measured pairs fell past {pct} no more often than chance (sign test, p = {s.chance:.2f})"
        )
    for names, where_only in ((c.only_now, "this run"), (c.only_base, c.name)):
        if names:
            lines.append(f"only in {where_only}, not compared: {', '.join(names)}")
    return fit(lines)


def verdict(comparison: Comparison) -> int:
    """Print the verdict of ``comparison`` and return the exit status: :data:`EXIT_REGRESSED` when it gates
    and a speedup regressed past its threshold, else :data:`EXIT_OK`."""
    c = comparison
    regressions = sorted(c.regressions, key=lambda s: s.change)
    pct = f"{c.threshold:g}%"
    print()
    if not c.speedups:
        print(f"compare: nothing compared, no case has a speedup in both this run and {c.name}")
        return EXIT_OK
    if not regressions:
        head = "PASS, none" if c.gating and not c.refused else "none"
        print(f"compare: {head} of {len(c.speedups)} speedups fell more than {pct} against {c.name}")
        return EXIT_OK
    failures = sorted(c.failures, key=lambda s: s.change)
    shown = failures or regressions
    if failures:
        head = "FAIL,"
    elif c.gating and not c.refused:
        head = "PASS, no fall shown by this run's pairs;"  # a timed fall that was not measured again
    else:
        head = "reported only,"
    head = f"{head} {len(shown)} of {len(c.speedups)} speedups fell more than {pct} against {c.name}"
    lines = [f"compare: {head}:"]
    lines += [f"  {s.name}: {_ratio(s.base)} -> {_ratio(s.now)} ({s.change:+.1%})" for s in shown]
    if c.gating and c.refused:
        lines.append(f"(not gated: {c.refused})")
    print("\n".join(fit(lines)))
    return EXIT_REGRESSED if failures else EXIT_OK


__all__ = [
    "MAIN", "REPORT_THRESHOLD", "SIGNIFICANCE", "Comparison", "Speedup", "check_threshold", "compare", "describe",
    "improved", "load_baseline", "low_edges", "regressed", "render_comparison", "sign_test", "speedups_of",
    "verdict",
]
