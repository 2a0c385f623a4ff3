"""How the compiled kernels follow the rule registries: the alias table and the switches.

The kernels read both from the registry (:mod:`gymspaces._registry`), which
:mod:`gymspaces._fill_registry` fills:

* :func:`compiled_while_built_in` keeps a switch of the registry on exactly
  while every built-in rule its kernel implements is the registered one (a
  user's ``flatten.register(Box, ...)`` turns it off, re-registering turns
  it on);
* :data:`ACTIVE`, the registry's alias table, is kept in step with the
  dispatchers given to :func:`watch`.

Aliases: classes that follow a gymspaces class's built-in rules in the kernels
although they are not that class (the kernels recognise spaces by exact
class). While ``gymspaces.gymnasium.patch()`` is on, Gymnasium's own space
classes are the aliases of their gymspaces namesakes: their instances hold
the same attributes under the same names. :data:`ACTIVE` maps each alias to
its gymspaces class (see ``space_class`` in ``_registry.pxd``). An alias stays
listed only while every watched dispatcher resolves it to the same rule as
its gymspaces class, so registering a rule for the alias itself (in
``flatten.register``, say) takes it off the compiled paths.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from gymspaces._dispatch import tell
from gymspaces._registry import REGISTRY

__all__ = ["ACTIVE", "add", "compiled_while_built_in", "remove", "watch"]

ACTIVE: dict[type, type] = REGISTRY.aliases  # read by the kernels: only ever updated in place
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


def add(aliases: dict[type, type]) -> None:
    """Let each alias take its gymspaces class's compiled paths (its instances
    hold that class's attributes under the same names)."""
    with _LOCK:
        _CANDIDATES.update(aliases)
    tell([_refresh])  # (once, with the registrations around it: patch() makes many)


def remove(aliases: tuple[type, ...]) -> None:
    """Take ``aliases`` off the compiled paths again."""
    with _LOCK:
        for alias in aliases:
            _CANDIDATES.pop(alias, None)
    tell([_refresh])


def compiled_while_built_in(switch: str, rules: Mapping[Any, Mapping[type, Any]]) -> None:
    """Keep the registry's ``switch`` on exactly while every rule of ``rules`` is registered.

    ``rules`` maps each dispatcher a kernel stands in for to the classes and
    built-in rules the kernel implements; the switch is set now and again on
    every registration with one of them.
    """

    def refresh() -> None:
        on = all(dispatcher.dispatch(cls) is rule for dispatcher, table in rules.items() for cls, rule in table.items())
        setattr(REGISTRY, switch, on)

    for dispatcher in rules:
        dispatcher.on_register(refresh)
    refresh()
