"""The processes of a recorded run: where its run starts, and the counts each process leaves.

The run is the whole process under ``python -m gymspaces.gymnasium`` and in
the processes its program starts (:func:`count_whole_process`: patch mode's
own start-up is in it), and the time since patching started otherwise.

Every process the program started that recorded too (``AsyncVectorEnv``
workers under fork, spawn and forkserver) is counted: a recording process
makes a directory (:func:`reset`), which forked children inherit and
``python -m gymspaces.gymnasium --report`` names in ``GYMSPACES_REPORT`` for
the processes started otherwise (patched and recording from their import of
Gymnasium, see :mod:`gymspaces._autopatch`); every such process writes its
counts there when it exits, for the report (:mod:`gymspaces.gymnasium.profiler.report`)
to merge (:func:`child_counts_written`).
"""

from __future__ import annotations

import atexit
import os
import pickle
import shutil
import tempfile
import time
from typing import Any

from gymspaces.gymnasium.profiler import recording
from gymspaces.gymnasium.profiler.recording import Record

__all__ = ["DIRECTORY_VARIABLE", "count_whole_process", "directory", "reset"]

DIRECTORY_VARIABLE = "GYMSPACES_REPORT"
"""Where the processes of a recorded run write their counts (set by the process that reports)."""

_SUFFIX = ".counts"  # a finished process's counts
_STARTED = ".started"  # a recording child process that has started

_directory: str | None = None  # where the processes this one starts write, when this process reports
_target: str | None = None  # where this process writes its counts at exit, when it was started by one that reports
_written_by: int | None = None  # the pid that wrote this process's counts (once per process)
_hooks_installed = False


def count_whole_process(fallback: float) -> None:
    """Count this process's run from the process's start (``python -m gymspaces.gymnasium``).

    The run then holds patch mode's own start-up (importing gymspaces'
    layer, patching), which the plain estimate leaves out.

    Parameters
    ----------
    fallback : float
        A ``time.perf_counter()`` reading to count from where the system does
        not say when the process started (as early as the caller has one).
    """
    start = _process_start()
    record = recording.current()
    if start is None:
        record.origin, record.counted_from = min(fallback, record.origin), "the command's start"
    else:
        record.origin, record.counted_from = min(start, record.origin), "process start"
    record.cpu_origin = 0.0  # the process's CPU time counts from its start
    if record.core_origin is not None:  # and so do its main thread's times on a core and waiting for one
        record.core_origin = (0.0, 0.0)
    record.imported = True


def _process_start() -> float | None:
    """When this process started, on the ``time.perf_counter`` clock; None where
    the system does not say (read from Linux's /proc, to within 5 ms)."""
    try:
        with open("/proc/self/stat", "rb") as handle:
            # Field 22, starttime; the fields after the command name, which may hold spaces.
            ticks = int(handle.read().rsplit(b")", 1)[1].split()[19])
        per_second = os.sysconf("SC_CLK_TCK")
        since_boot = time.clock_gettime(time.CLOCK_BOOTTIME)  # starttime's clock
        now = time.perf_counter()
    except (OSError, AttributeError, ValueError, IndexError):
        return None
    # starttime is rounded down to a tick: half a tick later is the best guess.
    elapsed = since_boot - (ticks + 0.5) / per_second
    return now - max(elapsed, 0.0)


def reset() -> None:
    """Forget everything recorded so far, and start counting the run time anew.

    The first call in a process sets up the collection of counts: a process
    started with ``GYMSPACES_REPORT`` naming a directory writes its counts
    there at exit; any other process creates a directory for the processes it
    forks (``python -m gymspaces.gymnasium --report`` also names it in
    ``GYMSPACES_REPORT``, for the processes it starts otherwise).
    """
    global _directory, _target
    recording.replace(Record())
    _install_hooks()
    if _directory is not None:
        for name in _listdir(_directory):
            _remove(os.path.join(_directory, name))
        return
    if _target is not None:
        return
    inherited = os.environ.get(DIRECTORY_VARIABLE)
    if inherited and os.path.isdir(inherited):
        # Started by a process that reports (patched by the start-up hook when
        # it imported Gymnasium): its whole run counts, start-up included.
        _target = inherited
        count_whole_process(recording.current().started)
        return
    try:
        _directory = tempfile.mkdtemp(prefix="gymspaces-report-")
    except OSError:
        return  # no place to collect: the report covers this process alone
    atexit.register(_remove_directory, _directory, os.getpid())


def directory() -> str | None:
    """The directory this process's children write their counts to, if it reports."""
    return _directory


def _install_hooks() -> None:
    global _hooks_installed
    if _hooks_installed:
        return
    _hooks_installed = True
    atexit.register(_at_exit)
    # A forked child starts with a copy of its parent's counts: it forgets
    # them and reports its own to the parent's directory.
    os.register_at_fork(after_in_child=_forked)
    # multiprocessing's children (fork, spawn, forkserver) leave by
    # os._exit() after _bootstrap, where atexit handlers do not run: its
    # finalizers do.
    import multiprocessing.util as mp_util

    mp_util.register_after_fork(_AFTER_FORK, _multiprocessing_child)


class _AfterFork:
    """The object multiprocessing's after-fork registry holds (it keeps weak references)."""


_AFTER_FORK = _AfterFork()


def _forked() -> None:
    global _directory, _target
    record = Record()  # its run starts now, with nothing of patch mode to start up
    record.counted_from = "process start"
    recording.replace(record)
    if _directory is not None:
        _directory, _target = None, _directory


def _multiprocessing_child(_: object) -> None:
    """In a multiprocessing child, at start: announce it and arrange its report at exit."""
    import multiprocessing.util as mp_util

    if _target is None:
        return
    try:
        with open(os.path.join(_target, f"{os.getpid()}{_STARTED}"), "w"):
            pass
    except OSError:
        return
    mp_util.Finalize(None, _write_counts, exitpriority=100)


def _at_exit() -> None:
    if _target is not None:
        _write_counts()


def _write_counts() -> None:
    """Write this process's counts to the reporting process's directory (once)."""
    global _written_by
    pid = os.getpid()
    if _target is None or _written_by == pid:
        return
    _written_by = pid
    snapshot = recording.current().snapshot()
    started = os.path.exists(os.path.join(_target, f"{pid}{_STARTED}"))
    if not snapshot["calls"] and not snapshot["slow_spaces"] and not started:
        return  # a helper process (resource tracker, fork server) that ran no space operation
    final = os.path.join(_target, f"{pid}{_SUFFIX}")
    try:
        with open(final + ".tmp", "wb") as handle:
            pickle.dump(snapshot, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(final + ".tmp", final)
    except OSError:
        pass


def _listdir(directory: str) -> list[str]:
    try:
        return os.listdir(directory)
    except OSError:
        return []


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass


def _remove_directory(directory: str, pid: int) -> None:
    if os.getpid() == pid:
        shutil.rmtree(directory, ignore_errors=True)


def child_counts_written() -> tuple[list[dict[str, Any]], int]:
    """The counts the started processes wrote, and how many started but have not written."""
    if _directory is None:
        return [], 0
    names = _listdir(_directory)
    finished = {name[: -len(_SUFFIX)] for name in names if name.endswith(_SUFFIX)}
    started = {name[: -len(_STARTED)] for name in names if name.endswith(_STARTED)}
    counts = []
    for pid in sorted(finished):
        try:
            with open(os.path.join(_directory, pid + _SUFFIX), "rb") as handle:
                counts.append(pickle.load(handle))  # written by this run's processes, above
        except (OSError, EOFError, pickle.UnpicklingError):
            continue
    return counts, len(started - finished)
