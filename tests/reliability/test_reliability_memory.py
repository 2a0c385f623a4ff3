"""The memory stress script (``tests/tools/stress_memory.py``) in short form, in a subprocess.

The full run (1,000,000 calls per phase) is for CI and release checks; here a
short run checks that the mechanism works: both phases run every space kind,
pass, and report their figures, and a run with an injected leak fails.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "tools" / "stress_memory.py"
CALLS = 30_000


def run_stress(tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, dict]:
    report = tmp_path / "stress.json"
    process = subprocess.run(
        [sys.executable, str(SCRIPT), "--calls", str(CALLS), "--json", str(report), *extra],
        capture_output=True, text=True, timeout=300,
    )
    return process, json.loads(report.read_text())


def test_short_stress_run_passes(tmp_path):
    process, report = run_stress(tmp_path)
    assert process.returncode == 0, process.stdout + process.stderr
    assert process.stdout.rstrip().endswith("PASS")
    assert report["ok"] is True
    phases = {phase["phase"]: phase for phase in report["phases"]}
    assert set(phases) == {"success", "failure"}
    for phase in phases.values():
        assert phase["calls"] == CALLS
        assert 0 < phase["warmup_calls"] < CALLS
        assert phase["rss_before"] > 0 and phase["rss_after"] > 0
        assert phase["rss_growth"] <= report["rss_allowance"]
        assert phase["refcount_changes"] == {}
    for name in ("phase", "calls", "RSS before", "RSS after", "growth"):
        assert name in process.stdout


def test_injected_leak_is_caught(tmp_path):
    """A failing call that keeps a reference to its argument makes the run fail."""
    process, report = run_stress(tmp_path, "--inject-leak")
    assert process.returncode == 1, process.stdout + process.stderr
    assert process.stdout.rstrip().endswith("FAIL")
    failure = next(phase for phase in report["phases"] if phase["phase"] == "failure")
    assert failure["ok"] is False
    assert failure["refcount_changes"].get("garbage", 0) > 0
    success = next(phase for phase in report["phases"] if phase["phase"] == "success")
    assert success["ok"] is True


def test_dispatch_does_not_keep_classes_alive():
    """Regression: the flatten family and the vector helpers cached every class they
    dispatched on in a builtin dict, so a space class created at run time (and all it
    refers to) was never freed. Gymnasium's singledispatch caches weakly."""
    import gc
    import weakref

    import numpy as np

    import gymspaces as gs
    from gymspaces import _flattening, utils, vector

    classes = []
    for index in range(20):
        cls = type(f"RuntimeBox{index}", (gs.Box,), {})
        space = cls(0, 1, (2,), seed=index)
        sample = space.sample()
        utils.flatdim(space)
        utils.flatten_space(space)
        utils.unflatten(space, utils.flatten(space, sample))
        vector.concatenate(space, [sample], vector.create_empty_array(space, 1))
        list(vector.iterate(vector.batch_space(space, 2), np.zeros((2, 2), np.float32)))
        vector.create_shared_memory(space, 1)
        utils.flatten(gs.Dict({"a": space}), {"a": sample})  # through the compiled entry
        classes.append(weakref.ref(cls))
        del cls, space
    gc.collect()
    assert [ref for ref in classes if ref() is not None] == []
    # Built-in classes still dispatch to their registered implementations.
    assert utils.flatten.dispatch(gs.Discrete) is _flattening._flatten_discrete
    assert vector.batch_space.dispatch(gs.Graph) is vector.batch_space.registry[gs.Graph]
