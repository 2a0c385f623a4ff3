"""One set of figures: a bench run saved compactly, and every figure block of the documents rendered from it.

``python -m benchmarks --figures FILE`` saves a run as a small JSON
(:func:`save_figures`): the run's identity (date, machine, versions, mode),
every case's medians after re-measurement, the real loops' shares and the
targets it was judged against. ``python -m benchmarks --publish FILE``
(:func:`publish`) rewrites, in ``README.md``, ``docs/performance.md`` and
``docs/patching.md``, each block between the marker lines
``<!-- figures: NAME -->`` and ``<!-- /figures -->`` with what ``NAME``
renders from that file (:data:`RENDERERS`), and redraws ``docs/speedups.png``.
HTML comments are invisible both on GitHub and in the Sphinx build, so the
markers stay in the documents and a later publish finds them again.

Examples
--------
>>> text = "a\\n<!-- figures: x -->\\nold\\n<!-- /figures -->\\nb\\n"
>>> print(replace_blocks(text, {"x": ["new"]}, "doc.md"), end="")
a
<!-- figures: x -->
<BLANKLINE>
new
<BLANKLINE>
<!-- /figures -->
b
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.cases import CASES, CASES_BY_KEY
from benchmarks.left import PREFIX as LEFT
from benchmarks.errors import UsageError
from benchmarks.evaluation import GEOMETRIC_KEYS, PATCHED_KEYS, Report, Row, evaluate
from benchmarks.patched import CLASSES
from benchmarks.realloop import LOOPS
from benchmarks.render import render
from benchmarks.results import BASELINE, COUNTED, Run, load_json, read_run
from benchmarks.table import duration
from benchmarks.targets import Targets, default_targets_path, load_targets

FORMAT = "gymspaces-bench-figures/1"
"""The ``format`` field of a figures file."""
ROOT = Path(__file__).resolve().parent.parent
"""The checkout that holds the documents (the bench is not in the wheel)."""
DEFAULT_FIGURES = "docs/figures.json"
DOCUMENTS = {
    "README.md": ("source", "real-loops", "micro-range"),
    "docs/performance.md": (
        "real-loops", "source", "beyond-if-free", "taxi-report", "e2e", "patched-group", "printed-run",
    ),
    "docs/patching.md": ("patched-range", "patched-kept", "source", "taxi-if-free"),
}
"""The figure blocks each document must hold, by path from the checkout."""
CHART = "docs/speedups.png"

PROSE_WIDTH = 76
BLOCK_START = re.compile(r"([-*+#>|]|\d+[.)])(\s|$)")
"""How a line may start that Markdown would read as anything but the paragraph's continuation."""
BEYOND = 1.05
"""A loop gained more than its if-free gain only by more than this factor: closer, they are one run's noise apart."""
START = re.compile(r"^(?P<indent>[ \t]*)<!-- figures: (?P<name>[a-z0-9-]+) -->[ \t]*$")
END = re.compile(r"^[ \t]*<!-- /figures -->[ \t]*$")


class PublishError(UsageError):
    """A document's figure markers are missing, unknown or unbalanced."""


# ----------------------------------------------------------------- the figures file


@dataclass
class Figures:
    """A published run: its medians and identity, and the targets it was judged against."""

    run: Run
    targets: Targets
    cases: list[str] | None = None
    """The cases the run was meant to measure (``None``: every case)."""
    has_reference: bool = True

    def report(self) -> Report:
        """The run evaluated as ``python -m benchmarks`` printed it (re-measurement notes included)."""
        # The left_* cases are diagnostics the bench prints beside their rows' claims, not published figures.
        cases = self.cases if self.cases is not None else [key for key in CASES_BY_KEY if not key.startswith(LEFT)]
        report = evaluate(self.run, self.targets, cases, None, self.has_reference)
        report.notes.extend(self.run.confirmed)
        return report


def _targets_dict(targets: Targets) -> dict[str, Any]:
    path = Path(targets.path).resolve()
    shown = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(targets.path)
    return {
        "path": shown, "ratio": targets.ratio, "geometric_mean": targets.geometric_mean,
        "absolute": targets.absolute, "patched_each": targets.patched_each, "patched_kept": targets.patched_kept,
    }


def figures_dict(figures: Figures) -> dict[str, Any]:
    """The JSON form of ``figures`` (see :func:`save_figures`)."""
    run = figures.run
    return {
        "format": FORMAT,
        "identity": run.identity,
        "run": {
            "mode": run.mode, "machine": run.machine, "max_time": run.max_time, "versions": run.versions,
            "medians": run.medians, "extra": run.extra, "unmeasured": run.unmeasured,
            "remeasured": run.remeasured, "confirmed": run.confirmed,
            **({"spread": run.spread} if run.spread else {}),
        },
        "cases": figures.cases,
        "has_reference": figures.has_reference,
        "targets": _targets_dict(figures.targets),
    }


def save_figures(path: str | os.PathLike[str], figures: Figures) -> int:
    """Write ``figures`` as JSON to ``path`` and return its size in bytes.

    The medians are those the run's report shows: a case re-measured because
    it was below its target carries its confirming pair, as printed.
    """
    text = json.dumps(figures_dict(figures), indent=1, sort_keys=True) + "\n"
    Path(path).write_text(text, encoding="utf8")
    return len(text.encode("utf8"))


def _run_of(section: Mapping[str, Any], identity: Mapping[str, Any]) -> Run:
    return Run(
        medians={key: dict(value) for key, value in section["medians"].items()},
        versions=dict(section["versions"]),
        max_time=section.get("max_time"),
        machine=str(section.get("machine", "")),
        mode=str(section.get("mode", "")),
        confirmed=list(section.get("confirmed", [])),
        extra={key: dict(value) for key, value in section.get("extra", {}).items()},
        unmeasured=dict(section.get("unmeasured", {})),
        remeasured=dict(section.get("remeasured", {})),
        identity=dict(identity),
        spread={
            key: {side: list(pair) for side, pair in value.items()} for key, value in section.get("spread", {}).items()
        },
    )


def _targets_of(section: Mapping[str, Any]) -> Targets:
    return Targets(
        dict(section["ratio"]), section.get("geometric_mean"), dict(section.get("absolute", {})),
        str(section.get("path", "")), section.get("patched_each"), section.get("patched_kept"),
    )


def figures_from(data: Mapping[str, Any], targets: Targets | None = None) -> Figures:
    """Figures from a parsed figures file, or from pytest-benchmark's JSON of a run (judged against ``targets``,
    by default the shipped ones)."""
    if data.get("format") == FORMAT:
        return Figures(
            _run_of(data["run"], data["identity"]), _targets_of(data["targets"]),
            data.get("cases"), bool(data.get("has_reference", True)),
        )
    if "benchmarks" not in data:
        raise UsageError(f"neither a figures file ({FORMAT}) nor pytest-benchmark JSON")
    run = read_run(dict(data))
    has_reference = any("gymnasium" in by_implementation for by_implementation in run.medians.values())
    return Figures(run, targets or load_targets(default_targets_path()), None, has_reference)


def load_figures(path: str | os.PathLike[str]) -> Figures:
    """Read a figures file (from ``--figures``) or pytest-benchmark JSON (from ``--json``)."""
    return load_json(path, figures_from, f"a figures file ({FORMAT}) or pytest-benchmark JSON")


# ----------------------------------------------------------------- words and numbers


def _times(value: float | None, digits: int = 1) -> str:
    """A ratio as the documents write it: ``3.4x``, ``25x`` from 10 on; ``-`` without one."""
    if value is None:
        return "-"
    if math.isinf(value):
        return "unbounded"
    return f"{value:.0f}x" if value >= 10 else f"{value:.{digits}f}x"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _if_free(share: float | None) -> float | None:
    if share is None:
        return None
    return math.inf if share >= 1 else 1 / (1 - share)


def _rows(figures: Figures) -> dict[str, Row]:
    return {row.key: row for row in figures.report().rows}


def _paragraph(text: str, width: int = PROSE_WIDTH) -> list[str]:
    """``text`` wrapped as the documents wrap prose, no line starting what Markdown would read as a list,
    heading, quote or table."""
    for narrower in range(width, width // 2, -1):
        lines = textwrap.wrap(text, narrower, break_long_words=False, break_on_hyphens=False)
        if not any(BLOCK_START.match(line) for line in lines[1:]):
            return lines
    return [text]  # no safe wrap: one long line is still the same paragraph


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A GitHub Markdown table; a ``|`` inside a cell is escaped so every line keeps its columns."""

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return [line(header), "|" + "|".join("---" for _ in header) + "|", *(line(row) for row in rows)]


# What the documents call each real loop and synthetic loop.
LOOP_LABELS = {
    "real_taxi_random": "Taxi, random masked actions, 8,000 steps",
    "real_taxi_q_learning": "Taxi, epsilon-greedy Q-learning, 12,000 steps",
    "real_cartpole_make_vec": "`make_vec` CartPole x8, random actions, 5,000 steps",
    "real_cartpole_cleanrl": "CleanRL-style SyncVectorEnv CartPole x4, numpy policy",
    "real_cartpole_flatten": "`FlattenObservation` CartPole, fixed policy, 10,000 steps",
    "real_pettingzoo_connect_four": "PettingZoo connect_four, masked moves, 150 games",
    "real_pettingzoo_tictactoe": "PettingZoo tictactoe, masked moves, 400 games",
    "real_minigrid_doorkey": "MiniGrid DoorKey, 3,000 steps",
}
E2E_LABELS = {  # in this order: the later rows say "that env"
    "e2e_dict_sync": "SyncVectorEnv, 8 x an env whose `step` samples its Dict observation space",
    "e2e_flatten_observation": "FlattenObservation on that env",
    "e2e_dict_async": "AsyncVectorEnv (shared memory), 4 x that env",
    "e2e_cartpole_sync": "SyncVectorEnv, 8 x CartPole-v1, random actions",
    "e2e_epsilon_greedy": "CartPole-v1, epsilon-greedy exploration",
}
# The patched_* group in words: the space of each kind, and what each operation does to it.
SPACE_WORDS = {
    "box": "a small Box", "box_image": "an image Box", "discrete": "a Discrete", "multi_binary": "a MultiBinary",
    "multi_discrete": "a MultiDiscrete", "text": "a Text", "tuple": "a Tuple", "dict": "a Dict",
    "sequence": "a Sequence", "graph": "a Graph", "oneof": "a OneOf",
}
SPACE_HEADERS = {
    "box": "Box", "box_image": "Box image", "discrete": "Discrete", "multi_binary": "MultiBinary",
    "multi_discrete": "MultiDiscrete", "text": "Text", "tuple": "Tuple", "dict": "Dict",
    "sequence": "Sequence", "graph": "Graph", "oneof": "OneOf",
}
OPERATION_WORDS = {
    "sample": ("`sample()`", "sampling {}"),
    "sample_mask": ("`sample(mask)`", "sampling {} with a mask"),
    "sample_probability": ("`sample(probability)`", "sampling {} with a probability mask"),
    "contains": ("`contains`", "checking membership of {}"),
    "flatten": ("`flatten`", "flattening {}"),
    "unflatten": ("`unflatten`", "unflattening {}"),
    "flatdim": ("`flatdim`", "the `flatdim` of {}"),
    "batch_sample": ("`batch_space(..., 8).sample()`", "sampling a batch of 8 of {}"),
    "concatenate": ("`concatenate` 8", "concatenating 8 samples of {}"),
    "iterate": ("`iterate` 8", "iterating over a batch of 8 of {}"),
    "shared_memory": ("shared memory write + read", "the shared-memory traffic of {}"),
}


def _kind_and_operation(key: str) -> tuple[str, str]:
    """``("multi_discrete", "sample_mask")`` of ``"patched_multi_discrete_sample_mask"``."""
    rest = key.removeprefix("patched_")
    kind = max((kind for kind in CLASSES if rest.startswith(kind + "_")), key=len)
    return kind, rest[len(kind) + 1 :]


def _patched_words(key: str) -> str:
    kind, operation = _kind_and_operation(key)
    return OPERATION_WORDS[operation][1].format(SPACE_WORDS[kind])


def _patched_rows(figures: Figures) -> list[Row]:
    return [row for row in figures.report().rows if row.key in PATCHED_KEYS and row.ratio is not None]


# ----------------------------------------------------------------- the blocks


RUN_EXTRAS = "bench,plot,clients"
"""The extras a run needs to cover every figure the documents quote (the real loops run the frameworks)."""


def render_source(figures: Figures) -> list[str]:
    """Which run the figures come from, and the commands that regenerate them."""
    identity, run = figures.run.identity, figures.run
    details = [part for part in (identity.get("cpu"), identity.get("cores") and f"{identity['cores']} cores") if part]
    machine = identity.get("system", "?") + (f" ({', '.join(details)})" if details else "")
    versions = ", ".join(
        f"{name} {run.versions[implementation]}"
        for name, implementation in (("gymspaces", "gymspaces"), ("Gymnasium", "gymnasium"), ("numpy", BASELINE))
        if implementation in run.versions
    )
    quick = " --quick" if run.mode == "quick" else ""
    return _paragraph(
        f"Every bench figure here comes from one run, saved in `{DEFAULT_FIGURES}`: "
        f"{identity.get('date') or 'undated'}, {identity.get('python', '?')} on {machine}, {versions}, "
        f"{run.mode or 'unknown'} mode. Whole-program ratios move more from run to run than the "
        "per-operation ones. To measure again and rewrite every figure of the README, "
        "`docs/performance.md` and `docs/patching.md` (and the chart) from the new run, in a fresh "
        "environment of the checkout:"
    ) + [
        "",
        "```bash",
        f'pip install -e ".[{RUN_EXTRAS}]"                    # every case: the frameworks, and the chart',
        f"python -m benchmarks{quick} --figures {DEFAULT_FIGURES}   # the run, a few minutes",
        f"python -m benchmarks --publish {DEFAULT_FIGURES}            # the documents",
        "```",
    ]


def _loop_rows(figures: Figures) -> list[tuple[str, float | None, float | None, float | None]]:
    """(key, plain, patched, share) of every real loop of the run, the largest gain first."""
    run = figures.run
    rows = []
    for key in LOOPS:
        if key not in run.medians and key not in run.unmeasured:
            continue
        plain, patched = run.median(key, "gymnasium"), run.median(key, "gymspaces")
        rows.append((key, plain, patched, run.extra.get(key, {}).get("share")))
    return sorted(rows, key=lambda row: -(row[1] / row[2]) if row[1] and row[2] else 0.0)


def render_real_loops(figures: Figures) -> list[str]:
    """The real loops as a Markdown table: plain, patched, gain, share and if free."""
    table = []
    for key, plain, patched, share in _loop_rows(figures):
        label = LOOP_LABELS.get(key, LOOPS[key].label)
        if plain is None or patched is None:
            why = figures.run.unmeasured.get(key, "not measured")
            table.append([label, why, "-", "-", "-", "-"])
            continue
        table.append(
            [label, f"{plain:.3f} s", f"{patched:.3f} s", _times(plain / patched, 2), _share(share),
             _times(_if_free(share), 2)]
        )
    header = ["program", "plain", "patched", "gain", "share of spaces (plain)", "if free"]
    return _markdown_table(header, table)


def _beyond_if_free(figures: Figures) -> list[str]:
    """The real loops that gained more than they would if their space operations took no time."""
    return [
        key
        for key, plain, patched, share in _loop_rows(figures)
        if plain and patched and share is not None and plain / patched > BEYOND * (_if_free(share) or math.inf)
    ]


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def render_beyond_if_free(figures: Figures) -> list[str]:
    """Which real loops gained more than their if-free gain, in one sentence."""
    keys = [f"`{key}`" for key in _beyond_if_free(figures)]
    margin = f"{BEYOND - 1:.0%}"
    if not keys:
        return _paragraph(f"In this run no loop gained over {margin} more than its if-free gain, though one can:")
    whose = "their" if len(keys) > 1 else "its"
    return _paragraph(f"In this run {_listed(keys)} gained over {margin} more than {whose} if-free gain:")


def _taxi(figures: Figures) -> tuple[float, float, float] | None:
    """The Taxi loop's (``real_taxi_random``) plain and patched medians and plain share, if measured."""
    run = figures.run
    plain, patched = run.median("real_taxi_random", "gymnasium"), run.median("real_taxi_random", "gymspaces")
    share = run.extra.get("real_taxi_random", {}).get("share")
    if not plain or not patched or share is None:
        return None
    return plain, patched, share


def render_taxi_report(figures: Figures) -> list[str]:
    """What the bench measured on the Taxi loop, next to the report's own figures."""
    taxi = _taxi(figures)
    if taxi is None:
        return _paragraph("The bench's run above has no figure of this loop (`real_taxi_random`).")
    plain, patched, share = taxi
    return _paragraph(
        "The report's gain is an estimate, from calls timed in the run itself: stretches of it run as "
        "Gymnasium's own code, and calls compiled (an operation seldom called: sampled calls replayed in a "
        "separate interpreter; see [patch mode](patching.md)); the bench measures the same loop whole, plain and "
        f"patched (`real_taxi_random`): {_times(plain / patched, 2)} faster patched, with "
        f"{_share(share)} of its plain time in space operations (an if-free gain of {_times(_if_free(share), 2)}). "
        "A share near zero in a plain run means patching will not help that program."
    )


def render_e2e(figures: Figures) -> list[str]:
    """The synthetic loops as a Markdown table: plain, patched, ratio."""
    rows = _rows(figures)
    table = []
    for key, label in E2E_LABELS.items():
        row = rows.get(key)
        if row is None:
            continue
        if row.ratio is None:
            table.append([label, row.unmeasured or "not measured", "-", "-"])
            continue
        table.append([label, duration(row.theirs), duration(row.ours), _times(row.ratio)])
    return _markdown_table(["synthetic loop, one step", "plain Gymnasium", "patched", "ratio"], table)


def render_patched_group(figures: Figures) -> list[str]:
    """The patched_* group: the gain of every operation on every kind of space, and its geometric means."""
    rows, report = _patched_rows(figures), figures.report()
    if not rows:
        return _paragraph("This run has no `patched_*` figure.")
    # Every case of the group has a cell ("-" if unmeasured); an operation patch mode leaves alone has none.
    gains = {_kind_and_operation(row.key): row.ratio for row in report.rows if row.key in PATCHED_KEYS}
    kinds = [kind for kind in SPACE_HEADERS if any(kind == measured for measured, _ in gains)]
    table = []
    for operation, (header, _) in OPERATION_WORDS.items():
        if any((kind, operation) in gains for kind in kinds):
            cells = [_times(gains[kind, operation]) if (kind, operation) in gains else "" for kind in kinds]
            table.append([header, *cells])
    lines = _markdown_table(["gain, plain / patched", *(SPACE_HEADERS[kind] for kind in kinds)], table)
    least = min(rows, key=lambda row: row.ratio)  # type: ignore[arg-type, return-value]
    target = f" (its target: at least {report.kept_floor:.0%})" if report.kept_floor is not None else ""
    return lines + [""] + _paragraph(
        "A blank cell: patch mode leaves that operation to Gymnasium (\"What stays Gymnasium's\" in "
        f"[patch mode](patching.md)). Over the {len(rows)} cases, the geometric "
        f"mean gain is {_times(report.patched_mean, 2)} patched and {_times(report.kernels_mean, 2)} with "
        f"gymspaces' own classes, so patch mode keeps {report.kept:.0%} of the kernels' gain{target}; "
        f"the least gain is {_times(least.ratio, 2)} ({_patched_words(least.key)})."
    )


def render_patched_range(figures: Figures) -> list[str]:
    """The span of the patched gains, in words."""
    rows, report = _patched_rows(figures), figures.report()
    if not rows:
        return _paragraph("The bench run quoted below has no `patched_*` figure.")
    least = min(rows, key=lambda row: row.ratio)  # type: ignore[arg-type, return-value]
    most = max(rows, key=lambda row: row.ratio)  # type: ignore[arg-type, return-value]
    return _paragraph(
        f"Per operation, from {_times(least.ratio, 2)} ({_patched_words(least.key)}) to "
        f"{_times(most.ratio)} ({_patched_words(most.key)}), {_times(report.patched_mean, 2)} in the "
        "geometric mean (the bench run quoted below, in \"What stays Gymnasium's\")."
    )


def render_patched_kept(figures: Figures) -> list[str]:
    """What share of the kernels' gain the patched group kept, and its least gain."""
    rows, report = _patched_rows(figures), figures.report()
    if not rows or report.kept is None:
        return _paragraph("The run quoted here has no complete `patched_*` group.")
    least = min(row.ratio for row in rows)  # type: ignore[type-var]
    return _paragraph(
        f"In the run quoted here patch mode kept {report.kept:.0%} of the kernels' gain, and every case was "
        f"at least {_times(least, 2)} faster patched than plain."
    )


def render_taxi_if_free(figures: Figures) -> list[str]:
    """The Taxi loop's gain against its if-free gain: whether plain sampling slowed the code around it."""
    taxi = _taxi(figures)
    if taxi is None:
        return _paragraph("(The bench run quoted above has no figure of the Taxi loop, `real_taxi_random`.)")
    plain, patched, share = taxi
    gain, if_free = plain / patched, _if_free(share)
    compared = "more than" if if_free is not None and gain > BEYOND * if_free else "against"
    return _paragraph(
        f"On Taxi with masked random actions, the whole loop gained {_times(gain, 2)} in the bench run quoted "
        f"above, {compared} the {_times(if_free, 2)} it would gain if those operations took no time "
        f"(the share of its plain time inside them is {_share(share)}; [performance](performance.md))."
    )


def render_micro_range(figures: Figures) -> list[str]:
    """The span and geometric mean of the micro ratios over Gymnasium's own operations."""
    report = figures.report()
    rows = [row for row in report.rows if row.key in GEOMETRIC_KEYS and row.ratio is not None]
    if not rows:
        return _paragraph("This run has no ratio to Gymnasium.")
    least = min(rows, key=lambda row: row.ratio)  # type: ignore[arg-type, return-value]
    most = max(rows, key=lambda row: row.ratio)  # type: ignore[arg-type, return-value]
    mean = f", {_times(report.geometric_mean)} in the geometric mean" if report.geometric_mean else ""
    return _paragraph(
        f"Per operation, the kernels are from {_times(least.ratio)} (`{least.key}`) to {_times(most.ratio)} "
        f"(`{most.key}`) faster than Gymnasium over Gymnasium's own operations{mean}:"
    )


def render_printed_run(figures: Figures) -> list[str]:
    """The bench's own report of the run, as ``python -m benchmarks`` printed it."""
    return ["```text", *render(figures.report(), figures.run).splitlines(), "```"]


RENDERERS: dict[str, Callable[[Figures], list[str]]] = {
    "source": render_source,
    "real-loops": render_real_loops,
    "beyond-if-free": render_beyond_if_free,
    "taxi-report": render_taxi_report,
    "e2e": render_e2e,
    "patched-group": render_patched_group,
    "patched-range": render_patched_range,
    "patched-kept": render_patched_kept,
    "taxi-if-free": render_taxi_if_free,
    "micro-range": render_micro_range,
    "printed-run": render_printed_run,
}
"""Each block's name and what renders it."""


# ----------------------------------------------------------------- the documents


def replace_blocks(text: str, blocks: Mapping[str, list[str]], where: str) -> str:
    """``text`` with the lines between each pair of figure markers replaced by the block of that name.

    The block's lines take the start marker's indentation (a block may sit
    in a list item) and a blank line on either side, so a table or a fenced
    block never runs into a marker.

    Raises
    ------
    PublishError
        If a start marker has no end, an end no start, or a name has no block.
    """
    out: list[str] = []
    open_at: int | None = None
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        start, end = START.match(line.rstrip("\n")), END.match(line.rstrip("\n"))
        if open_at is not None and end is None:
            if start is not None:
                raise PublishError(f"{where}:{number}: figure block opened at line {open_at} is not closed")
            continue  # the old content of the block
        if start is not None:
            name, indent = start["name"], start["indent"]
            if name not in blocks:
                raise PublishError(f"{where}:{number}: unknown figure block {name!r}; known: {', '.join(blocks)}")
            out.append(line)
            out.extend(f"{indent}{body}".rstrip() + "\n" for body in ["", *blocks[name], ""])
            open_at = number
        elif end is not None:
            if open_at is None:
                raise PublishError(f"{where}:{number}: '<!-- /figures -->' closes no figure block")
            out.append(line)
            open_at = None
        else:
            out.append(line)
    if open_at is not None:
        raise PublishError(f"{where}:{open_at}: figure block is not closed by '<!-- /figures -->'")
    return "".join(out)


def block_names(text: str) -> list[str]:
    """The names of the figure blocks in ``text``, in order."""
    return [match["name"] for match in map(START.match, text.splitlines()) if match is not None]


def _rendered(path: str, text: str, figures: Figures) -> str:
    """The document at ``path`` (its ``text``) with its figure blocks rendered from ``figures``."""
    names = block_names(text)
    missing = [name for name in DOCUMENTS[path] if name not in names]
    if missing:
        markers = ", ".join(f"'<!-- figures: {name} -->'" for name in missing)
        raise PublishError(f"{path}: no figure block {markers} (each needs its '<!-- /figures -->')")
    return replace_blocks(text, {name: RENDERERS[name](figures) for name in set(names)}, path)


def stale(figures: Figures, root: Path | None = None) -> list[str]:
    """The documents under ``root`` (the checkout) whose figure blocks differ from what ``figures`` renders."""
    root = ROOT if root is None else root
    return [
        path
        for path in DOCUMENTS
        if (root / path).read_text(encoding="utf8") != _rendered(path, (root / path).read_text(encoding="utf8"), figures)
    ]


def uncovered(figures: Figures) -> list[str]:
    """What the documents quote that ``figures`` does not hold: each case of the bench it did not
    measure (with the reason the run gave), and Gymnasium's side when the run had none."""
    missing = [] if figures.has_reference else ["Gymnasium's side of every case (the run had no Gymnasium)"]
    for case in CASES:
        if case.key not in figures.run.medians and not case.key.startswith(LEFT):
            reason = figures.run.unmeasured.get(case.key, "not in the run")
            missing.append(f"{case.key} ({reason})")
    return missing


def publish(figures_path: str | os.PathLike[str], root: Path | None = None, *, chart: bool = True) -> list[str]:
    """Rewrite every figure block of the documents under ``root`` (the checkout), and the chart, from a
    figures file.

    Every document is rendered before any is written, so a missing marker
    leaves all of them as they were. Returns what was written.

    Raises
    ------
    PublishError
        If the run does not cover every figure the documents quote (a
        ``--cases`` subset, a case that could not run): nothing is written.
    """
    root = ROOT if root is None else root
    figures = load_figures(figures_path)
    if figures.run.mode == COUNTED:
        raise PublishError(
            f"{figures_path} holds instruction counts (--instructions), a CI baseline; the documents quote "
            "times: publish a timed run (python -m benchmarks --quick --figures FILE)"
        )
    missing = uncovered(figures)
    if missing:
        raise PublishError(
            f"{figures_path} does not hold every figure the documents quote, so nothing was written; "
            f"missing: {', '.join(missing)}. Publish a whole run (pip install -e \".[{RUN_EXTRAS}]\", then "
            "python -m benchmarks --quick --figures FILE); "
            "a partial run can still be compared (--compare) and plotted (--plot)"
        )
    texts = {path: (root / path).read_text(encoding="utf8") for path in DOCUMENTS}
    rendered = {path: _rendered(path, text, figures) for path, text in texts.items()}
    written = []
    for path, text in rendered.items():
        if text != texts[path]:
            (root / path).write_text(text, encoding="utf8")
            written.append(path)
    if chart:
        written.extend(_draw_chart(figures, root))
    return written


def _draw_chart(figures: Figures, root: Path) -> list[str]:
    try:
        import matplotlib  # noqa: F401  (only whether it is there)
    except ImportError:
        print(f"not drawing {CHART}: matplotlib is not installed (pip install matplotlib)", file=sys.stderr)
        return []
    from benchmarks.chart import plot

    plot(figures.report(), figures.run, str(root / CHART))
    return [CHART]


__all__ = [
    "DOCUMENTS", "FORMAT", "Figures", "PublishError", "RENDERERS", "block_names", "figures_from",
    "load_figures", "publish", "replace_blocks", "save_figures", "stale", "uncovered",
]
