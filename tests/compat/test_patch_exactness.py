"""Patch mode is never silently different: each case of issue 23, patched against plain.

Every case runs twice in this process, with Gymnasium unpatched and then
patched, from the same seeds, and must give the same observable result:
value (type, dtype, bytes), exception (the same class object and message),
warnings (category, message and the file they are attributed to, as
``filterwarnings(module=...)`` sees them) and the generator state left
behind. Cases the compiled path cannot prove run Gymnasium's own code;
:func:`plain_reason` says why.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
import threading
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import gymnasium.error
import gymnasium.spaces as G
import numpy as np
import pytest
from gymnasium.spaces.utils import flatten
from support.differential import assert_same_value

import gymspaces as gs
from gymspaces import _probes
from gymspaces.gymnasium import _judge, is_compiled, patch, patched, plain_reason, unpatch
from gymspaces.space import KERNEL_CACHE_ATTRS

pytestmark = pytest.mark.usefixtures("unpatched")  # conftest: each test starts unpatched


def observe(call: Callable[[], Any]) -> dict[str, Any]:
    """Everything a caller can see of ``call()``: result or exception, warnings."""
    seen: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            seen["value"] = call()
        except Exception as error:  # noqa: BLE001 - the exception is the observation
            seen["error"] = (type(error), str(error))
    seen["warnings"] = [(w.category, str(w.message), os.path.basename(w.filename)) for w in caught]
    return seen


def assert_plain_equals_patched(case: Callable[[], Any]) -> dict[str, Any]:
    """``case`` patched gives exactly what it gives plain; returns the plain observation."""
    plain = observe(case)
    with patched():
        compiled = observe(case)
    assert compiled.get("error") == plain.get("error")  # the same class object, the same message
    assert compiled["warnings"] == plain["warnings"]
    if "value" in plain:
        assert "value" in compiled
        assert_same_value(compiled["value"], plain["value"])
    return plain


def with_state(space: Any, call: Callable[[Any], Any]) -> Callable[[], Any]:
    """A case returning ``call(space)`` and the generator state it leaves (``space`` built fresh)."""

    def case() -> Any:
        fresh = space()
        result = call(fresh)
        return result, repr(fresh.np_random.bit_generator.state)

    return case


# ------------------------------------------------------------------ 1. exceptions
@pytest.mark.parametrize(
    "case",
    [
        lambda: G.Box(0.0, 1.0, (3,)).sample(mask=np.ones(3, np.int8)),
        lambda: G.Box(0.0, 1.0, (3,)).sample(probability=np.ones(3)),
        lambda: G.Dict(a=G.Box(0.0, 1.0, (3,))).sample(mask={"a": np.ones(3, np.int8)}),
        lambda: G.Tuple((G.Discrete(2), G.Box(0.0, 1.0, (3,)))).sample(mask=(None, np.ones(3, np.int8))),
        lambda: G.OneOf((G.Box(0.0, 1.0, (3,)),), seed=0).sample(mask=(0, np.ones(3, np.int8))),
        lambda: G.Sequence(G.Box(0.0, 1.0, (3,)), seed=0).sample(mask=(2, np.ones(3, np.int8))),
        lambda: G.Graph(G.Box(0.0, 1.0, (2,)), G.Discrete(3), seed=0).sample(mask=(np.ones(2, np.int8), None)),
        lambda: G.Discrete(3, seed=-1),
    ],
    ids=["box-mask", "box-probability", "dict", "tuple", "oneof", "sequence", "graph-node-mask", "seed"],
)
def test_exceptions_are_gymnasiums_classes(case: Callable[[], Any]) -> None:
    plain = assert_plain_equals_patched(case)
    assert "error" in plain
    if plain["error"][0] is gymnasium.error.Error:
        with patched():
            with pytest.raises(gymnasium.error.Error):  # ``except gymnasium.error.Error`` catches it
                case()


# -------------------------------------------------------------------- 2. warnings
def test_warnings_go_through_gymnasiums_logger() -> None:
    level = gymnasium.logger.min_level
    gymnasium.logger.min_level = gymnasium.logger.ERROR
    try:
        for case in (
            lambda: G.Box(0, 1, (2,)).contains([0.5, 0.5]),
            lambda: G.Graph(G.Box(0, 1, (2,)), None, seed=0).sample(num_edges=3).nodes,
        ):
            plain = assert_plain_equals_patched(case)
            assert plain["warnings"] == []  # silenced by the logger level, patched too
    finally:
        gymnasium.logger.min_level = level


@pytest.mark.parametrize("action", ["ignore", "error"])
def test_warning_filters_by_module_see_gymnasium(action: str) -> None:
    def case() -> Any:
        with warnings.catch_warnings():
            warnings.filterwarnings(action, module="gymnasium")
            return G.Box(0, 1, (2,)).contains([0.5, 0.5])

    assert_plain_equals_patched(case)


def test_the_default_filter_shows_what_it_shows_plain() -> None:
    """Under the "default" action a warning shows once per place it comes from:
    patched calls must come from Gymnasium's places too, so the count is the same."""

    def case() -> Any:
        space = G.Box(0, 1, (2,))
        with warnings.catch_warnings(record=True) as caught:
            warnings.resetwarnings()
            warnings.simplefilter("default")
            for _ in range(3):
                space.contains([0.5, 0.5])
        return len(caught)

    assert assert_plain_equals_patched(case)["value"] == 1


def test_warnings_are_attributed_to_gymnasium() -> None:
    plain = assert_plain_equals_patched(lambda: G.Box(0, 1, (2,)).contains([0.5, 0.5]))
    assert [name for *_, name in plain["warnings"]] == ["box.py"]


# ------------------------------------------------------------------- 3. errstate
@pytest.mark.parametrize("dtype,start", [(np.int8, 126), (np.uint8, 254), (np.int16, 32766), (np.int64, 2**63 - 2)])
@pytest.mark.parametrize("over", ["raise", "ignore", "warn"])
def test_errstate_is_honoured(dtype: Any, start: int, over: str) -> None:
    def case() -> Any:
        space = G.Discrete(4, start=start, dtype=dtype, seed=3)
        with np.errstate(over=over):
            return [space.sample() for _ in range(6)], repr(space.np_random.bit_generator.state)

    assert_plain_equals_patched(case)


_FLOAT32_MAX = float(np.finfo(np.float32).max)
_FLOAT64_MAX = float(np.finfo(np.float64).max)


@pytest.mark.parametrize(
    "dtype,bound,compiled",
    [
        (np.float32, _FLOAT32_MAX, True),  # CartPole's bounds on 0.29: the span overflows float32, not float64
        (np.float16, 65504.0, True),
        (np.float64, _FLOAT64_MAX / 2, True),
        (np.float64, _FLOAT64_MAX, False),  # numpy's uniform warns in its float64 subtraction
    ],
)
def test_float_boxes_run_plain_only_where_numpys_float64_span_overflows(dtype: Any, bound: float, compiled: bool) -> None:
    def case() -> Any:
        space = G.Box(-bound, bound, (4,), dtype, seed=5)
        return [space.sample() for _ in range(3)], repr(space.np_random.bit_generator.state)

    assert_plain_equals_patched(case)
    with patched():
        assert is_compiled(G.Box(-bound, bound, (4,), dtype)) is compiled


# ------------------------------------------------------------------ 4. subclasses
class OwnRng(G.Discrete):
    np_random = property(lambda self: self.rng)


class DoubledN(G.Discrete):
    n = property(lambda self: 2 * self.__dict__["n"], lambda self, value: self.__dict__.update(n=value))


class ShiftedLow(G.Box):
    low = property(lambda self: self.__dict__["low"] - 1, lambda self, value: self.__dict__.update(low=value))


class Logged(G.MultiDiscrete):
    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        return value * 2 if name == "nvec" else value


class FirstOnly(G.Dict):
    spaces = property(lambda self: dict(list(self.__dict__["spaces"].items())[:1]),
                      lambda self, value: self.__dict__.update(spaces=value))


def _own_rng() -> Any:
    space = OwnRng(8)
    space.rng = np.random.default_rng(123)
    return [int(space.sample()) for _ in range(3)]


@pytest.mark.parametrize(
    "case",
    [
        _own_rng,
        lambda: DoubledN(3).contains(5),
        lambda: flatten(DoubledN(3), 5),
        lambda: [DoubledN(3, seed=0).sample() for _ in range(4)],
        lambda: ShiftedLow(0.0, 1.0, (3,), seed=0).sample(),
        lambda: ShiftedLow(0.0, 1.0, (3,)).contains(np.full(3, -0.5, np.float32)),
        lambda: Logged([2, 3], seed=0).sample(),
        lambda: Logged([2, 3]).contains(np.array([3, 5])),
        lambda: FirstOnly(a=G.Discrete(2), b=G.Discrete(3), seed=0).sample(),
        lambda: FirstOnly(a=G.Discrete(2), b=G.Discrete(3)).contains({"a": np.int64(0)}),
    ],
    ids=["np_random", "n-contains", "n-flatten", "n-sample", "low-sample", "low-contains", "getattribute-sample",
         "getattribute-contains", "spaces-sample", "spaces-contains"],
)
def test_subclasses_redefining_attributes_run_plain(case: Callable[[], Any]) -> None:
    assert_plain_equals_patched(case)


def test_is_compiled_says_why_a_subclass_runs_plain() -> None:
    with patched():
        assert plain_reason(DoubledN(3)) == "subclass-overrides: DoubledN redefines n"
        assert not is_compiled(DoubledN(3)) and not is_compiled(OwnRng(3))
        assert not is_compiled(G.Dict(a=DoubledN(3)))  # a sub-space counts
        assert is_compiled(G.Dict(a=G.Discrete(3)))

        class Harmless(G.Discrete):  # adds a method, redefines nothing read
            def describe(self) -> str:
                return "harmless"

        assert is_compiled(Harmless(3))


def test_a_node_found_sound_is_judged_again_when_its_class_changes() -> None:
    """A tree's walk takes a node whose dict is unchanged since its judge found it
    sound; a class assigned in place (the dict untouched) is judged afresh."""
    with patched():
        child = G.Discrete(3)
        tree = G.Dict(a=child)
        assert plain_reason(tree) is None and plain_reason(tree) is None
        child.__class__ = DoubledN
        assert plain_reason(tree) == "subclass-overrides: sub-space DoubledN: DoubledN redefines n"
        assert_plain_equals_patched(lambda: flatten(tree, {"a": np.int64(1)}))
        child.__class__ = G.Discrete
        assert plain_reason(tree) is None


# ------------------------------------------------------------------ 5-6. generators
class HalfUniform(np.random.Generator):
    calls = 0

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        HalfUniform.calls += 1
        return np.full(size, 0.5)

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        HalfUniform.calls += 1
        return super().integers(*args, **kwargs)


@pytest.mark.parametrize(
    "build",
    [
        lambda: G.Box(0.0, 1.0, (2,)),
        lambda: G.Discrete(5),
        lambda: G.MultiDiscrete([3, 5]),
        lambda: G.MultiBinary(4),
        lambda: G.Text(4),
    ],
    ids=["box", "discrete", "multi-discrete", "multi-binary", "text"],
)
@pytest.mark.parametrize(
    "generator",
    [
        lambda: HalfUniform(np.random.PCG64(0)),
        lambda: np.random.RandomState(0),
        lambda: object(),
    ],
    ids=["generator-subclass", "random-state", "not-a-generator"],
)
def test_generators_other_than_numpys_run_plain(build: Callable[[], Any], generator: Callable[[], Any]) -> None:
    def case() -> Any:
        space = build()
        space._np_random = generator()
        return space.sample()

    HalfUniform.calls = 0
    assert_plain_equals_patched(case)
    with patched():
        space = build()
        space._np_random = generator()
        assert not is_compiled(space) and "np_random" in plain_reason(space)


def test_generator_subclass_methods_are_called_as_plain_calls_them() -> None:
    HalfUniform.calls = 0
    space = G.Box(0.0, 1.0, (2,))
    space._np_random = HalfUniform(np.random.PCG64(0))
    plain_value = space.sample()
    plain_calls = HalfUniform.calls
    with patched():
        assert_same_value(space.sample(), plain_value)
    assert HalfUniform.calls == 2 * plain_calls > 0


# ------------------------------------------------------------------------ 7. fork
@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_fork_while_another_thread_patches_does_not_hang_the_child() -> None:
    script = textwrap.dedent(
        """
        import os, sys, threading
        from gymspaces.gymnasium import patch, unpatch
        stop = False
        def flip():
            while not stop:
                patch(); unpatch()
        thread = threading.Thread(target=flip)
        thread.start()
        hung = 0
        for _ in range(20):
            pid = os.fork()
            if pid == 0:
                patch(); unpatch()  # would block forever on an inherited held lock
                os._exit(0)
            for _ in range(500):
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
                threading.Event().wait(0.01)
            else:
                hung += 1
                os.kill(pid, 9)
                os.waitpid(pid, 0)
        stop = True
        thread.join()
        print("hung", hung)
        """
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads: the point of the test
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == ["hung", "0"], result.stdout + result.stderr


# --------------------------------------------------------- 8. nothing lands on Gymnasium
def every_kind() -> list[Any]:
    return [
        G.Box(0.0, 1.0, (2,), seed=1),
        G.Discrete(4, seed=2),
        G.MultiBinary(3, seed=3),
        G.MultiDiscrete([2, 3], seed=4),
        G.Text(4, seed=5),
        G.Tuple((G.Discrete(2), G.Box(0, 1, (2,))), seed=6),
        G.Dict(a=G.Discrete(2), b=G.Box(0, 1, (2,)), seed=7),
        G.Sequence(G.Discrete(3), seed=8),
        G.Graph(G.Box(0, 1, (2,), seed=11), G.Discrete(3, seed=12), seed=9),  # batch spaces copy these generators
        G.OneOf((G.Discrete(2), G.Box(0, 1, (2,))), seed=10),
    ]


def test_instances_and_classes_carry_nothing_of_gymspaces() -> None:
    classes = [type(space) for space in every_kind()] + [G.Space]
    spaces = every_kind()
    attributes = [set(vars(space)) for space in spaces]
    plain_pickles = [pickle.dumps(space) for space in every_kind()]
    before = {cls: set(vars(cls)) for cls in classes}  # after pickling: copyreg caches __slotnames__
    with patched():
        for cls in classes:
            assert set(vars(cls)) - before[cls] <= {"sample", "contains"}
        for space in spaces:
            space.contains(space.sample())
        assert [set(vars(space)) for space in spaces] == attributes  # caches live beside, not in
        assert all(_probes.kernel_cache_of(space) for space in spaces[:5])
        fresh = every_kind()
        for space in fresh:
            space.sample()
        patched_pickles = [pickle.dumps(space) for space in every_kind()]
    assert [set(vars(space)) for space in spaces] == attributes
    assert patched_pickles == plain_pickles  # same seeds, same state, same bytes
    assert [pickle.dumps(space) for space in fresh] == [pickle.dumps(space) for space in fresh]
    for cls in classes:
        assert set(vars(cls)) == before[cls]


def test_caches_beside_spaces_die_with_them() -> None:
    import gc

    gc.collect()
    start = _probes.foreign_cache_count()
    with patched():
        for _ in range(200):
            G.Discrete(3, seed=0).sample()
            G.Text(3, seed=0).sample()
    gc.collect()
    assert _probes.foreign_cache_count() == start


class Mixin:
    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["mixin"] = "kept"
        return state


class MixedBox(G.Box, Mixin):
    pass


class SlottedBox(G.Box):
    __slots__ = ("extra",)


def test_copies_and_pickles_are_gymnasiums() -> None:
    def case() -> Any:
        space = MixedBox(0.0, 1.0, (2,), seed=0)
        return copy.deepcopy(space).__dict__.get("mixin"), pickle.loads(pickle.dumps(space)).__dict__.get("mixin")

    assert assert_plain_equals_patched(case)["value"] == ("kept", "kept")

    def slotted() -> Any:
        space = SlottedBox(0.0, 1.0, (2,), seed=0)
        space.extra = 1
        return pickle.loads(pickle.dumps(space)).extra

    assert_plain_equals_patched(slotted)


@pytest.mark.parametrize("name", ["_rng_handle", "_kernel_cache", "_shared_memory_plan"])
def test_user_attributes_with_gymspaces_cache_names_are_left_alone(name: str) -> None:
    def case() -> Any:
        space = G.Discrete(3, seed=0)
        setattr(space, name, "mine")
        space.sample()
        return copy.copy(space).__dict__[name], pickle.loads(pickle.dumps(space)).__dict__[name]

    assert assert_plain_equals_patched(case)["value"] == ("mine", "mine")


@pytest.mark.parametrize("private", ["_contains_general", "_sample_masked", "_children", "_sample_with_numpy"])
def test_subclass_private_names_do_not_hijack_patched_methods(private: str) -> None:
    hijack = type("Hijack", (G.MultiDiscrete,), {private: lambda self, *args: "x"})

    def case() -> Any:
        space = hijack([2, 2], seed=0)
        return space.contains([1, 1]), space.contains(np.array([1, 1])), space.sample(), space.sample(
            mask=(np.array([1, 0], np.int8), np.array([0, 1], np.int8))
        )

    assert assert_plain_equals_patched(case)["value"][0] is True


# ------------------------------------------------------------- 9. mutated attributes
def _mutated(build: Callable[[], Any], attribute: str, value: Any, call: Callable[[Any], Any]) -> Callable[[], Any]:
    def case() -> Any:
        space = build()
        setattr(space, attribute, value)
        return call(space), repr(space.np_random.bit_generator.state)

    return case


@pytest.mark.parametrize(
    "case",
    [
        _mutated(lambda: G.Text(5, seed=0), "_char_list", tuple("abc"), lambda s: s.sample()),
        _mutated(lambda: G.Box(0.0, 1.0, (3,), seed=0), "_shape", (4,), lambda s: s.sample()),
        _mutated(lambda: G.Box(0.0, 1.0, (3,), seed=0), "_shape", (4,), lambda s: s.contains(np.zeros(3, np.float32))),
        _mutated(lambda: G.Discrete(3, seed=0), "n", -3, lambda s: s.contains(0)),
        _mutated(lambda: G.Discrete(3, seed=0), "n", 2**64, lambda s: s.contains(1)),
        _mutated(lambda: G.Discrete(3, seed=0), "n", 3.0, lambda s: s.sample()),
        _mutated(lambda: G.Discrete(3, seed=0), "n", 5, lambda s: [s.sample() for _ in range(3)]),
        _mutated(lambda: G.Discrete(3, seed=0), "start", 2**63, lambda s: s.sample()),
        _mutated(lambda: G.Discrete(3, seed=0), "start", np.int64(7), lambda s: (s.sample(), s.contains(8))),
        _mutated(lambda: G.MultiDiscrete([3, 4], seed=0), "nvec", [5, 6], lambda s: s.sample()),
        _mutated(lambda: G.MultiBinary(3, seed=0), "n", 4, lambda s: s.sample()),
        _mutated(lambda: G.Text(5, seed=0), "min_length", 3.0, lambda s: s.sample()),
    ],
    ids=["text-char-list", "box-shape-sample", "box-shape-contains", "discrete-negative-n", "discrete-huge-n",
         "discrete-float-n", "discrete-int-n", "discrete-huge-start", "discrete-new-start", "multi-discrete-list",
         "multi-binary-n", "text-float-min"],
)
def test_mutated_attributes_are_read_as_plain_reads_them(case: Callable[[], Any]) -> None:
    assert_plain_equals_patched(case)


def _mutated_after_a_call(edit: Callable[[Any], None]) -> Callable[[], Any]:
    def case() -> Any:
        space = G.Dict({"n": G.Discrete(3, seed=0), "box": G.Box(0.0, 1.0, (2,), seed=1)}, seed=2)
        first = (space.sample(), flatten(space, space.sample()), space["n"].sample())
        edit(space)
        return first, space["n"].sample(), space.sample(), flatten(space, space.sample())

    return case


@pytest.mark.parametrize(
    "edit",
    [
        lambda space: setattr(space["n"], "n", 5),
        lambda space: vars(space["n"]).__setitem__("start", 10),
        lambda space: vars(space["n"]).update(n=7, start=-2),
        lambda space: setattr(space["box"], "high", np.full(2, 4.0, np.float32)),
        lambda space: space.spaces.__setitem__("n", G.Discrete(4, seed=5)),
        lambda space: setattr(space["n"], "n", 3.0),  # unsound: plain's error, patched too
    ],
    ids=["setattr", "dict-setitem", "dict-update", "box-bounds", "child-replaced", "unsound-after-sound"],
)
def test_attributes_mutated_after_a_compiled_call_are_judged_again(edit: Callable[[Any], None]) -> None:
    # A space judged sound is recognised afterwards by its dict's version
    # (CPython 3.10-3.12): any change to the dict must send it back to the judge.
    assert_plain_equals_patched(_mutated_after_a_call(edit))


def test_plain_reason_follows_an_edit_after_a_sound_verdict() -> None:
    space = G.Discrete(3, seed=0)
    with patched():
        space.sample()
        assert plain_reason(space) is None
        n = space.n
        space.n = 3.0
        assert plain_reason(space) is not None
        space.n = n
        assert plain_reason(space) is None


# ------------------------------------------------------------------ 11. small ones
def test_samples_are_new_objects() -> None:
    def case() -> Any:
        space = G.Discrete(2, seed=0)
        first, second = space.sample(), space.sample()
        return first is second, pickle.dumps(G.Sequence(G.Discrete(2), seed=1).sample())

    assert assert_plain_equals_patched(case)["value"][0] is False


def test_probability_of_an_ndarray_subclass() -> None:
    class Weights(np.ndarray):
        pass

    probability = np.full(3, 0.5).view(Weights)
    assert_plain_equals_patched(lambda: G.MultiBinary(3, seed=0).sample(probability=probability))


def test_graph_probability_path_keeps_numpys_warnings() -> None:
    def case() -> Any:
        space = G.Graph(G.Discrete(3), G.Discrete(2), seed=0)
        return space.sample(probability=(np.array([0.5, 0.5, 0.0]), np.array([0.5, 0.5])), num_nodes=3).nodes

    assert_plain_equals_patched(case)


def test_python_optimize_skips_gymnasiums_asserts_patched_too() -> None:
    script = textwrap.dedent(
        """
        import gymnasium.spaces as G
        import numpy as np
        from gymspaces.gymnasium import patch, unpatch
        def run():
            out = []
            for call in (lambda: G.Text(4, seed=0).sample(mask=(True, None)),
                         lambda: G.Discrete(3, seed=0).sample(mask=np.array([1, 1, 1], np.int64))):
                try:
                    out.append(repr(call()))
                except Exception as error:
                    out.append(type(error).__name__ + ': ' + str(error))
            return out
        plain = run()
        patch()
        print(plain == run(), plain)
        """
    )
    result = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True"), result.stdout


def test_unpatch_restores_every_class_while_threads_sample() -> None:
    space = G.Dict(a=G.Discrete(3, seed=0), b=G.Box(0, 1, (2,), seed=1))
    errors: list[BaseException] = []
    stop = threading.Event()

    def work() -> None:
        try:
            while not stop.is_set():
                assert space.contains(space.sample())
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    thread = threading.Thread(target=work)
    thread.start()
    try:
        for _ in range(50):
            patch()
            unpatch()
    finally:
        stop.set()
        thread.join()
    assert not errors
    assert not set(vars(space)) & set(KERNEL_CACHE_ATTRS)


# ------------------------------------------------- helpers (flatten family, vector)
@pytest.mark.parametrize("over", ["warn", "raise", "ignore"])
def test_flatten_of_an_overflowing_input_runs_gymnasiums_rule(over: str) -> None:
    def case() -> Any:
        with np.errstate(over=over):
            return flatten(G.Discrete(3, start=-100, dtype=np.int8), np.int8(100))

    plain = assert_plain_equals_patched(case)
    if over == "warn":
        assert [name for *_, name in plain["warnings"]] == ["utils.py"]  # gymnasium/spaces/utils.py


def test_unflatten_of_a_value_nested_past_any_walk_runs_gymnasiums_rule() -> None:
    """The may-warn walk follows the caller's value, not a space: nested 300,000
    lists deep it stops (no C stack followed that far) and Gymnasium's own
    unflatten runs, raising what it raises plain."""
    from gymnasium.spaces.utils import unflatten

    nested: Any = [1.0]
    for _ in range(300_000):
        nested = [nested]
    box = G.Box(0.0, 1.0, (2,))
    plain = assert_plain_equals_patched(lambda: unflatten(box, nested))
    assert plain["error"][0] is ValueError
    with patched():
        assert plain_reason(box, "unflatten", nested).startswith("may-warn: ")


def test_helpers_run_gymnasiums_rules_for_trees_with_unprovable_nodes() -> None:
    from gymnasium.vector.utils import concatenate, create_empty_array

    tree = G.Dict(a=DoubledN(3), b=G.Box(0.0, 1.0, (2,)))
    items = [{"a": np.int64(4), "b": np.zeros(2, np.float32)}] * 2
    assert_plain_equals_patched(lambda: flatten(tree, items[0]))
    assert_plain_equals_patched(lambda: concatenate(tree, items, create_empty_array(tree, 2)))
    with patched():
        assert _judge.node_reason(tree) is None  # the Dict itself is sound ...
        assert plain_reason(tree) == "subclass-overrides: sub-space DoubledN: DoubledN redefines n"  # ... a node of its tree is not
        assert not is_compiled(tree)


def test_iterating_a_dict_batch_raises_gymnasiums_error_at_the_same_step() -> None:
    """``iterate`` of a Dict is a generator in both libraries: a child's error comes
    from the first ``next``, after the patched rule returned, and must still be
    Gymnasium's class, with Gymnasium's cause."""
    from gymnasium.vector.utils import iterate

    text_tuple = G.Tuple((G.Text(2, min_length=2, charset="z"),))
    tree = G.Dict(a=G.Box(0.0, 1.0, (2,)), b=text_tuple)

    def case() -> Any:
        rows = iterate(tree, {"a": np.zeros((3, 2)), "b": None})
        try:
            next(rows)
        except gymnasium.error.CustomSpaceError as error:
            return type(error.__cause__), str(error.__cause__), error.__suppress_context__
        raise AssertionError("iterate raised nothing")

    plain = assert_plain_equals_patched(case)
    assert plain["value"][0] is TypeError
    with patched():
        assert is_compiled(tree)  # the compiled rule ran, not Gymnasium's


@pytest.mark.parametrize(
    "space, flat",
    [
        # A Tuple that is not numpy-flattenable: its flat value nests a tuple
        # (the Sequence's items) holding the float array that casts with NaN.
        (
            lambda: G.Tuple((G.Discrete(3), G.Sequence(G.MultiBinary(3)))),
            lambda: (np.array([0, 1, 0]), (np.array([1.0, np.nan, 0.0]),)),
        ),
        # A Dict that is not numpy-flattenable: its flat value is a dict.
        (
            lambda: G.Dict(a=G.Box(0, 9, (2,), dtype=np.int64), b=G.Sequence(G.Discrete(2))),
            lambda: {"a": np.array([np.inf, 1.0]), "b": ()},
        ),
    ],
    ids=["tuple-nesting-a-tuple", "dict"],
)
def test_unflatten_of_nested_values_that_warn_in_a_cast_runs_gymnasiums_rule(space: Any, flat: Any) -> None:
    from gymnasium.spaces.utils import unflatten

    plain = assert_plain_equals_patched(lambda: unflatten(space(), flat()))
    assert [name for *_, name in plain["warnings"]] == ["utils.py"]  # gymnasium/spaces/utils.py


@pytest.mark.parametrize("under", ["warn", "raise"])
def test_unflatten_of_a_value_underflowing_float32_reports_as_plain_under_errstate(under: str) -> None:
    """numpy reports a float64 value below float32's normal range through
    ``np.errstate(under=...)`` when it casts it. The checked kernels leave such
    a cast to Gymnasium's rule, and so must the general rule's may-warn check
    (one rule for both: ``_flatten.cast_is_quiet``); a Sequence inside the
    Tuple keeps the checked kernel out, so the general rule decides."""
    from gymnasium.spaces.utils import unflatten

    space = G.Tuple((G.Discrete(3), G.Sequence(G.Box(0.0, 1.0, (2,), dtype=np.float32))))
    flat = (np.array([0, 1, 0]), (np.array([1e-40, 0.5]),))

    def case() -> Any:
        with np.errstate(under=under):
            return unflatten(space, flat)

    plain = assert_plain_equals_patched(case)
    if under == "warn":
        assert [name for *_, name in plain["warnings"]] == ["utils.py"]  # gymnasium/spaces/utils.py


@pytest.mark.parametrize("helper", ["flatdim", "flatten", "concatenate"])
def test_a_rule_registered_with_gymspaces_does_not_reach_gymnasiums_spaces(helper: str) -> None:
    """Patched, gymspaces' dispatchers give Gymnasium's classes the rules of their
    gymspaces namesakes, registered at patch(): where a user's rule replaced
    one of gymspaces' own then, patched calls on Gymnasium's spaces run
    Gymnasium's code (compiled again once it is put back and patched anew); a
    rule registered while patched does not reach Gymnasium's classes."""
    import gymnasium.spaces.utils as gym_utils
    import gymnasium.vector.utils as gym_vector_utils

    import gymspaces.utils as gs_utils
    import gymspaces.vector as gs_vector
    from gymspaces.gymnasium import _patch

    gymspaces_helper = getattr(gs_vector if helper == "concatenate" else gs_utils, helper)
    calls = {
        "flatdim": lambda space: gym_utils.flatdim(space),
        "flatten": lambda space: gym_utils.flatten(space, space.sample()),
        "concatenate": lambda space: gym_vector_utils.concatenate(
            space, [space.sample(), space.sample()], gym_vector_utils.create_empty_array(space, 2)
        ),
    }

    def case() -> Any:
        space = G.Dict(a=G.Discrete(5), b=G.Text(3), seed=0) if helper == "concatenate" else G.Dict(
            a=G.Discrete(5), b=G.Box(0.0, 1.0, (2,)), seed=0
        )
        return calls[helper](space)

    replaced = gs.Text if helper == "concatenate" else gs.Discrete
    original = gymspaces_helper.dispatch(replaced)
    try:
        gymspaces_helper.register(replaced, lambda *args: "the user's rule")
        assert_plain_equals_patched(case)
        with patched():
            assert not _patch._state.live.built_in_rules
    finally:
        gymspaces_helper.register(replaced, original)
    with patched():
        assert _patch._state.live.built_in_rules
    assert_plain_equals_patched(case)
    # Registered while patched: Gymnasium's classes keep the rules patch() gave them.
    plain = case()
    with patched():
        try:
            gymspaces_helper.register(replaced, lambda *args: "the user's rule")
            assert_same_value(case(), plain)
            assert _patch._state.live.built_in_rules
        finally:
            gymspaces_helper.register(replaced, original)


def test_graph_sample_follows_a_batch_space_rule_registered_with_gymnasium() -> None:
    """Patched, a Graph's children are batched as Gymnasium's own batch_space
    rule batches them; a rule a user registers there for a child's class is
    run, as Gymnasium's Graph.sample runs it."""
    import gymnasium.vector.utils as gym_vector_utils

    class Bounded(G.Box):
        pass

    def case() -> Any:
        space = G.Graph(Bounded(-1.0, 1.0, (2,)), G.Discrete(3), seed=0)
        return space.sample(num_nodes=4), space.sample(), repr(space.np_random.bit_generator.state)

    before = assert_plain_equals_patched(case)["value"]
    calls: list[int] = []

    def counted(space: Any, n: int = 1) -> Any:
        calls.append(n)
        return gym_vector_utils.batch_space(G.Box(space.low, space.high, dtype=space.dtype, seed=0), n)

    gym_vector_utils.batch_space.register(Bounded, counted)
    plain = assert_plain_equals_patched(case)
    assert calls == [1, 4, 10] * 2  # plain, then patched: the Graph's own batch at creation, then two samples
    assert not np.array_equal(plain["value"][0].nodes, before[0].nodes)  # the rule ran


class CountingArray:
    """A value numpy converts through ``__array__``, counting the conversions."""

    def __init__(self, array: np.ndarray) -> None:
        self.array, self.reads = array, 0

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        self.reads += 1
        return self.array if dtype is None else self.array.astype(dtype)


class CountingDict(dict):  # type: ignore[type-arg]
    reads = 0

    def __getitem__(self, key: Any) -> Any:
        type(self).reads += 1
        return super().__getitem__(key)


WRITE_CASES = {
    "int-outside-int8": (lambda: G.Discrete(3, dtype=np.int8), lambda: 300),
    "nan-into-int-box": (lambda: G.Box(0, 9, (2,), np.int32), lambda: np.array([np.nan, 1.0])),
    "huge-into-float32": (lambda: G.Box(-1.0, 1.0, (2,)), lambda: np.array([1e40, 0.0])),
    "list-into-box": (lambda: G.Box(-1.0, 1.0, (2,)), lambda: [0.5, 0.25]),
    "counted-array": (lambda: G.Box(-1.0, 1.0, (2,)), lambda: CountingArray(np.array([0.5, 1e40]))),
    "tuple-with-overflow": (
        lambda: G.Tuple((G.Discrete(3), G.Box(0, 9, (2,), np.uint8))),
        lambda: (np.int64(1), np.array([-1.0, 300.0])),
    ),
    "dict-subclass": (
        lambda: G.Dict(a=G.Discrete(3), b=G.Box(-1.0, 1.0, (2,))),
        lambda: CountingDict(a=np.int64(2), b=np.zeros(2)),
    ),
    "oneof-with-overflow": (
        lambda: G.OneOf((G.Discrete(3), G.Box(0, 9, (2,), np.int16))),
        lambda: (1, np.array([1e6, 1.0])),
    ),
}


@pytest.mark.parametrize("case", list(WRITE_CASES))
def test_write_to_shared_memory_of_values_that_warn_or_run_code_equals_plain(case: str) -> None:
    """Values whose cast warns (or raises), or that numpy reads through code of
    the caller's, are written by Gymnasium's rule: the same warnings, errors,
    memory contents and reads of the value."""
    from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

    make_space, make_value = WRITE_CASES[case]

    def run() -> Any:
        space, value = make_space(), make_value()
        CountingDict.reads = 0
        memory = create_shared_memory(space, n=2)
        with np.errstate(all="warn"), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            write_to_shared_memory(space, 1, value, memory)
        reads = value.reads if isinstance(value, CountingArray) else CountingDict.reads
        where = [(w.filename, w.lineno) for w in caught]  # Gymnasium's line, not a namesake file's
        return read_from_shared_memory(space, memory, n=2), reads, where

    assert_plain_equals_patched(run)


FLAT_COPY_CASES = {
    "float32": (lambda: G.Box(-1.0, 1.0, (3,)), lambda: np.arange(3, dtype=np.float32)),
    "image-uint8": (lambda: G.Box(0, 255, (4, 5, 3), np.uint8), lambda: np.ones((4, 5, 3), np.uint8)),
    "fortran-order": (lambda: G.Box(0.0, 1.0, (2, 3)), lambda: np.asfortranarray(np.eye(2, 3, dtype=np.float32))),
    "strided": (lambda: G.Box(0.0, 1.0, (3,)), lambda: np.arange(6, dtype=np.float32)[::2]),
    "big-endian": (lambda: G.Box(0.0, 1.0, (3,), np.dtype(">f8")), lambda: np.ones(3, ">f8")),
    "zero-d": (lambda: G.Box(0.0, 1.0, ()), lambda: np.array(0.5, np.float32)),
    "empty": (lambda: G.Box(0.0, 1.0, (0, 2)), lambda: np.zeros((0, 2), np.float32)),
    "multi-binary": (lambda: G.MultiBinary((2, 2)), lambda: np.ones((2, 2), np.int8)),
    "float16": (lambda: G.Box(0.0, 1.0, (3,), np.float16), lambda: np.ones(3, np.float16)),
}


@pytest.mark.parametrize("case", list(FLAT_COPY_CASES))
def test_flatten_of_an_array_leaf_is_a_fresh_copy_as_numpy_makes(case: str) -> None:
    """A Box or MultiBinary value of the space's dtype is copied flat: the same
    bytes, the value's own dtype object, a new C-contiguous array owning its
    memory, whatever the value's layout."""
    space, value = FLAT_COPY_CASES[case]
    x = value()
    assert_plain_equals_patched(lambda: flatten(space(), x))
    with patched():
        flat = flatten(space(), x)
    assert flat.dtype is x.dtype
    assert flat.flags.c_contiguous and flat.flags.owndata and flat.flags.writeable and flat.flags.aligned
    assert not np.shares_memory(flat, x)


@pytest.mark.parametrize("helper", ["flatten", "unflatten"])
@pytest.mark.parametrize("size", [2, 0])
def test_a_complex_input_warns_from_gymnasiums_rule(helper: str, size: int) -> None:
    """Casting complex values into a real dtype warns whatever the values (even
    none), also where no leaf's range could be exceeded (complex64 into float64)."""
    import gymnasium.spaces.utils as gym_utils

    def case() -> Any:
        space = G.Box(0, 1, (size,), dtype=np.float64)
        return getattr(gym_utils, helper)(space, np.full(size, 1 + 1j, dtype=np.complex64))

    plain = assert_plain_equals_patched(case)
    assert [name for *_, name in plain["warnings"]] == ["utils.py"]  # gymnasium/spaces/utils.py
