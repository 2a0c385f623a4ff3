"""The speed targets of ``python -m benchmarks``: reading and checking a targets file (TOML).

A targets file has a ``[ratio]`` table, the gated speed targets of Gymnasium median /
gymspaces median per case key (and ``geometric_mean``), an optional
``[patched]`` table of the patch-mode group's targets (``each`` case, and the
share of the kernels' gain ``kept``), and an optional ``[absolute]`` table of
reported, never gated, bounds.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.cases import CASES_BY_KEY
from benchmarks.errors import BENCH_EXTRA, UsageError


@dataclass(frozen=True)
class Targets:
    """The speed targets of one targets file.

    Attributes
    ----------
    ratio : dict of str to float
        Gated targets of Gymnasium median / gymspaces median, per case key.
    geometric_mean : float or None
        Gated target of the geometric mean of the ratios of every case of a
        Gymnasium operation (not ``import``, not the batched APIs).
    absolute : dict of str to dict
        Reported, never gated: ``{"max_us": x}`` bounds the gymspaces median
        of a case; ``{"max_ms_over_numpy": x}`` bounds how much slower the
        import case is than ``import numpy``; ``{"max_ms_added": x}`` bounds
        the median of a start-up case's paired differences (with patch mode
        minus without).
    path : str
        Where the targets were read from.
    patched_each : float or None
        Gated target of the ratio of every ``patched_*`` case without a target
        of its own in ``ratio`` (plain / patched).
    patched_kept : float or None
        Gated target of *kept*: the geometric mean of the patched gains over
        the geometric mean of the kernels' gains, on the same cases.
    """

    ratio: dict[str, float]
    geometric_mean: float | None
    absolute: dict[str, dict[str, float]]
    path: str
    patched_each: float | None = None
    patched_kept: float | None = None

    def target_of(self, key: str) -> float | None:
        """The gated speed target of case ``key``'s ratio, if any."""
        target = self.ratio.get(key)
        if target is None and key.startswith(PATCHED_PREFIX):
            return self.patched_each
        return target


ABSOLUTE_FIELDS = {"max_us", "max_ms_over_numpy", "max_ms_added"}
PATCHED_FIELDS = {"each", "kept"}
PATCHED_PREFIX = "patched_"


def default_targets_path() -> Path:
    """``benchmarks/targets.toml``, beside this module."""
    return Path(__file__).resolve().parent / "targets.toml"


def _toml() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise UsageError(f"reading a targets file on Python 3.10 needs tomli: {BENCH_EXTRA}") from None
    return tomllib


def _positive(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise UsageError(f"{where} must be a positive number, got {value!r}")
    return float(value)


def load_targets(path: str | os.PathLike[str]) -> Targets:
    """Read and validate a targets file.

    Parameters
    ----------
    path : str or path-like
        A TOML file with a ``[ratio]`` table (case key or ``geometric_mean``
        to target) and an optional ``[absolute]`` table.

    Returns
    -------
    Targets

    Raises
    ------
    UsageError
        If the file is missing or malformed, or names an unknown case.
    """
    try:
        with open(path, "rb") as handle:
            data = _toml().load(handle)
    except OSError as error:
        raise UsageError(f"cannot read targets file {path}: {error.strerror}") from None
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise UsageError(f"{path}: {error}") from None
    unknown_tables = set(data) - {"ratio", "absolute", "patched"}
    if unknown_tables:
        raise UsageError(f"{path}: unknown tables {sorted(unknown_tables)}")
    ratio = dict(data.get("ratio", {}))
    geometric_mean = ratio.pop("geometric_mean", None)
    for key, value in ratio.items():
        if key not in CASES_BY_KEY:
            raise UsageError(f"{path}: [ratio] names unknown case {key!r}")
        ratio[key] = _positive(f"{path}: ratio.{key}", value)
    if geometric_mean is not None:
        geometric_mean = _positive(f"{path}: ratio.geometric_mean", geometric_mean)
    absolute: dict[str, dict[str, float]] = {}
    for key, limits in data.get("absolute", {}).items():
        if key not in CASES_BY_KEY:
            raise UsageError(f"{path}: [absolute] names unknown case {key!r}")
        if not isinstance(limits, dict) or not limits or set(limits) - ABSOLUTE_FIELDS:
            raise UsageError(f"{path}: absolute.{key} must be a table of {sorted(ABSOLUTE_FIELDS)}")
        absolute[key] = {name: _positive(f"{path}: absolute.{key}.{name}", value) for name, value in limits.items()}
    patched = data.get("patched", {})
    if not isinstance(patched, dict) or set(patched) - PATCHED_FIELDS:
        raise UsageError(f"{path}: [patched] takes only {sorted(PATCHED_FIELDS)}")
    each, kept = (
        _positive(f"{path}: patched.{name}", patched[name]) if name in patched else None for name in ("each", "kept")
    )
    return Targets(ratio, geometric_mean, absolute, str(path), each, kept)


__all__ = ["ABSOLUTE_FIELDS", "PATCHED_FIELDS", "PATCHED_PREFIX", "Targets", "default_targets_path", "load_targets"]
