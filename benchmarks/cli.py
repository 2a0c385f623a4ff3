"""``python -m benchmarks``: benchmark gymspaces against Gymnasium and gate on targets.

The command runs the pytest-benchmark suite of
:mod:`benchmarks.suite` in this process (:mod:`~benchmarks.runner`),
then reads pytest-benchmark's JSON (:mod:`~benchmarks.results`) to print,
per case, the gymspaces and Gymnasium medians and their ratio (Gymnasium /
gymspaces, so higher is better) against the speed targets of a targets file
(:mod:`~benchmarks.targets`, :mod:`~benchmarks.evaluation`,
:mod:`~benchmarks.render`), and the distance of gymspaces to the case's
floor: the least work the case must do, timed in the same run
(:mod:`benchmarks.floors`). ``--check`` turns missed targets into a
non-zero exit status (:mod:`~benchmarks.gate`); ``--compare BASE.json``
compares each speedup with a saved run's, and ``--fail-above PCT`` turns
the ones that fell further into a non-zero exit status
(:mod:`~benchmarks.compare`). This module holds the command line and the
order of the steps.

Examples
--------
>>> from benchmarks.cli import main
>>> main(["--quick", "--cases", "discrete_sample"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.allocator import fix_allocator
from benchmarks.cases import CASES, CASES_BY_KEY
from benchmarks.chart import plot
from benchmarks.compare import check_threshold, compare, load_baseline, render_comparison, speedups_of
from benchmarks.compare import verdict as compare_verdict
from benchmarks.errors import (
    BENCH_EXTRA, EXIT_ERROR, EXIT_MISSED, EXIT_OK, EXIT_REGRESSED, EXIT_USAGE, PLOT_EXTRA, UsageError,
)
from benchmarks.evaluation import evaluate
from benchmarks.gate import GATE_ENV, confirm_misses, confirm_regressions, gate_mode, verdict
from benchmarks.instructions import count_run, render_counts
from benchmarks.publish import Figures, load_figures, publish, save_figures
from benchmarks.render import render
from benchmarks.results import COUNTED, Run, load_run
from benchmarks.runner import run_suite
from benchmarks.table import WIDTH, fit
from benchmarks.targets import default_targets_path, load_targets


def _have(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


class _Parser(argparse.ArgumentParser):
    """argparse's parser with the help led by what the command does and an example, then the usage."""

    def _get_formatter(self, *args: Any, **kwargs: Any) -> argparse.HelpFormatter:
        # argparse fills the terminal's width: a wide one still gets WIDTH columns at most.
        formatter = super()._get_formatter(*args, **kwargs)
        formatter._width = min(formatter._width, WIDTH)
        return formatter

    def format_help(self, formatter: argparse.HelpFormatter | None = None) -> str:
        # 3.15's print_help passes a formatter made for the stream (its colours).
        if formatter is None:
            formatter = self._get_formatter()
        formatter.add_text(self.description)
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()


def _paragraphs(*texts: str) -> str:
    # The raw formatter keeps the blank lines between paragraphs; each is
    # wrapped here, to a terminal's 80 columns.
    return "\n\n".join(textwrap.fill(text, 79) for text in texts)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m benchmarks",
        description=_paragraphs(
            "Benchmark gymspaces against Gymnasium with pytest-benchmark, print the medians "
            "and their ratio (Gymnasium / gymspaces) per case, and check them against speed targets.",
            "example:  python -m benchmarks --quick --check",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_paragraphs(
            "Arguments after '--' go to pytest (for instance -- --benchmark-max-time=2).",
            f"Exit status: {EXIT_OK} ok, {EXIT_MISSED} a target missed under --check "
            f"({GATE_ENV}=warn reports misses but exits {EXIT_OK}), {EXIT_USAGE} usage or "
            f"missing package, {EXIT_ERROR} a benchmark failed to run, {EXIT_REGRESSED} a speedup regressed "
            f"past --fail-above against the --compare baseline: a count's on its counts, a timed run's "
            f"only if pairs timed again in this run show it (a failure {EXIT_ERROR} or a miss "
            f"{EXIT_MISSED} comes first)."
        ),
    )
    parser.add_argument("--quick", action="store_true", help="short measurements (about a tenth of the default time)")
    parser.add_argument("--cases", metavar="KEY[,KEY...]", help="run only these cases (see --list)")
    parser.add_argument("--list", action="store_true", help="list the case keys and exit")
    parser.add_argument(
        "--json", metavar="FILE",
        help="write pytest-benchmark's JSON of the run to FILE: every measurement's statistics, under 1 MB for --quick",
    )
    parser.add_argument(
        "--raw", action="store_true",
        help="with --json: keep every round's time too (pytest-benchmark's data; about 160 MB for --quick)",
    )
    parser.add_argument(
        "--check",
        metavar="TARGETS",
        nargs="?",
        const="",
        help=(
            "exit non-zero when a case is below its speed target in TARGETS "
            "(default: benchmarks/targets.toml)"
        ),
    )
    parser.add_argument(
        "--compare",
        metavar="BASE.json",
        help=(
            "compare every case's speedup (Gymnasium / gymspaces, or plain / patched Gymnasium, and a patched "
            "case's kernels gain, each a ratio within one run, so BASE may come from another machine) with "
            "those of BASE, a file saved earlier by --json or --figures; changes beyond --fail-above PCT "
            "(default 10) are listed"
        ),
    )
    parser.add_argument(
        "--fail-above",
        metavar="PCT",
        type=float,
        help=(
            "with --compare: a speedup regressed when now < base x (1 - PCT/100), improved when now > base x "
            f"(1 + PCT/100). A count exits {EXIT_REGRESSED} on any regression. A timed run starts the line "
            "from the low edge of BASE's spread, times each fall again, both sides interleaved, and exits "
            f"{EXIT_REGRESSED} only if those pairs show it (sign test); against a BASE without its spread, "
            "or with --from-json, it reports and says why it does not gate"
        ),
    )
    parser.add_argument(
        "--plot", metavar="FILE", help="draw the speedups as a bar chart (.png or .svg; needs matplotlib)"
    )
    parser.add_argument(
        "--from-json",
        metavar="FILE",
        help="report on a saved run (from --json or pytest --benchmark-json) instead of benchmarking",
    )
    parser.add_argument(
        "--figures",
        metavar="FILE",
        help="save the run's figures (medians after re-measurement, versions, machine, targets) as compact JSON",
    )
    parser.add_argument(
        "--publish",
        metavar="FIGURES",
        help=(
            "rewrite every figure block of README.md, docs/performance.md and docs/patching.md, and "
            "docs/speedups.png, from FIGURES (from --figures or --json), and exit; a run without every "
            "case (--cases, a package missing) is refused, naming what it lacks, and nothing is written"
        ),
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help=(
            "count instructions per call under valgrind's callgrind instead of timing (the cases timed per "
            "call): the same count on a loaded machine as on an idle one, so --compare BASE --fail-above 3 "
            "is a CI gate that fails only on a real change; BASE from --instructions --figures FILE. It counts "
            "on every core and says each case counted on stderr"
        ),
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="show pytest's and pytest-benchmark's own output")
    return parser


def _split_pytest_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    argv = list(argv)
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1 :]
    return argv, []


def _parse_cases(text: str | None) -> list[str] | None:
    if text is None:
        return None
    keys = [key.strip() for key in text.split(",") if key.strip()]
    unknown = [key for key in keys if key not in CASES_BY_KEY]
    if unknown or not keys:
        raise UsageError(f"unknown cases {unknown or [text]}; known: {', '.join(CASES_BY_KEY)}")
    return keys


def _nothing_measured(run: Run, code: int) -> str:
    """The one line that says a run measured nothing, and why."""
    if run.unmeasured:
        reasons = sorted(set(run.unmeasured.values()))
        shown = "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")
        count = len(run.unmeasured)
        line = f"nothing measured ({count} case{'s' * (count != 1)} could not run: {shown})"
    elif code not in (0, 5):
        line = f"nothing measured: pytest stopped with exit code {code} (its output is above)"
    else:
        line = "nothing measured"
    return line if len(line) <= WIDTH - 23 else line[: WIDTH - 27] + " ...)"


def _count(options: argparse.Namespace, cases: list[str] | None, pytest_args: list[str]) -> int:
    """``--instructions``: count, print, save and compare instructions per call instead of timing."""
    timed_only = {
        "--check": options.check is not None, "--json": options.json, "--raw": options.raw,
        "--plot": options.plot, "--from-json": options.from_json, "--quick": options.quick,
        "pytest arguments": pytest_args,
    }
    given = [name for name, value in timed_only.items() if value]
    if given:
        verb = "is" if len(given) == 1 else "are"
        raise UsageError(f"--instructions counts instead of timing; {', '.join(given)} {verb} for timed runs")
    check_threshold(options.fail_above, options.compare)
    baseline = load_baseline(options.compare) if options.compare else None
    if baseline is not None and baseline.mode != COUNTED:
        raise UsageError(
            f"--compare {options.compare} holds times; a count compares with a count "
            f"(python -m benchmarks --instructions --figures FILE)"
        )
    if not _have("gymnasium"):
        raise UsageError(f"--instructions counts both sides of a case; Gymnasium is not installed: {BENCH_EXTRA}")
    try:
        run = count_run(cases, verbose=options.verbose, progress=sys.stderr)
    except RuntimeError as error:  # callgrind or a case's process failed: what it said is in the message
        print(f"python -m benchmarks: the count failed: {error}", file=sys.stderr)
        return EXIT_ERROR
    print("\n".join(fit(render_counts(run))))
    status = EXIT_OK
    if baseline is not None:
        comparison = compare(
            run, baseline, name=options.compare, threshold=options.fail_above,
            gating=options.fail_above is not None, cases=cases,
        )
        print()
        print("\n".join(render_comparison(comparison)))
        status = compare_verdict(comparison)
    if options.figures:
        size = save_figures(options.figures, Figures(run, load_targets(default_targets_path()), cases, True))
        print(f"wrote {options.figures} ({size / 1024:.0f} KB; a baseline for --instructions --compare)")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m benchmarks``; returns the exit status."""
    own_args, pytest_args = _split_pytest_args(sys.argv[1:] if argv is None else argv)
    options = _parser().parse_args(own_args)
    try:
        return _main(options, pytest_args)
    except UsageError as error:
        print(f"python -m benchmarks: error: {error}", file=sys.stderr)
        return EXIT_USAGE


def _main(options: argparse.Namespace, pytest_args: list[str]) -> int:
    if options.list:
        width = max(len(case.key) for case in CASES) + 2
        for case in CASES:
            label = textwrap.wrap(case.label, WIDTH - width)
            print(f"{case.key:{width}}{label[0]}", *(" " * width + line for line in label[1:]), sep="\n")
        return EXIT_OK
    if options.publish:
        for path in publish(options.publish):
            print(f"wrote {path}")
        return EXIT_OK
    cases = _parse_cases(options.cases)
    if options.instructions:
        return _count(options, cases, pytest_args)
    # Everything that can fail is checked before minutes of benchmarking.
    if options.raw and not options.json:
        raise UsageError("--raw keeps every round's time in the file --json writes: give --json FILE too")
    gate = gate_mode() if options.check is not None else None
    if gate is not None and not options.from_json and not _have("gymnasium"):
        raise UsageError(f"--check judges ratios to Gymnasium, which is not installed: {BENCH_EXTRA}")
    targets = load_targets(options.check or default_targets_path())
    check_threshold(options.fail_above, options.compare)
    if options.compare and not options.from_json and not _have("gymnasium"):
        raise UsageError(f"--compare compares ratios to Gymnasium, which is not installed: {BENCH_EXTRA}")
    baseline = load_baseline(options.compare) if options.compare else None
    if baseline is not None and baseline.mode == COUNTED:
        raise UsageError(
            f"--compare {options.compare} holds instruction counts; a timed run compares with a timed run "
            "(give --instructions to count this one too)"
        )
    if options.plot:
        if Path(options.plot).suffix.lower() not in (".png", ".svg"):
            raise UsageError(f"--plot writes .png or .svg files, not {options.plot!r}")
        if not _have("matplotlib"):
            raise UsageError(f"--plot needs matplotlib, which is not installed: {PLOT_EXTRA}")

    mode = ""
    has_reference = None
    if options.from_json:
        run = load_figures(options.from_json).run  # a figures file or pytest-benchmark JSON
        code = 0
        if baseline is not None and run.medians and not speedups_of(run):
            raise UsageError(f"--compare compares ratios to Gymnasium; {options.from_json} holds no Gymnasium figure")
    else:
        missing = [name for name in ("pytest", "pytest_benchmark") if not _have(name)]
        if missing:
            raise UsageError(f"benchmarking needs {' and '.join(missing)}, which is not installed: {BENCH_EXTRA}")
        has_reference = _have("gymnasium")
        if not has_reference:
            print(
                f"Gymnasium is not installed: benchmarking gymspaces alone ({BENCH_EXTRA} to compare).",
                file=sys.stderr,
            )
        mode = "quick" if options.quick else "full"
        # Large blocks take the same path through glibc's allocator in every process (benchmarks.allocator).
        fix_allocator()
        with tempfile.TemporaryDirectory(prefix="gymspaces-bench-json-") as scratch:
            json_path = options.json or str(Path(scratch) / "run.json")
            started = time.perf_counter()
            suite = run_suite(
                json_path, quick=options.quick, cases=cases, pytest_args=pytest_args, verbose=options.verbose,
                raw=options.raw,
            )
            code = suite.code
            elapsed = time.perf_counter() - started
            try:
                run = load_run(json_path)
            except UsageError:
                if code == 0 and not suite.unmeasured:
                    raise
                run = Run()  # nothing was measured: pytest-benchmark wrote no results
            run.unmeasured = suite.unmeasured
        print(f"benchmarked in {elapsed:.0f} s", file=sys.stderr)

    if not run.medians:
        # A table of dashes would hide the one fact that matters.
        print(f"python -m benchmarks: {_nothing_measured(run, code)}", file=sys.stderr)
        return EXIT_ERROR
    report = evaluate(run, targets, cases, baseline, has_reference)
    if not options.from_json and has_reference:
        # A case below its target is timed again, interleaved, before it is
        # printed at all: with or without --check, no false alarm is shown.
        report = confirm_misses(run, report, targets, cases, baseline)
    comparison = None
    if baseline is not None:
        gating = options.fail_above is not None
        comparison = compare(
            run, baseline, name=options.compare, threshold=options.fail_above, gating=gating, cases=cases
        )
        if gating and options.from_json:
            comparison.refused = "a saved run's falls cannot be timed again, and a timed fall needs this run's pairs"
        if gating and not options.from_json and not comparison.refused and confirm_regressions(run, comparison):
            report = evaluate(run, targets, cases, baseline, True)
            report.notes.extend(run.confirmed)
    print(render(report, run, mode=mode, baseline_name=options.compare))
    if comparison is not None:
        print()
        print("\n".join(render_comparison(comparison)))
    if options.json and not options.from_json:
        print(f"\nwrote {options.json} (pytest-benchmark JSON)")
    if options.figures:
        size = save_figures(options.figures, Figures(run, targets, cases, report.has_reference))
        print(f"wrote {options.figures} ({size / 1024:.0f} KB; --publish {options.figures} puts them in the docs)")
    if options.plot and any(row.ratio is not None for row in report.rows):
        plot(report, run, options.plot, mode=mode)
        print(f"wrote {options.plot}")
    elif options.plot:
        print(f"not drawing {options.plot}: there is no Gymnasium figure to compare with", file=sys.stderr)

    status = EXIT_OK if gate is None else verdict(report, targets, gate)
    if comparison is not None:
        regression = compare_verdict(comparison)
        status = status if status != EXIT_OK else regression
    if code not in (0, 5):
        # A benchmark that crashed is an error whatever GYMSPACES_GATE says.
        print(f"\nsome benchmarks failed to run (pytest exit code {code}); see the output above", file=sys.stderr)
        return EXIT_ERROR
    return status
