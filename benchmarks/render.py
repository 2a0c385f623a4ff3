"""The text report of a bench run: the versions and settings, the table of cases, the real loops and the notes."""

from __future__ import annotations

from benchmarks import realloop
from benchmarks.errors import BENCH_EXTRA
from benchmarks.evaluation import PATCHED_KEYS, Report, Row
from benchmarks.results import BASELINE, IMPORT_KEY, Run
from benchmarks.startup import STARTUPS
from benchmarks.table import aligned, duration, fit

REMEASURED = "*"  # marks the status of a case measured again before it was judged


def _change(row: Row) -> str:
    """The change of the case's ratio against the baseline's: + is faster relative to Gymnasium."""
    if row.baseline is None or row.ratio is None:
        return "-"
    return f"{(row.ratio / row.baseline - 1):+.1%}"


def render(report: Report, run: Run, *, mode: str = "", baseline_name: str | None = None) -> str:
    """The report as a plain-text table followed by the misses and notes.

    Parameters
    ----------
    report : Report
        The evaluated run.
    run : Run
        The run itself (versions, machine, settings, the ``import numpy`` row, the real loops).
    mode : str, optional
        ``"quick"`` or ``"full"``; by default the mode recorded in the run.
    baseline_name : str, optional
        The file of the ``--compare`` baseline: adds its ratios and the change of each.

    Returns
    -------
    str
    """
    lines = []
    versions = f"gymspaces {run.versions.get('gymspaces', '?')}"
    if report.has_reference:
        versions += f" vs Gymnasium {run.versions.get('gymnasium', '?')}"
    if BASELINE in run.versions:
        versions += f"  (numpy {run.versions[BASELINE]})"
    lines.append(versions)
    if run.machine:
        lines.append(run.machine)
    settings = "pytest-benchmark medians"
    mode = mode or run.mode
    if mode:
        settings += f", {mode} mode"
    if run.max_time is not None:
        settings += f" (max {run.max_time:g} s per measurement)"
    lines.append(settings)
    lines.append("ratio = Gymnasium / gymspaces, higher is better")
    if baseline_name is None:
        lines.append("floor = the case's least work, timed in this run; distance = gymspaces / floor, 1.0x is the floor")
    if not report.has_reference:
        lines.append(f"Gymnasium is not installed: gymspaces alone ({BENCH_EXTRA} to compare)")
    lines.append("")

    # Against a baseline the floors give way to the baseline's ratio and its
    # change: a compare is about ratios, and all of it fits a terminal.
    comparing = baseline_name is not None
    header = ["case", "gymspaces", *([] if comparing else ["floor", "distance"]), "gymnasium", "ratio", "target", "status"]
    if comparing:
        header += ["baseline", "change"]
    table = [header]
    blank = [""] * (len(header) - 2)  # a sub-row's cells after its figure
    for row in report.rows:
        if row.key in PATCHED_KEYS:
            continue  # their own table, below
        if row.empty:
            table.append([row.key, _why_unmeasured(row)])
            continue
        if row.key in STARTUPS:
            table.append([row.key, duration(row.ours), "" if comparing else duration(row.bound), *[""] * (len(header) - 3)])
            added = run.extra.get(row.key, {}).get("added")
            if added is not None:
                table.append(["  (with - without, paired)", f"{added * 1e3:+.2f} ms", *blank])
            continue
        floors = [] if comparing else [
            duration(row.bound),
            f"{row.distance:.1f}x" if row.distance is not None else "-",
        ]
        cells = [
            row.key,
            duration(row.ours),
            *floors,
            duration(row.theirs),
            f"{row.ratio:.1f}x" if row.ratio is not None else "-",
            f"{row.target:g}x" if row.target is not None else "",
            row.status + (REMEASURED if row.remeasured and row.status else ""),
        ]
        if comparing:
            cells += [f"{row.baseline:.1f}x" if row.baseline is not None else "-", _change(row)]
        table.append(cells)
        if row.key == IMPORT_KEY and run.median(IMPORT_KEY, BASELINE) is not None:
            table.append([f"  ({BASELINE})", duration(run.median(IMPORT_KEY, BASELINE)), *blank])
    if report.has_reference:
        table.append(
            [
                f"geometric mean ({report.geometric_count})",
                *[""] * (header.index("ratio") - 1),
                f"{report.geometric_mean:.1f}x" if report.geometric_mean is not None else "-",
                f"{report.geometric_floor:g}x" if report.geometric_floor is not None else "",
                report.geometric_status,
            ]
            + (["", ""] if comparing else [])
        )
    # A rule under the header and, with Gymnasium, above the geometric mean.
    lines.extend(aligned(table, {0, len(table) - 2} if report.has_reference else {0}))
    lines.extend(_legends(report))
    if comparing:
        lines.append(f"baseline: the ratios of {baseline_name}; change = ratio now / ratio then - 1, + is faster")
    patched = _patched_table(report)
    if patched:
        lines.append("")
        lines.extend(patched)
    real = realloop.render(run)
    if real:
        lines.append("")
        lines.extend(real)
    if report.notes:
        lines.append("")
        lines.extend(f"note: {note}" for note in report.notes)
    return "\n".join(fit(lines))


def _why_unmeasured(row: Row) -> str:
    """The text of a row without figures: why, and whether its target is thereby missed."""
    why = row.unmeasured or "not measured"
    return f"{why} (target {row.target:g}x: MISS)" if row.status == "MISS" else why


def _legends(report: Report) -> list[str]:
    """The lines under the table that explain its marks and its start-up rows."""
    lines = []
    if any(row.remeasured for row in report.rows):
        lines.append(f"{REMEASURED} below the target at first: re-measured, both sides interleaved (notes below)")
    if any(row.key in STARTUPS and not row.empty for row in report.rows):
        lines.append(
            "startup_*: fresh interpreters, child CPU time on one processor; gymspaces = with patch mode, "
            "floor = the same program without it"
        )
    return lines


def _gain(value: float | None) -> str:
    return f"{value:.2f}x" if value is not None else "-"


def _patched_table(report: Report) -> list[str]:
    """The patch-mode group: Gymnasium's objects plain and patched, and gymspaces' own classes.

    gymspaces' own time is given by its gain (``kernels``) only, and the one
    target of the group in the legend, so that the rows fit 100 columns.
    """
    rows = [row for row in report.rows if row.key in PATCHED_KEYS]
    if not rows:
        return []
    lines = [
        "patch mode: Gymnasium's own space objects plain and patched (python -m gymspaces.gymnasium);",
        "gain = plain / patched, kernels = plain / gymspaces' own classes (the kernels' gain),",
        "kept = gain / kernels",
    ]
    targets = sorted({row.target for row in rows if row.target is not None})
    if targets:
        each = " or ".join(f"{target:g}x" for target in targets)
        kept = f", and the geometric mean's kept at least {report.kept_floor:.0%}" if report.kept_floor else ""
        lines.append(f"target: every gain at least {each}{kept}")
    table = [["case", "plain", "patched", "gain", "kernels", "kept", "status"]]
    for row in rows:
        table.append(
            [
                row.key,
                duration(row.theirs),
                duration(row.ours),
                _gain(row.ratio),
                _gain(row.kernels_gain),
                f"{row.kept:.0%}" if row.kept is not None else "-",
                row.status,
            ]
        )
    table.append(
        [
            f"geometric mean ({len(rows)})",
            "",
            "",
            _gain(report.patched_mean),
            _gain(report.kernels_mean),
            f"{report.kept:.0%}" if report.kept is not None else "-",
            report.kept_status,
        ]
    )
    return lines + aligned(table, {0, len(table) - 2})


__all__ = ["render"]
