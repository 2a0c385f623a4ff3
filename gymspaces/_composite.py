"""What the composite spaces (Tuple, Dict, Sequence, Graph, OneOf) share.

Checking sub-spaces, sub-seeding, the choice between a mask and a probability, and the batch rules
of Tuple and Dict: sample child by child when the children draw from separate
generators, decide membership child by child and combine the answers. Tuple and
Dict's ``to_jsonable`` convert the columns of their Box, MultiDiscrete and
Discrete children in the ``_jsonable`` kernel, which is told those classes here.
"""

from __future__ import annotations

import functools

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from gymspaces import _batching, _direct_batch
from gymspaces._arguments import check_mask_or_probability
from gymspaces._sample_batch import batch_count, detach_from_out, fills_out
from gymspaces._sub_spaces import SUB_SPACE_ATTRIBUTES
from gymspaces.box import Box
from gymspaces.discrete import Discrete
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.space import is_space
from gymspaces.text import Text

__all__ = [
    "SUBSEED_BOUND",
    "chosen_kind",
    "combined_contains_batch",
    "independent_children",
    "direct_sample_batch",
    "require_space",
    "sample_children_batch",
]

# Sub-seeds are drawn below int32's maximum, as Gymnasium does.
SUBSEED_BOUND = int(np.iinfo(np.int32).max)


def chosen_kind(mask: Any, probability: Any) -> tuple[str, Any]:
    """``("mask", mask)`` or ``("probability", probability)``, whichever is given."""
    check_mask_or_probability(mask, probability)
    if mask is None:
        return "probability", probability
    return "mask", mask


def require_space(candidate: Any) -> None:
    """Raise Gymnasium's ``TypeError`` for a sub-space that is not a space."""
    if not is_space(candidate):
        raise TypeError(
            f"{candidate} does not inherit from `gymnasium.Space`. "
            f"Actual Type: {type(candidate)}"
        )


def checked_children(spaces: Iterable[Any]) -> tuple[Any, ...]:
    """``spaces`` as a tuple, each child checked by :func:`require_space`."""
    children = tuple(spaces)
    for child in children:
        require_space(child)
    return children




@functools.lru_cache(maxsize=None)
def _class_child_attributes(cls: type) -> frozenset[str]:
    """Which of the child attributes a class itself defines (properties, class attributes)."""
    return frozenset(name for name in SUB_SPACE_ATTRIBUTES if hasattr(cls, name))


def _generators(space: Any, found: list[Any]) -> None:
    """Every generator object set in ``space``'s tree (children included)."""
    own = getattr(space, "_np_random", None)
    if own is not None:
        found.append(own)
    # Looked up in the instance dict first: a failed getattr raises and
    # catches an AttributeError, and fundamental spaces have none of these.
    namespace = getattr(space, "__dict__", None) or {}
    defined = _class_child_attributes(type(space))  # type: ignore[arg-type]  # classes hash
    for name in SUB_SPACE_ATTRIBUTES:
        if name in namespace:
            child = namespace[name]
        elif name in defined:
            child = getattr(space, name, None)
        else:
            continue
        if name == "spaces":
            for item in list(child.values()) if isinstance(child, Mapping) else list(child or ()):
                if item is not None and item is not space and hasattr(item, "sample"):
                    _generators(item, found)
        elif child is not None and child is not space and hasattr(child, "sample"):
            _generators(child, found)


# Exact classes whose instances hold no sub-space (subclasses may add some).
_LEAF_CLASSES = frozenset({Box, Discrete, MultiDiscrete, MultiBinary, Text})


def independent_children(space: Any) -> bool:
    """No generator is shared inside the tree: then children may be batched one after another
    (each one's draws do not depend on the others'), which is what ``n`` samples draw."""
    found: list[Any] = []
    children = getattr(space, "spaces", None)
    members: Any = list(children.values()) if isinstance(children, Mapping) else children
    if type(members) in (list, tuple) and all(type(child) in _LEAF_CLASSES for child in members):
        # A Tuple or Dict of fundamental spaces, the usual case: no walk needed.
        found = [generator for generator in (space._np_random, *(child._np_random for child in members)) if generator is not None]
    else:
        _generators(space, found)
    return len({id(generator) for generator in found}) == len(found)


def direct_sample_batch(space: Any, children: Any, n: Any, mask: Any, probability: Any, out: Any) -> Any:
    """The usual Tuple/Dict ``sample_batch`` at the cost of its children's: no mask,
    probability or ``out``, every child a fundamental space with a generator of its own.

    ``children`` is the Dict's dict or the Tuple's tuple of sub-spaces. Returns
    the dict or tuple of the children's batches, or ``None`` after drawing
    nothing when the call is not that case (the caller then takes the general
    path, :func:`sample_children_batch`, which draws the same for this case).
    """
    count = batch_count(n)
    if mask is not None or probability is not None or out is not None:
        return None
    return _direct_batch.sample_directly(space, children, count)


def sample_children_batch(
    space: Any,
    n: Any,
    mask: Any,
    probability: Any,
    out: Any,
    parts: list[tuple[Any, Any]],
    arguments_match: Callable[[Any], bool],
    out_matches: Callable[[Any], bool],
) -> list[Any] | None:
    """A Tuple's or Dict's ``sample_batch`` drawn child by child: the children's batches, in order.

    ``parts`` lists ``(part, child)`` pairs (indices or keys);
    ``arguments_match`` and ``out_matches`` tell whether a batched argument
    and an ``out`` have the structure that indexing by those parts needs.
    Returns ``None`` after drawing nothing when the children cannot be batched
    one after another (a shared generator, arguments of another structure):
    the caller then loops over ``sample``.
    """
    count = batch_count(n)
    kind, batched = chosen_kind(mask, probability)
    batched = detach_from_out(batched, out)
    usable = (
        independent_children(space)
        and (batched is None or arguments_match(batched))
        and (out is None or out_matches(out))
    )
    if not usable:
        return None
    batches = []
    for part, child in parts:
        child_out = None if out is None else out[part]
        if child_out is not None and not fills_out(child):
            child_out = None  # a tuple batch (create_empty_array's tuple) is replaced, not filled
        argument = None if batched is None else batched[part]
        batches.append(child.sample_batch(count, **{kind: argument}, out=child_out))
    return batches


def combined_contains_batch(space: Any, batch: Any, child_batches: Iterable[tuple[Any, Any]]) -> np.ndarray:
    """A Tuple's or Dict's ``contains_batch``: the children's answers, combined row by row.

    ``child_batches`` yields ``(child, its part of batch)``. Any error on the
    way (a child's, or children of different lengths) sends the batch item by
    item, which raises what the definition raises: ``contains`` of an item
    stops at its first child that is not a member, so an error from a later
    child may not happen for that item.
    """
    try:
        return _combine([child.contains_batch(part) for child, part in child_batches])
    except Exception:
        return _contains_by_iterating(space, batch)


def _combine(answers: list[np.ndarray]) -> np.ndarray:
    if not answers:
        raise ValueError("an empty Tuple/Dict batch has no length")
    lengths = {len(answer) for answer in answers}
    if len(lengths) != 1:
        raise ValueError(f"the child batches have different lengths: {sorted(lengths)}")
    result = answers[0].copy()
    for answer in answers[1:]:
        result &= answer
    return result


def _contains_by_iterating(space: Any, batch: Any) -> np.ndarray:
    """``contains`` of every item ``iterate`` yields, errors included (the definition)."""
    # iterate reads only the batched space's structure, which a batch of one gives.
    items = list(_batching.iterate(_batching.batch_space(space, 1), batch))
    return np.fromiter((bool(space.contains(item)) for item in items), dtype=np.bool_, count=len(items))
