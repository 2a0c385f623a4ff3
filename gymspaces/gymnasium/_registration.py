"""Registration of the compatible classes with gymspaces' helpers.

Run once, when :mod:`gymspaces.gymnasium.spaces` is imported.
"""

from __future__ import annotations

from typing import Any

import gymnasium.spaces as _gym
import gymnasium.vector.utils as gym_vector

import gymspaces as _gs
from gymspaces import _kernel_wiring
from gymspaces import utils as gs_utils
from gymspaces import vector as gs_vector
from gymspaces.gymnasium import _classes, _convert
from gymspaces.gymnasium._release import utils_helper, vector_helper
from gymspaces.space import FOREIGN_SPACE_CLASSES

__all__ = ["batches_as_in_gymnasium", "register_with_gymnasium"]

# The helpers of both libraries, by name (``batch_differing_spaces``: Gymnasium 1.x).
_UTILS = ("flatdim", "flatten", "unflatten", "flatten_space")
_VECTOR = (
    "batch_space", "iterate", "concatenate", "create_empty_array",
    "create_shared_memory", "read_from_shared_memory", "write_to_shared_memory",
)


def register_with_gymnasium() -> None:
    """Hook the compatible classes into gymspaces' helper dispatch.

    (Gymnasium's helpers get their rules for the compatible classes from
    :mod:`._release_classes`, patch mode's rules.)

    * In gymspaces' helpers each compatible class takes its base's rule under
      its own name (some rules look children up by exact class, as
      Gymnasium's iterate of a Tuple does), and the kernels treat it as its
      base.
    * gymspaces' helpers hand any other Gymnasium space (a custom child that a
      compatible composite keeps as it is) to Gymnasium's helper, where its
      own registrations live.
    """
    # Composites of gymspaces accept Gymnasium spaces as children: a custom
    # Gymnasium space, or what Gymnasium's own helper builds for it.
    if _gym.Space not in FOREIGN_SPACE_CLASSES:
        FOREIGN_SPACE_CLASSES.append(_gym.Space)
    pairs = [(utils_helper(name), getattr(gs_utils, name)) for name in _UTILS]
    pairs += [(vector_helper(name), getattr(gs_vector, name)) for name in _VECTOR]
    bases = {getattr(_classes, name): getattr(_gs, name) for name in _convert.SPACE_NAMES}
    for ours, base in bases.items():
        for gymspaces_helper in [*(helper for _, helper in pairs), gs_vector.batch_differing_spaces]:
            if base in gymspaces_helper.registry:
                gymspaces_helper.register(ours, gymspaces_helper.dispatch(base))
    compatible = tuple(bases)
    for gymnasium_helper, gymspaces_helper in pairs:
        gymspaces_helper.register(object, _defer_to_gymnasium(gymnasium_helper, gymspaces_helper, compatible))
    # Last: every registration above re-checks the alias table, which is empty until now.
    _kernel_wiring.add(bases)


def _defer_to_gymnasium(gymnasium_helper: Any, gymspaces_helper: Any, compatible: tuple[type, ...]) -> Any:
    """A default rule for ``gymspaces_helper``: Gymnasium spaces go to ``gymnasium_helper``.

    The compatible classes (``compatible``), whose Gymnasium rules run
    gymspaces' helpers, keep gymspaces' previous default (no loop).
    """
    previous = gymspaces_helper.dispatch(object)

    def default(space: Any, *args: Any) -> Any:
        if isinstance(space, _gym.Space) and not isinstance(space, compatible):
            return gymnasium_helper(space, *args)
        return previous(space, *args)

    default.__qualname__ = default.__name__ = f"{previous.__name__}_or_gymnasium"
    return default


def _batches_as(gymnasium_helper: Any) -> Any:
    """``batches_as(cls)``: the gymspaces class whose built-in rule gives what
    Gymnasium's ``gymnasium_helper`` gives for ``cls`` (Gymnasium's own rule,
    on a Gymnasium class or a subclass of one), or None.

    Gymnasium's own rules are the ones its modules registered; a rule a user
    registered for the class (or a nearer base) is not.
    """
    own_rules = {
        cls: rule for cls, rule in gymnasium_helper.registry.items()
        if (getattr(rule, "__module__", None) or "").startswith("gymnasium.")
    }

    registry = gymnasium_helper.registry
    gymspaces_of = {getattr(_gym, name): getattr(_gs, name) for name in _convert.SPACE_NAMES}

    def batches_as(cls: type) -> type | None:
        base = gymspaces_of.get(cls)
        if base is not None:  # Gymnasium's own class: its registered rule decides
            rule = own_rules.get(cls)
            return base if rule is not None and registry.get(cls) is rule else None
        base = next((gymspaces_of[klass] for klass in cls.__mro__ if klass in gymspaces_of), None)
        theirs = getattr(_gym, base.__name__, None) if base is not None else None
        if theirs is None or own_rules.get(theirs) is None:
            return None
        return base if gymnasium_helper.dispatch(cls) is own_rules[theirs] else None

    return batches_as


batches_as_in_gymnasium = _batches_as(gym_vector.batch_space)
"""``batches_as_in_gymnasium(cls)``: the gymspaces class Gymnasium's ``batch_space`` batches ``cls`` as, or None."""
