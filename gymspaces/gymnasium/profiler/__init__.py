"""The profiler of patch mode: what it gained a program, measured in the program's own run.

``patch(report=True)`` and ``python -m gymspaces.gymnasium --report`` load this
package; patch mode itself never does. It reaches patch mode through one
interface, :mod:`gymspaces.gymnasium.recorder`, and its public functions:

* :mod:`.recording` -- the recorder patch mode is given: every patched call
  counted and timed, a few kept for the estimate, the calls that ran
  Gymnasium's own code with their reasons, the spaces whose class does;
* :mod:`.processes` -- the processes of a run: where its run starts, and the
  counts each process the program started leaves at exit;
* :mod:`.estimate` -- the figures: the time in space operations, and what
  patch mode removed, priced by :mod:`.replay` in a separate interpreter;
* :mod:`.report` -- the text (:func:`gymspaces.gymnasium.report`);
* :mod:`.command` -- ``--report`` of ``python -m gymspaces.gymnasium``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["start_recording"]


def start_recording(decide: Callable[..., str | None]) -> Any:
    """Start recording in this process, counts from zero: the recorder patch mode is to use
    (:class:`gymspaces.gymnasium.recorder.Recorder`). ``decide`` is patch mode's
    :func:`~gymspaces.gymnasium.plain_reason`: which calls run compiled, asked without making them."""
    from gymspaces.gymnasium.profiler import processes, recording

    processes.reset()
    recording.deciding(decide)
    return recording
