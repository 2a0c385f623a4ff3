"""The patched-vs-plain capture (support.capture, support.capture_plugin) catches what it must.

Unit tests drive a :class:`support.capture.Recorder` through the real
differential helpers: a write recorder takes the "plain" calls, a compare
recorder the "patched" ones, each deliberately different in one way. An
end-to-end test runs the two pytest passes in subprocesses over a small test
module whose "patched" behaviour is switched by a variable (EXAMPLE_PATCHED).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import gymnasium.error
import numpy as np
import pytest

import gymspaces.error
from support import capture, capture_plugin
from support.composite_helpers import assert_same_tree_states
from support.differential import GS, GYM, assert_same_state, assert_same_stream, assert_same_value, outcome

NODE = "tests/example.py::test_example"

# A body is one test: ``body(patched)`` makes the helper calls of the plain pass
# (False) or of the patched pass (True) from the same lines, as the two passes
# of a real test do (a record's label is its call site).
Body = Callable[[bool], object]


@pytest.fixture(autouse=True)
def own_recorder() -> Iterator[None]:
    """The test installs its own recorders; the session's (if any) is put back."""
    session = capture.RECORDER
    yield
    capture.RECORDER = session


def run(recorder: capture.Recorder, body: Body, patched: bool) -> capture.Recorder:
    """``body`` as one test (node id ``NODE``) under ``recorder``, driven as the plugin does."""
    capture.RECORDER = recorder
    recorder.begin(NODE)
    try:
        body(patched)
    finally:
        recorder.end_call()
        recorder.check("call")
        recorder.check("teardown")
        recorder.finish()
        capture.RECORDER = None
    return recorder


def write(body: Body) -> capture.CapturedTest:
    written = run(capture.Recorder("write"), body, False).written
    assert list(written) == [NODE]
    return written[NODE]


def compare(body: Body, captured: capture.CapturedTest | None) -> capture.Recorder:
    return run(capture.Recorder("compare", {} if captured is None else {NODE: lambda: captured}), body, True)


def plain_then_patched(body: Body) -> list[capture.Mismatch]:
    """Write ``body(False)``'s records, then compare ``body(True)``'s with them: the mismatches."""
    return compare(body, write(body)).mismatches


def parts(mismatches: list[capture.Mismatch]) -> list[str]:
    return [m.difference.part for m in mismatches]


def raiser(cls: type, message: str = "Box.sample cannot be provided a mask") -> Callable[[], None]:
    def call() -> None:
        raise cls(message)

    return call


def warner(*messages: str, stacklevel: int = 1) -> Callable[[], int]:
    def call() -> int:
        for message in messages:
            warnings.warn(message, UserWarning, stacklevel=stacklevel)
        return 1

    return call


def test_identical_calls_compare_equal():
    def body(patched: bool) -> None:
        space = GYM.Box(-1, 1, (3,), seed=0)
        outcome(space.sample, state_of=space)
        outcome(raiser(gymnasium.error.Error))
        outcome(warner("careful"))
        drawn = space.sample()
        assert_same_value(drawn.copy(), drawn)  # the expected (second) side is recorded
        assert_same_state(space, space)
        assert_same_tree_states(GYM.Tuple((GYM.Discrete(2, seed=1),), seed=1),
                                GYM.Tuple((GYM.Discrete(2, seed=1),), seed=1))

    written = write(body)
    assert [kind for _, kind, _ in written.records] == ["outcome", "outcome", "outcome", "value", "state", "tree"]
    compared = compare(body, written)
    assert compared.mismatches == []
    assert compared.counters.compared == compared.counters.identical == 6


def test_a_different_value_is_caught():
    found = plain_then_patched(lambda patched: outcome(lambda: np.array([1, 2, 4 if patched else 3])))
    assert parts(found) == ["value"]
    assert "[1, 2, 3]" in found[0].difference.plain and "[1, 2, 4]" in found[0].difference.patched


@pytest.mark.parametrize("plain, patched, aspect", [
    (np.int64(3), 3, "type numpy.int64 -> builtins.int"),
    (np.int64(3), np.int32(3), "type numpy.int64 -> numpy.int32"),
    (np.zeros(2, "<f4"), np.zeros(2, ">f4"), "dtype <f4 -> >f4"),
    (np.zeros(2), np.zeros((2, 1)), "shape"),
    (np.array([0.0]), np.array([-0.0]), "elements"),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}, "keys (order included)"),
    ((np.int8(1), [np.zeros(3)]), (np.int8(1), [np.ones(3)]), "elements"),
], ids=["scalar-type", "numpy-scalar-type", "byte-order", "shape", "negative-zero", "key-order", "nested"])
def test_value_differences_name_their_aspect(plain, patched, aspect):
    found = plain_then_patched(lambda is_patched: outcome(lambda: patched if is_patched else plain))
    assert parts(found) == ["value"]
    assert aspect in found[0].difference.group


def test_nan_payloads_compare_as_assert_same_value_does():
    other_nan = (np.array([np.nan]).view(np.uint64) | np.uint64(1)).view(np.float64)
    assert np.isnan(other_nan).all()
    assert plain_then_patched(lambda patched: outcome(lambda: other_nan if patched else np.array([np.nan]))) == []


def test_graph_instances_compare_by_class_and_fields():
    def graph(lib, nodes):
        return lib.GraphInstance(np.array(nodes), None, np.zeros((0, 2), np.int64))

    assert plain_then_patched(lambda patched: outcome(lambda: graph(GYM, [1]))) == []
    found = plain_then_patched(lambda patched: outcome(lambda: graph(GS if patched else GYM, [1])))
    assert parts(found) == ["value"] and "GraphInstance" in found[0].difference.group
    assert parts(plain_then_patched(lambda patched: outcome(lambda: graph(GYM, [2 if patched else 1])))) == ["value"]


def test_the_other_librarys_error_class_with_the_same_message_is_caught():
    """The gymspaces-vs-Gymnasium comparison identifies the two ``Error`` classes; this one
    does not: patched Gymnasium must raise ``gymnasium.error.Error`` itself."""
    found = plain_then_patched(
        lambda patched: outcome(raiser(gymspaces.error.Error if patched else gymnasium.error.Error)))
    assert parts(found) == ["exception class"]
    assert found[0].difference.group == "exception class gymnasium.error.Error -> gymspaces.error.Error"
    assert "Box.sample cannot be provided a mask" in found[0].difference.patched


def test_an_error_class_of_the_same_name_is_not_the_class():
    impostor = type("Error", (Exception,), {"__module__": "gymnasium.error", "__qualname__": "Error"})
    found = plain_then_patched(lambda patched: outcome(raiser(impostor if patched else gymnasium.error.Error)))
    assert parts(found) == ["exception class"]
    assert "another class object" in found[0].difference.patched


def test_node_ids_are_keyed_without_object_addresses():
    recorder = capture.Recorder("write")
    for nodeid in ("t.py::test[<object at 0x7f00aa>]", "t.py::test[<object at 0x7f00bb>]", "t.py::test[1]"):
        recorder.begin(nodeid)
        recorder.finish()
    assert list(recorder.written) == ["t.py::test[<object at 0x?>]", "t.py::test[<object at 0x?>] #2", "t.py::test[1]"]


def test_a_different_message_and_raising_instead_of_returning_are_caught():
    found = plain_then_patched(lambda patched: outcome(raiser(ValueError, "high < low" if patched else "low > high")))
    assert parts(found) == ["exception message"]
    found = plain_then_patched(lambda patched: outcome(raiser(ValueError) if patched else lambda: 1))
    assert parts(found) == ["raised vs returned"]
    assert found[0].difference.group == "returned -> raised builtins.ValueError"


def test_an_extra_missing_or_moved_warning_is_caught():
    found = plain_then_patched(lambda patched: outcome(warner("a", "b") if patched else warner("a")))
    assert parts(found) == ["warnings"]
    assert "warnings ['UserWarning'] -> ['UserWarning', 'UserWarning']" == found[0].difference.group
    assert parts(plain_then_patched(lambda patched: outcome(warner() if patched else warner("a")))) == ["warnings"]
    found = plain_then_patched(lambda patched: outcome(warner("b" if patched else "a")))
    assert found[0].difference.group == "warning messages of ['builtins.UserWarning']"
    # The same warning attributed to another frame (the caller's rather than warner's line).
    found = plain_then_patched(lambda patched: outcome(warner("a", stacklevel=2 if patched else 1)))
    assert parts(found) == ["warnings"] and found[0].difference.group.startswith("warning attribution")


def test_a_different_generator_state_is_caught():
    def body(patched: bool) -> None:
        space = GYM.Discrete(10, seed=3)
        outcome(lambda: (space.np_random.random(2 if patched else 1), 7)[1], state_of=space)

    assert parts(plain_then_patched(body)) == ["generator state"]

    def compared_state(patched: bool) -> None:
        gs_space, gym_space = GS.Discrete(10, seed=3), GYM.Discrete(10, seed=3)
        if patched:
            gs_space.np_random.random()
            gym_space.np_random.random()
        assert_same_state(gs_space, gym_space)  # records Gymnasium's (the expected) side

    assert parts(plain_then_patched(compared_state)) == ["generator state"]


def test_more_fewer_and_reordered_calls_are_caught():
    def calls(plain: str, patched: str) -> Body:
        def body(is_patched: bool) -> None:
            for kind in patched if is_patched else plain:
                if kind == "o":
                    outcome(lambda: 1)
                else:
                    assert_same_value(1, 1)
        return body

    found = plain_then_patched(calls("o", "oo"))
    assert parts(found) == ["record count"] and "more" in found[0].difference.group
    found = plain_then_patched(calls("oo", "o"))
    assert parts(found) == ["record count"] and "fewer" in found[0].difference.group
    found = plain_then_patched(calls("ov", "vo"))
    assert parts(found) == ["call sequence"]


def test_a_test_missing_from_the_capture_fails_and_one_without_calls_passes():
    assert parts(compare(lambda patched: outcome(lambda: 1), None).mismatches) == ["capture"]
    assert compare(lambda patched: None, None).mismatches == []


def test_an_unfinished_capture_binds_only_its_records():
    """A test that failed in the write pass: what it recorded is compared, the count is not."""
    def body(patched: bool, value: int = 1) -> None:
        for _ in range(3 if patched else 1):
            outcome(lambda: value)
        if not patched:
            capture.RECORDER.mark_incomplete()  # as the plugin does for a failed phase

    written = write(body)
    assert not written.complete and len(written.records) == 1
    assert compare(body, written).mismatches == []
    assert parts(compare(functools.partial(body, value=2), written).mismatches) == ["value"]


def test_entropy_is_pinned_to_the_node_id_and_the_draw():
    recorders = [capture.Recorder("write") for _ in range(3)]
    for recorder, nodeid in zip(recorders, [NODE, NODE, NODE + "[other]"]):
        recorder.begin(nodeid)
    first, again, other = ([recorder.entropy(128) for _ in range(3)] for recorder in recorders)
    assert first == again
    assert len(set(first)) == 3 and not set(first) & set(other)
    assert all(0 <= value < 2**128 for value in first)


def test_unseeded_spaces_compare_and_a_moved_entropy_draw_is_caught():
    def body(patched: bool, extra_draw_first: bool = False) -> None:
        if extra_draw_first:
            np.random.default_rng()
        space = GYM.Box(-1, 1, (4,))  # seeded from (pinned) entropy on first use
        outcome(space.sample, state_of=space)

    def hooked(mode: str, body: Body, captured: capture.CapturedTest | None = None) -> capture.Recorder:
        recorder = capture.Recorder(mode, {} if captured is None else {NODE: lambda: captured})
        installed = capture_plugin._install_entropy_hook()  # already there in a capture session
        try:
            return run(recorder, body, mode == "compare")
        finally:
            if installed:
                capture_plugin._remove_entropy_hook()

    written = hooked("write", body).written[NODE]
    assert [kind for _, kind, _ in written.records] == ["entropy", "outcome"]
    assert hooked("compare", body, written).mismatches == []
    moved = hooked("compare", lambda patched: body(patched, extra_draw_first=True), written).mismatches
    assert parts(moved) == ["call sequence"]
    assert "entropy at" in moved[0].difference.plain and "entropy at" in moved[0].difference.patched


def test_assert_same_stream_records_each_draw_with_its_state():
    written = write(lambda patched: assert_same_stream(GS.Discrete(5, seed=1), GYM.Discrete(5, seed=1), 2))
    # Each draw of either library (with its state), then the final state of Gymnasium's space.
    assert [kind for _, kind, _ in written.records] == ["outcome"] * 4 + ["state"]
    assert all(payload[3] is not None for _, kind, payload in written.records if kind == "outcome")


# --------------------------------------------------------------------------- end to end

EXAMPLE = '''
import os
import warnings

import gymnasium.error
import numpy as np

import gymspaces.error
from support.differential import GYM, assert_same_state, outcome

PATCHED = os.environ.get("EXAMPLE_PATCHED") == "1"


def test_same():
    space = GYM.Discrete(5, seed=0)
    outcome(space.sample)
    assert_same_state(space, space)


def test_unseeded_space():
    outcome(GYM.Box(-1, 1, (3,)).sample)


def test_value():
    outcome(lambda: np.int64(4 if PATCHED else 3))


def test_error_class():
    cls = gymspaces.error.Error if PATCHED else gymnasium.error.Error

    def call():
        raise cls("Discrete.sample cannot be provided a probability")

    outcome(call)


def test_extra_warning():
    def call():
        if PATCHED:
            warnings.warn("extra", UserWarning)
        return 1

    outcome(call)


def test_more_calls():
    for _ in range(3 if PATCHED else 2):
        outcome(lambda: 1)
'''


def two_passes(
    tmp_path: Path, mode: str, source: str, *options: str, files: tuple[str, ...] = ("test_example.py",), **env: str
) -> subprocess.CompletedProcess:
    """pytest over ``source`` (in each of ``files``) in a fresh process, with the
    capture plugin on ``mode`` and the pytest ``options``."""
    for name in files:
        (tmp_path / name).write_text(source)
    variables = {name: value for name, value in os.environ.items() if not name.startswith(
        ("GYMSPACES_TEST_", "GYMSPACES_PATCH", "PYTEST_", "EXAMPLE_"))}
    variables.update({
        "PYTHONPATH": os.pathsep.join([str(capture.TESTS_ROOT), os.environ.get("PYTHONPATH", "")]),
        "PYTHONHASHSEED": "0",
        capture_plugin.FILE_ENV: str(tmp_path / "capture.pkl"),
        capture_plugin.MODE_ENV: mode,
        **env,
    })
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "support.capture_plugin", "-p", "no:cacheprovider",
         "-q", "--rootdir", str(tmp_path), *options, *files],
        cwd=tmp_path, env=variables, capture_output=True, text=True, timeout=300)


def test_two_passes_end_to_end(tmp_path):
    written = two_passes(tmp_path, "write", EXAMPLE)
    assert written.returncode == 0, written.stdout + written.stderr
    assert "8 helper records from 6 of 6 tests" in written.stdout, written.stdout
    assert "1 entropy draws pinned" in written.stdout, written.stdout

    compared = two_passes(tmp_path, "compare", EXAMPLE, EXAMPLE_PATCHED="1")
    out = compared.stdout
    assert compared.returncode == pytest.ExitCode.TESTS_FAILED, out + compared.stderr
    assert "4 failed, 2 passed" in out, out
    for expected in [
        "test_example.py::test_value record #0 (test_example.py:25): value not as in the unpatched capture",
        "plain:   value = int64(3)",
        "patched: value = int64(4)",
        "exception class gymnasium.error.Error -> gymspaces.error.Error",
        "patched: raised gymspaces.error.Error: 'Discrete.sample cannot be provided a probability'",
        "warnings [] -> ['UserWarning']",
        "more helper calls than captured",
        "4 differences in 4 tests",
    ]:
        assert expected in out, f"{expected!r} not in\n{out}"
    for passing in ("test_same", "test_unseeded_space"):
        assert f"FAILED test_example.py::{passing}" not in out


def test_two_passes_on_two_workers(tmp_path):
    """With pytest-xdist each worker writes its part; the controller merges them
    (write) and sums the differences the workers found (compare)."""
    files = ("test_example.py", "test_example_again.py")
    options = ("-n", "2", "--dist", "loadfile")
    written = two_passes(tmp_path, "write", EXAMPLE, *options, files=files)
    assert written.returncode == 0, written.stdout + written.stderr
    assert "16 helper records from 12 of 12 tests" in written.stdout, written.stdout
    assert not list(tmp_path.glob("capture.pkl.gw*")), "the workers' parts were left behind"

    compared = two_passes(tmp_path, "compare", EXAMPLE, *options, files=files, EXAMPLE_PATCHED="1")
    out = compared.stdout
    assert compared.returncode == pytest.ExitCode.TESTS_FAILED, out + compared.stderr
    assert "8 failed, 4 passed" in out, out
    assert "8 differences in 8 tests" in out, out
    assert "captured tests did not run" not in out, out  # every worker's tests are counted as run
    for name in files:
        assert f"FAILED {name}::test_value" in out, out

    same = two_passes(tmp_path, "compare", EXAMPLE, *options, files=files)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "0 differences in 0 tests" in same.stdout, same.stdout


def test_two_workers_need_whole_modules(tmp_path):
    result = two_passes(tmp_path, "write", "def test_nothing():\n    pass\n", "-n", "2")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.stdout + result.stderr
    assert "needs --dist loadfile" in result.stderr, result.stderr


@pytest.mark.parametrize("mode, env, message", [
    ("compare", {}, "does not exist; run the write pass first"),
    ("write", {"PYTHONHASHSEED": "random"}, "needs PYTHONHASHSEED set to a number"),
    ("read", {}, "GYMSPACES_TEST_CAPTURE_MODE=write|compare go together"),
    ("write", {"GYMSPACES_PATCH": "1"}, "=write records plain Gymnasium"),
], ids=["compare-without-capture", "hash-seed-not-pinned", "unknown-mode", "write-patched"])
def test_the_variables_are_checked(tmp_path, mode, env, message):
    result = two_passes(tmp_path, mode, "def test_nothing():\n    pass\n", **env)
    assert result.returncode == pytest.ExitCode.USAGE_ERROR, result.stdout + result.stderr
    assert message in result.stderr, result.stderr
