"""What patch mode tells a recorder of its calls: the one interface of its profiler.

``patch(report=True)`` loads the profiler (:mod:`gymspaces.gymnasium.profiler`)
and patches with the :class:`Recorder` it starts. Patch mode then hands every
entry it installs (the ``sample`` and ``contains`` of Gymnasium's classes, the
rules it registers with Gymnasium's helpers) to :meth:`Recorder.timed`, tells
:meth:`Recorder.ran_plain` of each call that ran Gymnasium's own code with the
reason its decision gave, :meth:`Recorder.plain_space` of each space created
whose class runs Gymnasium's code, and :meth:`Recorder.patched` how long
patching took. Patch mode runs, imports and is tested without a recorder; a
recorder reads nothing else of it but the two questions below and the
:func:`~gymspaces.gymnasium.plain_reason` patching hands it as it starts it
(which calls run compiled).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from gymspaces._sub_spaces import sub_spaces
from gymspaces.gymnasium._guard import GYMNASIUM_CLASSES

__all__ = ["Recorder", "gymnasium_tree", "operation_labels"]

F = TypeVar("F", bound=Callable[..., Any])


class Recorder(Protocol):
    """What patch mode calls while it records (a module of these four functions will do)."""

    def timed(self, label: str, function: F, plain: Callable[..., Any]) -> F:
        """``function``, an entry patch mode installs under ``label`` (``"Discrete.sample"``,
        ``"flatten"``), as the recorder wants it called: counted and timed, say. ``plain`` is
        Gymnasium's own function it replaces, which the recorder may call instead: its outcome
        is the same (to time Gymnasium's code where the program calls it)."""

    def ran_plain(self, label: str, space: Any, reason: str) -> None:
        """A ``label`` call on ``space`` is running Gymnasium's own code, for ``reason``
        (called inside that call, before Gymnasium's code runs)."""

    def plain_space(self, space: Any) -> None:
        """``space`` was just created, of a class whose calls run Gymnasium's own code."""

    def patched(self, seconds: float) -> None:
        """Patching took ``seconds`` (part of patch mode's start-up)."""


def gymnasium_tree(space: Any) -> bool:
    """Whether every node of ``space``'s tree is exactly one of Gymnasium's classes
    (then it pickles by value, wherever Gymnasium is installed)."""
    stack = [space]
    while stack:
        node = stack.pop()
        if type(node) not in GYMNASIUM_CLASSES:
            return False
        stack.extend(sub_spaces(node))
    return True


def operation_labels() -> dict[tuple[str, str], str]:
    """The label of each operation patch mode takes, by (Gymnasium class name,
    operation): what :meth:`Recorder.timed` is given it under."""
    from gymspaces.gymnasium._operations import OPERATIONS

    return {key: row.label for key, row in OPERATIONS.items() if row.left is None}
