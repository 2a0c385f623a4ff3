"""The progress display of a bench run: a pytest plugin that draws on stderr while the suite runs."""

from __future__ import annotations

import time
from typing import Any, TextIO

from benchmarks.results import BASELINE, IMPORT_KEY


class ProgressBar:
    """A pytest plugin that draws a progress bar on stderr while the suite runs.

    Only on a terminal, where the bar is redrawn in place. Elsewhere (a file, a
    pipe, CI logs) a bar would be one line per measurement, over a hundred in
    a full run: the session ends with one line saying how many measurements
    ran and for how long instead.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.total = 0
        self.done = 0
        self.started = time.perf_counter()
        self.interactive = bool(getattr(stream, "isatty", lambda: False)())

    def pytest_collection_finish(self, session: Any) -> None:
        self.total = len(session.items)

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if self.interactive:
            self._draw(nodeid)

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        self.done += 1
        if self.interactive:
            self._draw(nodeid)

    def pytest_sessionfinish(self, session: Any) -> None:
        if not self.total:
            return
        if self.interactive:
            self.stream.write("\n")
        else:
            elapsed = time.perf_counter() - self.started
            self.stream.write(f"{self.done}/{self.total} measurements in {elapsed:.0f}s\n")
        self.stream.flush()

    def _draw(self, nodeid: str) -> None:
        width = 30
        filled = width * self.done // max(self.total, 1)
        name = nodeid.rsplit("[", 1)[-1].rstrip("]") if "[" in nodeid else nodeid.rsplit("::", 1)[-1]
        name = name.replace("test_import_baseline", f"{IMPORT_KEY}-{BASELINE}")
        elapsed = time.perf_counter() - self.started
        text = f"[{'#' * filled}{'.' * (width - filled)}] {self.done:>3}/{self.total} {elapsed:5.0f}s  {name}"
        self.stream.write("\r" + text.ljust(79)[:79])
        self.stream.flush()


__all__ = ["ProgressBar"]
