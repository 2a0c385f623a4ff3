"""``python -m benchmarks --compare BASE.json [--fail-above PCT]``: speedups against a saved run's.

The comparison is checked as pure functions over synthetic runs (no timing
at all), through the command line on saved JSON (``--from-json``, nothing
measured), and end to end: one tiny real run saved with ``--json``, then
compared with copies whose speedups are a thousandfold smaller (it passes)
or larger (it fails with :data:`EXIT_REGRESSED`, live with its re-measure
faked, and saved). No assertion depends on how fast the machine is: the
unit suite passes under any load.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchmarks import cli as _benchcli
from benchmarks import gate as _gate
from benchmarks import paired as _paired
from benchmarks.cases import CASES_BY_KEY
from benchmarks.compare import (
    MAIN,
    REPORT_THRESHOLD,
    compare,
    improved,
    load_baseline,
    regressed,
    render_comparison,
    verdict,
)
from benchmarks.errors import EXIT_MISSED, EXIT_OK, EXIT_REGRESSED, EXIT_USAGE, UsageError
from benchmarks.evaluation import evaluate
from benchmarks.publish import FORMAT, Figures, save_figures
from benchmarks.render import render
from benchmarks.results import COUNTED, Run
from benchmarks.targets import default_targets_path, load_targets

RUN_CASES = ("discrete_sample", "discrete_contains")  # two of the cheapest: a whole run takes about a second
TINY = ["--", "--benchmark-max-time=0.002", "--benchmark-min-rounds=3"]


def _run(ratios: dict[str, float], kernels: dict[str, float] | None = None, spread: float | None = 0.0) -> Run:
    """A run in which case ``key`` is ``ratios[key]`` times faster than Gymnasium (1 us on gymspaces' side), each
    time's quartiles ``spread`` (a fraction) either side of its median (none kept if None)."""
    run = Run(versions={"gymspaces": "x", "gymnasium": "y"})
    for key, ratio in ratios.items():
        run.medians[key] = {"gymspaces": 1e-6, "gymnasium": ratio * 1e-6, "floor": 0.5e-6}
    for key, gain in (kernels or {}).items():
        run.medians[key]["kernels"] = run.medians[key]["gymnasium"] / gain
    if spread is not None:
        run.spread = {
            key: {side: [median * (1 - spread), median * (1 + spread)] for side, median in medians.items()}
            for key, medians in run.medians.items()
        }
    return run


def _proven(comparison):
    """As if every regression's pairs, timed again in this run, had shown it (a sign test of p = 0)."""
    for speedup in comparison.regressions:
        speedup.chance = 0.0
    return comparison


def _benchmark_json(run: Run) -> dict:
    """``run`` as pytest-benchmark JSON, as far as the bench reads it."""
    def stats(key: str, implementation: str, median: float) -> dict:
        q1, q3 = run.spread.get(key, {}).get(implementation, (None, None))
        return {"median": median, "q1": q1, "q3": q3}

    return {
        "benchmarks": [
            {"extra_info": {"case": key, "implementation": implementation}, "stats": stats(key, implementation, median)}
            for key, medians in run.medians.items()
            for implementation, median in medians.items()
        ],
        "gymspaces_bench": {"mode": "quick"},
        "datetime": "2025-01-02T03:04:05",
    }


def _write(path: Path, run: Run) -> str:
    path.write_text(json.dumps(_benchmark_json(run)))
    return str(path)


# --------------------------------------------------------------------------- the definitions


def test_regressed_is_a_fall_of_more_than_the_threshold():
    assert regressed(20.0, 16.9, 15) and not regressed(20.0, 17.0, 15)  # 17 = 20 x 0.85: not more than 15%
    assert improved(20.0, 23.1, 15) and not improved(20.0, 23.0, 15)
    assert not regressed(20.0, 20.0, 0) and regressed(20.0, 19.99, 0)


def test_a_regression_past_the_threshold_fails_with_base_now_and_change(capsys):
    comparison = compare(
        _run({"dict_flatten": 10.0, "box_sample": 40.0}),
        _run({"dict_flatten": 20.0, "box_sample": 41.0}),
        name="main.json", threshold=15, gating=True,
    )
    assert [(s.name, s.base, s.now) for s in comparison.regressions] == [("dict_flatten", 20.0, 10.0)]
    assert comparison.improvements == [] and comparison.only_now == comparison.only_base == []
    # A timed fall fails only once pairs timed again in this run show it.
    assert comparison.failures == [] and verdict(comparison) == EXIT_OK
    assert "compare: PASS, no fall shown by this run's pairs; 1 of 2" in capsys.readouterr().out
    assert verdict(_proven(comparison)) == EXIT_REGRESSED == 4
    out = capsys.readouterr().out
    assert "compare: FAIL, 1 of 2 speedups fell more than 15% against main.json:" in out
    assert "  dict_flatten: 20.0x -> 10.0x (-50.0%)" in out
    row = next(line for line in render_comparison(comparison) if line.startswith("dict_flatten "))
    assert row.split() == ["dict_flatten", "20.0x", "10.0x", "-50.0%", "REGRESSED"]


def test_a_fall_within_the_threshold_passes(capsys):
    comparison = compare(_run({"dict_flatten": 18.0}), _run({"dict_flatten": 20.0}), name="b", threshold=15,
                         gating=True)
    assert comparison.regressions == [] and len(comparison.speedups) == 1
    assert comparison.speedups[0].change == pytest.approx(-0.10)
    assert verdict(comparison) == EXIT_OK
    assert "compare: PASS, none of 1 speedups fell more than 15% against b" in capsys.readouterr().out
    assert not any(line.startswith("dict_flatten") for line in render_comparison(comparison))  # nothing to list


def test_an_improvement_is_listed_and_never_fails(capsys):
    comparison = compare(_run({"box_sample": 60.0}), _run({"box_sample": 40.0}), name="b", threshold=15, gating=True)
    assert [s.name for s in comparison.improvements] == ["box_sample"] and comparison.regressions == []
    row = next(line for line in render_comparison(comparison) if line.startswith("box_sample "))
    assert row.split() == ["box_sample", "40.0x", "60.0x", "+50.0%", "improved"]
    assert verdict(comparison) == EXIT_OK


def test_cases_in_only_one_run_are_listed_not_failed(capsys):
    now = _run({"dict_flatten": 20.0, "box_sample": 40.0})
    now.medians["startup_hook"] = {"gymspaces": 1e-3, "without": 0.9e-3}  # no Gymnasium side: no speedup
    comparison = compare(now, _run({"dict_flatten": 20.0, "text_sample": 30.0, "no_longer_a_case": 2.0}),
                         name="main.json", threshold=15, gating=True)
    assert comparison.only_now == ["box_sample"]
    assert comparison.only_base == ["text_sample", "no_longer_a_case"]  # the bench's order, unknown cases last
    lines = render_comparison(comparison)
    assert "only in this run, not compared: box_sample" in lines
    assert "only in main.json, not compared: text_sample, no_longer_a_case" in lines
    assert verdict(comparison) == EXIT_OK


def test_without_fail_above_regressions_are_reported_only(capsys):
    comparison = compare(_run({"dict_flatten": 10.0}), _run({"dict_flatten": 20.0}), name="b")
    assert comparison.threshold == REPORT_THRESHOLD and not comparison.gating
    assert verdict(comparison) == EXIT_OK
    assert "compare: reported only, 1 of 1 speedups fell more than 10% against b:" in capsys.readouterr().out
    assert any("listed, not failed (see --fail-above)" in line for line in render_comparison(comparison))


def test_a_patched_case_compares_its_patched_gain_and_its_kernels_gain():
    key = "patched_discrete_sample"
    comparison = compare(_run({key: 8.0}, kernels={key: 5.0}), _run({key: 8.0}, kernels={key: 11.0}),
                         name="b", threshold=15, gating=True)
    assert [(s.name, s.measure) for s in comparison.speedups] == [(key, MAIN), (f"{key} (kernels)", "kernels")]
    assert [s.name for s in comparison.regressions] == [f"{key} (kernels)"]


def test_cases_restrict_the_comparison_to_the_cases_run():
    base = _run({"dict_flatten": 20.0, "box_sample": 40.0, "text_sample": 30.0})
    comparison = compare(_run({"dict_flatten": 10.0}), base, name="b", threshold=15, gating=True,
                         cases=["dict_flatten"])
    assert [s.name for s in comparison.speedups] == ["dict_flatten"] and comparison.only_base == []


def test_every_line_of_a_long_comparison_fits_in_100_columns():
    keys = [key for key in CASES_BY_KEY if not key.startswith("startup")]
    base = _run(dict.fromkeys(keys, 20.0), kernels={key: 30.0 for key in keys if CASES_BY_KEY[key].kernels})
    now = _run({key: 20.0 * (0.5 + (index % 3) * 0.5) for index, key in enumerate(keys[:-5])},
               kernels={key: 10.0 for key in keys[:-5] if CASES_BY_KEY[key].kernels})
    comparison = compare(now, base, name="a-rather-long-directory/of-artifacts/main-branch-baseline.json",
                         threshold=12.5, gating=True)
    comparison.described = "2025-01-02, CPython 3.11.7, Linux x86_64, quick mode"
    comparison.regressions[0].remeasured = 2
    lines = render_comparison(comparison)
    assert max(map(len, lines)) <= 100
    assert "* re-measured, both sides interleaved, before it was judged (notes above)" in lines


def test_the_main_table_shows_the_baseline_ratio_and_its_change():
    run, base = _run({"dict_flatten": 15.0}), _run({"dict_flatten": 20.0})
    text = render(evaluate(run, None, ["dict_flatten"], base), run, baseline_name="main.json")
    row = next(line for line in text.splitlines() if line.startswith("dict_flatten "))
    assert row.split()[-2:] == ["20.0x", "-25.0%"]
    assert "baseline: the ratios of main.json; change = ratio now / ratio then - 1, + is faster" in text


# --------------------------------------------------------------------------- the re-measure


def _fake_interleaved(monkeypatch, ratios):
    """Replace the gate's time_interleaved: a case named ``name`` gives pairs of blocks with ``ratios[name]``
    (a patched case's kernels side is named ``KEY (kernels)``)."""
    timed = []

    def time_interleaved(case):
        name = case.key + ("" if case is CASES_BY_KEY[case.key] else " (kernels)")  # kernels_side makes a new one
        timed.append(name)
        ours = [1e-6] * len(ratios[name])
        return _paired.Interleaved(ours, [o * r for o, r in zip(ours, ratios[name])])

    monkeypatch.setattr(_gate, "time_interleaved", time_interleaved)
    return timed


def test_a_regression_is_timed_again_and_judged_on_the_median_pair(monkeypatch, capsys):
    kernels = "patched_discrete_sample"
    run = _run({"dict_flatten": 10.0, "box_sample": 20.0, kernels: 8.0}, kernels={kernels: 5.0})
    base = _run({"dict_flatten": 20.0, "box_sample": 40.0, kernels: 8.0}, kernels={kernels: 11.0})
    comparison = compare(run, base, name="main.json", threshold=15, gating=True)
    assert len(comparison.regressions) == 3
    # dict_flatten: a slow spell over one side at first, clean pairs now; box_sample: slow in every pair.
    timed = _fake_interleaved(monkeypatch, {
        "dict_flatten": [21.0, 19.0, 5.0, 20.0, 20.5],
        "box_sample": [21.0, 20.0, 19.0, 22.0, 20.5],
        f"{kernels} (kernels)": [11.0, 10.5, 11.5, 10.0, 12.0],
    })
    assert _gate.confirm_regressions(run, comparison)
    # Once each; box_sample, still regressed, a second time.
    assert timed == ["box_sample", "dict_flatten", f"{kernels} (kernels)", "box_sample"]
    assert [s.name for s in comparison.regressions] == ["box_sample"]
    assert comparison.regressions[0].remeasured == 2
    # A case's own speedup takes the median pair's figures, so the report shows what was judged.
    assert run.medians["dict_flatten"]["gymnasium"] / run.medians["dict_flatten"]["gymspaces"] == 20.0
    assert run.medians[kernels]["kernels"] == pytest.approx(1e-6 * 8 / 5)  # the kernels' first figure stays
    assert any(note.startswith("box_sample: more than 15% below main.json at first; re-measured 2 times, 10 "
                               "interleaved pairs") for note in run.confirmed)
    assert any(note.startswith(f"{kernels} (kernels): more than 15% below main.json at first; re-measured once")
               and note.endswith("the median pair's ratio compared") for note in run.confirmed)
    assert "re-measuring box_sample, dict_flatten, patched_discrete_sample (kernels)" in capsys.readouterr().err


def test_a_case_re_measured_for_its_target_is_timed_again_for_its_fall(monkeypatch):
    run, base = _run({"dict_flatten": 10.0}), _run({"dict_flatten": 20.0})
    run.remeasured["dict_flatten"] = 1  # its figures are an interleaved median pair, judged by no sign test
    comparison = compare(run, base, name="b", threshold=15, gating=True)
    timed = _fake_interleaved(monkeypatch, {"dict_flatten": [10.0] * 21})
    assert _gate.confirm_regressions(run, comparison)
    assert timed == ["dict_flatten"] and comparison.failures == comparison.regressions
    assert comparison.regressions[0].chance == pytest.approx(2.0**-21)


def test_a_timed_fall_is_judged_from_the_low_edge_of_the_baselines_spread():
    # Base 20x, its quartiles 10% either side: its low edge is 18/22 x 20 = 16.4x, the line at 15% 13.9x.
    base = _run({"dict_flatten": 20.0}, spread=0.1)
    (speedup,) = compare(_run({"dict_flatten": 15.0}), base, name="b", threshold=15, gating=True).speedups
    assert speedup.low == pytest.approx(20.0 * 0.9 / 1.1)
    assert compare(_run({"dict_flatten": 15.0}), base, name="b", threshold=15, gating=True).regressions == []
    assert len(compare(_run({"dict_flatten": 13.0}), base, name="b", threshold=15, gating=True).regressions) == 1
    # A count has no spread: its line is the baseline's count.
    counts = _run({"dict_flatten": 20.0}, spread=None)
    counts.medians["dict_flatten"]["gymspaces"] *= 20 / 15  # gymspaces' own count a third higher
    counts.mode = COUNTED
    base_counts = _run({"dict_flatten": 20.0}, spread=None)
    base_counts.mode = COUNTED
    comparison = compare(counts, base_counts, name="b", threshold=15, gating=True)
    assert not comparison.timed and comparison.failures == comparison.regressions != []


def test_a_timed_baseline_without_its_spread_is_reported_not_gated(capsys):
    comparison = compare(_run({"dict_flatten": 10.0}), _run({"dict_flatten": 20.0}, spread=None), name="old.json",
                         threshold=15, gating=True)
    assert "old.json keeps no spread of its times" in comparison.refused
    assert verdict(_proven(comparison)) == EXIT_OK
    out = capsys.readouterr().out
    assert "compare: reported only, 1 of 1 speedups fell more than 15% against old.json:" in out
    assert "(not gated: old.json keeps no spread" in " ".join(out.split())
    assert any(line.startswith("--fail-above does not gate this run") for line in render_comparison(comparison))


def test_the_kernels_side_times_gymspaces_own_classes_unpatched_against_plain_gymnasium():
    from gymspaces.gymnasium import is_patched

    case = CASES_BY_KEY["patched_discrete_sample"]
    side = _paired.kernels_side(case)
    for name in ("gymspaces", "gymnasium"):
        with side.entered(_paired.library(name)):
            assert not is_patched(), name  # the patched side of the case would be
    with case.entered(_paired.library("gymspaces")):
        assert is_patched()
    timing = _paired.time_interleaved(side, pairs=2, block_seconds=1e-4)
    assert len(timing.pair_ratios) == 2 and all(ratio > 0 for ratio in timing.pair_ratios)


# --------------------------------------------------------------------------- the command line on saved runs


def test_a_saved_run_that_fell_is_reported_and_says_why_it_does_not_gate(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    now = _write(Path("now.json"), _run({"dict_flatten": 10.0, "box_sample": 40.0}))
    base = _write(Path("main.json"), _run({"dict_flatten": 20.0, "box_sample": 40.0, "text_sample": 30.0}))
    status = _benchcli.main(["--from-json", now, "--compare", base, "--fail-above", "15"])
    out = capsys.readouterr().out
    assert status == EXIT_OK
    assert f"compare: reported only, 1 of 2 speedups fell more than 15% against {base}:" in out
    assert "  dict_flatten: 20.0x -> 10.0x (-50.0%)" in out
    assert f"only in {base}, not compared: text_sample" in out
    assert "(not gated: a saved run's falls cannot be timed again" in out
    # --cases compares only the cases run.
    assert _benchcli.main(["--from-json", now, "--compare", base, "--fail-above", "15", "--cases", "box_sample"]) == 0
    out = capsys.readouterr().out
    assert "compare: none of 1 speedups" in out and "only in" not in out


def test_a_missed_target_outranks_a_regression(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(_gate.GATE_ENV, raising=False)  # (the documented-commands run sets GYMSPACES_GATE=warn)
    now = _write(tmp_path / "now.json", _run({"dict_flatten": 10.0}))
    base = _write(tmp_path / "main.json", _run({"dict_flatten": 20.0}))
    targets = tmp_path / "high.toml"
    targets.write_text("[ratio]\ndict_flatten = 1e9\n")
    args = ["--from-json", now, "--compare", base, "--fail-above", "15", "--check", str(targets)]
    assert _benchcli.main(args) == EXIT_MISSED
    out = capsys.readouterr().out
    assert "gate: FAIL" in out and "compare: reported only" in out


def test_a_figures_file_is_a_baseline_too_and_keeps_the_spread(tmp_path, capsys):
    base = tmp_path / "figures.json"
    save_figures(base, Figures(_run({"dict_flatten": 20.0}, spread=0.1), load_targets(default_targets_path())))
    loaded = load_baseline(base)
    assert loaded.medians["dict_flatten"]["gymnasium"] == pytest.approx(20e-6)
    assert loaded.spread["dict_flatten"]["gymnasium"] == pytest.approx([18e-6, 22e-6])
    comparison = compare(_run({"dict_flatten": 10.0}), loaded, name="figures.json", threshold=15, gating=True)
    assert not comparison.refused and verdict(_proven(comparison)) == EXIT_REGRESSED


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{}", f"neither a figures file ({FORMAT}) nor pytest-benchmark JSON"),
        ("not json", "is not a figures file"),
        (json.dumps(_benchmark_json(Run(medians={"dict_flatten": {"gymspaces": 1e-6}}))), "no speedup to compare"),
    ],
)
def test_a_baseline_without_speedups_is_a_usage_error(tmp_path, content, message):
    path = tmp_path / "base.json"
    path.write_text(content)
    with pytest.raises(UsageError) as error:
        load_baseline(path)
    assert message in str(error.value) and str(path) in str(error.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fail-above", "15"], "--fail-above PCT judges a --compare BASE.json"),
        (["--compare", "base.json", "--fail-above", "100"], "a percentage from 0 to below 100"),
        (["--compare", "base.json", "--fail-above", "-1"], "a percentage from 0 to below 100"),
        (["--compare", "/nonexistent/base.json"], "cannot read /nonexistent/base.json"),
    ],
)
def test_bad_compare_arguments_fail_before_benchmarking(capsys, args, message):
    assert _benchcli.main(args) == EXIT_USAGE
    assert message in capsys.readouterr().err


def test_compare_without_gymnasium_is_a_usage_error(tmp_path, monkeypatch, capsys):
    base = _write(tmp_path / "main.json", _run({"dict_flatten": 20.0}))
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    assert _benchcli.main(["--quick", "--compare", base]) == EXIT_USAGE
    assert "--compare compares ratios to Gymnasium, which is not installed" in capsys.readouterr().err
    alone = _run({})
    alone.medians["dict_flatten"] = {"gymspaces": 1e-6}
    saved = tmp_path / "alone.json"
    saved.write_text(json.dumps(_benchmark_json(alone)))
    assert _benchcli.main(["--from-json", str(saved), "--compare", base]) == EXIT_USAGE
    assert "holds no Gymnasium figure" in capsys.readouterr().err


def test_the_help_documents_the_threshold_and_the_exit_status(capsys):
    with pytest.raises(SystemExit):
        _benchcli.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "now < base x (1 - PCT/100)" in text
    assert f"{EXIT_REGRESSED} a speedup regressed past --fail-above" in text


# --------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """One tiny real run of two cheap cases, saved with --json, and two copies of it as baselines: one whose
    speedups are a thousand times larger (``doctored.json``), one whose are a thousand times smaller
    (``modest.json``). No machine's load moves a speedup a thousandfold, so every verdict below is certain
    without trusting a timing."""
    from test_cli import _run_bench

    out = tmp_path_factory.mktemp("compare")
    result = _run_bench(["--quick", "--cases", ",".join(RUN_CASES), "--json", "main.json", *TINY], cwd=out)
    assert result.returncode == 0, result.stderr
    for name, factor in (("doctored.json", 1e-3), ("modest.json", 1e3)):
        data = json.loads((out / "main.json").read_text())
        for bench in data["benchmarks"]:
            if bench["extra_info"]["implementation"] == "gymspaces":
                for stat in ("median", "q1", "q3"):
                    bench["stats"][stat] *= factor
        (out / name).write_text(json.dumps(data))
    return out


# The re-measure of a live run, faked in the child: every pair gymspaces' as
# fast as Gymnasium's (a speedup of 1.0x), whatever the machine is doing.
EVEN_PAIRS = """
from benchmarks import gate, paired
gate.time_interleaved = lambda case: paired.Interleaved([1e-6] * 21, [1e-6] * 21)
"""


def test_a_live_run_that_improved_on_its_baseline_passes(saved_run):
    from test_cli import _run_bench

    args = ["--quick", "--cases", ",".join(RUN_CASES), "--compare", "modest.json", "--fail-above", "5", *TINY]
    result = _run_bench(args, cwd=saved_run)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "compare: PASS, none of 2 speedups fell more than 5% against modest.json" in result.stdout
    assert "re-measuring" not in result.stderr or "(below the target)" in result.stderr
    assert max(map(len, (result.stdout + result.stderr).splitlines())) <= 100


def test_a_saved_run_against_a_doctored_baseline_names_the_cases_and_does_not_gate(saved_run):
    from test_cli import _run_bench

    result = _run_bench(["--from-json", "main.json", "--compare", "doctored.json", "--fail-above", "5"], cwd=saved_run)
    assert result.returncode == EXIT_OK, result.stdout + result.stderr
    assert "compare: reported only, 2 of 2 speedups fell more than 5% against doctored.json:" in result.stdout
    assert "(not gated: a saved run's falls cannot be timed again" in result.stdout
    verdict_lines = result.stdout.split("compare: reported only")[1].splitlines()[1:3]
    assert sorted(line.split(":")[0].strip() for line in verdict_lines) == sorted(RUN_CASES)
    assert all(line.rstrip().endswith("(-99.9%)") for line in verdict_lines), verdict_lines


def test_a_live_run_against_a_doctored_baseline_is_re_measured_then_fails(saved_run):
    from test_cli import _run_bench

    args = ["--quick", "--cases", ",".join(RUN_CASES), "--compare", "doctored.json", "--fail-above", "5", *TINY]
    result = _run_bench(args, cwd=saved_run, prelude=EVEN_PAIRS)
    assert result.returncode == EXIT_REGRESSED, result.stdout + result.stderr
    assert "compare: FAIL, 2 of 2 speedups fell more than 5% against doctored.json:" in result.stdout
    verdict_lines = result.stdout.split("compare: FAIL")[1].splitlines()[1:3]
    assert sorted(line.split(":")[0].strip() for line in verdict_lines) == sorted(RUN_CASES)
    # Each was timed again, interleaved, before it was called (for the fall, or already for its target): the
    # faked pairs' 1.0x is what was judged.
    said = " ".join(result.stderr.split())
    assert "re-measuring " in said
    assert "(fell more than 5% against doctored.json)" in said or "(below the target)" in said
    assert all(" -> 1.0" in line for line in verdict_lines), verdict_lines
    assert max(map(len, (result.stdout + result.stderr).splitlines())) <= 100


def test_a_fall_its_pairs_do_not_show_is_within_noise_not_a_regression(monkeypatch, capsys):
    run, base = _run({"dict_flatten": 17.0}), _run({"dict_flatten": 20.0})
    comparison = compare(run, base, name="main.json", threshold=10, gating=True)
    assert [s.name for s in comparison.regressions] == ["dict_flatten"]
    # Both looks: the median pair just below the line (18), but the pairs on either side of it as often as
    # chance puts them there.
    timed = _fake_interleaved(monkeypatch, {"dict_flatten": [17.9, 18.1] * 5 + [17.95]})
    assert _gate.confirm_regressions(run, comparison)
    assert timed == ["dict_flatten", "dict_flatten"]  # not significant after one look: a second, with more pairs
    speedup, = comparison.speedups
    assert regressed(speedup.base, speedup.now, 10) and speedup.chance is not None and speedup.chance > 0.3
    assert comparison.regressions == [] and comparison.noise == [speedup]
    assert verdict(comparison) == EXIT_OK
    said = " ".join(" ".join(render_comparison(comparison)).split())
    assert "within noise: dict_flatten 20.0x -> 17.9" in said and "(sign test, p = 0." in said


def test_the_sign_test_needs_most_pairs_past_the_line():
    from benchmarks.compare import SIGNIFICANCE, sign_test

    assert sign_test([0.5] * 21, 1.0) == pytest.approx(2.0**-21)
    assert sign_test([0.5] * 17 + [2.0] * 4, 1.0) < SIGNIFICANCE <= sign_test([0.5] * 16 + [2.0] * 5, 1.0)
    assert sign_test([2.0] * 21, 1.0) == 1.0
