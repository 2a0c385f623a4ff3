"""The results of a bench run: the medians read from pytest-benchmark's JSON.

The suite (:mod:`benchmarks.suite`) records each measurement's case key
and implementation in ``extra_info``; a run is read back as medians by case
and implementation, from a fresh run or from a file saved with ``--json``
(the ``--from-json`` and ``--compare`` inputs).
"""

from __future__ import annotations

import json
import os
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from benchmarks.errors import UsageError
from benchmarks.startup import WITH, WITHOUT, PairedTimes

T = TypeVar("T")

IMPORT_KEY = "import"
BASELINE = "numpy"  # the implementation timed next to the import case
FLOOR = "floor"  # the implementation name of a case's lower bound (bench.floors)
COUNTED = "instructions"  # the mode of a run that counted instructions (bench.instructions), not times


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
        loops' plain ``share``; the start-up cases' ``added``, the median of
        their paired differences in seconds, and ``pairs``).
    unmeasured : dict of str to str
        Why a case has no figure at all: ``"not installed: minigrid"``, or the
        error it failed with.
    remeasured : dict of str to int
        How many times a case below its target was measured again.
    identity : dict
        When and where the run was made (:func:`identity_of`).
    spread : dict
        ``spread[case_key][implementation]``: the first and third quartiles
        (seconds) of the times the median is the middle of, where the run
        kept them: what a timed compare judges a fall against.
    """

    medians: dict[str, dict[str, float]] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    max_time: float | None = None
    machine: str = ""
    mode: str = ""
    confirmed: list[str] = field(default_factory=list)
    extra: dict[str, dict[str, float]] = field(default_factory=dict)
    unmeasured: dict[str, str] = field(default_factory=dict)
    remeasured: dict[str, int] = field(default_factory=dict)
    identity: dict[str, Any] = field(default_factory=dict)
    spread: dict[str, dict[str, list[float]]] = field(default_factory=dict)

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
        if "startup" in info:
            _read_startup(run, key, info["startup"])
        else:
            stats = bench["stats"]
            run.medians.setdefault(key, {})[implementation] = float(stats["median"])
            if stats.get("q1") is not None and stats.get("q3") is not None:
                run.spread.setdefault(key, {})[implementation] = [float(stats["q1"]), float(stats["q3"])]
        if "share" in info:
            run.extra.setdefault(key, {})["share"] = float(info["share"])
        run.versions[implementation] = str(info.get("version", "unknown"))
        run.max_time = bench.get("options", {}).get("max_time", run.max_time)
    section = data.get("gymspaces_bench", {})
    run.mode = str(section.get("mode", ""))
    run.identity = identity_of(data)
    run.unmeasured = {str(key): str(reason) for key, reason in section.get("unmeasured", {}).items()}
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


def identity_of(data: dict[str, Any]) -> dict[str, Any]:
    """When and where a run was made, from pytest-benchmark's JSON: ``date`` (UTC, ``YYYY-MM-DD``),
    ``python``, ``system``, ``cpu`` and ``cores``."""
    machine = data.get("machine_info", {})
    cpu = machine.get("cpu", {})
    return {
        "date": str(data.get("datetime", ""))[:10],
        "python": f"{machine.get('python_implementation', '')} {machine.get('python_version', '')}".strip(),
        "system": f"{machine.get('system', '')} {machine.get('machine', '')}".strip(),
        "cpu": str(cpu.get("brand_raw", "")),
        "cores": cpu.get("count"),
    }


def _read_startup(run: Run, key: str, figures: dict[str, Any]) -> None:
    """A start-up case's CPU times per side: their medians, and the median of their paired differences."""
    times = PairedTimes(list(figures["with"]), list(figures["without"]))
    run.medians[key] = {WITH: statistics.median(times.with_), WITHOUT: statistics.median(times.without)}
    run.extra[key] = {"added": times.added, "pairs": float(len(times.with_))}


def load_json(path: str | os.PathLike[str], convert: Callable[[Any], T], kind: str) -> T:
    """``convert`` of the JSON in ``path``; a :class:`UsageError` naming ``path`` if it cannot
    be read or is not ``kind``."""
    try:
        with open(path, encoding="utf8") as handle:
            return convert(json.load(handle))
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"{path} is not {kind}: {error}") from None


def load_run(path: str | os.PathLike[str]) -> Run:
    """Read a JSON file written by ``--json`` or ``pytest --benchmark-json``."""
    return load_json(path, read_run, "pytest-benchmark JSON")


__all__ = ["BASELINE", "COUNTED", "FLOOR", "IMPORT_KEY", "Run", "identity_of", "load_json", "load_run", "read_run"]
