"""Does ``--report``'s gain agree with the same program timed from outside?

    python tests/tools/report_vs_time.py PROGRAM.py [--pairs 9] [--reports 5]

Runs PROGRAM plain (``python PROGRAM.py``) and patched (``python -m
gymspaces.gymnasium PROGRAM.py``) in alternating pairs of whole processes,
timing each from outside (wall clock, start to exit), and runs it under
``--report`` a few times, reading the gain on the report's first line. Prints
the median of the pairs' plain/patched ratios, the median gain the report
claimed, and how far apart they are; then the plain median over the
``--report`` runs' (what a user who times the run with the report on sees:
the recording and the report's work at exit in it, which the claimed gain
leaves out) and the load before and after. Exit status 1 when the claimed gain
and the one timed without the report are more than
``--tolerance`` percent apart (default 20, issue #51's bound).

A check run by hand on a real program (timings are never asserted in the test
suite); the figures it printed are quoted in docs/patching.md.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

GAIN = re.compile(r"this process: ~([0-9.]+)x (faster|slower) than plain")


def _environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in ("GYMSPACES_PATCH", "GYMSPACES_REPORT")}


def _wall(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=_environment(), capture_output=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.decode(errors='replace')}")
    return seconds


def _claimed(program: Path) -> tuple[float, float]:
    """The gain ``--report`` claims for one run, and that run's wall time (the report's own cost at exit in it)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gymspaces.gymnasium", "--report", program.name],
        cwd=program.parent, env=_environment(), capture_output=True, text=True, check=False,
    )
    seconds = time.perf_counter() - started
    found = GAIN.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"no gain in the report:\n{done.stderr}")
    value = float(found.group(1))
    return (value if found.group(2) == "faster" else 1 / value), seconds


def _load() -> str:
    try:
        with open("/proc/loadavg") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program", type=Path)
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--reports", type=int, default=5)
    parser.add_argument("--tolerance", type=float, default=20.0)
    options = parser.parse_args(argv)
    program = options.program.resolve()
    plain = [sys.executable, program.name]
    patched = [sys.executable, "-m", "gymspaces.gymnasium", program.name]
    loads = [_load()]
    _wall(plain, program.parent)  # warm the file system's caches
    ratios, plain_seconds = [], []
    for pair in range(options.pairs):
        order = (plain, patched) if pair % 2 == 0 else (patched, plain)
        seconds = {id(command): _wall(command, program.parent) for command in order}
        ratios.append(seconds[id(plain)] / seconds[id(patched)])
        plain_seconds.append(seconds[id(plain)])
    measured = statistics.median(ratios)
    plain_median = statistics.median(plain_seconds)
    runs = [_claimed(program) for _ in range(options.reports)]
    claims = [claim for claim, _ in runs]
    claimed = statistics.median(claims)
    with_report = plain_median / statistics.median(seconds for _, seconds in runs)
    off = claimed / measured - 1
    print(f"{program.name}: timed from outside {measured:.2f}x (pairs {min(ratios):.2f}x-{max(ratios):.2f}x); "
          f"--report {claimed:.2f}x (runs {min(claims):.2f}x-{max(claims):.2f}x); the report {off:+.0%} off")
    print(f"  plain {plain_median:.2f} s (median); with the report on, timed to exit: {with_report:.2f}x; "
          f"load {loads[0]} before, {_load()} after")
    return 1 if abs(off) * 100 > options.tolerance else 0

if __name__ == "__main__":
    sys.exit(main())
