"""Helpers for differential tests: run the same call against gymspaces and Gymnasium.

``GS`` and ``GYM`` are the two libraries' spaces modules; both expose the same
class names, so one :class:`~support.recipes.Recipe` builds either one.
Comparisons here are exact: same Python type, same dtype (byte order
included), same shape and the same bytes.

Every :func:`outcome`, and the Gymnasium (``expected``) side of every
assertion here, is also reported to :mod:`support.capture`, which in a
capture session records it (unpatched) or compares it with the record
(patched): the patched-vs-plain half of a differential test.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium.error
import gymnasium.spaces
import numpy as np

import gymspaces
import gymspaces.error
from support import capture

GS = gymspaces
GYM = gymnasium.spaces
LIBS = (GS, GYM)
GRAPH_INSTANCES = (GS.GraphInstance, GYM.GraphInstance)

# Gymnasium's and gymspaces' ``Error`` (and ``CustomSpaceError``) are distinct classes
# with one contract.
_ERROR_CLASSES = {
    gymspaces.error.Error: "Error",
    gymnasium.error.Error: "Error",
    gymspaces.error.CustomSpaceError: "CustomSpaceError",
    gymnasium.error.CustomSpaceError: "CustomSpaceError",
}


def error_kind(exc: BaseException) -> Any:
    """The exception's class, with the two libraries' ``Error`` classes identified."""
    return _ERROR_CLASSES.get(type(exc), type(exc))


@dataclasses.dataclass
class Outcome:
    """What one call did: its value or exception, and the warnings it emitted."""

    value: Any = None
    error: BaseException | None = None
    warnings: list[tuple[type, str]] = dataclasses.field(default_factory=list)

    @property
    def raised(self) -> bool:
        return self.error is not None

    def describe(self) -> str:
        if self.error is not None:
            return f"raised {type(self.error).__name__}: {self.error}"
        return f"returned {self.value!r}"


def outcome(call: Callable[[], Any], *, state_of: Any = None) -> Outcome:
    """Run ``call`` recording every warning; capture its result or its exception.

    ``state_of`` (a space or a generator): its generator state after the call
    belongs to the outcome's capture record.
    """
    result = Outcome()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result.value = call()
        except Exception as exc:  # noqa: BLE001 - any exception is data here
            result.error = exc
    result.warnings = [(w.category, str(w.message)) for w in caught]
    capture.observe_outcome(result.value, result.error, caught, state_of)
    return result


# x87 extended precision: a long double holds 10 bytes of value in a 12- or
# 16-byte slot; the rest is padding that numpy's own copies leave unspecified.
_X87_LONGDOUBLE = np.finfo(np.longdouble).nmant == 63
_X87_VALUE_BYTES = 10


def _value_bytes(value: Any) -> bytes:
    """The bytes of ``value``'s elements, without long double padding."""
    array = np.asarray(value)
    raw = array.tobytes()
    if not (_X87_LONGDOUBLE and array.dtype.char in "gG" and array.dtype.isnative):
        return raw
    slot = np.dtype(np.longdouble).itemsize  # one real component
    return np.frombuffer(raw, np.uint8).reshape(-1, slot)[:, :_X87_VALUE_BYTES].tobytes()


def assert_same_value(actual: Any, expected: Any, context: str = "") -> None:
    """Exact equality: same type, dtype (incl. byte order), shape and bytes, through
    tuples, lists, dicts (key order included) and graph samples (either library's
    ``GraphInstance``, field by field)."""
    capture.observe_value(expected)
    _assert_same_value(actual, expected, context)


def _assert_same_value(actual: Any, expected: Any, context: str = "") -> None:
    where = f" ({context})" if context else ""
    if isinstance(expected, GRAPH_INSTANCES) and type(actual) is not type(expected):
        assert isinstance(actual, GRAPH_INSTANCES), f"not a GraphInstance{where}: {actual!r}"
        for field in expected._fields:
            _assert_same_value(getattr(actual, field), getattr(expected, field), f"{context}.{field}")
        return
    assert type(actual) is type(expected), (
        f"type mismatch{where}: gymspaces {type(actual)!r} vs gymnasium {type(expected)!r}"
    )
    if isinstance(actual, (np.ndarray, np.generic)):
        assert actual.dtype.str == expected.dtype.str, (
            f"dtype mismatch{where}: {actual.dtype.str} vs {expected.dtype.str}"
        )
        assert actual.shape == expected.shape, (
            f"shape mismatch{where}: {actual.shape} vs {expected.shape}"
        )
        if expected.dtype == object:  # bytes would be pointers: compare the elements
            _assert_same_value(np.asarray(actual).tolist(), np.asarray(expected).tolist(), context)
            return
        equal_nan = actual.dtype.kind in "fc"
        assert np.array_equal(actual, expected, equal_nan=equal_nan), (
            f"value mismatch{where}:\n gymspaces {actual!r}\n gymnasium {expected!r}"
        )
        if not (equal_nan and np.isnan(np.asarray(expected)).any()):
            # Bit-level equality also tells -0.0 from 0.0.
            assert _value_bytes(actual) == _value_bytes(expected), (
                f"bit mismatch{where}:\n gymspaces {actual!r}\n gymnasium {expected!r}"
            )
    elif isinstance(actual, (tuple, list)):
        assert len(actual) == len(expected), f"length mismatch{where}"
        for i, (a, b) in enumerate(zip(actual, expected)):
            _assert_same_value(a, b, f"{context}[{i}]")
    elif isinstance(actual, dict):
        assert list(actual) == list(expected), f"keys mismatch{where}"
        for key in actual:
            _assert_same_value(actual[key], expected[key], f"{context}[{key!r}]")
    else:
        assert actual == expected, f"value mismatch{where}: {actual!r} vs {expected!r}"


def assert_same_outcome(
    actual: Outcome,
    expected: Outcome,
    context: str = "",
    *,
    same_message: bool = False,
    same_warnings: bool = True,
) -> None:
    """Both returned the same value, or both raised the same exception type."""
    where = f" ({context})" if context else ""
    if expected.raised or actual.raised:
        assert expected.raised and actual.raised, (
            f"only one library raised{where}: gymspaces {actual.describe()}; "
            f"gymnasium {expected.describe()}"
        )
        assert error_kind(actual.error) == error_kind(expected.error), (
            f"exception type mismatch{where}: gymspaces {actual.describe()}; "
            f"gymnasium {expected.describe()}"
        )
        if same_message:
            assert str(actual.error) == str(expected.error), (
                f"exception message mismatch{where}:\n gymspaces {actual.error}\n "
                f"gymnasium {expected.error}"
            )
    else:
        _assert_same_value(actual.value, expected.value, context)
    if same_warnings:
        assert actual.warnings == expected.warnings, (
            f"warnings mismatch{where}: gymspaces {actual.warnings} vs gymnasium {expected.warnings}"
        )


def both(call: Callable[[Any], Any]) -> tuple[Outcome, Outcome]:
    """``(outcome(call(gymspaces)), outcome(call(gymnasium)))``."""
    return outcome(lambda: call(GS)), outcome(lambda: call(GYM))


def states_equal(a: Any, b: Any) -> bool:
    """Deep equality of bit-generator state dicts (MT19937/Philox states hold arrays)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(states_equal(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))
    return type(a) is type(b) and a == b


def assert_same_generator_state(actual: np.random.Generator, expected: np.random.Generator,
                                context: str = "") -> None:
    """Two generators are in the same state (PCG64's buffered 32-bit half-word included)."""
    capture.observe_state(expected)
    _assert_same_generator_state(actual, expected, context)


def _assert_same_generator_state(actual: np.random.Generator, expected: np.random.Generator,
                                 context: str = "") -> None:
    a, b = actual.bit_generator.state, expected.bit_generator.state
    assert states_equal(a, b), f"RNG state mismatch ({context}):\n {a}\n {b}"


def assert_same_state(gs_space: Any, gym_space: Any, context: str = "") -> None:
    """The two spaces' bit generators are in the same state (32-bit buffer included)."""
    assert_same_generator_state(gs_space.np_random, gym_space.np_random, context)


def assert_same_stream(
    gs_space: Any,
    gym_space: Any,
    draws: int,
    context: str = "",
    *,
    same_warnings: bool = False,
    **sample_kwargs: Any,
) -> None:
    """``draws`` successive samples (or exceptions) agree, and so do the final states.

    Warnings are compared only on request: ``test_parity.test_sample_warnings``
    checks them once per recipe, so a warning difference is reported there
    instead of in every stream test.
    """
    for i in range(draws):
        actual = outcome(lambda: gs_space.sample(**sample_kwargs), state_of=gs_space)
        expected = outcome(lambda: gym_space.sample(**sample_kwargs), state_of=gym_space)
        assert_same_outcome(actual, expected, f"{context} draw {i}", same_warnings=same_warnings)
    assert_same_state(gs_space, gym_space, context)


def seeded_pair(build: Callable[..., Any], seed: int) -> tuple[Any, Any]:
    """Build a space in both libraries and seed both with ``seed``; seed() returns agree."""
    gs_space, gym_space = build(GS), build(GYM)
    gs_seed, gym_seed = gs_space.seed(seed), gym_space.seed(seed)
    capture.observe_value(gym_seed)
    assert type(gs_seed) is type(gym_seed) and gs_seed == gym_seed
    return gs_space, gym_space
