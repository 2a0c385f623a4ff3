"""Single dispatch on a space's class with a per-class cache.

:func:`functools.singledispatch` resolves through a ``WeakKeyDictionary`` on
every call, which costs more than flattening a small space. ``space_dispatch``
keeps singledispatch's resolution rules and API (``register``, ``dispatch``,
``registry``) but remembers the implementation of each registered class in a
plain dict, cleared whenever an implementation is registered. (Other classes
go through singledispatch's weak cache, so they can still be collected.)
Measured under callgrind: 1,267 instructions a dispatch against 4,027 for
``functools.singledispatch``, where the whole ``flatten(Box)`` costs 4,975.

Two more things plain singledispatch has no place for:

* listeners (``on_register``): a kernel that stands in for built-in rules
  must stop the moment a user registers another rule for one of their
  classes (``_kernel_wiring``);
* the equivalents table (:func:`set_equivalents`), through which patch mode
  sends Gymnasium's classes to gymspaces' rules. A table rather than one
  registration per class and dispatcher: a dispatcher created after
  ``patch()`` (shared memory loads on use) follows it. A rule a user
  registers for a gymspaces class would reach Gymnasium's class too, so
  patch mode then runs Gymnasium's own code for its helpers
  (``gymspaces.gymnasium._patch``, ``own_rules``). Patch mode sets and
  clears the table through its undo journal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, overload

_P = ParamSpec("_P")
_R_co = TypeVar("_R_co", covariant=True)
_F = TypeVar("_F", bound=Callable[..., Any])


class SpaceDispatcher(Protocol, Generic[_P, _R_co]):
    """The static type of a :func:`space_dispatch` function: ``default``'s own
    signature, plus singledispatch's ``register``/``dispatch``/``registry``."""

    registry: Mapping[Any, Callable[..., Any]]

    @property
    def __wrapped__(self) -> Callable[_P, _R_co]: ...

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> _R_co: ...

    @overload
    def register(self, cls: Any, func: None = None) -> Callable[[_F], _F]: ...
    @overload
    def register(self, cls: Any, func: _F) -> _F: ...

    def dispatch(self, cls: Any) -> Callable[..., Any]: ...

    def on_register(self, listener: Callable[[], None]) -> None: ...

    def handles(self, cls: type) -> bool: ...


def _parameters(function: Callable[..., Any]) -> tuple[list[str], dict[str, Any]]:
    """Positional parameter names of ``function`` and the defaults of the trailing ones."""
    code = function.__code__
    names = list(code.co_varnames[: code.co_argcount])
    defaults = function.__defaults__ or ()
    return names, dict(zip(names[len(names) - len(defaults) :], defaults))


# Classes from outside gymspaces that take a gymspaces class's rules in every
# dispatcher, without being registered: Gymnasium's own space classes while
# ``gymspaces.gymnasium.patch()`` is on. A class (or a subclass of one) listed
# here resolves to its equivalent's rule unless a rule is registered for it or
# for a class nearer in its MRO.
_EQUIVALENTS: dict[type, type] = {}
# (cache, listeners) of every dispatcher, to be told when _EQUIVALENTS changes.
_ALL_DISPATCHERS: list[tuple[dict[type, Callable[..., Any]], list[Callable[[], None]]]] = []
# Bumped before any cache is cleared (a rule registered, the equivalents
# changed): a lookup that read the rules before a bump does not leave its
# answer in a cache, even if it stores it after the clear (another thread).
_generation = 0


def _invalidate(cache: dict[type, Callable[..., Any]]) -> None:
    global _generation
    _generation += 1
    cache.clear()


def set_equivalents(added: Mapping[type, type], removed: tuple[type, ...] = ()) -> None:
    """Make each key of ``added`` follow its value's rules; forget ``removed``."""
    global _generation
    for cls in removed:
        _EQUIVALENTS.pop(cls, None)
    _EQUIVALENTS.update(added)
    _generation += 1
    for cache, _ in _ALL_DISPATCHERS:
        cache.clear()
    for _, listeners in _ALL_DISPATCHERS:
        for listener in listeners:
            listener()


def equivalent_of(cls: type) -> type | None:
    """The class whose rules ``cls`` takes through :func:`set_equivalents`, if any."""
    return _EQUIVALENTS.get(cls)


def space_dispatch(default: Callable[_P, _R_co]) -> SpaceDispatcher[_P, _R_co]:
    """Decorator: make ``default`` dispatch on the class of its first argument."""
    return _space_dispatch(default, follow_equivalents=True)


def space_building_dispatch(default: Callable[_P, _R_co]) -> SpaceDispatcher[_P, _R_co]:
    """:func:`space_dispatch` for helpers that build spaces (``batch_space``, ``flatten_space``).

    They ignore :func:`set_equivalents`: a Gymnasium space keeps getting
    Gymnasium's rule, so what they build is of the caller's library whether
    or not Gymnasium is patched.
    """
    return _space_dispatch(default, follow_equivalents=False)


def _space_dispatch(default: Callable[_P, _R_co], *, follow_equivalents: bool) -> SpaceDispatcher[_P, _R_co]:
    resolver = functools.singledispatch(default)
    cache: dict[type, Callable[..., Any]] = {}
    listeners: list[Callable[[], None]] = []
    _ALL_DISPATCHERS.append((cache, listeners))

    registry = resolver.registry

    def dispatch(cls: type) -> Callable[..., Any]:
        """The implementation for ``cls`` (singledispatch's choice, cached).

        Only registered classes enter the plain-dict cache: the registry holds
        them anyway. Any other class (a user subclass, perhaps created at run
        time) is left to singledispatch's own cache, which is weak, so that
        dispatching on it does not keep it alive.
        """
        implementation = cache.get(cls)
        if implementation is None:
            generation = _generation
            if follow_equivalents and _EQUIVALENTS:
                implementation = _through_equivalent(cls)
            if implementation is None:
                implementation = resolver.dispatch(cls)
            if cls in registry or (follow_equivalents and cls in _EQUIVALENTS):
                cache[cls] = implementation
                if _generation != generation:
                    # The rules changed while this looked them up: the answer
                    # is used once but not kept (the clear may have passed).
                    cache.pop(cls, None)
        return implementation

    def _through_equivalent(cls: type) -> Callable[..., Any] | None:
        for klass in cls.__mro__:
            if klass in registry:
                return None
            equivalent = _EQUIVALENTS.get(klass)
            if equivalent is not None:
                return dispatch(equivalent)
        return None

    # The dispatcher is generated with ``default``'s own parameter list: a
    # ``*args, **kwargs`` wrapper would cost more than many implementations.
    names, defaults = _parameters(default)
    signature = ", ".join(f"{name}=_default_{name}" if name in defaults else name for name in names)
    arguments = ", ".join(names)
    first = names[0]
    source = (
        f"def {default.__name__}({signature}):\n"
        f"    implementation = _cache.get({first}.__class__)\n"
        f"    if implementation is None:\n"
        f"        implementation = _dispatch({first}.__class__)\n"
        f"    return implementation({arguments})\n"
    )
    namespace: dict[str, Any] = {"_cache": cache, "_dispatch": dispatch}
    namespace.update({f"_default_{name}": value for name, value in defaults.items()})
    exec(compile(source, f"<space_dispatch {default.__name__}>", "exec"), namespace)
    dispatcher: Any = functools.wraps(default)(namespace[default.__name__])

    def register(cls: Any, func: Callable[..., Any] | None = None) -> Any:
        """Register ``func`` for ``cls`` (also usable as a decorator, like singledispatch)."""
        if func is None and isinstance(cls, type):
            return lambda f: register(cls, f)
        registered = resolver.register(cls) if func is None else resolver.register(cls, func)
        _invalidate(cache)
        for listener in listeners:
            listener()
        return registered

    dispatcher.register = register
    dispatcher.dispatch = dispatch
    dispatcher.registry = resolver.registry
    dispatcher.on_register = listeners.append
    # A rule registered for ``cls`` itself, or one it takes as an equivalent.
    dispatcher.handles = lambda cls: cls in registry or (follow_equivalents and _EQUIVALENTS.get(cls) in registry)
    return dispatcher
