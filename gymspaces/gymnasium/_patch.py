"""Patch mode: Gymnasium's own space classes run gymspaces' kernels.

:func:`patch` installs a ``sample`` and a ``contains`` on Gymnasium's ten space
classes (:mod:`._entries`) and rules for Gymnasium's hot helpers (the flatten
family, ``concatenate``, ``iterate`` and shared-memory reads and writes) that
run gymspaces' compiled code where the outcome is provably Gymnasium's
(:mod:`._guard`: the class, the instance, the arguments), and Gymnasium's own
code everywhere else. What Gymnasium's own code does as fast is not taken
over at all. Every one of these decisions is a row of patch mode's table
(:data:`._operations.OPERATIONS`, docs/patching.md). Spaces keep their
classes: ``type(space) is gymnasium.spaces.Box`` still holds, spaces made
before :func:`patch` are accelerated too, and a space pickled while patched
loads where gymspaces is not installed.

This works because Gymnasium 1.x and gymspaces store the same instance
attributes under the same names (see :mod:`gymspaces.gymnasium._convert`):
gymspaces' methods read a Gymnasium space as they read their own. Nothing
of gymspaces is stored on Gymnasium's classes or instances besides those two
methods: the kernels' caches (a handle on the bit generator, a Text space's
character table) live beside the instance, keyed by its identity, dropped
when it dies, and keyed in turn by the objects they were built from, so
Gymnasium's own ``seed`` and ``np_random`` setter invalidate them without a
hook.

Everything :func:`patch` changes is recorded and :func:`unpatch` puts back
exactly what was there (the same function objects in the same class
dictionaries and dispatch registries).
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import gymnasium
import gymnasium.spaces as _gym

import gymspaces as _gs
from gymspaces import _dispatch, _env_vars, _kernel_switches
# The releases patch mode is verified against (every patched operation gives that
# release's own results), defined where the install hints read them without Gymnasium.
from gymspaces._gymnasium_releases import VERIFIED_GYMNASIUM
from gymspaces._sub_spaces import sub_spaces
from gymspaces.gymnasium import _calls, _entries, _guard, _judge, _operations
from gymspaces.gymnasium._reasons import coded
from gymspaces.gymnasium._release import ALL_SPACE_NAMES, SPACE_NAMES, utils_helper, vector_helper

if TYPE_CHECKING:
    from gymspaces.gymnasium.recorder import Recorder

__all__ = ["patch", "unpatch", "is_patched", "patched", "is_compiled", "plain_reason", "VERIFIED_GYMNASIUM"]


# Opting in to patch a release not in VERIFIED_GYMNASIUM (patch(unverified=True) does too).
UNVERIFIED_VARIABLE = "GYMSPACES_PATCH_UNVERIFIED"

_MISSING = object()
_LOCK = threading.RLock()
_state: _PatchState | None = None
_warned_version = False
# patched() blocks open in any thread, and whether one of them turned patching on.
_blocks = 0
_blocks_patched = False


# A fork while another thread is inside patch()/unpatch() would leave the
# child a lock held by a thread it does not have: the fork waits for the lock.
os.register_at_fork(before=_LOCK.acquire, after_in_parent=_LOCK.release, after_in_child=_LOCK.release)

# gymspaces' helpers that hand a Gymnasium space they have no rule for to
# Gymnasium's helper of the same name while patched (_PatchState.hand_gymnasium_spaces_over).
_HANDED_OVER_UTILS = "flatdim flatten unflatten flatten_space".split()
_HANDED_OVER_VECTOR = ("batch_space iterate concatenate create_empty_array create_shared_memory "
                       "read_from_shared_memory write_to_shared_memory").split()


def _handing_over(gymnasium_helper: Any, previous: Callable[..., Any]) -> Callable[..., Any]:
    """A default rule: a Gymnasium space goes to ``gymnasium_helper``, anything else to ``previous``."""

    def default(space: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(space, _gym.Space):
            return gymnasium_helper(space, *args, **kwargs)
        return previous(space, *args, **kwargs)

    default.__qualname__ = default.__name__ = f"{previous.__name__}_or_gymnasium"
    return default


class _PatchState:
    """What :func:`patch` changed, in order, to be put back by :func:`unpatch`.

    Each change is journalled as it is made and :meth:`undo` reverts the
    journal last change first. :func:`patch` makes its changes dependencies
    first (gymspaces' rules for Gymnasium's classes, then the private helpers), entry points
    (``sample``, ``contains``, Gymnasium's dispatcher rules) last, so undoing
    takes the entry points away before anything they call: a call that
    starts at any moment of either finds everything it needs.
    """

    def __init__(self) -> None:
        self.journal: list[Callable[[], None]] = []  # undo steps, in the order the changes were made
        self.equivalents: dict[type, type] = {}
        self.recording = False  # patch(report=True)
        self.built_in_rules = True  # see add_equivalents
        self.live: _entries.Live | None = None  # made once the dependencies are in; turned off first thing on undo

    # Undo steps are partials, not closures: some 150 of them, and a closure
    # is five objects for the collector to visit, a partial two.
    def set_attribute(self, cls: type, name: str, value: Any) -> None:
        previous = cls.__dict__.get(name, _MISSING)
        setattr(cls, name, value)
        if previous is _MISSING:
            self.journal.append(functools.partial(delattr, cls, name))
        else:
            self.journal.append(functools.partial(setattr, cls, name, previous))

    def register(self, dispatcher: Any, cls: type, rule: Any) -> None:
        previous = dispatcher.registry[cls]
        dispatcher.register(cls, rule)
        self.journal.append(functools.partial(dispatcher.register, cls, previous))

    def answer_registered_in_c(self, dispatcher: Any) -> None:
        """Let ``dispatcher`` (a ``functools.singledispatch`` function) find an
        exactly registered class in C (``_calls.registry_first``): its closure's
        ``dispatch`` is swapped, its public ``dispatch`` attribute kept. Left as
        it is when it is not shaped as functools makes it."""
        original = getattr(dispatcher, "dispatch", None)
        cell = _dispatch.closure_cell(dispatcher, "dispatch")
        registry = _dispatch.closure_cell(original, "registry")
        if cell is None or registry is None or cell.cell_contents is not original or (
                type(registry.cell_contents) is not dict):
            return
        fast = _calls.registry_first(registry.cell_contents, original)

        def restore() -> None:
            if cell.cell_contents is fast:
                cell.cell_contents = original

        cell.cell_contents = fast
        self.journal.append(restore)

    def add_equivalents(self, equivalents: dict[type, type]) -> None:
        """gymspaces' dispatchers and kernels treat each key as its value: each
        dispatcher of values (not those that build spaces) gets the value's
        rule registered for the key, where the value has one of its own."""
        self.equivalents.update(equivalents)
        taken_back: list[Callable[[], None]] = []

        def take_back_all() -> None:
            with _dispatch.listeners_once():
                for take_back in reversed(taken_back):
                    take_back()

        def accept(rule: Any) -> bool:
            if _defined_in_gymspaces(rule):
                return True
            # A user's rule for gymspaces' class must not reach Gymnasium's:
            # its helpers run Gymnasium's own code for this patch.
            self.built_in_rules = False
            return False

        self.journal.append(take_back_all)  # first: a registration that fails is undone too
        _dispatch.register_like(equivalents, _dispatch.value_dispatchers(), accept=accept, taken_back=taken_back)
        classes = tuple(equivalents)
        _kernel_switches.add(equivalents)
        self.journal.append(lambda: _kernel_switches.remove(classes))

    def hand_gymnasium_spaces_over(self, pairs: list[tuple[Any, Any]]) -> None:
        """Each gymspaces helper of ``pairs`` (Gymnasium's helper, gymspaces' helper)
        hands a Gymnasium space that no rule of its own takes (a custom space,
        or a class it has no rule for, as ``batch_space`` has none for
        Gymnasium's) to Gymnasium's helper: the compiled walks call gymspaces'
        helpers on Gymnasium's trees."""
        for gymnasium_helper, gymspaces_helper in pairs:
            if gymnasium_helper is None:  # a helper the installed Gymnasium lacks
                continue
            previous = gymspaces_helper.dispatch(object)
            gymspaces_helper.register(object, _handing_over(gymnasium_helper, previous))
            self.journal.append(functools.partial(gymspaces_helper.register, object, previous))

    def undo(self) -> None:
        if self.live is not None:
            self.live.on = False
        while self.journal:
            self.journal.pop()()


def _may_patch(unverified: bool | None) -> bool:
    """Whether to patch the installed Gymnasium; warns once when it will not, or
    when it will although unverified."""
    global _warned_version
    if gymnasium.__version__ in VERIFIED_GYMNASIUM:
        return True
    if unverified is None:
        unverified = bool(_env_vars.flag(UNVERIFIED_VARIABLE))  # a value not understood is off, silently
    if not _warned_version:
        _warned_version = True
        installed, verified = gymnasium.__version__, ", ".join(VERIFIED_GYMNASIUM)
        message = (
            f"patching Gymnasium {installed}, which gymspaces is not verified against (verified: {verified}): "
            "results may differ from that release's own"
            if unverified else
            f"Gymnasium {installed} is not a release gymspaces is verified against (verified: {verified}), so it "
            f"stays unpatched: its own code runs. patch(unverified=True) or {UNVERIFIED_VARIABLE}=1 patches it anyway"
        )
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    return unverified


def patch(*, report: bool = False, unverified: bool | None = None) -> None:
    """Run every Gymnasium space on gymspaces' kernels, until :func:`unpatch`.

    Covers spaces made before and after the call, by any code: Gymnasium's
    ten space classes sample, check membership, flatten, concatenate,
    iterate and use shared memory through gymspaces, with bit for bit the
    results Gymnasium gives. Classes are unchanged (``type(space) is
    gymnasium.spaces.Box`` holds); subclasses that override ``sample`` or
    ``contains`` keep their own code. Calling it again does nothing (but
    ``report=True`` turns recording on if it was off); it is safe to call
    from several threads.

    A Gymnasium release that patch mode is not verified against
    (:data:`VERIFIED_GYMNASIUM`) stays unpatched, with one
    ``RuntimeWarning``, unless ``unverified`` says otherwise: no release is
    ever silently different.

    Parameters
    ----------
    report : bool
        Also count and time the compiled operations and record the spaces
        created that do not run compiled, for :func:`report` (costs two
        clock reads per call). If already patched without recording,
        recording starts now (with counts from zero).
    unverified : bool, optional
        Patch a release that is not verified anyway (with one warning).
        Default: whether ``GYMSPACES_PATCH_UNVERIFIED`` is set to a true
        value (``1``, ``true``, ``yes``, ``on``).

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import is_compiled, patch, unpatch
    >>> space = gymnasium.spaces.Discrete(5, seed=0)
    >>> is_compiled(space)
    False
    >>> patch()
    >>> is_compiled(space), type(space) is gymnasium.spaces.Discrete
    (True, True)
    >>> int(space.sample()) == int(gymnasium.spaces.Discrete(5, seed=0).sample())
    True
    >>> unpatch()
    """
    start_recording: Callable[[Callable[..., str | None]], Recorder] | None = None
    if report:  # the profiler: loaded only to record
        from gymspaces.gymnasium import profiler

        start_recording = profiler.start_recording
    _patch(start_recording, unverified)


def _patch(start_recording: Callable[[Callable[..., str | None]], Recorder] | None, unverified: bool | None) -> None:
    """:func:`patch`, telling the recorder ``start_recording(plain_reason)`` returns of every call (if given)."""
    global _state
    started = time.perf_counter()
    with _LOCK:
        if _state is not None:
            if start_recording is None or _state.recording:
                return
            # Patched without recording (by the start-up hook, say, before
            # ``--report`` asks for it): patch again, recording.
            previous, _state = _state, None
            previous.undo()
        if not _may_patch(unverified):
            return
        from gymspaces import utils as gs_utils
        from gymspaces import vector as gs_vector

        # gymspaces.vector loads its shared-memory helpers on first use; their
        # dispatchers must exist before add_equivalents registers Gymnasium's
        # classes with gymspaces' dispatchers (multiprocessing is Gymnasium's
        # import already: this costs the module itself).
        from gymspaces.vector import shared_memory  # noqa: F401

        recorder = start_recording(plain_reason) if start_recording is not None else None
        record: Callable[..., Any] = recorder.timed if recorder else (lambda label, function, plain: function)
        state = _PatchState()
        state.recording = recorder is not None
        try:
            # Dependencies first: what gymspaces' code needs to run on
            # Gymnasium's classes (the judges, gymspaces' rules for them, private helpers).
            _judge.judging(_guard.JUDGE_OF_CLASS)
            state.journal.append(functools.partial(_judge.judging, {}))
            with _dispatch.listeners_once():  # the kernels' switches are refreshed once, after both
                state.add_equivalents({getattr(_gym, name): getattr(_gs, name) for name in SPACE_NAMES})
                state.hand_gymnasium_spaces_over(
                    [(utils_helper(name), getattr(gs_utils, name)) for name in _HANDED_OVER_UTILS]
                    + [(vector_helper(name), getattr(gs_vector, name)) for name in _HANDED_OVER_VECTOR]
                )
            live = state.live = _entries.Live(
                built_in_rules=state.built_in_rules, note_plain=recorder.ran_plain if recorder else None
            )
            # Entry points last: Gymnasium's dispatchers, then the methods, each
            # as its row in the table says (_operations.OPERATIONS).
            for name in _operations.HELPERS:
                in_utils = name in _operations.UTILS_HELPERS
                gymnasium_helper = utils_helper(name) if in_utils else vector_helper(name)
                if gymnasium_helper is None:  # a helper the installed Gymnasium lacks
                    continue
                gymspaces_helper = getattr(gs_utils if in_utils else gs_vector, name)
                registry = gymnasium_helper.registry
                originals = {theirs: registry[theirs] for theirs in state.equivalents if theirs in registry}
                for theirs in originals:
                    row = _operations.row(theirs.__name__, name)
                    if row is None or row.left is not None:
                        continue
                    rule = _entries.helper_rule(row, gymspaces_helper, live, originals)
                    state.register(gymnasium_helper, theirs, record(row.label, rule, originals[theirs]))
                state.answer_registered_in_c(gymnasium_helper)
            for name in SPACE_NAMES:
                for method, entry in _entries.make_entries(name, live).items():
                    row = _operations.OPERATIONS[name, method]
                    if row.left is None:
                        cls = getattr(_gym, name)
                        state.set_attribute(cls, method, record(row.label, entry, cls.__dict__[method]))
            if recorder:
                original_init = _gym.Space.__dict__["__init__"]
                state.set_attribute(_gym.Space, "__init__", _noting_plain_spaces(original_init, recorder))
        except BaseException:
            state.undo()
            raise
        _state = state
        if recorder:
            recorder.patched(time.perf_counter() - started)  # part of patch mode's start-up


def unpatch() -> None:
    """Undo :func:`patch`: Gymnasium's classes and helpers are exactly as before.

    Does nothing if not patched.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import patch, unpatch
    >>> original = gymnasium.spaces.Box.sample
    >>> patch()
    >>> gymnasium.spaces.Box.sample is original
    False
    >>> unpatch()
    >>> gymnasium.spaces.Box.sample is original
    True
    """
    global _state
    with _LOCK:
        if _state is None:
            return
        state, _state = _state, None  # from here on, rules still handed out defer to Gymnasium's
        state.undo()


def is_patched() -> bool:
    """Whether :func:`patch` is in effect.

    Examples
    --------
    >>> from gymspaces.gymnasium import is_patched, patched
    >>> with patched():
    ...     is_patched()
    True
    """
    return _state is not None


@contextlib.contextmanager
def patched() -> Iterator[None]:
    """Context manager: patched inside the block, as before it after.

    Blocks in several threads (or nested) share one patch: Gymnasium stays
    patched until the last block open exits. If patching was on before the
    first block started (:func:`patch`), it stays on.

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import is_compiled, is_patched, patched
    >>> with patched():
    ...     is_compiled(gymnasium.spaces.Box(0, 1, (3,)))
    True
    >>> is_patched()
    False
    """
    global _blocks, _blocks_patched
    with _LOCK:
        if _blocks == 0:
            _blocks_patched = False
        if _state is None:
            patch()
            _blocks_patched = True  # (again, if unpatch() was called inside a block)
        _blocks += 1
    try:
        yield
    finally:
        with _LOCK:
            _blocks -= 1
            if _blocks == 0 and _blocks_patched:
                unpatch()


_GYMSPACES_BASES = tuple(getattr(_gs, name) for name in ALL_SPACE_NAMES)


_PACKAGE_DIRECTORY = os.path.dirname(os.path.abspath(_gs.__file__)) + os.sep


def _defined_in_gymspaces(rule: Any) -> bool:
    """Whether ``rule``'s code is gymspaces' own (by its source file: a wrapper
    made with ``functools.wraps`` copies a module name, not a code object)."""
    code = getattr(rule, "__code__", None)
    return _in_package(getattr(code, "co_filename", "") or "")


@functools.lru_cache(maxsize=None)
def _in_package(filename: str) -> bool:
    # Cached: patch() asks about some hundred rules from a few dozen files.
    return os.path.abspath(filename).startswith(_PACKAGE_DIRECTORY)


def _gymspaces_class_overrides(cls: type) -> bool:
    """Whether ``cls``, a subclass of a gymspaces class, redefines ``sample`` or ``contains``
    (by module: a report wrapper of gymspaces' method is gymspaces' code)."""
    for function in (getattr(cls, "sample", None), getattr(cls, "contains", None)):
        module = getattr(getattr(function, "__wrapped__", function), "__module__", None) or ""
        if module != "gymspaces" and not module.startswith("gymspaces."):
            return True
    return False


def _noting_plain_spaces(original: Callable[..., Any], recorder: Recorder) -> Callable[..., Any]:
    """``Space.__init__`` that tells ``recorder`` of each space whose class runs Gymnasium's code
    (as far as the class goes: instances are judged per call)."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        if _state is None or _guard.class_reason(type(self)) is not None:
            recorder.plain_space(self)

    __init__.__qualname__ = getattr(original, "__qualname__", "__init__")
    __init__.__wrapped__ = original  # type: ignore[attr-defined]
    return __init__


def plain_reason(space: Any, operation: str | None = None, *args: Any, **kwargs: Any) -> str | None:
    """Why ``space`` (or a sub-space) does not run on gymspaces' kernels; ``None`` if it does.

    A Gymnasium space runs compiled only while patched and only where the
    outcome is provably Gymnasium's: its class (and every sub-space's) must
    not redefine what Gymnasium's methods read, its generator must be exactly
    a ``numpy.random.Generator``, and its attributes must be as Gymnasium's
    ``__init__`` sets them. Otherwise Gymnasium's own code runs, and this
    says why: ``"code: detail"``, the code one of
    :data:`gymspaces.gymnasium._reasons.CODES`, each with its meaning.

    Given an ``operation`` (``"sample"``, ``"contains"`` or a helper's name,
    ``"flatten"``...) and the call's arguments after the space, it gives the
    reason that call's own decision gives, the one the report records for it:
    ``plain_reason(box, "flatten", x)`` for ``flatten(box, x)``,
    ``plain_reason(discrete, "sample", mask)`` for ``discrete.sample(mask)``.

    Examples
    --------
    >>> import gymnasium
    >>> import numpy as np
    >>> from gymspaces.gymnasium import patched, plain_reason
    >>> class Doubled(gymnasium.spaces.Discrete):
    ...     n = property(lambda self: 2 * self.__dict__["n"], lambda self, n: self.__dict__.update(n=n))
    >>> with patched():
    ...     print(plain_reason(gymnasium.spaces.Discrete(3)))
    ...     print(plain_reason(Doubled(3)))
    None
    subclass-overrides: Doubled redefines n
    >>> with patched():
    ...     print(plain_reason(gymnasium.spaces.Text(8), "contains").split(":")[0])
    left-to-gymnasium
    """
    cls = type(space)
    if issubclass(cls, _GYMSPACES_BASES):
        if _gymspaces_class_overrides(cls):
            return coded("subclass-overrides", f"{cls.__qualname__} overrides sample or contains")
        return next((reason for reason in map(plain_reason, sub_spaces(space)) if reason is not None), None)
    base = _guard.gymnasium_base(cls)
    row = None if base is None or operation is None else _operations.row(base.__name__, operation)
    if row is not None and row.left is not None:
        return coded("left-to-gymnasium", f"{row.label} is left to Gymnasium's own code: {row.left}")
    state = _state
    if state is None:
        return coded("not-patched", "Gymnasium is not patched")
    if row is not None:
        return _calls.explain(row, state.live, space, args, kwargs)  # type: ignore[arg-type]
    return _judge.tree_reason(space)


def is_compiled(space: Any) -> bool:
    """Whether ``space`` samples, checks membership and flattens with gymspaces' kernels.

    True for gymspaces spaces whose classes (and sub-spaces' classes) keep
    gymspaces' ``sample`` and ``contains``, and,
    while patched, for Gymnasium spaces whose outcome is provably
    Gymnasium's (see :func:`plain_reason`, which says why not). The
    operations patch mode leaves to Gymnasium's own code, as fast there
    (a Text's ``contains``, say: ``plain_reason(space, operation)``), run that code for
    every space.

    Examples
    --------
    >>> import gymnasium
    >>> import gymspaces
    >>> from gymspaces.gymnasium import is_compiled
    >>> is_compiled(gymspaces.Box(0, 1)), is_compiled(gymnasium.spaces.Box(0, 1))
    (True, False)
    """
    return plain_reason(space) is None
