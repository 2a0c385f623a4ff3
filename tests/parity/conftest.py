"""Fixtures shared by the parity modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import gymspaces

TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/, holding support/


@pytest.fixture(scope="module")
def optimized_report(request):
    """The requesting module's ``OPTIMIZED_SCRIPT`` run once under ``python -O`` on its
    ``OPTIMIZED_CASES`` (``sys.argv[1]``, as JSON): the JSON report it prints. The
    subprocess imports the gymspaces under test, and ``support`` from tests/."""
    cases = request.module.OPTIMIZED_CASES
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(gymspaces.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, TESTS_DIR, env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-O", "-c", request.module.OPTIMIZED_SCRIPT, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, f"subprocess failed (rc={result.returncode}):\n{result.stderr[-3000:]}"
    return json.loads(result.stdout)
