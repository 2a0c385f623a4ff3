"""The results of a bench run: the medians read from pytest-benchmark's JSON.

The suite (:mod:`benchmarks.suite`) records each measurement's case key
and implementation in ``extra_info``; a run is read back as medians by case
and implementation, from a fresh run or from a file saved with ``--json``
(the ``--from-json`` and ``--compare`` inputs).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from benchmarks.errors import UsageError

IMPORT_KEY = "import"
BASELINE = "numpy"  # the implementation timed next to the import case
FLOOR = "floor"  # the implementation name of a case's lower bound (bench.floors)


@dataclass
class Run:
    """The medians of one pytest-benchmark run, indexed by case and implementation.

    Attributes
    ----------
    medians : dict
        ``medians[case_key][implementation]`` in seconds.
    versions : dict of str to str
        Version of each implementation as recorded by the suite.
    max_time : float or None
        pytest-benchmark's ``max_time`` of the run (seconds per measurement).
    machine : str
        A one-line description of the machine and interpreter.
    mode : str
        ``"quick"`` or ``"full"`` for runs of ``python -m benchmarks``, else ``""``.
    confirmed : list of str
        Notes on cases whose figures were replaced by a confirming measurement.
    extra : dict
        ``extra[case_key]``: what a case recorded besides its medians (the real
        loops' plain ``share``).
    """

    medians: dict[str, dict[str, float]] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    max_time: float | None = None
    machine: str = ""
    mode: str = ""
    confirmed: list[str] = field(default_factory=list)
    extra: dict[str, dict[str, float]] = field(default_factory=dict)

    def median(self, key: str, implementation: str) -> float | None:
        """The median of case ``key`` on ``implementation`` in seconds, or ``None`` if not measured."""
        return self.medians.get(key, {}).get(implementation)


def read_run(data: dict[str, Any]) -> Run:
    """Extract the medians from pytest-benchmark's JSON (a parsed ``--benchmark-json`` file).

    Measurements not made by the gymspaces suite (no ``case`` in
    ``extra_info``) are ignored.
    """
    run = Run()
    for bench in data.get("benchmarks", []):
        info = bench.get("extra_info", {})
        key, implementation = info.get("case"), info.get("implementation")
        if key is None or implementation is None:
            continue
        run.medians.setdefault(key, {})[implementation] = float(bench["stats"]["median"])
        if "share" in info:
            run.extra.setdefault(key, {})["share"] = float(info["share"])
        run.versions[implementation] = str(info.get("version", "unknown"))
        run.max_time = bench.get("options", {}).get("max_time", run.max_time)
    run.mode = str(data.get("gymspaces_bench", {}).get("mode", ""))
    machine = data.get("machine_info", {})
    cpu = machine.get("cpu", {}).get("brand_raw", "")
    run.machine = " ".join(
        part
        for part in (
            f"{machine.get('python_implementation', '')} {machine.get('python_version', '')}".strip(),
            f"{machine.get('system', '')} {machine.get('machine', '')}".strip(),
            cpu,
        )
        if part
    )
    return run


def load_run(path: str | os.PathLike[str]) -> Run:
    """Read a JSON file written by ``--json`` or ``pytest --benchmark-json``."""
    try:
        with open(path, encoding="utf8") as handle:
            return read_run(json.load(handle))
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{path} is not pytest-benchmark JSON: {error}") from None


__all__ = ["BASELINE", "FLOOR", "IMPORT_KEY", "Run", "load_run", "read_run"]
