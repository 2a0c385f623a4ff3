"""The real-loop cases of the benchmark (``benchmarks.realloop``): honest and gated.

No assertion depends on a timing: the loops compute the same results patched
and plain, the plain share is a fraction, the Gymnasium-only loops have
floors, and the report's table reads the run.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks import realloop
from benchmarks.cases import CASES_BY_KEY
from benchmarks.evaluation import GEOMETRIC_KEYS
from benchmarks.results import Run
from benchmarks.targets import load_targets
from benchmarks.e2e import _same
from gymspaces.gymnasium import patched

TARGETS = Path(__file__).resolve().parents[2] / "benchmarks" / "targets.toml"


def test_every_loop_is_a_slow_case_patched_against_plain():
    for key in realloop.LOOPS:
        case = CASES_BY_KEY[key]
        assert case.slow and case.beyond and case.context is not None, key
        assert key not in GEOMETRIC_KEYS


def test_the_gymnasium_only_loops_are_gated_and_the_others_are_not():
    targets = load_targets(TARGETS)
    assert set(realloop.GYMNASIUM_ONLY) == {
        "real_taxi_random",
        "real_taxi_q_learning",
        "real_cartpole_make_vec",
        "real_cartpole_cleanrl",
        "real_cartpole_flatten",
    }
    for key, loop in realloop.LOOPS.items():
        assert (key in targets.ratio) == (not loop.requires), key
        if key in targets.ratio:
            assert targets.ratio[key] >= 1.0, key  # never a floor that accepts a slowdown


def test_a_loop_computes_the_same_patched_and_plain():
    probe = realloop.probe("real_taxi_q_learning")
    assert 0.0 < probe.share < 1.0 and probe.if_free == pytest.approx(1 / (1 - probe.share))
    assert 0.0 < probe.in_spaces < probe.seconds and probe.calls > 0
    with patched():
        assert _same(realloop.LOOPS["real_taxi_q_learning"].run(), probe.fingerprint)


def test_a_run_that_differs_from_plain_fails(monkeypatch):
    key = "real_taxi_q_learning"
    monkeypatch.setitem(realloop._probes, key, realloop.Probe("not the Q-table", 1.0, 0.5, 1))
    run = realloop.setup(key)(SimpleNamespace(name="gymspaces"))  # the library namespace: only its name is read
    with pytest.raises(AssertionError, match="other results than the plain run"):
        run()


def test_loops_needing_an_absent_package_are_skipped(monkeypatch):
    loop = realloop.LOOPS["real_minigrid_doorkey"]
    monkeypatch.setitem(realloop.LOOPS, loop.key, realloop.Loop(loop.key, loop.label, loop.run, ("gymspaces_no_such_module",)))
    with pytest.raises(pytest.skip.Exception, match="gymspaces_no_such_module"):
        realloop.setup(loop.key)(SimpleNamespace(name="gymspaces"))


def test_the_table_shows_plain_patched_ratio_share_and_gain_if_free():
    run = Run()
    run.medians["real_taxi_random"] = {"gymnasium": 0.9, "gymspaces": 0.3}
    run.extra["real_taxi_random"] = {"share": 0.5}
    run.medians["real_cartpole_cleanrl"] = {"gymnasium": 1.0}
    lines = realloop.render(run)
    assert lines[0].split() == ["real", "loop", "plain", "patched", "ratio", "share", "if", "free"]
    assert lines[2].split() == ["real_taxi_random", "0.900", "s", "0.300", "s", "3.00x", "50.0%", "2.00x"]
    assert lines[3].split() == ["real_cartpole_cleanrl", "1.000", "s", "-", "-", "-", "-"]
    assert realloop.render(Run()) == []
