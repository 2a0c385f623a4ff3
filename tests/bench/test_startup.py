"""The start-up cases (``benchmarks.startup``): pairs of fresh interpreters, with and without patch mode.

No assertion depends on how long a start takes; one tiny real run (three
pairs of ``python -c pass``) checks the path from the suite to the table.
"""

from __future__ import annotations

import json
import os

import pytest

from benchmarks import startup
from benchmarks.evaluation import evaluate
from benchmarks.render import render
from benchmarks.results import read_run
from benchmarks.targets import default_targets_path, load_targets

CHEAP = startup.Startup("startup_hook", "cheap", startup.Side("pass", "1"), startup.Side("pass"), "pass", "why")


def test_children_inherit_gymspaces_patch_only_where_set_on_purpose():
    base = {"GYMSPACES_PATCH": "1", "PYTHONDONTWRITEBYTECODE": "1", "HOME": "/home"}
    plain = startup.environment(base, None, "/cache")
    assert plain == {"HOME": "/home", "PYTHONPYCACHEPREFIX": "/cache"}
    assert startup.environment(base, "1", "/cache")["GYMSPACES_PATCH"] == "1"
    timer = startup.PairTimer(startup.STARTUPS["startup_patch"], base)
    try:
        assert all("GYMSPACES_PATCH" not in env for env in timer.envs.values())
    finally:
        timer.close()
    assert not os.path.exists(timer.cache)


def test_the_sides_alternate_pair_by_pair(monkeypatch):
    ran = []

    def cpu_seconds(code, env):
        ran.append(env.get("GYMSPACES_PATCH"))
        return 0.1 if env.get("GYMSPACES_PATCH") else 0.07

    monkeypatch.setattr(startup, "cpu_seconds", cpu_seconds)
    timer = startup.PairTimer(CHEAP, os.environ)
    for _ in range(3):
        timer()
    timer.close()
    assert ran == ["1", None, None, "1", "1", None]
    assert timer.times.with_ == [0.1] * 3 and timer.times.without == [0.07] * 3
    assert timer.times.added == pytest.approx(0.03)


def test_the_added_cost_is_the_median_of_paired_differences():
    # A slow spell over the third pair moves both of its processes: the pairs
    # keep the 1 ms difference that the medians of each side would lose.
    times = startup.PairedTimes([0.101, 0.102, 0.301, 0.103, 0.104], [0.100, 0.101, 0.300, 0.102, 0.103])
    assert times.added == pytest.approx(0.001)


def test_a_child_is_timed_on_its_cpu_and_its_failure_is_reported():
    assert 0 < startup.cpu_seconds("pass", os.environ) < 60
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        startup.cpu_seconds("1 / 0", os.environ)


def test_a_case_whose_patch_mode_is_not_in_effect_is_unavailable():
    check = "raise SystemExit(1)"
    absent = startup.Startup("startup_hook", "x", startup.Side("pass", "1"), startup.Side("pass"), check, "why")
    timers = [startup.PairTimer(absent, os.environ), startup.PairTimer(CHEAP, os.environ)]
    try:
        assert [timer.available() for timer in timers] == [False, True]
    finally:
        for timer in timers:
            timer.close()


def _benchmark(key, with_, without):
    info = {"case": key, "implementation": "gymspaces", "version": "0",
            "startup": {"with": with_, "without": without, "clock": startup.CLOCK}}
    return {"extra_info": info, "stats": {"median": 9.9}, "options": {"max_time": 0.1}}


def test_start_up_rows_show_both_sides_and_the_paired_difference_against_an_orientation_target():
    pairs = 30
    data = {"benchmarks": [
        _benchmark("startup_hook", [0.0205] * pairs, [0.0200] * pairs),
        _benchmark("startup_patch", [0.170] * pairs, [0.150] * pairs),
    ]}
    run = read_run(json.loads(json.dumps(data)))
    assert run.medians["startup_hook"] == {"gymspaces": 0.0205, "without": 0.0200}
    assert run.extra["startup_hook"]["added"] == pytest.approx(0.0005)
    targets = load_targets(default_targets_path())
    assert targets.absolute["startup_hook"] == {"max_ms_added": 3}
    assert targets.absolute["startup_patch"] == targets.absolute["startup_hook_gymnasium"] == {"max_ms_added": 15}
    report = evaluate(run, targets, cases=["startup_hook", "startup_patch"])
    lines = render(report, run).splitlines()
    at = next(index for index, line in enumerate(lines) if line.startswith("startup_hook "))
    assert lines[at].split() == ["startup_hook", "20.50", "ms", "20.00", "ms"]
    assert lines[at + 1].split() == ["(with", "-", "without,", "paired)", "+0.50", "ms"]
    notes = {line.split(":")[1].strip(): line for line in lines if line.startswith("note: startup_")}
    assert notes["startup_hook"].startswith(
        "note: startup_hook: +0.5 ms added (median, 30 pairs), within its +3 ms target (not gated)"
    )
    assert "+20.0 ms" in notes["startup_patch"] and "over its +15 ms target (not gated)" in notes["startup_patch"]
    assert not report.misses  # orientation, as the import case: never gated


def test_a_real_start_up_run(tmp_path):
    """Three pairs of `GYMSPACES_PATCH=1 python -c pass` and `python -c pass`, through the suite and the table."""
    from test_cli import _run_bench

    prelude = "import benchmarks.startup as startup\nstartup.PAIRS = 3"
    result = _run_bench(["--quick", "--cases", "startup_hook", "--json", "run.json"], tmp_path, prelude)
    assert result.returncode == 0, result.stderr
    figures = json.loads((tmp_path / "run.json").read_text())["benchmarks"][0]["extra_info"]["startup"]
    assert len(figures["with"]) == len(figures["without"]) == 3
    assert "(with - without, paired)" in result.stdout and "note: startup_hook: " in result.stdout
