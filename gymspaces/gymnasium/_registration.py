"""Registration of the compatible classes with Gymnasium's and gymspaces' helpers.

Run once, when :mod:`gymspaces.gymnasium.spaces` is imported.
"""

from __future__ import annotations

from typing import Any

import gymnasium.spaces as _gym
import gymnasium.spaces.utils as gym_utils
import gymnasium.vector.utils as gym_vector
import numpy as np
from gymnasium.error import CustomSpaceError as GymnasiumCustomSpaceError

import gymspaces as _gs
from gymspaces import _dispatch, _flatten, _kernel_wiring, _shared_memory
from gymspaces import utils as gs_utils
from gymspaces import vector as gs_vector
from gymspaces._registry import REGISTRY
from gymspaces.error import CustomSpaceError
from gymspaces.gymnasium import _classes, _convert
from gymspaces.gymnasium import _compat_utils as compat_utils
from gymspaces.gymnasium._classes import compatible_graphs
from gymspaces.gymnasium._release import RELEASE, vector_helper
from gymspaces.space import FOREIGN_SPACE_CLASSES

__all__ = ["register_with_gymnasium"]


def register_with_gymnasium() -> None:
    """Hook the compatible classes into both libraries' helper dispatch.

    * ``gymnasium.vector.utils.batch_differing_spaces`` (vector envs with
      ``observation_mode="different"``) looks the exact class up in its
      registry; each class gets gymspaces' implementation, whose result is
      made compatible (the same spaces and generators as Gymnasium's).
    * Gymnasium's ``flatten`` family, ``batch_space``, ``concatenate``,
      ``iterate``, ``create_empty_array`` and shared-memory helpers run
      gymspaces' implementations on the compatible classes (same results;
      spaces and graph samples come back compatible), so wrappers such as
      ``FlattenObservation`` and the vector envs get the compiled paths.
    * In gymspaces' helpers each compatible class takes its base's rule under
      its own name (some rules look children up by exact class, as
      Gymnasium's iterate of a Tuple does), and the kernels treat it as its
      base.
    * gymspaces' helpers hand any other Gymnasium space (a custom child that a
      compatible composite keeps as it is) to Gymnasium's helper, where its
      own registrations live, unless Gymnasium would send it straight back.
    """
    def batch_space(space: Any, n: int = 1) -> Any:
        batched = gs_vector.batch_space(space, n)
        return _convert.convert(batched, "compat", share=True, keep_unknown=True)

    def create_empty_array(space: Any, n: int = 1, fn: Any = np.zeros) -> Any:
        return compatible_graphs(gs_vector.create_empty_array(space, n, fn))

    iterate = _gymnasium_errors(gs_vector.iterate)
    create_shared_memory = _gymnasium_errors(gs_vector.create_shared_memory)
    read_from_shared_memory = _compiled_first_read(_gymnasium_errors(gs_vector.read_from_shared_memory))
    write_to_shared_memory = _compiled_first_write(_gymnasium_errors(gs_vector.write_to_shared_memory))

    # (Gymnasium's helper, gymspaces' helper, what Gymnasium runs on compatible spaces)
    helpers: list[tuple[Any, Any, Any]] = [
        (gym_utils.flatdim, gs_utils.flatdim, compat_utils.flatdim),
        (gym_utils.flatten, gs_utils.flatten, _flatten.flatten_compatible),
        (gym_utils.unflatten, gs_utils.unflatten, _flatten.unflatten_compatible),
        (gym_utils.flatten_space, gs_utils.flatten_space, compat_utils.flatten_space),
        (gym_vector.batch_space, gs_vector.batch_space, batch_space),
        (gym_vector.iterate, gs_vector.iterate, iterate),
        (gym_vector.concatenate, gs_vector.concatenate, gs_vector.concatenate),
        (gym_vector.create_empty_array, gs_vector.create_empty_array, create_empty_array),
        (gym_vector.create_shared_memory, gs_vector.create_shared_memory, create_shared_memory),
        (gym_vector.read_from_shared_memory, gs_vector.read_from_shared_memory, read_from_shared_memory),
        (gym_vector.write_to_shared_memory, gs_vector.write_to_shared_memory, write_to_shared_memory),
    ]
    # Composites of gymspaces accept Gymnasium spaces as children: a custom
    # Gymnasium space, or what Gymnasium's own helper builds for it.
    if _gym.Space not in FOREIGN_SPACE_CLASSES:
        FOREIGN_SPACE_CLASSES.append(_gym.Space)

    def batch_differing_spaces(spaces: Any) -> Any:
        batched = gs_vector.batch_differing_spaces(spaces)
        return _convert.convert(batched, "compat", share=True, keep_unknown=True)

    gym_batch_differing_spaces = vector_helper("batch_differing_spaces")  # None before Gymnasium 1.0

    # What compat_utils.flatten/unflatten compute, compiled: graph samples are
    # made compatible, and array results skip that walk.
    REGISTRY.compatible_finish = compatible_graphs
    bases = {getattr(_classes, name): getattr(_gs, name) for name in _convert.SPACE_NAMES}
    for ours, base in bases.items():
        if gym_batch_differing_spaces is not None:
            gym_batch_differing_spaces.register(ours, _gymnasium_errors(batch_differing_spaces))
        if base in gs_vector.batch_differing_spaces.registry:
            gs_vector.batch_differing_spaces.register(ours, gs_vector.batch_differing_spaces.dispatch(base))
        theirs = getattr(_gym, base.__name__)
        for gymnasium_helper, gymspaces_helper, implementation in helpers:
            # Whether a class is in a registry is observable (Gymnasium's iterate
            # of a Tuple asks it of each child): before 1.4, Gymnasium registers
            # fewer classes, and the compatible classes follow the release.
            if RELEASE >= (1, 4) or theirs in gymnasium_helper.registry:
                gymnasium_helper.register(ours, implementation)
            if base in gymspaces_helper.registry:
                gymspaces_helper.register(ours, gymspaces_helper.dispatch(base))

    for gymnasium_helper, gymspaces_helper, implementation in helpers:
        gymspaces_helper.register(object, _defer_to_gymnasium(gymnasium_helper, gymspaces_helper, implementation))
    # Last: every registration above re-checks the alias table, which is empty until now.
    _kernel_wiring.add(bases)


def _gymnasium_errors(helper: Any) -> Any:
    """``helper`` raising Gymnasium's ``CustomSpaceError`` instead of gymspaces' own.

    Called through Gymnasium's helpers, gymspaces' implementations must fail
    with the exception classes Gymnasium code catches.
    """
    def call(space: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return helper(space, *args, **kwargs)
        except CustomSpaceError as error:
            raise GymnasiumCustomSpaceError(*error.args) from error

    call.__name__ = call.__qualname__ = helper.__name__
    call.__doc__ = helper.__doc__
    call.__wrapped__ = helper  # type: ignore[attr-defined]
    return call


# What a vector env calls every step: Gymnasium's dispatch goes straight to the
# compiled pass, which raises only what Gymnasium's own rules raise (the
# Python rules it defers to for a value or index are given no other space).
# Whatever it does not cover takes the general route, with Gymnasium's errors.


def _compiled_first_write(general: Any) -> Any:
    """``write_to_shared_memory`` for Gymnasium's dispatcher: the compiled pass, else ``general``."""
    write_tree = _shared_memory.write_tree

    def write_to_shared_memory(space: Any, index: int, value: Any, shared_memory: Any) -> None:
        if not write_tree(space, index, value, shared_memory):
            general(space, index, value, shared_memory)

    write_to_shared_memory.__doc__ = general.__doc__
    write_to_shared_memory.__wrapped__ = general.__wrapped__  # type: ignore[attr-defined]
    return write_to_shared_memory


def _compiled_first_read(general: Any) -> Any:
    """``read_from_shared_memory`` for Gymnasium's dispatcher: the compiled pass, else ``general``."""
    read_tree = _shared_memory.read_tree

    def read_from_shared_memory(space: Any, shared_memory: Any, n: int = 1) -> Any:
        views = read_tree(space, shared_memory, n)
        if views is None:
            return general(space, shared_memory, n)
        return views

    read_from_shared_memory.__doc__ = general.__doc__
    read_from_shared_memory.__wrapped__ = general.__wrapped__  # type: ignore[attr-defined]
    return read_from_shared_memory


def _defer_to_gymnasium(gymnasium_helper: Any, gymspaces_helper: Any, ours: Any) -> Any:
    """A default rule for ``gymspaces_helper``: Gymnasium spaces go to ``gymnasium_helper``.

    ``ours`` is what Gymnasium runs on the compatible classes: a space that
    Gymnasium would hand to it keeps gymspaces' previous default (no loop).
    """
    previous = gymspaces_helper.dispatch(object)

    def default(space: Any, *args: Any) -> Any:
        if isinstance(space, _gym.Space) and gymnasium_helper.dispatch(type(space)) is not ours:
            return gymnasium_helper(space, *args)
        return previous(space, *args)

    default.__qualname__ = default.__name__ = f"{previous.__name__}_or_gymnasium"
    return default


def _batches_as(gymnasium_helper: Any) -> Any:
    """``batches_as(cls)``: the gymspaces class whose built-in rule gives what
    Gymnasium's ``gymnasium_helper`` gives for ``cls`` (Gymnasium's own rule,
    on a class that takes a gymspaces class's rules while patched), or None.

    Gymnasium's own rules are the ones its modules registered; a rule a user
    registered for the class (or a nearer base) is not.
    """
    own_rules = {
        cls: rule for cls, rule in gymnasium_helper.registry.items()
        if (getattr(rule, "__module__", None) or "").startswith("gymnasium.")
    }

    registry = gymnasium_helper.registry

    def batches_as(cls: type) -> type | None:
        base = _dispatch.equivalent_of(cls)
        if base is not None:  # Gymnasium's own class: its registered rule decides
            rule = own_rules.get(cls)
            return base if rule is not None and registry.get(cls) is rule else None
        base = next((_dispatch.equivalent_of(klass) for klass in cls.__mro__ if _dispatch.equivalent_of(klass)), None)
        theirs = getattr(_gym, base.__name__, None) if base is not None else None
        if theirs is None or own_rules.get(theirs) is None:
            return None
        return base if gymnasium_helper.dispatch(cls) is own_rules[theirs] else None

    return batches_as


batches_as_in_gymnasium = _batches_as(gym_vector.batch_space)
"""``batches_as_in_gymnasium(cls)``: the gymspaces class Gymnasium's ``batch_space`` batches ``cls`` as, or None."""
