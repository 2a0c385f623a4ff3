"""``python -m benchmarks --instructions``: counts that hold still on unchanged code and move with a real loss.

Each test runs callgrind for real (a few seconds of start-up each, under
valgrind), on one to three cases. The gate's claim is checked end to end:
the same code counts the same whatever ran beside it or before it, in
whichever process (a patched Dict case among them, whose judges remember
objects by address); a loss under 5% in one operation, made from outside the package (a
``sitecustomize`` that installs ``gymspaces.Dict.sample`` written again,
with and without three more calls), is a regression at ``--fail-above 3``;
and the command line saves, compares and refuses what it should.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from benchmarks.compare import compare, verdict
from benchmarks.errors import EXIT_OK, EXIT_REGRESSED, EXIT_USAGE
from support.switches import switch
from benchmarks.instructions import MODE, NOT_COUNTED, count_run, counted_keys
from benchmarks.publish import PublishError, load_figures, publish
from benchmarks.results import Run

ROOT = Path(__file__).resolve().parents[2]
GATE = 3.0  # percent: the threshold docs/performance.md gives the CI recipe
STILL = 0.5  # percent: how far a count of unchanged code may move, whatever ran before it (issue 57)
PATCHED = "patched_dict_flatdim"  # moved 2.34% with what its process did before, once

if shutil.which("valgrind") is None:
    if switch("GYMSPACES_REQUIRE_VALGRIND"):
        raise RuntimeError("GYMSPACES_REQUIRE_VALGRIND=1 but valgrind is not installed")
    pytest.skip("valgrind is not installed (.ci/run installs it)", allow_module_level=True)

# Dict.sample written again, the same but for three more calls of len() where EXTRA is True: a careless
# change to the composite layer that costs between 3% and 5% of a call (a call of len() is about 230
# instructions on CPython 3.11, the call about 15,300). Both variants are installed from outside the package, so the count compares
# like with like.
DICT_SAMPLE = """
import gymspaces

_sample = gymspaces.Dict.sample
_EXTRA = {extra}


def _sample_again(self, mask=None, probability=None):
    children = self.spaces
    if mask is None and probability is None:
        if _EXTRA:
            len(children), len(children), len(children)
        return {key: child.sample() for key, child in children.items()}
    return _sample(self, mask, probability)


gymspaces.Dict.sample = _sample_again
"""


@pytest.fixture(scope="module")
def counts(tmp_path_factory):
    """Three cases counted, with the progress they print; two of them counted alone, in reverse order, by one
    interpreter, after this process loaded a large JSON (as a compare loads its baseline); the first two
    counted again with the slower Dict.sample."""
    # Through PYTHONPATH, one of the few variables a count passes on to its interpreter.
    folders = {}
    for extra in (False, True):
        folders[extra] = folder = tmp_path_factory.mktemp(f"extra-{extra}")
        (folder / "sitecustomize.py").write_text(DICT_SAMPLE.replace("{extra}", str(extra)), encoding="utf8")
    progress = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join([str(folders[False]), str(ROOT)]))
        both = count_run(["dict_sample", "discrete_sample", PATCHED], calls=40, progress=progress)
        loaded = json.loads(json.dumps({f"case{i}": {"gymspaces": i, "gymnasium": [i] * 50} for i in range(5000)}))
        alone = count_run([PATCHED, "dict_sample"], calls=40, jobs=1)
        del loaded
        patch.setenv("PYTHONPATH", os.pathsep.join([str(folders[True]), str(ROOT)]))
        slower = count_run(["dict_sample", "discrete_sample"], calls=40)
    return both, alone, slower, progress.getvalue()


def test_a_case_counts_the_same_alone_as_among_others_and_on_every_run(counts):
    both, alone, _, _ = counts
    assert both.mode == alone.mode == MODE
    assert set(both.medians) == {"dict_sample", "discrete_sample", PATCHED}
    assert set(both.medians["dict_sample"]) == {"gymspaces", "gymnasium"}
    assert set(both.medians[PATCHED]) == {"gymspaces", "gymnasium", "kernels"}
    # Other cases beside it or none, another order, other interpreters, another state of this process: every
    # case is forked from the same heap, so the same count (issue 57: within 0.5%; measured: to the instruction).
    for key in ("dict_sample", PATCHED):
        for side, count in both.medians[key].items():
            assert alone.medians[key][side] == pytest.approx(count, rel=STILL / 100), (key, side)
    ours, theirs = both.medians["dict_sample"]["gymspaces"], both.medians["dict_sample"]["gymnasium"]
    assert 1_000 < ours < theirs  # a Dict of four spaces: thousands of instructions, fewer than Gymnasium's


def test_a_count_says_each_case_as_it_is_counted(counts):
    *_, progress = counts
    lines = progress.splitlines()  # not a terminal: a line per case, for a CI log that must not fall silent
    assert len(lines) == 3 and all(line.startswith("counted ") and len(line) <= 100 for line in lines)
    assert [line.split()[1] for line in lines] == ["1/3", "2/3", "3/3"]
    assert sorted(line.split()[-1] for line in lines) == sorted(["dict_sample", "discrete_sample", PATCHED])


def test_forking_a_case_leaves_the_forking_interpreter_as_it_was():
    # What the interpreter that forks the cases allocates between two forks must all be freed: each case then
    # finds the same heap, whatever was counted before it. A fresh interpreter, with no other thread.
    script = textwrap.dedent("""
        import array, gc, sys, tempfile
        from benchmarks.instructions import _fork_case
        gc.disable()
        folder = tempfile.mkdtemp()
        _fork_case(folder, -1, "", {}, 1)
        blocks = array.array("q", [0] * 4)  # holds no object: only what _fork_case leaves is counted
        for index in range(4):
            blocks[index] = sys.getallocatedblocks()
            _fork_case(folder, -1, "", {}, 1)
        print(blocks.tolist())
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    blocks = json.loads(done.stdout)
    assert len(set(blocks)) == 1, blocks


def test_a_loss_below_five_percent_in_one_operation_is_a_regression(counts, capsys):
    both, _, slower, _ = counts
    both = Run(medians={key: both.medians[key] for key in ("dict_sample", "discrete_sample")}, mode=both.mode)
    loss = slower.medians["dict_sample"]["gymspaces"] / both.medians["dict_sample"]["gymspaces"] - 1
    assert GATE / 100 < loss < 0.05, loss
    for side, count in both.medians["discrete_sample"].items():  # the other case did not move
        assert slower.medians["discrete_sample"][side] == pytest.approx(count, rel=GATE / 100 / 4), side
    comparison = compare(slower, both, name="main.json", threshold=GATE, gating=True)
    assert [s.name for s in comparison.regressions] == ["dict_sample"]
    assert verdict(comparison) == EXIT_REGRESSED
    assert "compare: FAIL, 1 of 2 speedups fell more than 3% against main.json" in capsys.readouterr().out
    unchanged = compare(both, both, name="main.json", threshold=GATE, gating=True)
    assert unchanged.regressions == [] and verdict(unchanged) == EXIT_OK


def test_only_the_cases_timed_per_call_in_this_process_are_counted():
    keys = counted_keys()
    assert "discrete_sample" in keys and "patched_dict_sample" in keys
    assert not {"import", "real_taxi_random", "startup_patch", *NOT_COUNTED} & set(keys)


def _bench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )


def test_the_command_line_saves_a_count_and_compares_with_it(tmp_path):
    saved = _bench("--instructions", "--cases", "discrete_sample", "--figures", "base.json", cwd=tmp_path)
    assert saved.returncode == 0, saved.stdout + saved.stderr
    assert "instructions per call (Ir), callgrind" in saved.stdout and "discrete_sample" in saved.stdout
    data = json.loads((tmp_path / "base.json").read_text())
    assert data["run"]["mode"] == MODE and set(data["run"]["medians"]["discrete_sample"]) == {"gymspaces", "gymnasium"}
    again = _bench("--instructions", "--cases", "discrete_sample", "--compare", "base.json", "--fail-above", "3",
                   cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "compare: PASS, none of 1 speedups fell more than 3% against base.json" in again.stdout
    assert max(map(len, (again.stdout + again.stderr).splitlines())) <= 100
    # A count is compared with a count, and never published as the documents' times.
    timed = _bench("--quick", "--cases", "discrete_sample", "--compare", "base.json", cwd=tmp_path)
    assert timed.returncode == EXIT_USAGE and "holds instruction counts" in timed.stderr
    with pytest.raises(PublishError, match="holds instruction counts"):
        publish(tmp_path / "base.json", root=tmp_path)
    assert load_figures(tmp_path / "base.json").run.mode == MODE


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--instructions", "--quick"], "--quick is for timed runs"),
        (["--instructions", "--check"], "--check is for timed runs"),
        (["--instructions", "--cases", "import"], "none of these is: import"),
    ],
)
def test_options_of_a_timed_run_are_refused_with_instructions(tmp_path, args, message):
    result = _bench(*args, cwd=tmp_path)
    assert result.returncode == EXIT_USAGE and message in result.stderr
