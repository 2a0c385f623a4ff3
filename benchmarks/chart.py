"""The chart of a bench run (``--plot``): the speedup of every case as a bar, its floor as a tick (needs matplotlib)."""

from __future__ import annotations

from typing import cast

from benchmarks.evaluation import Report
from benchmarks.results import Run


def plot(report: Report, run: Run, path: str, *, mode: str = "") -> None:
    """Draw the speedup of every case as a horizontal bar chart (PNG or SVG by extension)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [row for row in report.rows if row.ratio is not None]
    labels = [row.key for row in rows]
    values = [cast(float, row.ratio) for row in rows]  # rows without a ratio were dropped
    floors = [row.target for row in rows]
    colours = [{"pass": "#2e7d32", "MISS": "#c62828"}.get(row.status, "#78909c") for row in rows]
    if report.geometric_mean is not None:
        labels.append("geometric mean")
        values.append(report.geometric_mean)
        floors.append(report.geometric_floor)
        colours.append({"pass": "#1b5e20", "MISS": "#b71c1c"}.get(report.geometric_status, "#455a64"))

    figure, axes = plt.subplots(figsize=(8, 0.32 * len(labels) + 1.6))
    positions = list(range(len(labels)))[::-1]
    axes.barh(positions, values, color=colours, height=0.7)
    for y, value, floor in zip(positions, values, floors):
        # The label goes right of both the bar and its floor tick.
        axes.annotate(
            f"{value:.1f}x",
            (max(value, floor or 0), y),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
        if floor is not None:
            axes.plot([floor, floor], [y - 0.42, y + 0.42], color="black", linewidth=1.6)
    if report.geometric_mean is not None:
        axes.axhline(0.5, color="#9e9e9e", linewidth=0.8)
    axes.axvline(1.0, color="#424242", linestyle="--", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_yticks(positions, labels, fontsize=8)
    axes.set_xlim(min([0.5, *values]) * 0.8, max(values + [f for f in floors if f]) * 2.5)
    axes.set_xlabel("speedup: Gymnasium median / gymspaces median (log scale)")
    mode = mode or run.mode
    subtitle = run.machine + (f", {mode} mode" if mode else "")
    axes.set_title(
        f"gymspaces {run.versions.get('gymspaces', '?')} vs Gymnasium {run.versions.get('gymnasium', '?')}"
        f"\n{subtitle}\ngreen: meets its floor (black tick), red: below it, grey: no floor",
        fontsize=9,
    )
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


__all__ = ["plot"]
