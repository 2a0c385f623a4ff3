"""Two builds of gymspaces timed side by side: the same bench cases, each build's runs alternating.

CI builds the kernels twice, as usual and with ``GYMSPACES_NO_INT128=1`` (the
PCG64 step in portable two-word arithmetic, see ``gymspaces/_rng.pxd``), each
into its own tree and environment. This tool runs ``python -m benchmarks
--quick --cases ...`` in one, then the other, ``--rounds`` times over, and
compares gymspaces' medians case by case: both builds run on the same machine
in the same minutes, so their absolute times compare directly (a ratio to
Gymnasium would add the noise of Gymnasium's side, which for an image Box
varies between runs by more than the builds differ). A case's figure is the
median over the rounds of its median in each run.

Usage::

    python tests/tools/compare_builds.py --base PYTHON:TREE --build PYTHON:TREE \\
        --cases box_sample_image,box_sample_large [--rounds 3] [--target 1.15] [--fail-above 2]

Exit status 0 when every case of ``--build`` takes at most ``--fail-above``
times as long as in ``--base``; 1 otherwise (a case over ``--target`` but
under ``--fail-above`` is printed as over its target, and does not fail).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

# The bench's own reader of its JSON, from the checkout this tool is in.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.results import read_run  # noqa: E402


@dataclass(frozen=True)
class Build:
    """An interpreter with gymspaces installed, and the checkout its benchmarks run from."""

    python: str
    tree: Path

    @classmethod
    def parse(cls, text: str) -> Build:
        python, _, tree = text.partition(":")
        if not python or not tree:
            raise argparse.ArgumentTypeError(f"expected PYTHON:TREE, not {text!r}")
        return cls(python, Path(tree))

    def pcg64_path(self) -> str:
        """The build's ``gymspaces._rng.PCG64_PATH`` (and whether its inline path is on)."""
        code = "import gymspaces._rng as r; print(r.PCG64_PATH, 'inline' if r.PCG64_INLINE else 'numpy')"
        return subprocess.run([self.python, "-c", code], cwd=self.tree, capture_output=True, text=True,
                              check=True).stdout.strip()

    def medians(self, cases: list[str], output: Path) -> dict[str, float]:
        """One quick bench run of ``cases``: gymspaces' median of each, in seconds."""
        command = [self.python, "-m", "benchmarks", "--quick", "--cases", ",".join(cases), "--json", str(output)]
        result = subprocess.run(command, cwd=self.tree, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"{' '.join(command)} (in {self.tree}) failed:\n{result.stdout}\n{result.stderr}")
        return gymspaces_medians(json.loads(output.read_text()))


def gymspaces_medians(data: dict) -> dict[str, float]:
    """gymspaces' median of every case in the bench's pytest-benchmark JSON, as the bench reads it."""
    return {key: medians["gymspaces"] for key, medians in read_run(data).medians.items() if "gymspaces" in medians}


@dataclass(frozen=True)
class Row:
    case: str
    base: float
    build: float

    @property
    def ratio(self) -> float:
        """How many times as long the build takes as the base."""
        return self.build / self.base


def compare(base_runs: list[dict[str, float]], build_runs: list[dict[str, float]]) -> list[Row]:
    """Per case in every run of both builds: the median over the runs of each build's median."""
    cases = set.intersection(*(set(run) for run in base_runs + build_runs))
    return [
        Row(case, statistics.median(run[case] for run in base_runs), statistics.median(run[case] for run in build_runs))
        for case in sorted(cases)
    ]


def verdict(row: Row, target: float, fail_above: float) -> str:
    if row.ratio > fail_above:
        return f"FAIL (over {fail_above:g}x)"
    if row.ratio > target:
        return f"over the {target:g}x target"
    return "within target"


def render(rows: list[Row], target: float, fail_above: float) -> list[str]:
    width = max([len("case")] + [len(row.case) for row in rows])
    lines = [f"{'case':<{width}}  {'base':>10}  {'build':>10}  {'build/base':>10}  verdict"]
    for row in rows:
        lines.append(
            f"{row.case:<{width}}  {row.base * 1e6:>8.2f}us  {row.build * 1e6:>8.2f}us  {row.ratio:>9.2f}x  "
            f"{verdict(row, target, fail_above)}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Build.parse, required=True, help="PYTHON:TREE of the reference build")
    parser.add_argument("--build", type=Build.parse, required=True, help="PYTHON:TREE of the build compared with it")
    parser.add_argument("--cases", required=True, help="bench case keys, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="bench runs of each build, alternating (default 3)")
    parser.add_argument("--target", type=float, default=1.15, help="build/base ratio reported as within target")
    parser.add_argument("--fail-above", type=float, default=2.0, help="build/base ratio that fails (exit 1)")
    options = parser.parse_args(argv)
    cases = [case for case in options.cases.split(",") if case]
    print(f"base:  {options.base.python} ({options.base.pcg64_path()})")
    print(f"build: {options.build.python} ({options.build.pcg64_path()})")
    runs: dict[str, list[dict[str, float]]] = {"base": [], "build": []}
    with tempfile.TemporaryDirectory(prefix="gymspaces-builds-") as folder:
        for round_ in range(options.rounds):
            # Alternate which build goes first: neither always meets the warmer machine.
            order = ["base", "build"] if round_ % 2 == 0 else ["build", "base"]
            for side in order:
                build = getattr(options, side)
                runs[side].append(build.medians(cases, Path(folder) / f"{side}-{round_}.json"))
    rows = compare(runs["base"], runs["build"])
    missing = sorted(set(cases) - {row.case for row in rows})
    print(f"gymspaces' medians, median of {options.rounds} quick runs of each build, alternating:")
    print("\n".join(render(rows, options.target, options.fail_above)))
    if missing:
        print(f"not measured in every run: {', '.join(missing)}")
    worst = max(rows, key=lambda row: row.ratio, default=None)
    if worst is not None:
        print(f"worst: {worst.case} {worst.ratio:.2f}x")
    return 1 if missing or any(row.ratio > options.fail_above for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
