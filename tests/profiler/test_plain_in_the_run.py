"""The recording times some outermost calls whole to price an operation where the program calls it:
stretches of the run (``STRETCH`` of every ``STRETCH_EVERY`` outermost calls) run as Gymnasium's own
code, sub-calls included, and one call in ``COMPILED_EVERY`` runs compiled, its sub-calls untimed.
Results, generator states and exceptions stay exactly plain Gymnasium's, every call is counted, and the
calls timed whole are counted apart."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from gymspaces.gymnasium import patch, unpatch
from gymspaces.gymnasium.profiler import recording

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched

ROUNDS = 200  # a sample and a contains each: 400 outermost calls, one stretch among them


def _space() -> gymnasium.spaces.Dict:
    return gymnasium.spaces.Dict(
        {"a": gymnasium.spaces.Discrete(5), "b": gymnasium.spaces.Box(0.0, 1.0, (3,), np.float32)}, seed=7
    )


def _run() -> tuple[list[dict[str, np.ndarray]], list[bool], dict[str, object]]:
    space = _space()
    samples, member = [], []
    for _ in range(ROUNDS):
        samples.append(space.sample())
        member.append(space.contains(samples[-1]))
    return samples, member, space.np_random.bit_generator.state


def test_calls_run_as_gymnasiums_code_give_gymnasiums_results_and_are_counted_apart():
    assert 2 * ROUNDS > recording._FIRST_STRETCH + recording.STRETCH
    patch(report=True)
    try:
        samples, member, state = _run()
        record = recording.current()
        calls, whole, plain_calls = dict(record.calls), dict(record.whole_calls), dict(record.plain_calls)
    finally:
        unpatch()
    plain_samples, plain_member, plain_state = _run()
    assert state == plain_state and member == plain_member == [True] * ROUNDS
    for ours, theirs in zip(samples, plain_samples):
        assert ours.keys() == theirs.keys()
        for key in ours:
            assert type(ours[key]) is type(theirs[key]) and np.array_equal(ours[key], theirs[key])
            assert np.asarray(ours[key]).dtype == np.asarray(theirs[key]).dtype
    # One stretch, alternating sample and contains: half of it warming up, half timed as plain.
    half = recording.STRETCH // 2
    for kind in ("warm-up", "plain"):
        assert whole[("Dict.sample", kind)] == whole[("Dict.contains", kind)] == half // 2
    # Compiled, timed whole: the 5th, 37th, ... call of each operation, but those in the stretch.
    assert whole[("Dict.sample", "compiled")] >= 4 and whole[("Dict.contains", "compiled")] >= 4
    assert calls["Dict.sample"] == calls["Dict.contains"] == ROUNDS and not plain_calls
    # Every sub-call is counted, timed or not.
    assert calls["Discrete.sample"] == calls["Box.sample"] == calls["Discrete.contains"] == calls["Box.contains"] == ROUNDS


def test_a_call_run_as_gymnasiums_code_raises_gymnasiums_exception():
    space = gymnasium.spaces.Discrete(3, seed=0)
    mask = np.array([1, 0], np.int8)  # the wrong length
    patch(report=True)
    try:
        errors = []
        for _ in range(recording._FIRST_STRETCH + recording.STRETCH):
            with pytest.raises(Exception) as raised:
                space.sample(mask=mask)
            errors.append((type(raised.value), str(raised.value)))
        whole = recording.current().whole_calls
        plain = whole["Discrete.sample", "plain"] + whole["Discrete.sample", "warm-up"]
    finally:
        unpatch()
    with pytest.raises(Exception) as plain_error:
        space.sample(mask=mask)
    assert plain == recording.STRETCH
    assert set(errors) == {(type(plain_error.value), str(plain_error.value))}


def test_a_call_that_runs_gymnasiums_code_anyway_is_not_counted_compiled():
    class Own(gymnasium.spaces.Discrete):
        def sample(self, mask=None, probability=None):
            return super().sample(mask, probability)

    space = Own(4, seed=1)
    patch(report=True)
    try:
        for _ in range(recording._FIRST_STRETCH + recording.STRETCH):
            space.sample()
        record = recording.current()
        whole, compiled = dict(record.whole_calls), record.calls["Discrete.sample"] - sum(
            count for (label, _, _), count in record.plain_calls.items() if label == "Discrete.sample"
        )
    finally:
        unpatch()
    assert whole == {} and compiled == 0
