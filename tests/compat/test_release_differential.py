"""Patch mode on the installed Gymnasium release gives exactly what that release gives plain.

Runs ``tests/tools/release_differential.py``: a few thousand deterministic
calls (``tests/support/release_cases.py``) in two fresh processes, plain and
after ``gymspaces.gymnasium.patch(unverified=True)``, every value, exception,
warning and generator state compared. Whatever release 0.29.1 to 1.4.0 is
installed, no case may differ. Never skipped: run it under each release
(``pytest tests/compat/test_release_differential.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium

TOOL = Path(__file__).resolve().parents[1] / "tools" / "release_differential.py"
# Every 5th case (about 3,500) in a suite run; CI runs every case once per release
# (.ci/run: the tool itself). GYMSPACES_RELEASE_DIFFERENTIAL_SAMPLE=1 runs them all here.
EVERY = int(os.environ.get("GYMSPACES_RELEASE_DIFFERENTIAL_SAMPLE", "5"))


def _report(summary: dict, limit: int = 40, width: int = 400) -> str:
    lines = [
        f"Gymnasium {summary['gymnasium']}, numpy {summary['numpy']}: "
        f"{summary['differ']} of {summary['cases']} cases differ under patch mode"
    ]
    lines += [f"PROBLEM: {problem}" for problem in summary["problems"]]
    for kind, group in sorted(summary["kinds"].items(), key=lambda item: -item[1]["count"]):
        lines.append(f"  {group['count']:5d}  {kind}  (e.g. {group['example']})")
    for difference in summary["differences"][:limit]:
        lines.append(f"- {difference['name']}")
        for part, both in difference["parts"].items():
            lines.append(f"    [{part}] plain:   {both['plain'][:width]}")
            lines.append(f"    [{part}] patched: {both['patched'][:width]}")
    if summary["differ"] > limit:
        lines.append(f"... and {summary['differ'] - limit} more")
    return "\n".join(lines)


def test_patch_mode_matches_the_installed_release(tmp_path: Path) -> None:
    summary_path = tmp_path / "release-differential.json"
    finished = subprocess.run(
        [sys.executable, str(TOOL), "--json", str(summary_path), "--show", "0", "--every", str(EVERY)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert summary_path.exists(), f"the tool wrote no summary (exit {finished.returncode}):\n{finished.stdout}\n{finished.stderr}"
    summary = json.loads(summary_path.read_text())
    assert summary["gymnasium"] == gymnasium.__version__
    assert summary["cases"] >= 10_000 // EVERY, summary["cases"]
    assert not summary["problems"], _report(summary)
    assert summary["differ"] == 0, _report(summary)
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
