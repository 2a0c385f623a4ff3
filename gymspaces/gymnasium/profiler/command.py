"""``--report`` and ``--report-details`` of ``python -m gymspaces.gymnasium``: the whole process's run, reported at exit."""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Callable

from gymspaces.gymnasium.profiler.processes import DIRECTORY_VARIABLE, count_whole_process, directory

__all__ = ["report_at_exit"]


def report_at_exit(entered: float, details: bool, program_ran: Callable[[], bool]) -> None:
    """Count the run from the process's start and print the report at exit (once patched, recording).

    Parameters
    ----------
    entered : float
        The command's first ``time.perf_counter()`` reading: the run's start
        where the system does not say when the process started.
    details : bool
        Print every figure (``--report-details``).
    program_ran : callable
        Whether the program's own code started: a program Python could not
        find or compile gets Python's error alone.
    """
    # The user times the whole process: its start-up (gymspaces' imports,
    # patching) is in the run the report counts.
    count_whole_process(entered)
    if directory() is not None:  # the processes the program starts record and report there
        os.environ[DIRECTORY_VARIABLE] = str(directory())

    def print_report() -> None:
        if program_ran():
            from gymspaces.gymnasium.profiler.report import report

            print(report(details=details), file=sys.stderr)

    # Registered after patching, so it runs before the report's own exit
    # handlers (which remove the directory the child processes wrote to).
    atexit.register(print_report)
