"""Single dispatch on a space's class with a per-class cache.

:func:`functools.singledispatch` resolves through a ``WeakKeyDictionary`` on
every call, which costs more than flattening a small space. ``space_dispatch``
keeps singledispatch's resolution rules and API (``register``, ``dispatch``,
``registry``) but remembers each class's implementation in a plain dict,
cleared whenever an implementation is registered.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


def space_dispatch(default: Callable[..., Any]) -> Any:
    """Decorator: make ``default`` dispatch on the class of its first argument."""
    resolver = functools.singledispatch(default)
    cache: dict[type, Callable[..., Any]] = {}
    listeners: list[Callable[[], None]] = []

    @functools.wraps(default)
    def dispatcher(space: Any, *args: Any, **kwargs: Any) -> Any:
        cls = space.__class__
        implementation = cache.get(cls)
        if implementation is None:
            implementation = cache[cls] = resolver.dispatch(cls)
        return implementation(space, *args, **kwargs)

    def register(cls: Any, func: Callable[..., Any] | None = None) -> Any:
        """Register ``func`` for ``cls`` (also usable as a decorator, like singledispatch)."""
        if func is None and isinstance(cls, type):
            return lambda f: register(cls, f)
        registered = resolver.register(cls) if func is None else resolver.register(cls, func)
        cache.clear()
        for listener in listeners:
            listener()
        return registered

    def dispatch(cls: type) -> Callable[..., Any]:
        """The implementation for ``cls`` (singledispatch's choice, cached)."""
        implementation = cache.get(cls)
        if implementation is None:
            implementation = cache[cls] = resolver.dispatch(cls)
        return implementation

    dispatcher.register = register
    dispatcher.dispatch = dispatch
    dispatcher.registry = resolver.registry
    dispatcher.on_register = listeners.append
    return dispatcher
