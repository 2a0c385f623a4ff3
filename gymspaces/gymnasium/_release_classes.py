"""The compatible classes' methods: the installed release's own, with patch mode's entries always on.

A compatible space gives what the same space of the installed Gymnasium
gives -- values, generator states, exceptions, warnings -- by the mechanism
patch mode uses for Gymnasium's own classes, installed for good on these
classes:

* it is built by the release's own ``__init__`` (children made compatible
  first), so it holds the attributes that release's methods read;
* every method the release defines is the release's own, but ``sample`` and
  ``contains``, which are patch mode's entries (:mod:`._entries`): gymspaces'
  kernels where :mod:`._guard` proves the release's outcome, with the
  per-release rules (:mod:`._release_rules`), and the release's method
  otherwise;
* Gymnasium's hot helpers (flatten family, vector helpers) run gymspaces'
  rules on the same terms (:func:`._entries.helper_rule`); the helpers that
  build spaces (``batch_space``, ``batch_differing_spaces``,
  ``flatten_space``) run the release's own rule, and the spaces they build
  are made compatible;
* graph samples are the compatible :class:`GraphInstance` (an instance of
  both libraries'), and ``Graph.contains`` also takes gymspaces' own;
* in gymspaces' own helpers each class takes its gymspaces base's rules, and
  any other Gymnasium space is handed to Gymnasium's helper.

Methods gymspaces adds (``sample_batch``, ``contains_batch``...) stay
gymspaces'.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import gymnasium.spaces as _gym

import gymspaces as _gs
from gymspaces import _dispatch, _kernel_wiring
from gymspaces import utils as gs_utils
from gymspaces import vector as gs_vector
from gymspaces.gymnasium import _classes, _convert, _entries, _guard
from gymspaces.gymnasium._release import SPACE_NAMES, utils_helper, vector_helper
from gymspaces.space import FOREIGN_SPACE_CLASSES

__all__ = ["follow_release"]

# What a compatible class keeps of its own when it takes the release's methods:
# its construction and equality (see _classes), gymspaces' pickling and copying
# (which leave the kernels' caches out and compact arrays: its __setstate__ reads
# what its __getstate__ writes), and the class's own bookkeeping.
_KEPT = frozenset(
    {
        "__init__", "__new__", "sample", "contains", "__eq__", "__hash__",
        "__getstate__", "__setstate__", "__reduce__", "__reduce_ex__", "__copy__", "__deepcopy__",
        "__dict__", "__weakref__", "__module__", "__qualname__", "__doc__", "__slots__",
        "__annotations__", "__orig_bases__", "__parameters__", "__init_subclass__",
        "__class_getitem__", "__abstractmethods__", "_abc_impl", "__type_params__",
        "__firstlineno__", "__static_attributes__",
    }
)

# Gymnasium's helpers that run gymspaces' rule where the outcome is proven (as
# patch mode's), and those that build spaces, which run the release's own.
_GUARDED_HELPERS = (
    ("flatdim", utils_helper, gs_utils), ("flatten", utils_helper, gs_utils), ("unflatten", utils_helper, gs_utils),
    ("concatenate", vector_helper, gs_vector), ("iterate", vector_helper, gs_vector),
    ("create_empty_array", vector_helper, gs_vector), ("create_shared_memory", vector_helper, gs_vector),
    ("read_from_shared_memory", vector_helper, gs_vector), ("write_to_shared_memory", vector_helper, gs_vector),
)
_SPACE_BUILDERS = (("flatten_space", utils_helper), ("batch_space", vector_helper),
                   ("batch_differing_spaces", vector_helper))


# The helpers of both libraries that hand a Gymnasium space gymspaces' helper
# does not know to Gymnasium's, by name.
_UTILS = ("flatdim", "flatten", "unflatten", "flatten_space")
_VECTOR = (
    "batch_space", "iterate", "concatenate", "create_empty_array",
    "create_shared_memory", "read_from_shared_memory", "write_to_shared_memory",
)


def _register_with_gymspaces(classes: Mapping[str, type]) -> None:
    """Hook the compatible classes into gymspaces' helper dispatch
    (:func:`_register_helpers` does Gymnasium's).

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
    bases = {ours: getattr(_gs, name) for name, ours in classes.items()}
    _dispatch.register_like(bases, _dispatch.all_dispatchers())
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


def _is_space(value: Any) -> bool:
    return isinstance(value, (_gs.Space, _gym.Space))


def _adopted(value: Any) -> Any:
    """A space made compatible; anything else as it is (the release's ``__init__`` judges it)."""
    return _classes.adopt(value) if _is_space(value) else value


def _adopted_children(spaces: Any) -> Any:
    """A composite's ``spaces`` argument with each space in it made compatible:
    a mapping's values, an iterable's items or (Dict) its ``(key, space)`` pairs."""
    if isinstance(spaces, Mapping):
        adopted = {key: _adopted(child) for key, child in spaces.items()}
        return OrderedDict(adopted) if type(spaces) is OrderedDict else adopted  # 0.29 keeps an OrderedDict's order
    if isinstance(spaces, (str, bytes)) or not isinstance(spaces, Iterable):
        return spaces
    return [
        (item[0], _adopted(item[1])) if type(item) is tuple and len(item) == 2 and _is_space(item[1]) else _adopted(item)
        for item in spaces
    ]


# Per class: the parameters of its __init__ that hold sub-spaces, and how to adopt them.
_SPACE_PARAMETERS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "Tuple": {"spaces": _adopted_children},
    "OneOf": {"spaces": _adopted_children},
    "Dict": {"spaces": _adopted_children},
    "Sequence": {"space": _adopted},
    "Graph": {"node_space": _adopted, "edge_space": _adopted},
}


def _release_init(name: str, theirs: type) -> Callable[..., None]:
    init: Callable[..., None] = vars(theirs)["__init__"]
    adopters = _SPACE_PARAMETERS.get(name, {})
    signature = inspect.signature(init)
    extra = next((p.name for p in signature.parameters.values() if p.kind is p.VAR_KEYWORD), None)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if adopters:
            try:
                bound = signature.bind(self, *args, **kwargs)
            except TypeError:
                bound = None  # the release's own __init__ raises its TypeError
            if bound is not None:
                for parameter, adopt in adopters.items():
                    if parameter in bound.arguments:
                        bound.arguments[parameter] = adopt(bound.arguments[parameter])
                if extra is not None and extra in bound.arguments:  # Dict(a=Box(...))
                    bound.arguments[extra] = {k: _adopted(v) for k, v in bound.arguments[extra].items()}
                args, kwargs = bound.args[1:], bound.kwargs
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{name}.__init__"
    __init__.__doc__ = init.__doc__
    return __init__


def _adopting_result(method: Callable[..., Any], label: str) -> Callable[..., Any]:
    """``method`` whose result, a space, is made compatible (``MultiDiscrete.__getitem__``)."""
    def adopting(self: Any, *args: Any) -> Any:
        return _adopted(method(self, *args))

    adopting.__qualname__ = label
    adopting.__doc__ = method.__doc__
    return adopting


def _adopting_setitem(method: Callable[..., Any]) -> Callable[..., Any]:
    def __setitem__(self: Any, key: Any, value: Any) -> None:
        method(self, key, _adopted(value))

    __setitem__.__qualname__ = "Dict.__setitem__"
    __setitem__.__doc__ = method.__doc__
    return __setitem__


def _take_release_methods(name: str, ours: type, theirs: type) -> None:
    """Give ``ours`` every method ``theirs`` (and its Gymnasium bases) defines."""
    taken: dict[str, Any] = {}
    for klass in reversed(theirs.__mro__):
        if klass is object or klass.__module__ == "typing":
            continue
        taken.update((key, value) for key, value in vars(klass).items() if key not in _KEPT)
    if "__getitem__" in taken and name == "MultiDiscrete":
        taken["__getitem__"] = _adopting_result(taken["__getitem__"], "MultiDiscrete.__getitem__")
    if "__setitem__" in taken and name == "Dict":
        taken["__setitem__"] = _adopting_setitem(taken["__setitem__"])
    for key, value in taken.items():
        setattr(ours, key, value)
    ours.__init__ = _release_init(name, theirs)  # type: ignore[misc]


def _register_helpers(classes: Mapping[str, type]) -> None:
    """Gymnasium's helpers on the compatible classes, on the release's terms."""
    gymnasium_classes = {ours: getattr(_gym, name) for name, ours in classes.items()}
    always = _entries.Live()  # never turned off: the classes follow the release for good
    for name, lookup, library in _GUARDED_HELPERS:
        helper = lookup(name)
        if helper is None:
            continue
        # The rule Gymnasium's dispatch gives each class (its own or a base's).
        originals = {ours: helper.dispatch(theirs) for ours, theirs in gymnasium_classes.items()
                     if theirs in helper.registry}  # as _register_with_gymspaces registered them
        convert = None if name == "flatdim" else _classes.compatible_graphs
        rule = _entries.helper_rule(getattr(library, name), name, always, originals, convert)
        for ours in originals:
            helper.register(ours, rule)
    for name, lookup in _SPACE_BUILDERS:
        helper = lookup(name)
        if helper is None:
            continue
        for ours, theirs in gymnasium_classes.items():
            if theirs in helper.registry:
                helper.register(ours, _building_compatible(helper.dispatch(theirs), name))


def _building_compatible(rule: Callable[..., Any], name: str) -> Callable[..., Any]:
    """The release's own ``rule`` for a helper that builds spaces, its spaces made compatible."""
    def build(space: Any, *args: Any, **kwargs: Any) -> Any:
        return _convert.convert(rule(space, *args, **kwargs), "compat", share=True, keep_unknown=True)

    build.__name__ = build.__qualname__ = name
    build.__doc__ = rule.__doc__
    build.__wrapped__ = rule  # type: ignore[attr-defined]
    return build


def _graph_methods(graph: type) -> None:
    """The compatible Graph's graphs are compatible :class:`GraphInstance`, and its
    ``contains`` takes gymspaces' own too (as the release's takes its own)."""
    contains, from_jsonable = graph.contains, graph.from_jsonable  # type: ignore[attr-defined]
    compatible = _classes.GraphInstance

    def contains_(self: Any, x: Any) -> bool:
        return contains(self, compatible(*x) if type(x) is _gs.GraphInstance else x)

    def from_jsonable_(self: Any, sample_n: Any) -> Any:
        return [compatible(*graph) if type(graph) is _gym.GraphInstance else graph
                for graph in from_jsonable(self, sample_n)]

    for method, original in ((contains_, contains), (from_jsonable_, from_jsonable)):
        method.__name__ = original.__name__
        method.__qualname__ = f"Graph.{original.__name__}"
        method.__doc__ = original.__doc__
        setattr(graph, original.__name__, method)


def follow_release() -> None:
    """Give the compatible classes the installed release's methods, patch mode's
    entries and helper rules (once, when :mod:`gymspaces.gymnasium.spaces` is imported)."""
    classes = {name: getattr(_classes, name) for name in SPACE_NAMES}
    _register_with_gymspaces(classes)
    _guard.add_compatible_classes(classes.values())
    live = _entries.Live()  # never undone: the classes follow the release for good
    for name, ours in classes.items():
        theirs = getattr(_gym, name)
        _take_release_methods(name, ours, theirs)
        entries = _entries.make_entries(name, live, _classes.GraphInstance)
        for attribute, entry in entries.items():
            entry.__qualname__ = f"{name}.{attribute}"
            setattr(ours, attribute, entry)
    _graph_methods(classes["Graph"])
    _register_helpers(classes)
