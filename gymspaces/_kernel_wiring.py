"""How the compiled kernels are wired to the rule registries: one mechanism for all.

A kernel that implements built-in rules of the flatten family, the batching
rules or the shared-memory helpers (``_flatten.pyx``, ``_batch.pyx``,
``_shared_memory.pyx``) is told the space classes it
recognises by the layer that registers those rules, and is then wired with
two calls:

* :func:`compiled_while_built_in` keeps its compiled path on exactly while
  every one of those built-in rules is the registered one (a user's
  ``flatten.register(Box, ...)`` turns it off, re-registering turns it on);
* :func:`share_aliases` hands it the alias table below and keeps that table
  in step with the dispatchers.

The jsonable kernel (``_jsonable.pyx``) stands in for no dispatcher: it takes
only the alias table, from :mod:`gymspaces._composite`.

Aliases: classes that follow a gymspaces class's built-in rules in the kernels.
The compatible spaces of :mod:`gymspaces.gymnasium.spaces` derive from the
gymspaces classes and flatten, concatenate and iterate exactly like them, but
the kernels recognise spaces by exact class. :data:`ACTIVE` maps each such
class to its base (see ``_aliases.pxd``); the kernels hold this very dict. An
alias stays listed only while every watched dispatcher resolves it to the
same rule as its base, so registering a rule for the subclass itself (in
``flatten.register``, say) takes it off the compiled paths.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["ACTIVE", "add", "compiled_while_built_in", "remove", "share_aliases", "watch"]

ACTIVE: dict[type, type] = {}  # shared with the kernels: only ever updated in place
_CANDIDATES: dict[type, type] = {}
_DISPATCHERS: list[Any] = []
# Guards _CANDIDATES and ACTIVE. Re-entrant: a refresh runs from dispatcher
# listeners, which may fire inside another refresh's thread.
_LOCK = threading.RLock()


def _refresh() -> None:
    # One refresh at a time, and ACTIVE is edited entry by entry, never
    # emptied: kernels in other threads read it meanwhile (patch() and
    # unpatch() refresh it while spaces may be in use).
    with _LOCK:
        current = {
            alias: base
            for alias, base in _CANDIDATES.items()
            if all(dispatcher.dispatch(alias) is dispatcher.dispatch(base) for dispatcher in _DISPATCHERS)
        }
        for alias in [alias for alias in ACTIVE if current.get(alias) is not ACTIVE[alias]]:
            del ACTIVE[alias]
        ACTIVE.update(current)


def watch(dispatcher: Any) -> None:
    """Re-check the aliases whenever a rule is registered with ``dispatcher``."""
    _DISPATCHERS.append(dispatcher)
    dispatcher.on_register(_refresh)
    _refresh()


def add(aliases: dict[type, type], *, subclasses_only: bool = True) -> None:
    """Let each alias (a subclass of its base) take its base's compiled paths.

    With ``subclasses_only=False`` an alias may be any class whose instances
    hold the base's attributes under the same names (Gymnasium's own classes
    while ``gymspaces.gymnasium.patch()`` is on).
    """
    for alias, base in aliases.items():
        if subclasses_only and not issubclass(alias, base):
            raise TypeError(f"{alias.__qualname__} is not a subclass of {base.__qualname__}")
    with _LOCK:
        _CANDIDATES.update(aliases)
        _refresh()


def remove(aliases: tuple[type, ...]) -> None:
    """Take ``aliases`` off the compiled paths again."""
    with _LOCK:
        for alias in aliases:
            _CANDIDATES.pop(alias, None)
        _refresh()


def compiled_while_built_in(enable: Callable[[bool], None], rules: Mapping[Any, Mapping[type, Any]]) -> None:
    """Call ``enable`` with whether every rule of ``rules`` is registered, now and on every registration.

    ``rules`` maps each dispatcher a kernel stands in for to the classes and
    built-in rules the kernel implements.
    """

    def refresh() -> None:
        enable(all(dispatcher.dispatch(cls) is rule for dispatcher, table in rules.items() for cls, rule in table.items()))

    for dispatcher in rules:
        dispatcher.on_register(refresh)
    refresh()


def share_aliases(set_aliases: Callable[[dict[type, type]], None], dispatchers: Iterable[Any]) -> None:
    """Give a kernel the alias table (:data:`ACTIVE`, updated in place), checked against ``dispatchers``."""
    set_aliases(ACTIVE)
    for dispatcher in dispatchers:
        watch(dispatcher)
