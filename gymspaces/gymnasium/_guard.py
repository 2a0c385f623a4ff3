"""Patch mode's judges: a call runs compiled only when its outcome is provably Gymnasium's own.

A patched call on a Gymnasium space takes gymspaces' compiled path only when
every observable result (value, generator state, exception class and message,
warnings) is the one Gymnasium's own method gives. That is proved from three
facts, checked in this order:

1. **The class** -- Gymnasium's own class, or a subclass whose own code
   redefines nothing the method reads (no property for ``n``, no
   ``np_random`` of its own, no ``__getattribute__``...). Decided once per
   class (:func:`class_reason`).
2. **The instance** -- its generator is exactly a ``numpy.random.Generator``
   (a subclass may override ``integers`` or ``uniform``; a ``RandomState`` or
   a duck-typed object is drawn from by Gymnasium's Python code), and the
   attributes the kernels read are as Gymnasium's ``__init__`` leaves them
   (types, shapes, dtypes, a Discrete range that fits its dtype). Decided
   when the attribute objects change, then remembered by their identity
   (``gymspaces.gymnasium._judge``, compiled: the per-call check costs tens of ns).
3. **The arguments** -- the rare inputs on which Gymnasium's method warns
   through its logger or numpy, depends on ``python -O`` (its ``assert``
   checks) or returns an ndarray subclass are left to Gymnasium (each
   operation's row in :mod:`gymspaces.gymnasium._operations` says which;
   whether a cast may warn is the kernels' answer: ``flatten_may_warn``
   and ``unflatten_may_warn`` in ``_flatten.pyx``, ``write_may_warn`` in
   ``_shared_memory.pyx``).

Anything else runs Gymnasium's own method: slower, never different.
``patch()`` judges spaces by :data:`JUDGE_OF_CLASS` (``_judge.judging``):
``_judge.node_reason`` then says why a space itself runs Gymnasium's
code, ``_judge.tree_reason`` why some node of its tree does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import gymnasium.spaces as _gym
import numpy as np

from gymspaces.gymnasium import _judge
from gymspaces.gymnasium._reasons import CODES, code_of, coded
from gymspaces.gymnasium._release import SPACE_NAMES
from gymspaces.gymnasium._release_rules import INSTANCE as _RELEASE_INSTANCE

__all__ = ["GYMNASIUM_CLASSES", "JUDGES", "JUDGE_OF_CLASS", "class_reason", "gymnasium_base"]

GYMNASIUM_CLASSES: dict[type, str] = {getattr(_gym, name): name for name in SPACE_NAMES}

# What Gymnasium's methods read from a space besides its own per-class
# attributes: a subclass redefining one of these changes what plain code sees.
_COMMON_READS = frozenset(
    "__getattribute__ __getattr__ np_random _np_random seed shape _shape dtype sample contains __contains__ "
    "is_np_flattenable".split()
)

def class_reason(cls: type) -> str | None:
    """Why instances of ``cls`` cannot run compiled as far as their class goes, or None."""
    base = gymnasium_base(cls)
    if base is None:
        return coded("not-a-gymnasium-class", f"{cls.__qualname__} is not one of Gymnasium's space classes")
    reads = _COMMON_READS | _JUDGE_RULES[GYMNASIUM_CLASSES[base]].reads
    for klass in cls.__mro__:
        if klass is base:
            break
        redefined = sorted(reads.intersection(vars(klass)))
        if redefined:
            return coded("subclass-overrides", f"{klass.__qualname__} redefines {', '.join(redefined)}")
    # Gymnasium's own bases (Space, Generic) come after ``base``: theirs, not the user's.
    return None


def gymnasium_base(cls: type) -> type | None:
    """The nearest of Gymnasium's space classes in ``cls``'s MRO, or None."""
    return next((klass for klass in cls.__mro__ if klass in GYMNASIUM_CLASSES), None)


# --------------------------------------------------------------------- instances
# Each validator reads the instance dict and says why the attributes are not
# as Gymnasium's __init__ leaves them (None: they are). The compiled judge
# calls it only when one of the watched attribute objects changed.


def _discrete_reason(d: Mapping[str, Any]) -> str | None:
    n: Any = d.get("n")
    start: Any = d.get("start")
    dtype = d.get("dtype")
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iu":
        return "dtype is not an integer numpy dtype"
    if type(n) is not dtype.type or type(start) is not dtype.type:
        return "n or start is not a scalar of the space's dtype"
    if n <= 0:
        return "n is not positive"
    info = np.iinfo(dtype)
    if int(start) + int(n) - 1 > int(info.max) or int(start) < int(info.min):
        return "start + n - 1 overflows the dtype (numpy warns or raises per np.errstate)"
    return None


def _box_reason(d: Mapping[str, Any]) -> str | None:
    dtype, shape = d.get("dtype"), d.get("_shape")
    if not isinstance(dtype, np.dtype) or dtype.kind not in "fiub":
        return "dtype is not a numeric numpy dtype"
    if type(shape) is not tuple:
        return "_shape is not a tuple"
    for name in ("low", "high"):
        bound = d.get(name)
        if type(bound) is not np.ndarray or bound.dtype != dtype or bound.shape != shape:
            return f"{name} is not an array of the space's dtype and shape"
    for name in ("bounded_below", "bounded_above"):
        flags = d.get(name)
        if type(flags) is np.bool_ and shape == ():  # what Gymnasium computes for a 0-d Box
            continue
        if type(flags) is not np.ndarray or flags.dtype != np.bool_ or flags.shape != shape:
            return f"{name} is not a bool array of the space's shape"
    if dtype.kind == "f":
        with np.errstate(over="ignore", invalid="ignore"):
            both = np.logical_and(d["bounded_below"], d["bounded_above"])
            # numpy's uniform subtracts in float64, so only a float64 range can overflow
            # (float32's +-max, as in CartPole on 0.29, cannot).
            span = np.subtract(d["high"][both], d["low"][both], dtype=np.float64)
            if np.isinf(span).any():
                # Gymnasium's uniform draw overflows: numpy warns (or raises) there.
                return "high - low overflows the dtype (numpy warns or raises per np.errstate)"
    return None


def _multi_binary_reason(d: Mapping[str, Any]) -> str | None:
    dtype, shape, n = d.get("dtype"), d.get("_shape"), d.get("n")
    if dtype != np.int8 or type(shape) is not tuple:
        return "dtype or _shape changed"
    # Gymnasium keeps ``n`` as given: an int, a tuple or an array of the dimensions.
    dimensions = (n,) if type(n) is int else tuple(n.tolist()) if type(n) is np.ndarray else n
    if type(dimensions) is not tuple or dimensions != shape:
        return "n and _shape disagree"
    return None


def _multi_discrete_reason(d: Mapping[str, Any]) -> str | None:
    dtype, shape, nvec, start = d.get("dtype"), d.get("_shape"), d.get("nvec"), d.get("start")
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iu":
        return "dtype is not an integer numpy dtype"
    for name, array in (("nvec", nvec), ("start", start)):
        if type(array) is not np.ndarray or array.dtype != dtype or array.shape != shape:
            return f"{name} is not an array of the space's dtype and shape"
    return None


def _text_reason(d: Mapping[str, Any]) -> str | None:
    chars, charset = d.get("_char_list"), d.get("_char_set")
    low, high = d.get("min_length"), d.get("max_length")
    if type(low) is not int or type(high) is not int or not 0 <= low <= high:
        return "min_length/max_length are not ints with 0 <= min <= max"
    if type(chars) is not tuple or type(charset) is not frozenset or len(chars) != len(charset):
        return "_char_list and _char_set disagree"
    if not all(type(char) is str and len(char) == 1 for char in chars) or frozenset(chars) != charset:
        return "_char_list and _char_set disagree"
    return None


def _tuple_reason(d: Mapping[str, Any]) -> str | None:
    if type(d.get("spaces")) is not tuple:
        return "spaces is not a tuple"
    if not d["spaces"]:
        # concatenate of an empty Tuple returns a fresh empty tuple on CPython
        # 3.10 (``out`` itself, the interpreter's empty-tuple singleton,
        # elsewhere): whether a result ``is out`` is left to Gymnasium's code.
        return coded("left-to-gymnasium", "an empty Tuple (some results are the interpreter's empty-tuple singleton)")
    return None


def _one_of_reason(d: Mapping[str, Any]) -> str | None:
    return None if type(d.get("spaces")) is tuple else "spaces is not a tuple"


def _dict_reason(d: Mapping[str, Any]) -> str | None:
    return None if type(d.get("spaces")) is dict else "spaces is not a dict"


def _sequence_reason(d: Mapping[str, Any]) -> str | None:
    return None if type(d.get("stack")) is bool else "stack is not a bool"


def _graph_reason(d: Mapping[str, Any]) -> str | None:
    # Gymnasium 0.29's Graph keeps no batched spaces; the kernels read them.
    return None if "batch_node_space" in d else "batch_node_space is missing"


class _JudgeRules(NamedTuple):
    reads: frozenset[str]  # what Gymnasium's methods read of the class besides _COMMON_READS
    watched: tuple[str, ...]  # the instance attributes the judge watches (and validate reads)
    validate: Callable[[Mapping[str, Any]], str | None]


def _judge_rules(reads: str, watched: str, validate: Callable[[Mapping[str, Any]], str | None]) -> _JudgeRules:
    return _JudgeRules(frozenset(reads.split()), tuple(watched.split()), validate)


# Each of Gymnasium's classes: what its methods read of the class (a subclass
# redefining one changes what Gymnasium's code sees), the instance attributes
# its judge watches, and their validator.
_JUDGE_RULES: dict[str, _JudgeRules] = {
    "Box": _judge_rules(
        "low high bounded_below bounded_above is_bounded low_repr high_repr",
        "low high dtype _shape bounded_below bounded_above", _box_reason,
    ),
    "Discrete": _judge_rules("n start", "n start dtype", _discrete_reason),
    "MultiBinary": _judge_rules("n", "n _shape dtype", _multi_binary_reason),
    "MultiDiscrete": _judge_rules(
        "nvec start _apply_mask __len__ __getitem__", "nvec start dtype _shape", _multi_discrete_reason
    ),
    "Text": _judge_rules(
        "min_length max_length character_set character_list characters character_index _char_set _char_list "
        "_char_index _char_str _validate_mask",
        "_char_list _char_set min_length max_length", _text_reason,
    ),
    "Tuple": _judge_rules("spaces __len__ __getitem__ __iter__", "spaces", _tuple_reason),
    "Dict": _judge_rules("spaces __len__ __getitem__ __iter__ keys values items", "spaces", _dict_reason),
    "OneOf": _judge_rules("spaces __len__ __getitem__", "spaces", _one_of_reason),
    "Sequence": _judge_rules(
        "feature_space stack stacked_feature_space generate_sample_length", "feature_space stack", _sequence_reason
    ),
    "Graph": _judge_rules(
        "node_space edge_space batch_node_space batch_edge_space _generate_sample_space", "node_space edge_space",
        _graph_reason,
    ),
}


def _validator(name: str) -> Any:
    rule = _JUDGE_RULES[name].validate
    release_rule = _RELEASE_INSTANCE.get(name)

    def validate(space: Any) -> str | None:
        # What the installed release does otherwise comes first (the more useful
        # reason); a release rule meeting attributes it cannot read leaves the
        # verdict to the validity check, which names what is wrong with them.
        d = vars(space)
        if release_rule is not None:
            try:
                reason = release_rule(d)
            except (KeyError, TypeError, AttributeError, ValueError):
                reason = None
            if reason is not None:
                return coded("release-differs", reason)
        reason = rule(d)
        if reason is None or code_of(reason) in CODES:
            return reason
        return coded("attributes-changed", reason)

    return validate


JUDGES: dict[str, _judge.Judge] = {
    name: _judge.Judge(cls, _JUDGE_RULES[name].watched, judge_class=class_reason, validate=_validator(name))
    for cls, name in GYMNASIUM_CLASSES.items()
}
JUDGE_OF_CLASS: dict[type, _judge.Judge] = {cls: JUDGES[name] for cls, name in GYMNASIUM_CLASSES.items()}
"""Each of Gymnasium's classes' Judge: what ``patch()`` judges spaces by (``_judge.judging``)."""


