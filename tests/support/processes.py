"""Worker processes for the tests that share memory with them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def run_workers(context: Any, target: Callable[..., None], arguments: Iterable[tuple], timeout: float = 120) -> None:
    """Start a ``context.Process(target=target, args=args)`` for each ``args`` of
    ``arguments``, wait for each (at most ``timeout`` seconds), and require that
    each exited with code 0."""
    workers = [context.Process(target=target, args=args) for args in arguments]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=timeout)
        assert worker.exitcode == 0
