"""Cases for the operations patch mode leaves to Gymnasium: is Gymnasium's own code still as fast?

Each row of patch mode's table that is left to Gymnasium
(``gymspaces/gymnasium/_operations.py``, ``_LEFT``) claims that taking the
operation, decision included, would gain nothing. Each ``left_*`` case times
that operation on Gymnasium's space two ways in the same run:

* ``gymnasium``: plain, Gymnasium's own code;
* ``gymspaces``: patched, with the row *taken* anyway -- the entry it would
  install (``_operations.as_taken``) put in place for the case's duration;
  where Gymnasium registers no rule of its own for the class (a Text's
  ``iterate``: its ``Space`` rule answers), patched as it is, since patch
  mode has no rule of Gymnasium's to stand in for.

A ratio near 1 (or below) keeps the claim; a row whose taken side is
clearly faster is one to take. The bench prints the figures beside the
claim (:func:`notes`); nothing gates on them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from benchmarks import patched
from benchmarks.e2e import plain_gymnasium
from benchmarks.libraries import library

PREFIX = "left_"

# The kind of space of ``benchmarks.patched`` each Gymnasium class is timed on.
_KINDS = {
    "Box": "box", "Discrete": "discrete", "MultiBinary": "multi_binary", "MultiDiscrete": "multi_discrete",
    "Text": "text", "Tuple": "tuple", "Dict": "dict", "Sequence": "sequence", "Graph": "graph", "OneOf": "oneof",
}


def _raising(build: patched.Build) -> patched.Build:
    """``build``'s operation, whose call may raise (a Sequence's flatdim does, in either library)."""

    def operation(lib: Any) -> Callable[[], Any]:
        call = build(lib)

        def guarded() -> Any:
            try:
                return call()
            except ValueError as error:
                return type(error), error.args

        return guarded

    return operation


def _shared_memory(kind: str, write: bool) -> patched.Build:
    def operation(lib: Any) -> Callable[[], Any]:
        space = patched._space(kind, lib)
        element, memory = space.sample(), lib.create_shared_memory(space, patched.BATCH)
        if write:
            return lambda: lib.write_to_shared_memory(space, 3, element, memory)
        return lambda: lib.read_from_shared_memory(space, memory, patched.BATCH)

    return operation


def _operation(name: str, operation: str) -> patched.Build:
    kind = _KINDS[name]
    builds: dict[str, Callable[[], patched.Build]] = {
        "contains": lambda: patched._contains(kind),
        "flatten": lambda: patched._flatten(kind),
        "unflatten": lambda: patched._unflatten(kind),
        "flatdim": lambda: _raising(patched._flatdim(kind)),
        "concatenate": lambda: patched._concatenate(kind),
        "iterate": lambda: patched._iterate(kind),
        "write_to_shared_memory": lambda: _shared_memory(kind, write=True),
        "read_from_shared_memory": lambda: _shared_memory(kind, write=False),
    }
    return builds[operation]()


@contextlib.contextmanager
def _taken(name: str, operation: str) -> Iterator[None]:
    """Patched, with the left row of ``operation`` of Gymnasium's class ``name`` taken."""
    import gymnasium.spaces as gym_spaces

    import gymspaces
    from gymspaces import utils as gs_utils
    from gymspaces import vector as gs_vector
    from gymspaces.gymnasium import _calls, _entries, _operations, _patch, patched as patched_mode
    from gymspaces.gymnasium._release import utils_helper, vector_helper

    row = _operations.as_taken(name, operation)
    cls = getattr(gym_spaces, name)
    with patched_mode():
        state = _patch._state
        assert state is not None and state.live is not None
        live = state.live
        if operation in _operations.METHODS:
            original = cls.__dict__[operation]
            ours = getattr(getattr(gymspaces, name), operation)
            setattr(cls, operation, _calls.method_entry(row, ours, original, live))
            try:
                yield
            finally:
                setattr(cls, operation, original)
            return
        in_utils = operation in _operations.UTILS_HELPERS
        helper: Any = utils_helper(operation) if in_utils else vector_helper(operation)
        if cls not in helper.registry:  # Gymnasium's Space rule answers: nothing patch mode could take
            yield
            return
        original = helper.registry[cls]
        ours = getattr(gs_utils if in_utils else gs_vector, operation)
        helper.register(cls, _entries.helper_rule(row, ours, live, {cls: original}))
        try:
            yield
        finally:
            helper.register(cls, original)


def _context(name: str, operation: str) -> Callable[[Any], contextlib.AbstractContextManager[None]]:
    def context(lib: Any) -> contextlib.AbstractContextManager[None]:
        return _taken(name, operation) if lib.name == "gymspaces" else plain_gymnasium()

    return context


def _left_rows() -> dict[tuple[str, str], str]:
    try:
        from gymspaces.gymnasium._operations import OPERATIONS
        from gymspaces.gymnasium._release import SPACE_NAMES
    except ImportError:  # no Gymnasium: nothing is left to it
        return {}
    return {key: row.left for key, row in OPERATIONS.items() if row.left is not None and key[0] in SPACE_NAMES}


LEFT = _left_rows()
"""The rows left to Gymnasium, ``(class, operation) -> the claim``."""


def _takeable(name: str, operation: str) -> bool:
    """Whether Gymnasium registers a rule of its own for the class (always, for a method)."""
    import gymnasium.spaces as gym_spaces

    from gymspaces.gymnasium._operations import METHODS, UTILS_HELPERS
    from gymspaces.gymnasium._release import utils_helper, vector_helper

    if operation in METHODS:
        return True
    helper: Any = utils_helper(operation) if operation in UTILS_HELPERS else vector_helper(operation)
    return getattr(gym_spaces, name) in helper.registry


def key_of(name: str, operation: str) -> str:
    return f"{PREFIX}{_KINDS[name]}_{operation}"


def cases() -> dict[str, tuple[str, Callable[[Any], Any], Callable[[Any], Any]]]:
    """Every left row's case: key -> (label, setup, context)."""
    table: dict[str, tuple[str, Callable[[Any], Any], Callable[[Any], Any]]] = {}
    for (name, operation), _claim in LEFT.items():
        table[key_of(name, operation)] = (
            f"{name}.{operation}, left to Gymnasium: plain vs taken",
            _on_gymnasiums_space(_operation(name, operation)),
            _context(name, operation),
        )
    return table


def _on_gymnasiums_space(build: patched.Build) -> Callable[[Any], Callable[[], Any]]:
    """The case's setup: Gymnasium's objects on both sides (the context takes the row or not)."""

    def setup(lib: Any) -> Callable[[], Any]:
        return build(library("gymnasium"))

    return setup


def notes(medians: dict[str, dict[str, float]]) -> list[str]:
    """Each left row's claim with its measured figures: plain, and taken anyway."""
    lines = []
    for (name, operation), claim in LEFT.items():
        figures = medians.get(key_of(name, operation), {})
        if "gymnasium" not in figures or "gymspaces" not in figures:
            continue
        plain, taken = figures["gymnasium"] * 1e6, figures["gymspaces"] * 1e6
        side = "taken" if _takeable(name, operation) else "patched (Gymnasium's Space rule: not takeable)"
        lines.append(f"left: {name}.{operation}: {claim}; measured {plain:.2f} us plain, {taken:.2f} us {side}")
    return lines


__all__ = ["LEFT", "PREFIX", "cases", "key_of", "notes"]
