"""What the installed Gymnasium release does unlike 1.4.0, and where patch mode leaves it to Gymnasium.

gymspaces' kernels reproduce Gymnasium 1.4.0. Patched on another release, a
call runs compiled only where that release gives the same result; this
module is the table of where it does not, chosen once at import from the
installed release (:data:`._release.RELEASE`). Each entry is the narrowest
condition under which the release's own code gives something else, found by
diffing the releases' ``spaces/`` and ``vector/utils/`` and pinned by the
release differential (``tests/tools/release_differential.py``):

* :data:`INSTANCE` -- spaces whose attributes meet a difference (a Graph
  without batched sub-spaces, a signed integer Box near its dtype's limits
  on a release that clipped there) run Gymnasium's code for every
  operation; the judge remembers the verdict, so it costs nothing per call.
* :data:`CONTAINS_PROVEN` -- inputs on which a release's ``contains``
  answers otherwise (a Python int outside the dtype, another scalar type)
  run Gymnasium's ``contains``.
* :func:`sample_arguments` -- masks a release words or handles otherwise.
* :data:`HELPERS_PROVEN` -- arguments a release's helper takes otherwise
  (``concatenate`` of a generator before 1.4).
* :data:`RERUN_ON_ERROR` -- a release words some errors otherwise: a call
  that gymspaces refuses before it draws or writes anything runs
  Gymnasium's own code, which then raises (or, where that release accepts
  the input, returns) exactly what it gives plain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium.spaces as _gym
import numpy as np

from gymspaces._typecodes import SHARED_ARRAY_TYPECODES
from gymspaces.gymnasium._release import RELEASE, SAMPLE_TAKES_PROBABILITY, VERSION

__all__ = [
    "INSTANCE", "RERUN_ON_ERROR", "RERUN_WRITES_ON_ERROR", "COMPOSITE_MASKS_PLAIN", "CONTAINS_PROVEN",
    "HELPERS_PROVEN", "sample_arguments",
]

_BEFORE_1_4 = RELEASE < (1, 4)
_BEFORE_1_3 = RELEASE < (1, 3)
_BEFORE_1_1 = RELEASE < (1, 1)
_BEFORE_1_0 = RELEASE < (1, 0)

RERUN_ON_ERROR: bool = _BEFORE_1_4
"""Whether a call gymspaces refuses runs Gymnasium's code to raise that release's error."""

RERUN_WRITES_ON_ERROR: bool = _BEFORE_1_3
"""Whether a ``write_to_shared_memory`` gymspaces refuses runs Gymnasium's: before 1.3
a Tuple's values are zipped without ``strict`` (too many or too few are written as far
as they go). A refused write wrote nothing but values the release writes too, in
the same order, so writing again gives the release's memory."""

COMPOSITE_MASKS_PLAIN: bool = _BEFORE_1_1
"""Whether composites sample with a mask through Gymnasium's code: 1.0 and 0.29 word
their mask errors otherwise and (Sequence) take other masks; a composite's children
draw before a later child's mask is refused, so the call cannot be run again."""

# Floats represent every integer up to 2**53: Gymnasium draws integer Boxes as
# floats, and beyond that the releases' rounding and clipping differ.
_EXACT_FLOAT_INTEGER = 2**53


def _box_difference(d: Mapping[str, Any]) -> str | None:
    dtype: np.dtype = d["dtype"]
    if _BEFORE_1_4 and dtype.kind in "iu":
        low, high = d["low"], d["high"]
        bounded = bool(np.all(d["bounded_below"]) and np.all(d["bounded_above"]))
        if low.size and (int(low.min()) < -_EXACT_FLOAT_INTEGER or int(high.max()) > _EXACT_FLOAT_INTEGER):
            return f"Gymnasium {VERSION} rounds and clips integer samples beyond 2**53 otherwise"
        if _BEFORE_1_0 and not bounded:
            return f"Gymnasium {VERSION} does not clip unbounded integer samples"
        if dtype.kind == "i" and dtype != np.int64:
            info = np.iinfo(dtype)
            near_limits = low.size and (int(low.min()) < int(info.min) + 2 or int(high.max()) > int(info.max) - 2)
            if not bounded or near_limits:
                return f"Gymnasium {VERSION} clips {dtype} samples to 2 inside the dtype's limits"
    if _BEFORE_1_4 and dtype.char not in SHARED_ARRAY_TYPECODES and dtype.kind != "b":
        # It makes shared memory with multiprocessing's typecodes only: a TypeError for this dtype.
        return f"Gymnasium {VERSION} has no shared memory for {dtype}"
    return None


def _discrete_difference(d: Mapping[str, Any]) -> str | None:
    # Up to 1.3, contains computes ``start + n`` in the space's dtype: numpy
    # warns (or raises, per np.errstate) where it overflows.
    if _BEFORE_1_4 and int(d["start"]) + int(d["n"]) > int(np.iinfo(d["dtype"]).max):
        return f"Gymnasium {VERSION} overflows computing start + n in {d['dtype']}"
    return None


def _multi_discrete_difference(d: Mapping[str, Any]) -> str | None:
    # Up to 1.3, contains computes ``x - start``, which may wrap around for a negative start.
    if _BEFORE_1_4 and d["start"].size and int(d["start"].min()) < 0:
        return f"Gymnasium {VERSION} computes x - start, which wraps for a negative start"
    return None


def _whole_class(applies: bool, difference: str) -> Callable[[Mapping[str, Any]], str | None]:
    """The rule of a class the release treats otherwise whatever its attributes."""
    reason = f"Gymnasium {VERSION}{difference}"
    return lambda d: reason if applies else None


_text_difference = _whole_class(_BEFORE_1_1, "'s Text samples with other draws")
_graph_difference = _whole_class(_BEFORE_1_4, "'s Graph samples, checks and flattens otherwise")
_one_of_difference = _whole_class(_BEFORE_1_4, " flattens OneOf samples to another dtype")
_dict_difference = _whole_class(_BEFORE_1_0, "'s Dict returns OrderedDict samples")


INSTANCE: dict[str, Callable[[Mapping[str, Any]], str | None]] = (
    {
        "Box": _box_difference,
        "Discrete": _discrete_difference,
        "MultiDiscrete": _multi_discrete_difference,
        "Text": _text_difference,
        "Graph": _graph_difference,
        "OneOf": _one_of_difference,
        "Dict": _dict_difference,
    }
    if _BEFORE_1_4
    else {}
)
"""Per class name: why an instance (its attributes already valid for 1.4.0) meets a
difference of the installed release, or None. Runs once per attribute combination."""


# ---------------------------------------------------------------- arguments


def _discrete_contains(space: Any, x: Any) -> bool:
    # Up to 1.3 a Python int is converted with the dtype's constructor (an
    # OverflowError outside it) and other scalars compared in numpy's
    # arithmetic; an int inside the dtype and a scalar of the dtype itself
    # compare the same on every release.
    dtype = vars(space)["dtype"]
    if type(x) is int:
        info = np.iinfo(dtype)
        return int(info.min) <= x <= int(info.max)
    return type(x) is dtype.type


def _multi_discrete_contains(space: Any, x: Any) -> bool:
    # Up to 1.1 any non-object dtype is accepted, up to 1.3 x - start is computed
    # in numpy's promotion: an array of the space's dtype agrees everywhere.
    return bool(x.dtype == vars(space)["dtype"])


CONTAINS_PROVEN: dict[str, Callable[[Any, Any], bool]] = (
    {"Discrete": _discrete_contains, "MultiDiscrete": _multi_discrete_contains} if _BEFORE_1_4 else {}
)
"""By class name, ``proven(space, x)`` for Gymnasium's ``contains`` on the installed release:
False where that release's ``contains`` may answer otherwise. A class not here: every input
the entry already admits is proven."""


def sample_arguments(composite: bool) -> Callable[[Any, Any], bool] | None:
    """``proven(mask, probability)`` for a ``sample`` on the installed release, or None
    (every input the entry already admits is proven)."""
    if SAMPLE_TAKES_PROBABILITY and not (composite and COMPOSITE_MASKS_PLAIN):
        return None
    masks = not (composite and COMPOSITE_MASKS_PLAIN)

    def proven(mask: Any, probability: Any) -> bool:
        # A release without ``probability`` raises its own TypeError for one.
        return probability is None and (masks or mask is None)

    return proven


def _sequence_items(space: Any, items: Any, *rest: Any, **keywords: Any) -> bool:
    # Before 1.4, concatenate hands ``items`` to np.stack as they are, which
    # refuses anything but a sequence (a generator, say); 1.4 makes a list first.
    return type(items) is list or type(items) is tuple


def _batch_length(space: Any, items: Any) -> int | None:
    """The number of items a batch ``items`` of ``space`` holds, if every part of it
    holds the same number; None otherwise (or when it cannot tell)."""
    if isinstance(space, _gym.Tuple):
        if type(items) is not tuple or len(items) != len(space.spaces):
            return None
        lengths = {_batch_length(child, part) for child, part in zip(space.spaces, items)}
    elif isinstance(space, _gym.Dict):
        if not isinstance(items, dict) or any(key not in items for key in space.spaces):
            return None
        lengths = {_batch_length(child, items[key]) for key, child in space.spaces.items()}
    else:
        try:
            return len(items)
        except TypeError:
            return None
    return lengths.pop() if len(lengths) == 1 else None


def _equal_batches(space: Any, items: Any, *rest: Any, **keywords: Any) -> bool:
    # Before 1.3, iterate zips a Tuple's or Dict's parts without ``strict``:
    # parts of unequal length are cut to the shortest instead of refused.
    if not isinstance(space, (_gym.Tuple, _gym.Dict)):
        return True
    return _batch_length(space, items) is not None


HELPERS_PROVEN: dict[str, Callable[..., bool]] = {}
"""By helper name, ``proven(space, *args, **kwargs)`` for Gymnasium's helper on the
installed release: False where that release's helper may answer otherwise. A helper
not here: every call is proven as far as the release goes."""
if _BEFORE_1_4:
    HELPERS_PROVEN["concatenate"] = _sequence_items
if _BEFORE_1_3:
    HELPERS_PROVEN["iterate"] = _equal_batches
