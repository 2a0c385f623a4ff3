"""What ran compiled while patched, and what did not.

``patch(report=True)`` (``python -m gymspaces.gymnasium --report``) counts and
times every call of the methods and helpers patching installed, and records
every Gymnasium space created whose class does not run compiled (a custom
space, or a subclass overriding ``sample``/``contains``) with the place in
user code that created it. :func:`report` formats both tables.

Recording costs two clock reads per call, so it is off unless asked for.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

import gymnasium

import gymspaces

__all__ = ["report"]

_LOCK = threading.Lock()
_calls: Counter[str] = Counter()
_seconds: dict[str, float] = {}
_slow_spaces: Counter[tuple[str, str]] = Counter()
_plain_calls: Counter[tuple[str, str, str]] = Counter()  # (operation, class, reason)

# Frames in these directories are library internals, not "where it was created".
_LIBRARY_DIRS = tuple(
    os.path.dirname(os.path.abspath(str(package.__file__))) + os.sep for package in (gymnasium, gymspaces)
)


def timed(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` counting its calls and their time under ``label``."""
    clock = time.perf_counter

    def call(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return function(*args, **kwargs)
        finally:
            elapsed = clock() - start
            with _LOCK:
                _calls[label] += 1
                _seconds[label] = _seconds.get(label, 0.0) + elapsed

    call.__name__ = getattr(function, "__name__", label)
    call.__qualname__ = getattr(function, "__qualname__", label)
    call.__doc__ = function.__doc__
    call.__module__ = getattr(function, "__module__", __name__)
    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call


def _creation_site() -> str:
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if not filename.startswith(_LIBRARY_DIRS) and frame.f_code.co_name != "__init__":
            return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return "<unknown>"


def recording_init(original: Callable[..., Any], compiled: Callable[[type], bool]) -> Callable[..., Any]:
    """``Space.__init__`` that records spaces whose class does not run compiled."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        cls = type(self)
        if not compiled(cls):
            key = (f"{cls.__module__}.{cls.__qualname__}", _creation_site())
            with _LOCK:
                _slow_spaces[key] += 1

    __init__.__qualname__ = getattr(original, "__qualname__", "__init__")
    __init__.__wrapped__ = original  # type: ignore[attr-defined]
    return __init__


def note_plain(label: str, cls: type, reason: str) -> None:
    """Record that a patched ``label`` call ran Gymnasium's own code, and why."""
    with _LOCK:
        _plain_calls[(label, f"{cls.__module__}.{cls.__qualname__}", reason)] += 1


def reset() -> None:
    """Forget everything recorded so far."""
    with _LOCK:
        _calls.clear()
        _seconds.clear()
        _slow_spaces.clear()
        _plain_calls.clear()


def report() -> str:
    """The recorded operations and not-compiled spaces, as a text table.

    Operations are recorded while Gymnasium is patched with
    ``patch(report=True)`` or run through ``python -m gymspaces.gymnasium
    --report`` (which prints this table at exit).

    Examples
    --------
    >>> import gymnasium
    >>> from gymspaces.gymnasium import patch, report, unpatch
    >>> patch(report=True)
    >>> space = gymnasium.spaces.Discrete(3, seed=0)
    >>> _ = [space.sample() for _ in range(5)]
    >>> print(report().splitlines()[2].split()[:2])
    ['Discrete.sample', '5']
    >>> unpatch()
    """
    with _LOCK:
        calls, seconds, slow, plain = Counter(_calls), dict(_seconds), Counter(_slow_spaces), Counter(_plain_calls)
    lines = ["gymspaces: patched space operations", f"{'operation':<36} {'calls':>10} {'total ms':>10}"]
    for label, count in sorted(calls.items(), key=lambda item: -seconds[item[0]]):
        lines.append(f"{label:<36} {count:>10} {seconds[label] * 1e3:>10.2f}")
    if not calls:
        lines.append("(none)")
    lines.append("")
    lines.append("gymspaces: patched calls that ran Gymnasium's own code (the outcome is not provably the same)")
    if plain:
        for (label, name, reason), count in plain.most_common():
            lines.append(f"{label} on {name} x{count}: {reason}")
    else:
        lines.append("(none)")
    lines.append("")
    lines.append("gymspaces: spaces that did not run compiled (custom classes, overridden methods)")
    if slow:
        for (name, site), count in slow.most_common():
            lines.append(f"{name} x{count}  created at {site}")
    else:
        lines.append("(none)")
    return "\n".join(lines)
