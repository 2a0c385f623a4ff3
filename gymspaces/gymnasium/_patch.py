"""Patch mode: Gymnasium's own space classes run gymspaces' kernels.

:func:`patch` installs gymspaces' ``sample`` and ``contains`` (and the private
helpers they call) on Gymnasium's ten space classes, and routes Gymnasium's
hot helpers (the flatten family, ``concatenate``, ``iterate``,
``create_empty_array`` and the shared-memory helpers) to gymspaces'
implementations for them. Spaces keep their classes: ``type(space) is
gymnasium.spaces.Box`` still holds, spaces made before :func:`patch` are
accelerated too, and a space pickled while patched loads where gymspaces is
not installed.

This works because Gymnasium 1.x and gymspaces store the same instance
attributes under the same names (see :mod:`gymspaces.gymnasium._convert`):
gymspaces' methods read a Gymnasium space as they read their own. The
kernels' caches (a handle on the bit generator, a Text space's character
table) live in the instance and are keyed by the objects they were built
from, so Gymnasium's own ``seed`` and ``np_random`` setter invalidate them
without a hook.

Everything :func:`patch` changes is recorded and :func:`unpatch` puts back
exactly what was there (the same function objects in the same class
dictionaries and dispatch registries).
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium
import gymnasium.spaces as _gym

import gymspaces as _gs
from gymspaces import _dispatch, _kernel_wiring
from gymspaces.gymnasium._convert import SPACE_NAMES
from gymspaces.space import KERNEL_CACHE_ATTRS

__all__ = ["patch", "unpatch", "is_patched", "patched", "is_compiled", "VERIFIED_GYMNASIUM"]

VERIFIED_GYMNASIUM = ("1.4.0",)
"""Gymnasium releases whose sample streams gymspaces is tested against."""

_MISSING = object()
_LOCK = threading.RLock()
_state: _PatchState | None = None
_warned_version = False
# patched() blocks open in any thread, and whether one of them turned patching on.
_blocks = 0
_blocks_patched = False

# The methods installed on Gymnasium's classes that user code calls; the other
# methods installed are private helpers these look up on the instance's class.
_ENTRY_POINTS = ("sample", "contains")

# Gymnasium's helpers that gymspaces runs for patched classes: the calls made
# per step. The ones that build spaces (batch_space, batch_differing_spaces,
# flatten_space) stay Gymnasium's: the spaces they build are Gymnasium's
# classes, hence compiled too.
_UTILS_HELPERS = ("flatdim", "flatten", "unflatten")
_VECTOR_HELPERS = (
    "concatenate",
    "iterate",
    "create_empty_array",
    "create_shared_memory",
    "read_from_shared_memory",
    "write_to_shared_memory",
)


class _PatchState:
    """What :func:`patch` changed, in order, to be put back by :func:`unpatch`.

    Each change is journalled as it is made and :meth:`undo` reverts the
    journal last change first. :func:`patch` makes its changes dependencies
    first (the equivalence table, then the private helpers), entry points
    (``sample``, ``contains``, Gymnasium's dispatcher rules) last, so undoing
    takes the entry points away before anything they call: a call that
    starts at any moment of either finds everything it needs.
    """

    def __init__(self) -> None:
        self.journal: list[Callable[[], None]] = []  # undo steps, in the order the changes were made
        self.equivalents: dict[type, type] = {}
        self.recording = False  # patch(report=True)

    def set_attribute(self, cls: type, name: str, value: Any) -> None:
        previous = cls.__dict__.get(name, _MISSING)
        setattr(cls, name, value)
        if previous is _MISSING:
            self.journal.append(lambda: delattr(cls, name))
        else:
            self.journal.append(lambda: setattr(cls, name, previous))

    def register(self, dispatcher: Any, cls: type, rule: Any) -> None:
        previous = dispatcher.registry[cls]
        dispatcher.register(cls, rule)
        self.journal.append(lambda: dispatcher.register(cls, previous))

    def add_equivalents(self, equivalents: dict[type, type]) -> None:
        """gymspaces' dispatchers and kernels treat each key as its value."""
        self.equivalents.update(equivalents)
        classes = tuple(equivalents)
        _dispatch.set_equivalents(equivalents)
        self.journal.append(lambda: _dispatch.set_equivalents({}, removed=classes))
        _kernel_wiring.add(equivalents, subclasses_only=False)
        self.journal.append(lambda: _kernel_wiring.remove(classes))

    def undo(self) -> None:
        while self.journal:
            self.journal.pop()()


def _graph_instance(value: Any) -> Any:
    """``value`` with every gymspaces ``GraphInstance`` in it made Gymnasium's."""
    kind = type(value)
    if kind is _gs.GraphInstance:
        return _gym.GraphInstance(*value)
    if kind is tuple:
        items = [_graph_instance(item) for item in value]
        return tuple(items) if any(new is not old for new, old in zip(items, value)) else value
    if kind is dict:
        entries = {key: _graph_instance(item) for key, item in value.items()}
        return entries if any(entries[key] is not value[key] for key in value) else value
    return value


def _gymnasium_rule(
    helper: Callable[..., Any], name: str, graphs: bool, state: _PatchState, originals: dict[type, Any]
) -> Callable[..., Any]:
    """gymspaces' ``helper`` as a rule of Gymnasium's dispatcher ``name``.

    It raises Gymnasium's ``CustomSpaceError`` where gymspaces raises its own,
    and (``graphs``) returns Gymnasium ``GraphInstance`` objects. Called when
    ``state`` is not the patch in effect, it runs Gymnasium's own rule
    (``originals``, by class): singledispatch's cache may hand it out after
    :func:`unpatch` when a lookup in another thread raced the registration.
    """
    from gymnasium.error import CustomSpaceError as GymnasiumCustomSpaceError

    from gymspaces.error import CustomSpaceError

    def gymnasiums(space: Any) -> Callable[..., Any]:
        return next(originals[klass] for klass in type(space).__mro__ if klass in originals)

    if graphs:

        def rule(space: Any, *args: Any, **kwargs: Any) -> Any:
            if _state is not state:
                return gymnasiums(space)(space, *args, **kwargs)
            try:
                return _graph_instance(helper(space, *args, **kwargs))
            except CustomSpaceError as error:
                raise GymnasiumCustomSpaceError(*error.args) from error

    else:

        def rule(space: Any, *args: Any, **kwargs: Any) -> Any:
            if _state is not state:
                return gymnasiums(space)(space, *args, **kwargs)
            try:
                return helper(space, *args, **kwargs)
            except CustomSpaceError as error:
                raise GymnasiumCustomSpaceError(*error.args) from error

    rule.__name__ = rule.__qualname__ = f"{name}_compiled"
    rule.__doc__ = helper.__doc__
    rule.__wrapped__ = helper  # type: ignore[attr-defined]
    return rule


def _drop_kernel_caches(self: Any) -> dict[str, Any]:
    """``__getstate__`` of Gymnasium spaces while patched: the instance dict
    without gymspaces' kernel caches, so the pickle loads without gymspaces."""
    state = self.__dict__
    if any(name in state for name in KERNEL_CACHE_ATTRS):
        state = {name: value for name, value in state.items() if name not in KERNEL_CACHE_ATTRS}
    return state


def _graph_sample(
    self: Any, mask: Any = None, probability: Any = None, num_nodes: int = 10, num_edges: int | None = None
) -> Any:
    return _gym.GraphInstance(*_gs.Graph.sample(self, mask, probability, num_nodes, num_edges))


def _graph_contains(self: Any, x: Any) -> bool:
    # Gymnasium accepts only its own GraphInstance (gymspaces' is another class).
    if not isinstance(x, _gym.GraphInstance):
        return False
    return _gs.Graph.contains(self, _gs.GraphInstance(*x))


def _methods(name: str) -> dict[str, Any]:
    """The gymspaces methods installed on Gymnasium's class ``name``."""
    ours = getattr(_gs, name)
    theirs = getattr(_gym, name)
    methods: dict[str, Any] = {"sample": ours.__dict__.get("sample"), "contains": ours.__dict__.get("contains")}
    if name == "Graph":
        methods["sample"], methods["contains"] = _graph_sample, _graph_contains
    # Private helpers the two methods call, which Gymnasium's class lacks.
    for klass in ours.__mro__:
        if klass is object or not klass.__module__.startswith("gymspaces"):
            continue
        for attribute, value in vars(klass).items():
            if (
                attribute.startswith("_")
                and not attribute.startswith("__")
                and callable(value)
                and not hasattr(theirs, attribute)
                and attribute not in methods
            ):
                methods[attribute] = value
    return {attribute: value for attribute, value in methods.items() if value is not None}


def _check_version() -> None:
    global _warned_version
    if gymnasium.__version__ not in VERIFIED_GYMNASIUM and not _warned_version:
        _warned_version = True
        warnings.warn(
            f"gymspaces' sample streams are verified against Gymnasium "
            f"{', '.join(VERIFIED_GYMNASIUM)}; the installed Gymnasium is {gymnasium.__version__}",
            RuntimeWarning,
            stacklevel=3,
        )


def patch(*, report: bool = False) -> None:
    """Run every Gymnasium space on gymspaces' kernels, until :func:`unpatch`.

    Covers spaces made before and after the call, by any code: Gymnasium's
    ten space classes sample, check membership, flatten, concatenate,
    iterate and use shared memory through gymspaces, with bit for bit the
    results Gymnasium gives. Classes are unchanged (``type(space) is
    gymnasium.spaces.Box`` holds); subclasses that override ``sample`` or
    ``contains`` keep their own code. Calling it again does nothing (but
    ``report=True`` turns recording on if it was off); it is safe to call
    from several threads.

    Warns (``RuntimeWarning``, once) if the installed Gymnasium is not a
    release gymspaces is verified against.

    Parameters
    ----------
    report : bool
        Also count and time the compiled operations and record the spaces
        created that do not run compiled, for :func:`report` (costs two
        clock reads per call). If already patched without recording,
        recording starts now (with counts from zero).

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
    global _state
    with _LOCK:
        if _state is not None:
            if not report or _state.recording:
                return
            # Patched without recording (by the start-up hook, say, before
            # ``--report`` asks for it): patch again, recording.
            previous, _state = _state, None
            previous.undo()
        _check_version()
        import gymnasium.spaces.utils as gym_utils
        import gymnasium.vector.utils as gym_vector

        from gymspaces import utils as gs_utils
        from gymspaces import vector as gs_vector

        from gymspaces.gymnasium import _report

        record: Callable[[str, Any], Any] = _report.timed if report else (lambda label, function: function)
        if report:
            _report.reset()
        state = _PatchState()
        state.recording = report
        try:
            # Dependencies first: what gymspaces' code needs to run on
            # Gymnasium's classes (the equivalence table, private helpers).
            state.add_equivalents({getattr(_gym, name): getattr(_gs, name) for name in SPACE_NAMES})
            methods = {name: _methods(name) for name in SPACE_NAMES}
            for name in SPACE_NAMES:
                for attribute, value in methods[name].items():
                    if attribute not in _ENTRY_POINTS:
                        state.set_attribute(getattr(_gym, name), attribute, value)
            state.set_attribute(_gym.Space, "__getstate__", _drop_kernel_caches)
            # Entry points last: Gymnasium's dispatchers, then the methods.
            helpers = [(getattr(gym_utils, name), getattr(gs_utils, name), name) for name in _UTILS_HELPERS]
            helpers += [(getattr(gym_vector, name), getattr(gs_vector, name), name) for name in _VECTOR_HELPERS]
            for gymnasium_helper, gymspaces_helper, name in helpers:
                registry = gymnasium_helper.registry
                originals = {theirs: registry[theirs] for theirs in state.equivalents if theirs in registry}
                rule = _gymnasium_rule(gymspaces_helper, name, name != "flatdim", state, originals)
                rule = record(name, rule)
                for theirs in originals:
                    state.register(gymnasium_helper, theirs, rule)
            for name in SPACE_NAMES:
                for attribute in _ENTRY_POINTS:
                    if attribute in methods[name]:
                        value = record(f"{name}.{attribute}", methods[name][attribute])
                        state.set_attribute(getattr(_gym, name), attribute, value)
            if report:
                original_init = _gym.Space.__dict__["__init__"]
                state.set_attribute(_gym.Space, "__init__", _report.recording_init(original_init, _compiled_class))
        except BaseException:
            state.undo()
            raise
        _state = state


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


_KNOWN_BASES = tuple(getattr(library, name) for name in SPACE_NAMES for library in (_gs, _gym))


def _is_gymspaces_code(function: Any) -> bool:
    function = getattr(function, "__wrapped__", function)  # a report wrapper
    module = getattr(function, "__module__", None) or ""
    return module == "gymspaces" or module.startswith("gymspaces.")


def _compiled_class(cls: type) -> bool:
    """Whether instances of ``cls`` (a known space class or a subclass of one)
    sample and check membership with gymspaces' code.

    Gymnasium's classes resolve to gymspaces' methods only while patched; a
    subclass that overrides either method resolves to its own code.
    """
    if not issubclass(cls, _KNOWN_BASES):
        return False
    return _is_gymspaces_code(getattr(cls, "sample", None)) and _is_gymspaces_code(getattr(cls, "contains", None))


def is_compiled(space: Any) -> bool:
    """Whether ``space`` samples, checks membership and flattens with gymspaces' kernels.

    True for gymspaces spaces, compatible spaces and (while patched)
    Gymnasium spaces, as long as neither their class nor any sub-space's
    class overrides ``sample`` or ``contains`` with its own code.

    Examples
    --------
    >>> import gymnasium
    >>> import gymspaces
    >>> from gymspaces.gymnasium import is_compiled
    >>> is_compiled(gymspaces.Box(0, 1)), is_compiled(gymnasium.spaces.Box(0, 1))
    (True, False)
    """
    if not _compiled_class(type(space)):
        return False
    return all(is_compiled(child) for child in _children(space))


def _children(space: Any) -> list[Any]:
    if isinstance(space, (_gs.Tuple, _gym.Tuple, _gs.OneOf, _gym.OneOf)):
        return list(space.spaces)
    if isinstance(space, (_gs.Dict, _gym.Dict)):
        return list(space.spaces.values())
    if isinstance(space, (_gs.Sequence, _gym.Sequence)):
        return [space.feature_space]
    if isinstance(space, (_gs.Graph, _gym.Graph)):
        return [child for child in (space.node_space, space.edge_space) if child is not None]
    return []
