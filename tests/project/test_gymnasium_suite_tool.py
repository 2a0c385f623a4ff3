"""The comparison logic of ``tests/tools/gymnasium_suite.py``, without Gymnasium's suite.

Hand-built JUnit XML for the parser; a tiny generated folder of tests, run by the
tool itself with pytest-xdist, for the whole flow: one test that fails only under
``GYMSPACES_PATCH`` (a real difference), one that fails only under xdist and
``GYMSPACES_PATCH`` (flaky: it agrees serially), one whose parametrization depends
on the mode (different test ids), one that kills its process, and failures
whose messages carry a memory address (equal after normalisation). The patch checks are tested with fake
interpreters; the flow runs with them off, since these tests never import Gymnasium.
"""

from __future__ import annotations

import importlib.util
import io
import json
import stat
import sys
import textwrap
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "gymnasium_suite.py"
_spec = importlib.util.spec_from_file_location("gymnasium_suite", TOOL)
suite = importlib.util.module_from_spec(_spec)
sys.modules["gymnasium_suite"] = suite  # dataclasses look their module up while the class is made
_spec.loader.exec_module(suite)
Outcome = suite.Outcome


# --- messages and JUnit XML --------------------------------------------------------------


def test_normalise_rewrites_what_changes_by_itself_and_nothing_else() -> None:
    first = ("<object object at 0x7f3a5c2b1e90> in /tmp/pytest-of-root/pytest-12/popen-gw1/t0 "
             "took 1.25s on worker 'gw0'")
    second = ("<object object at 0x55d0e1a2b3c4> in /tmp/pytest-of-root/pytest-7/popen-gw0/t0 "
              "took 300 ms on worker 'gw3'")
    assert suite.normalise(first) == suite.normalise(second)
    assert "0x7f" not in suite.normalise(first)
    # values that are behaviour stay apart
    assert suite.normalise("assert 1 == 2") != suite.normalise("assert 1 == 3")
    assert suite.normalise("dtype 0xff") == "dtype 0xff"  # a short constant is no address
    assert suite.normalise("Box(0, 1, (3,), float32)") == "Box(0, 1, (3,), float32)"


JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="8">
 <testcase classname="tests.test_a" name="test_pass" time="0.1"/>
 <testcase classname="tests.test_a" name="test_fail" time="0.1">
  <failure message="AssertionError: at 0x7f0011223344">traceback</failure></testcase>
 <testcase classname="tests.test_a.TestK" name="test_err[x.y]" time="0">
  <error message="failed on setup with &quot;boom&quot;">tb</error></testcase>
 <testcase classname="tests.test_a" name="test_skip" time="0">
  <skipped type="pytest.skip" message="no jax">tests/test_a.py:3: no jax</skipped></testcase>
 <testcase classname="tests.test_a" name="test_xfail" time="0">
  <skipped type="pytest.xfail" message="known"/></testcase>
 <testcase classname="tests.test_a" name="test_xpass" time="0">
  <properties><property name="gymnasium_suite_outcome" value="xpassed"/></properties></testcase>
 <testcase classname="tests.test_a" name="test_both" time="0">
  <failure message="E1">tb</failure><error message="failed on teardown with &quot;E2&quot;">tb</error>
 </testcase>
 <testcase classname="tests.test_a" name="test_pass" time="0.1"/>
 <testcase classname="" name="tests.test_broken" time="0">
  <error message="collection failure">ImportError</error></testcase>
</testsuite></testsuites>
"""


def test_parse_junit_gives_every_status(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    path.write_text(JUNIT)
    results = suite.parse_junit(path)
    assert results == {
        ("tests.test_a", "test_pass"): Outcome("passed"),
        ("tests.test_a", "test_fail"): Outcome("failed", "AssertionError: at 0x?"),
        ("tests.test_a.TestK", "test_err[x.y]"): Outcome("error", 'failed on setup with "boom"'),
        ("tests.test_a", "test_skip"): Outcome("skipped", "no jax"),
        ("tests.test_a", "test_xfail"): Outcome("xfailed", "known"),
        ("tests.test_a", "test_xpass"): Outcome("xpassed"),
        ("tests.test_a", "test_both"): Outcome("failed", 'E1 | failed on teardown with "E2"'),
        ("tests.test_a", "test_pass#2"): Outcome("passed"),  # a repeated key is kept, not lost
        ("", "tests.test_broken"): Outcome("error", "collection failure"),
    }
    assert suite.counts(results) == {"passed": 2, "failed": 2, "error": 2, "skipped": 1,
                                     "xfailed": 1, "xpassed": 1}


def test_file_of_finds_the_test_file(tmp_path: Path) -> None:
    (tmp_path / "tests" / "envs").mkdir(parents=True)
    (tmp_path / "tests" / "envs" / "test_x.py").write_text("")
    (tmp_path / "tests" / "test_broken.py").write_text("")
    assert suite.file_of(("tests.envs.test_x.TestC", "test_y[a.b]"), tmp_path) == "tests/envs/test_x.py"
    assert suite.file_of(("", "tests.test_broken"), tmp_path) == "tests/test_broken.py"
    assert suite.file_of(("tests.envs.test_gone", "test_y"), tmp_path) is None
    assert (suite.display_id(("tests.envs.test_x.TestC", "test_y[a.b]"), tmp_path)
            == "tests/envs/test_x.py::TestC::test_y[a.b]")
    assert suite.display_id(("", "tests.test_broken"), tmp_path) == "tests/test_broken.py"


def test_differences_include_ids_run_in_one_mode_only() -> None:
    plain = {("m", "a"): Outcome("passed"), ("m", "b"): Outcome("failed", "x"), ("m", "c"): Outcome("passed")}
    patched = {("m", "a"): Outcome("passed"), ("m", "b"): Outcome("failed", "y"), ("m", "d"): Outcome("passed")}
    assert suite.differences(plain, patched) == {
        ("m", "b"): (Outcome("failed", "x"), Outcome("failed", "y")),
        ("m", "c"): (Outcome("passed"), None),
        ("m", "d"): (None, Outcome("passed")),
    }


# --- patch checks ------------------------------------------------------------------------


def test_check_probes_wants_every_process_patched_as_its_mode_says() -> None:
    unpatched = {"pid": 1, "gymnasium": True, "patched": False}
    patched = {"pid": 2, "gymnasium": True, "patched": True}
    no_gymnasium = {"pid": 3, "gymnasium": False, "patched": None}
    assert suite.check_probes("patched", [patched, no_gymnasium]) is None
    assert suite.check_probes("plain", [unpatched, no_gymnasium]) is None
    assert "1 of 2" in suite.check_probes("patched", [patched, unpatched])
    assert suite.check_probes("plain", [patched]) is not None
    assert "no pytest process" in suite.check_probes("patched", [no_gymnasium])


def _fake_python(tmp_path: Path, name: str, body: str) -> str:
    """An executable that stands for an interpreter: it ignores ``-c CODE`` and runs ``body``."""
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


ANSWER = '{"patched": %s, "gymnasium": "9.9", "numpy": "2", "python": "3", "gymspaces": "0", "gymspaces_at": "x"}'


def test_check_patching_fails_when_the_patched_run_would_not_be_patched(tmp_path: Path) -> None:
    honest = _fake_python(tmp_path, "honest", textwrap.dedent(f"""\
        if [ "$GYMSPACES_PATCH" = 1 ]; then echo '{ANSWER % "true"}'; else echo '{ANSWER % "false"}'; fi
        """))
    answers, problems = suite.check_patching(honest, tmp_path, tmp_path)
    assert problems == []
    assert answers["patched"]["patched"] is True and answers["plain"]["patched"] is False

    never = _fake_python(tmp_path, "never", f"echo '{ANSWER % 'false'}'\n")
    assert suite.check_patching(never, tmp_path, tmp_path)[1] == ["patched: is_patched() is False"]

    broken = _fake_python(tmp_path, "broken", "echo 'ModuleNotFoundError: gymspaces' >&2; exit 1\n")
    problems = suite.check_patching(broken, tmp_path, tmp_path)[1]
    assert len(problems) == 2 and all("no answer" in problem for problem in problems)


# --- the whole flow on a tiny suite -------------------------------------------------------

TINY = {
    "tests/test_stable.py": """
        import pytest

        @pytest.mark.parametrize("i", range(6))
        def test_many(i):
            pass

        def test_address_in_message():
            assert object() is None  # a new address each run: equal after normalisation

        def test_skipped():
            pytest.skip("no jax here")

        @pytest.mark.xfail(reason="known")
        def test_xfailed():
            assert False

        @pytest.mark.xfail(reason="fixed")
        def test_xpassed():
            pass
        """,
    "tests/test_real.py": """
        import os

        def test_depends_on_patch():
            patched = os.environ.get("GYMSPACES_PATCH")  # (a local: the message shows no environ)
            assert patched is None, "patched!"

        def test_same():
            pass

        def test_crash():
            os.abort()  # ends an in-process serial rerun: the tool reruns with one xdist worker
        """,
    "tests/test_flaky.py": """
        import os

        def test_only_under_xdist():
            # fails only when patched AND beside another xdist worker: gone in the serial rerun
            workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
            patched = os.environ.get("GYMSPACES_PATCH")
            assert not (workers > 1 and patched)
        """,
    "tests/test_ids.py": """
        import os
        import pytest

        @pytest.mark.parametrize("n", [1, 2] if os.environ.get("GYMSPACES_PATCH") else [1])
        def test_param(n):
            pass
        """,
    "tests/empty/__init__.py": "",
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("xdist")  # the tool runs pytest with -n
    root = tmp_path_factory.mktemp("tiny")
    for name, text in TINY.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return root


@pytest.fixture(autouse=True)
def _lean_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    # The inner runs need xdist only: other installed plugins would just slow each start
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def _run(root: Path, tmp_path: Path, *args: str) -> tuple[int, dict, str]:
    out = io.StringIO()
    options = suite.parse_args(["--tests", str(root), "--workdir", str(tmp_path / "work"),
                                "--json", str(tmp_path / "summary.json"),
                                "--pytest-arg=-pxdist.plugin", *args])
    code, summary = suite.run(options, check_patch=False, out=out)
    return code, summary, out.getvalue()


def test_real_flaky_and_missing_ids_are_told_apart(tiny: Path, tmp_path: Path) -> None:
    code, summary, text = _run(tiny, tmp_path, "-n", "2", "--min-tests", "1000")
    assert code == 1
    real = {entry["id"]: entry for entry in summary["real"]}
    assert set(real) == {"tests/test_real.py::test_depends_on_patch", "tests/test_ids.py::test_param[2]"}
    assert real["tests/test_real.py::test_depends_on_patch"]["plain"] == {"status": "passed", "message": ""}
    assert real["tests/test_real.py::test_depends_on_patch"]["patched"]["status"] == "failed"
    assert "patched!" in real["tests/test_real.py::test_depends_on_patch"]["patched"]["message"]
    assert real["tests/test_ids.py::test_param[2]"]["plain"] is None
    assert [entry["id"] for entry in summary["flaky"]] == ["tests/test_flaky.py::test_only_under_xdist"]
    # only the files with a difference were rerun, serially; test_crash killed the in-process
    # rerun, so it was made again with one xdist worker
    assert summary["rerun_files"] == ["tests/test_flaky.py", "tests/test_ids.py", "tests/test_real.py"]
    assert [(p["label"], p["mode"]) for p in summary["passes"]] == [
        ("parallel", "plain"), ("parallel", "patched"), ("serial-1", "plain"), ("serial-1", "patched")]
    assert [p["test_ids"] for p in summary["passes"][2:]] == [5, 6]
    assert "serial plain: pytest exited" in text
    for mode in ("plain", "patched"):  # the crash is an error in both modes, its worker's name aside
        assert summary["counts"][mode]["error"] == 1
    for mode in ("plain", "patched"):
        assert summary["counts"][mode]["xfailed"] == 1 and summary["counts"][mode]["xpassed"] == 1
        assert summary["counts"][mode]["skipped"] == 1
    assert any("different test ids" in problem for problem in summary["problems"])
    assert any("tests ran" in problem for problem in summary["problems"])
    assert "verdict: FAILED" in text and "patched!" in text
    assert max(map(len, text.splitlines())) <= 100
    assert json.loads((tmp_path / "summary.json").read_text())["real"] == summary["real"]


def test_a_clean_run_passes_and_an_empty_one_fails_loudly(tiny: Path, tmp_path: Path) -> None:
    # -n 0: no difference means no rerun, and the parallel pass needs no workers to show it
    code, summary, text = _run(tiny, tmp_path, "-n", "0", "--only", "test_stable.py", "--min-tests", "5")
    assert (code, summary["real"], summary["flaky"], summary["rerun_files"]) == (0, [], [], [])
    assert summary["test_ids"] == 10 and summary["counts"]["plain"] == summary["counts"]["patched"]
    assert "verdict: OK" in text

    code, summary, text = _run(tiny, tmp_path / "empty", "-n", "0", "--only", "empty")
    assert code == 2
    assert "collected no test" in text
