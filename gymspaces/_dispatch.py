"""Single dispatch on a space's class with a per-class cache.

:func:`functools.singledispatch` resolves through a ``WeakKeyDictionary`` on
every call, which costs more than flattening a small space. ``space_dispatch``
keeps singledispatch's resolution rules and API (``register``, ``dispatch``,
``registry``) but remembers the implementation of each registered class in a
builtin dict, cleared whenever an implementation is registered. (Other classes
go through singledispatch's weak cache, so they can still be collected.)
Measured under callgrind: 1,267 instructions a dispatch against 4,027 for
``functools.singledispatch``, where the whole ``flatten(Box)`` costs 4,975.

Two more things ``functools.singledispatch`` has no place for:

* listeners (``on_register``): a kernel that stands in for built-in rules
  must stop the moment a user registers another rule for one of their
  classes (``_kernel_switches``);
* ``unregister``: a registration can be taken back (patch mode registers
  gymspaces' rules for Gymnasium's classes, and takes them back on
  ``unpatch()``); :func:`value_dispatchers` lists the dispatchers of helpers
  that read a space and values, as opposed to those that build spaces
  (``batch_space``, ``flatten_space``), whose results are of the caller's
  library.

A public entry (:func:`public_entry`) stands in front of a dispatcher: a
function that answers some calls itself (``flatten``'s compiled cases,
``create_shared_memory``'s single buffer) and hands the rest to the
dispatcher, whose registrations it shares.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import threading
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, cast, overload

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

    def unregister(self, cls: Any) -> None: ...

    def on_register(self, listener: Callable[[], None]) -> None: ...

    def handles(self, cls: type) -> bool: ...


_R = TypeVar("_R")


def _parameters(function: Callable[..., Any]) -> tuple[list[str], dict[str, Any]]:
    """Positional parameter names of ``function`` and the defaults of the trailing ones."""
    code = function.__code__
    names = list(code.co_varnames[: code.co_argcount])
    defaults = function.__defaults__ or ()
    return names, dict(zip(names[len(names) - len(defaults) :], defaults))


# Every dispatcher, and whether its helper builds spaces (see value_dispatchers).
_ALL_DISPATCHERS: list[tuple[Any, bool]] = []
# Bumped before any cache is cleared (a rule registered or taken back): a
# lookup that read the rules before a bump does not leave its answer in a
# cache, even if it stores it after the clear (another thread).
_generation = 0


def _invalidate(cache: dict[type, Callable[..., Any]]) -> None:
    global _generation
    _generation += 1
    cache.clear()


# Per thread: the listeners whose calls are held back (see listeners_once), or None.
_held = threading.local()


def tell(listeners: list[Callable[[], None]]) -> None:
    """Call each of ``listeners`` now, or once at the end of this thread's
    :func:`listeners_once` block if one is open."""
    held = getattr(_held, "listeners", None)
    if held is None:
        for listener in listeners:
            listener()
    else:
        held.extend(listener for listener in listeners if listener not in held)


@contextlib.contextmanager
def listeners_once() -> Iterator[None]:
    """Within the block, registrations made by this thread call each listener
    once, at its end (many registrations at once: patch mode's)."""
    if getattr(_held, "listeners", None) is not None:  # nested: the outer block tells
        yield
        return
    held: list[Callable[[], None]] = []
    _held.listeners = held
    try:
        yield
    finally:
        _held.listeners = None
        for listener in held:
            listener()


def value_dispatchers() -> list[SpaceDispatcher[..., Any]]:
    """The dispatchers of helpers that read a space and values (all but those that build spaces)."""
    return [dispatcher for dispatcher, builds in _ALL_DISPATCHERS if not builds]


def register_like(
    equivalents: Mapping[type, type],
    dispatchers: list[SpaceDispatcher[..., Any]],
    *,
    accept: Callable[[Callable[..., Any]], bool] | None = None,
    taken_back: list[Callable[[], None]] | None = None,
) -> None:
    """With each of ``dispatchers``, register for each key of ``equivalents`` the
    rule its value has, where the value has one of its own, the key has none and
    ``accept(rule)`` holds. What takes each back is appended to ``taken_back`` as
    it is made. Listeners hear once, at the end."""
    with listeners_once():
        for dispatcher in dispatchers:
            for cls, model in equivalents.items():
                if model not in dispatcher.registry or cls in dispatcher.registry:
                    continue
                rule = dispatcher.dispatch(model)
                if accept is not None and not accept(rule):
                    continue
                if taken_back is not None:
                    taken_back.append(functools.partial(_take_back, dispatcher, cls, rule))
                dispatcher.register(cls, rule)


def _take_back(dispatcher: SpaceDispatcher[..., Any], cls: type, rule: Callable[..., Any]) -> None:
    """Take back ``rule``, registered for ``cls`` with ``dispatcher`` (unless a
    rule registered since has replaced it)."""
    if dispatcher.registry.get(cls) is rule:
        dispatcher.unregister(cls)


# The dispatchers, one template per number of parameters: each dispatcher is
# a copy of its template's code renamed to its default's parameter names
# (keyword calls bind by these), run in globals of its own that hold its
# cache and resolver under the names below (globals, not closure cells: a
# global read is the cheaper on every call). Renaming costs nothing at
# import; compiling generated source cost about 70 us a dispatcher.
# What the templates read in this module's own globals: never called.
_cache: dict[type, Callable[..., Any]] = {}


def _resolve(cls: type) -> Callable[..., Any]:
    raise AssertionError("a dispatcher template ran in its own module's globals")


def _one(space: Any) -> Any:
    implementation = _cache.get(space.__class__)
    if implementation is None:
        implementation = _resolve(space.__class__)
    return implementation(space)


def _two(space: Any, arg1: Any) -> Any:
    implementation = _cache.get(space.__class__)
    if implementation is None:
        implementation = _resolve(space.__class__)
    return implementation(space, arg1)


def _three(space: Any, arg1: Any, arg2: Any) -> Any:
    implementation = _cache.get(space.__class__)
    if implementation is None:
        implementation = _resolve(space.__class__)
    return implementation(space, arg1, arg2)


def _four(space: Any, arg1: Any, arg2: Any, arg3: Any) -> Any:
    implementation = _cache.get(space.__class__)
    if implementation is None:
        implementation = _resolve(space.__class__)
    return implementation(space, arg1, arg2, arg3)


_TEMPLATES = (_one, _two, _three, _four)


def _dispatcher(
    default: Callable[..., Any], cache: dict[type, Any], resolve: Callable[[type], Any]
) -> Callable[..., Any]:
    """A dispatcher with ``default``'s name and parameter list, reading ``cache``
    and resolving a class it misses with ``resolve``."""
    names, defaults = _parameters(default)
    if not 1 <= len(names) <= len(_TEMPLATES) or "implementation" in names:
        raise TypeError(f"space_dispatch takes a function of 1 to {len(_TEMPLATES)} parameters, not {default!r}")
    renamed: dict[str, Any] = {"co_varnames": (*names, "implementation"), "co_name": default.__name__}
    if sys.version_info >= (3, 11):
        renamed["co_qualname"] = default.__qualname__
    code = _TEMPLATES[len(names) - 1].__code__.replace(**renamed)
    own_globals = {"_cache": cache, "_resolve": resolve, "__builtins__": __builtins__}
    return types.FunctionType(code, own_globals, default.__name__, tuple(defaults.values()) or None)


def space_dispatch(default: Callable[_P, _R_co]) -> SpaceDispatcher[_P, _R_co]:
    """Decorator: make ``default`` dispatch on the class of its first argument."""
    return _space_dispatch(default, builds_spaces=False)


def space_building_dispatch(default: Callable[_P, _R_co]) -> SpaceDispatcher[_P, _R_co]:
    """:func:`space_dispatch` for helpers that build spaces (``batch_space``, ``flatten_space``).

    Left out of :func:`value_dispatchers`: patch mode registers no rule for
    Gymnasium's classes with them, so a Gymnasium space keeps getting
    Gymnasium's rule and what they build is of the caller's library whether
    or not Gymnasium is patched.
    """
    return _space_dispatch(default, builds_spaces=True)


def _space_dispatch(default: Callable[_P, _R_co], *, builds_spaces: bool) -> SpaceDispatcher[_P, _R_co]:
    resolver = functools.singledispatch(default)
    cache: dict[type, Callable[..., Any]] = {}
    listeners: list[Callable[[], None]] = []

    registry = resolver.registry
    # singledispatch's own dict behind its read-only ``registry`` view (it has
    # no way to take a registration back), and its weak cache.
    rules = closure_cell(resolver.register, "registry").cell_contents
    weak_cache = closure_cell(resolver.dispatch, "dispatch_cache").cell_contents

    def dispatch(cls: type) -> Callable[..., Any]:
        """The implementation for ``cls`` (singledispatch's choice, cached).

        Only registered classes enter the builtin-dict cache: the registry holds
        them anyway. Any other class (a user subclass, perhaps created at run
        time) is left to singledispatch's own cache, which is weak, so that
        dispatching on it does not keep it alive.
        """
        implementation = cache.get(cls)
        if implementation is None:
            generation = _generation
            # A class with a rule of its own gets that rule from singledispatch
            # whatever its caches hold: read it without the weak cache's
            # lookup (patch() resolves some 300 classes just registered).
            implementation = rules.get(cls)
            if implementation is None:
                implementation = resolver.dispatch(cls)
            if cls in registry:
                cache[cls] = implementation
                if _generation != generation:
                    # The rules changed while this looked them up: the answer
                    # is used once but not kept (the clear may have passed).
                    cache.pop(cls, None)
        return implementation

    # The dispatcher has ``default``'s own parameter list: a ``*args, **kwargs``
    # wrapper would cost more than many implementations.
    generated = _dispatcher(default, cache, dispatch)
    dispatcher: Any = functools.wraps(default)(generated)

    def register(cls: Any, func: Callable[..., Any] | None = None) -> Any:
        """Register ``func`` for ``cls`` (also usable as a decorator, like singledispatch)."""
        if func is None and isinstance(cls, type):
            return lambda f: register(cls, f)
        if func is not None and type(cls) is type and not hasattr(cls, "__abstractmethods__"):
            # What singledispatch's ``register`` does for a class of metaclass ``type``, without
            # its checks for unions and ABCs: the package registers some 360
            # rules at import and patch, at a quarter of the cost.
            rules[cls] = func
            if weak_cache:
                weak_cache.clear()
            registered = func
        else:
            registered = resolver.register(cls) if func is None else resolver.register(cls, func)
        _invalidate(cache)
        tell(listeners)
        return registered

    def unregister(cls: Any) -> None:
        """Take back the rule registered for ``cls`` (nothing if there is none)."""
        if rules.pop(cls, None) is not None:
            resolver._clear_cache()
            _invalidate(cache)
            tell(listeners)

    dispatcher.register = register
    dispatcher.unregister = unregister
    dispatcher.dispatch = dispatch
    dispatcher.registry = resolver.registry
    dispatcher.on_register = listeners.append
    # A rule registered for ``cls`` itself.
    dispatcher.handles = lambda cls: cls in registry
    _ALL_DISPATCHERS.append((dispatcher, builds_spaces))
    return dispatcher


def public_entry(dispatcher: SpaceDispatcher[..., Any]) -> Callable[[Callable[_P, _R]], SpaceDispatcher[_P, _R]]:
    """Decorator: make a function the public face of ``dispatcher``.

    The entry answers what it takes itself (a compiled kernel's built-in
    cases, a layout no rule makes) and hands every other call to the
    dispatcher. It carries the dispatcher's ``register``, ``dispatch`` and
    ``registry`` (and ``on_register``, ``handles``), so a rule registered
    through either is one rule, used by both, and patch mode hands
    Gymnasium's spaces over through either alike. It takes the dispatcher's
    module, and a compiled entry its documentation and signature too.
    """

    def dress(entry: Callable[_P, _R]) -> SpaceDispatcher[_P, _R]:
        dressed: Any = entry
        for attribute in ("register", "dispatch", "registry", "on_register", "handles"):
            setattr(dressed, attribute, getattr(dispatcher, attribute))
        dressed.__module__ = dispatcher.__module__
        if not isinstance(entry, types.FunctionType):
            # A compiled entry holds only the signature Cython embeds: it takes
            # the dispatcher's documentation and annotations, and ``__wrapped__``
            # leads ``typing.get_type_hints`` to the globals they name. (A Python
            # entry documents itself, its own parameters among them, and is left
            # unwrapped: Sphinx would read the dispatcher's source as its own.)
            dressed.__doc__ = dispatcher.__doc__
            dressed.__annotations__ = dict(dispatcher.__annotations__)
            dressed.__wrapped__ = dispatcher.__wrapped__
            # ``inspect.signature`` would follow ``__wrapped__`` to the dispatcher
            # and hide the entry's own extra parameters (``flatten``'s ``out=``).
            dressed.__signature__ = inspect.signature(entry, follow_wrapped=False)
        return cast(SpaceDispatcher[_P, _R], dressed)

    return dress


def closure_cell(function: Any, name: str) -> Any:
    """The cell of ``function``'s free variable ``name``, or None (patch mode
    reaches functools' dispatchers' state the same way)."""
    code = getattr(function, "__code__", None)
    closure = getattr(function, "__closure__", None)
    if code is None or closure is None or name not in code.co_freevars:
        return None
    return closure[code.co_freevars.index(name)]
