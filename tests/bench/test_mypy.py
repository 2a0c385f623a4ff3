"""The benchmarks type-check as the package does (``[tool.mypy]`` of pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_benchmarks(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "benchmarks"],
        cwd=ROOT,
        env={**os.environ, "MYPY_CACHE_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, f"mypy benchmarks:\n{completed.stdout}\n{completed.stderr}"
