"""Fixtures shared by the parity modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import gymspaces

TESTS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/, holding support/

# The script run under -O: around a module's OPTIMIZED_SCRIPT, which defines
# ``run(space, kwargs)`` (a sample's outcome, as JSON) and ``states(space)``, it
# builds each case in both libraries, seeds both with the case's index, samples
# once, and reports both outcomes and whether the generators end alike.
_OPTIMIZED_HEAD = textwrap.dedent(
    """
    import json, sys, warnings
    import numpy as np
    import gymnasium.spaces as gym
    import gymspaces as gs

    assert sys.flags.optimize
    warnings.simplefilter("ignore")
    """
)
_OPTIMIZED_CASES_LOOP = textwrap.dedent(
    """
    report = {}
    for index, source in enumerate(json.loads(sys.argv[1])):
        build = eval("lambda L: (" + source + ")")
        (a, kwargs), (b, _) = build(gs), build(gym)
        a.seed(index)
        b.seed(index)
        ra, rb = run(a, kwargs), run(b, kwargs)
        report[source] = {"gymspaces": ra, "gymnasium": rb, "same_state": states(a) == states(b)}
    print(json.dumps(report))
    """
)


@pytest.fixture(scope="module")
def optimized_report(request):
    """The requesting module's ``OPTIMIZED_SCRIPT`` run once under ``python -O`` on its
    ``OPTIMIZED_CASES`` (``sys.argv[1]``, as JSON): the JSON report it prints. The
    subprocess imports the gymspaces under test, and ``support`` from tests/."""
    cases = request.module.OPTIMIZED_CASES
    script = _OPTIMIZED_HEAD + request.module.OPTIMIZED_SCRIPT + _OPTIMIZED_CASES_LOOP
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(gymspaces.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, TESTS_DIR, env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-O", "-c", script, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 0, f"subprocess failed (rc={result.returncode}):\n{result.stderr[-3000:]}"
    return json.loads(result.stdout)
