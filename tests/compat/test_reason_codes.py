"""Every reason code, triggered: the call runs Gymnasium's code, and says why with that code.

For each code of :data:`gymspaces.gymnasium._reasons.CODES` one call that
fails exactly that check is made patched, with a recorder of patch mode's own
interface (:class:`gymspaces.gymnasium.recorder.Recorder`, here a list: no
profiler) and checked to

* give what it gives plain (value, exception, warnings: ``observe``),
* be told to the recorder as running Gymnasium's code, with that code,
* be explained by ``plain_reason(space, operation, *args)`` with that same
  reason, before the call is made.

A call that runs compiled is told to the recorder as nothing and explained as
``None``. ``release-differs`` needs a release other than 1.4.0: CI's release
legs run this file on each of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium.spaces as G
import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest
from test_patch_exactness import observe

import gymspaces as gs
import gymspaces.utils as gs_utils
from gymspaces.gymnasium import _patch, unpatch
from gymspaces.gymnasium._reasons import CODES, code_of
from gymspaces.gymnasium._release import RELEASE
from support.differential import assert_same_value

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched


@dataclass
class ListRecorder:
    """A recorder of patch mode's interface that keeps what it is told."""

    plain: list[tuple[str, Any, str]] = field(default_factory=list)

    def timed(self, label: str, function: Any, plain: Any) -> Any:
        return function

    def ran_plain(self, label: str, space: Any, reason: str) -> None:
        self.plain.append((label, space, reason))

    def plain_space(self, space: Any) -> None:
        pass

    def patched(self, seconds: float) -> None:
        pass


@dataclass
class Case:
    """A call that fails one check: ``call(space)``, with ``operation`` and ``args`` for ``plain_reason``."""

    code: str
    space: Callable[[], Any]
    operation: str
    args: tuple[Any, ...]
    call: Callable[[Any], Any]
    label: str | None  # what the recorder is told; None for an operation patch mode never takes


class Doubled(G.Discrete):
    n = property(lambda self: 2 * self.__dict__["n"], lambda self, n: self.__dict__.update(n=n))


class Custom(G.Space):
    """A space of the program's own: none of Gymnasium's ten classes."""

    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return 0

    def contains(self, x: Any) -> bool:
        return x == 0


def _with_low_replaced() -> Any:
    space = G.Box(-1.0, 1.0, (3,), np.float32, seed=0)
    space.low = space.low.astype(np.float64)  # replaced after construction: not what __init__ leaves
    return space


def _with_random_state() -> Any:
    space = G.Box(0.0, 1.0, (2,), seed=0)
    space._np_random = np.random.RandomState(0)
    return space


def _nested(depth: int) -> Any:
    space: Any = G.Discrete(3, seed=0)
    for _ in range(depth):
        space = G.Tuple((space,))
    return space


class Subclassed(np.ndarray):
    pass


def _sample(*args: Any) -> Callable[[Any], Any]:
    return lambda space: (space.sample(*args), repr(space.np_random.bit_generator.state))


TINY = np.array([1e-40, 0.5, -1e-42])  # float64 values that underflow a float32 cast
CASES = [
    Case("left-to-gymnasium", lambda: G.Text(8), "contains", ("abc",), lambda space: space.contains("abc"), None),
    Case("not-a-gymnasium-class", lambda: G.Tuple((G.Discrete(2), Custom())), "concatenate",
         ([(0, 0), (1, 0)], (np.zeros(2, np.int64), (0, 0))),
         lambda space: gym_vector.concatenate(space, [(0, 0), (1, 0)], (np.zeros(2, np.int64), (0, 0))), "concatenate"),
    Case("subclass-overrides", lambda: Doubled(3, seed=0), "sample", (), _sample(), "Discrete.sample"),
    Case("generator-not-numpy", _with_random_state, "sample", (), _sample(), "Box.sample"),
    Case("attributes-changed", _with_low_replaced, "sample", (), _sample(), "Box.sample"),
    Case("too-deep", lambda: _nested(70), "flatdim", (), gym_utils.flatdim, "flatdim"),
    Case("argument-not-taken", lambda: G.Discrete(3, seed=0), "sample", (np.ones(3, np.int8).view(Subclassed),),
         _sample(np.ones(3, np.int8).view(Subclassed)), "Discrete.sample"),
    Case("may-warn", lambda: G.Box(-1.0, 1.0, (3,), np.float32), "flatten", (TINY,),
         lambda space: gym_utils.flatten(space, TINY), "flatten"),
]
if RELEASE < (1, 4, 0):
    # A Graph samples, checks and flattens otherwise before 1.4 (a release rule of the instance).
    CASES.append(Case("release-differs", lambda: G.Graph(G.Box(0.0, 1.0, (2,)), G.Discrete(3), seed=0), "sample", (),
                      lambda space: space.sample(num_nodes=3), "Graph.sample"))


@pytest.fixture
def recorder() -> Iterator[ListRecorder]:
    told = ListRecorder()
    _patch._patch(lambda decide: told, None)
    try:
        yield told
    finally:
        unpatch()


def _plain_then_patched(case: Case, recorder: ListRecorder) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """The call's observation plain and patched, and what ``plain_reason`` said before the patched call."""
    unpatch()
    plain = observe(lambda: case.call(case.space()))
    _patch._patch(lambda decide: recorder, None)
    space = case.space()
    explained = _patch.plain_reason(space, case.operation, *case.args)
    patched = observe(lambda: case.call(space))
    return plain, patched, explained


@pytest.mark.parametrize("case", CASES, ids=[case.code for case in CASES])
def test_each_code_runs_gymnasiums_code_and_says_so(case: Case, recorder: ListRecorder) -> None:
    plain, patched, explained = _plain_then_patched(case, recorder)
    assert patched.get("error") == plain.get("error") and patched["warnings"] == plain["warnings"]
    if "value" in plain:
        assert_same_value(patched["value"], plain["value"])
    assert explained is not None and code_of(explained) == case.code, explained
    if case.label is None:  # never taken: nothing patched ran, nothing to tell
        assert recorder.plain == []
        return
    told = [(label, reason) for label, _, reason in recorder.plain]
    assert told and all(label == case.label for label, _ in told), told
    # The outermost call's reason is the one plain_reason gave.
    assert told[0][1] == explained


def test_an_entry_kept_past_unpatch_says_not_patched(recorder: ListRecorder) -> None:
    space = G.Discrete(4, seed=0)
    sample = space.sample  # the patched entry, bound
    unpatch()
    kept = (sample(), repr(space.np_random.bit_generator.state))
    fresh = G.Discrete(4, seed=0)
    assert_same_value(kept, (fresh.sample(), repr(fresh.np_random.bit_generator.state)))
    assert [(label, code_of(reason)) for label, _, reason in recorder.plain] == [("Discrete.sample", "not-patched")]
    assert code_of(_patch.plain_reason(space, "sample")) == "not-patched"


def test_a_rule_of_the_program_says_program_rule(recorder: ListRecorder) -> None:
    unpatch()
    original = gs_utils.flatten.dispatch(gs.Discrete)
    try:
        gs_utils.flatten.register(gs.Discrete, lambda space, x: "the program's rule")
        space = G.Discrete(5)
        plain = observe(lambda: gym_utils.flatten(space, 2))
        _patch._patch(lambda decide: recorder, None)
        explained = _patch.plain_reason(space, "flatten", 2)
        patched = observe(lambda: gym_utils.flatten(space, 2))
    finally:
        unpatch()
        gs_utils.flatten.register(gs.Discrete, original)
    assert_same_value(patched["value"], plain["value"])
    assert code_of(explained) == "program-rule"
    assert [(label, reason) for label, _, reason in recorder.plain] == [("flatten", explained)]


@pytest.mark.parametrize(
    ("space", "operation", "args", "call"),
    [
        (lambda: G.Discrete(3, seed=0), "sample", (), _sample()),
        (lambda: G.Discrete(3, seed=0), "sample", (np.array([1, 0, 1], np.int8),), _sample(np.array([1, 0, 1], np.int8))),
        (lambda: G.Box(-1.0, 1.0, (3,), np.float32), "flatten", (TINY.astype(np.float32),),
         lambda space: gym_utils.flatten(space, TINY.astype(np.float32))),
        (lambda: G.Tuple((G.Discrete(3), G.Box(0.0, 1.0, (2,))), seed=0), "sample", (), _sample()),
    ],
    ids=["discrete-sample", "discrete-masked", "box-flatten", "tuple-sample"],
)
def test_a_compiled_call_has_no_code(space: Callable[[], Any], operation: str, args: tuple[Any, ...],
                                     call: Callable[[Any], Any], recorder: ListRecorder) -> None:
    made = space()
    assert _patch.plain_reason(made, operation, *args) is None
    call(made)
    assert recorder.plain == []


def test_every_code_is_triggered_here_or_on_the_release_it_needs() -> None:
    triggered = {case.code for case in CASES} | {"not-patched", "program-rule"}
    expected = set(CODES) if RELEASE < (1, 4, 0) else set(CODES) - {"release-differs"}
    assert triggered == expected


def test_the_docs_list_every_code_with_its_meaning() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "patching.md").read_text(encoding="utf-8")
    table = text.split("<!-- reason-codes: begin -->")[1].split("<!-- reason-codes: end -->")[0]
    rows = [line.strip("|").split("|") for line in table.strip().splitlines()[2:]]
    assert [(code.strip().strip("`"), meaning.strip()) for code, meaning in rows] == list(CODES.items())
