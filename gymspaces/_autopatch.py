"""Start-up hook: an interpreter started with ``GYMSPACES_PATCH`` on patches Gymnasium when it imports it.

``GYMSPACES_PATCH`` is on for ``1``, ``true``, ``yes`` or ``on`` and off for
``0``, ``false``, ``no``, ``off`` or an empty value (case and surrounding
whitespace ignored); any other value leaves Gymnasium unpatched, with a
RuntimeWarning at start-up.

``gymspaces-patch.pth`` (installed at the top of site-packages) loads this
module only when the variable is set to something other than an off value, so
an interpreter without it pays one environment lookup. It loads it without
importing the package ``gymspaces`` (this module imports nothing of it at
module level), and with the variable on this module only puts a post-import
hook first on :data:`sys.meta_path`: an interpreter that never imports
Gymnasium pays a few hundred microseconds, and imports neither NumPy,
Gymnasium nor the rest of gymspaces. The hook finds nothing itself: when
``gymnasium`` is first imported, it takes the module spec the other finders
give and has the loader run Gymnasium's ``__init__`` first, then
:func:`gymspaces.gymnasium.patch`; it then leaves ``sys.meta_path``, and
Gymnasium's module keeps its own loader. If Gymnasium is already imported,
this module patches at once.

``python -m gymspaces.gymnasium`` sets ``GYMSPACES_PATCH=1``, so the processes
its program starts (``AsyncVectorEnv`` workers under any start method, Ray
workers) are patched too, each when it imports Gymnasium; a tool the program
starts that never does pays the hook only. With ``GYMSPACES_REPORT`` set as
well (``--report``), they record, and write their counts for the report at
exit.

The hook never raises: an exception in a ``.pth`` file prints a traceback at
every start-up, and one in the hook would fail the program's
``import gymnasium``. Whatever fails becomes one RuntimeWarning and leaves
Gymnasium unpatched; an error of Gymnasium's own ``__init__`` is the
program's, and reaches it as without the hook.
"""

import os
import sys

# Not typing.TYPE_CHECKING: importing typing would cost every interpreter this
# module runs in more than the hook itself (type checkers read the name alike).
# For the same reason no ``from __future__ import annotations`` (a module more
# at start-up): the annotations naming these are strings.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

# gymspaces._env_vars's values, which this module cannot import: it would
# import the package at start-up (gymspaces-patch.pth holds the off values too;
# tests/project/test_env_vars.py checks that all three agree).
ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off", "")


def requested(value: str | None) -> bool | None:
    """Whether a ``GYMSPACES_PATCH`` value turns patching on.

    Parameters
    ----------
    value : str or None
        The variable's value; ``None`` when it is not set.

    Returns
    -------
    bool or None
        ``True`` for an on value, ``False`` for an off value (and for
        ``None``), ``None`` for a value that is not understood.

    Examples
    --------
    >>> requested(" Yes "), requested("0"), requested(None), requested("maybe")
    (True, False, False, None)
    """
    value = (value or "").strip().lower()
    return True if value in ON else False if value in OFF else None


def _warn(message: str) -> None:
    import warnings  # only to warn: not imported at start-up otherwise

    # Line 0: the warning is one line, without a source line under it.
    try:
        warnings.warn_explicit(message, RuntimeWarning, __file__, 0, module=__name__)
    except Exception:  # -W error makes it an exception, a traceback: show it as a warning
        warnings.showwarning(message, RuntimeWarning, __file__, 0)


def _start() -> None:
    value = os.environ.get("GYMSPACES_PATCH")
    wanted = requested(value)
    if wanted is None:
        _warn(
            f"GYMSPACES_PATCH={value!r} is not understood "
            f"(on: {', '.join(ON)}; off: {', '.join(off or 'empty' for off in OFF)}): Gymnasium is not patched"
        )
    elif wanted:
        patch_when_imported()


def patch_when_imported() -> None:
    """Patch Gymnasium now if it is imported, or else when it is (:class:`PatchOnImport`).

    Calling it again, or reloading this module, adds no second hook.
    """
    if "gymnasium" in sys.modules:
        patch_now()
    elif not any(_is_hook(finder) for finder in sys.meta_path):
        # First: the hook must see ``gymnasium`` before the finder that finds it.
        sys.meta_path.insert(0, PatchOnImport())


def _is_hook(finder: object) -> bool:
    # By name, not isinstance: a reloaded module's class is another object.
    return type(finder).__name__ == "PatchOnImport" and type(finder).__module__ == __name__


def _remove_hooks() -> None:
    # A new list, not list.remove: an import in another thread may be walking
    # the old one, and would skip the finder after the hook.
    sys.meta_path = [finder for finder in sys.meta_path if not _is_hook(finder)]


class PatchOnImport:
    """A ``sys.meta_path`` finder that finds no module: it makes the first import
    of ``gymnasium`` patch it once Gymnasium's ``__init__`` has run.

    Asked for ``gymnasium``, it asks the finders after it for the spec (as the
    import system would) and gives it back with its loader wrapped in
    :class:`_LoadThenPatch`; asked for any other module, it answers ``None``
    at the cost of one comparison. It stays in place until Gymnasium's module
    has run, so an import of Gymnasium that failed and is tried again is
    patched too.
    """

    def find_spec(self, name: str, path: "Any" = None, target: "Any" = None) -> "ModuleSpec | None":
        """The spec of ``gymnasium`` with a loader that patches after it; ``None`` for any other name."""
        if name != "gymnasium":
            return None
        for finder in list(sys.meta_path):
            find_spec = None if _is_hook(finder) else getattr(finder, "find_spec", None)
            spec = None if find_spec is None else find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None  # not installed: the import system says so
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            _remove_hooks()
            _warn(f"GYMSPACES_PATCH is set but gymspaces cannot patch Gymnasium: cannot follow {spec.loader!r}")
            return spec
        spec.loader = _LoadThenPatch(spec.loader)
        return spec


class _LoadThenPatch:
    """Gymnasium's loader, which patches Gymnasium once its module has run.

    It stands in for the loader only as the import system creates and runs the
    module: before Gymnasium's ``__init__`` runs, its spec and ``__loader__``
    get the real loader back (``importlib.reload`` and ``importlib.resources``
    then see Gymnasium's own). Anything else is the real loader's.
    """

    def __init__(self, loader: "Any") -> None:
        self.loader = loader

    def create_module(self, spec: "ModuleSpec") -> "ModuleType | None":
        create_module = getattr(self.loader, "create_module", None)
        return None if create_module is None else create_module(spec)

    def exec_module(self, module: "ModuleType") -> None:
        loader = self.loader
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.loader is self:
            spec.loader = loader
        if getattr(module, "__loader__", None) is self:
            module.__loader__ = loader
        loader.exec_module(module)  # Gymnasium's own errors are the program's, as without the hook
        _remove_hooks()
        patch_now()

    def __getattr__(self, name: str) -> "Any":
        return getattr(self.loader, name)


def patch_now() -> None:
    """:func:`gymspaces.gymnasium.patch`, recording when ``GYMSPACES_REPORT`` is set;
    never raises: a failure is one RuntimeWarning and leaves Gymnasium unpatched."""
    try:
        # The module, not the package: ``import gymspaces.gymnasium`` imports
        # Gymnasium first, so the hook may run while that package is still
        # being initialised (its names not yet bound); its modules import.
        from gymspaces.gymnasium._patch import patch

        # Started by a program that records (``--report``): record too,
        # for its report (gymspaces.gymnasium.profiler).
        patch(report=bool(os.environ.get("GYMSPACES_REPORT")))
    except Exception as error:
        _unpatch()
        _warn(f"GYMSPACES_PATCH is set but gymspaces cannot patch Gymnasium: {type(error).__name__}: {error}")


def _unpatch() -> None:
    # After a patch() that failed part-way: back to plain Gymnasium, as far as it goes.
    module = sys.modules.get("gymspaces.gymnasium._patch")
    try:
        module.unpatch()  # type: ignore[union-attr]
    except Exception:  # not imported, or cannot: nothing more to do
        pass


_start()
