"""Release differential: the installed Gymnasium, plain and under patch mode, call for call.

Runs every case of ``tests/support/release_cases.py`` twice, each time in a
fresh subprocess of this interpreter with ``PYTHONHASHSEED=0``: once on plain
Gymnasium, once after ``gymspaces.gymnasium.patch(unverified=True)``. Each
case's outcome (value, exception, warnings, printed output, generator states:
``tests/support/release_outcomes.py``) is pickled, and the two runs are
compared exactly. Prints the Gymnasium and numpy versions, the number of
cases, the number that differ, and each differing case with both outcomes.

Usage::

    PYTHONPATH=/path/to/built/gymspaces python tests/tools/release_differential.py
        [-k SUBSTRING] [--json FILE] [--show N] [--width CHARS]

Exit status: 0 when every case agrees, 1 when some differ, 2 when a run
could not be made (a worker that failed to start, say).

A worker that dies in the middle of a case (a crash in compiled code) is
restarted after that case, and the case's outcome is the crash.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1]

MODES = ("plain", "patched")


# ---------------------------------------------------------------------------
# Worker: one process, one mode
# ---------------------------------------------------------------------------


# --every N, handed to the workers: every Nth selected case (a quick sample).
_EVERY_VARIABLE = "GYMSPACES_RELEASE_DIFFERENTIAL_EVERY"


def _worker(mode: str, output: str, pattern: str | None, start: int) -> int:
    meta: dict[str, Any] = {"mode": mode}
    if mode == "patched":
        import warnings

        import gymspaces.gymnasium as g

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            g.patch(unverified=True)
        assert g.is_patched(), "patch() left Gymnasium unpatched"
        meta["patch_warnings"] = [str(w.message) for w in caught]
        import gymspaces

        meta["gymspaces"] = f"{getattr(gymspaces, '__version__', '?')} from {os.path.dirname(gymspaces.__file__)}"
    sys.path.insert(0, str(TESTS))
    import gymnasium
    import numpy as np

    from support import release_cases, release_outcomes

    if "gymspaces" in sys.modules and mode == "plain":
        raise SystemExit("the plain run imported gymspaces")
    meta.update(gymnasium=gymnasium.__version__, numpy=np.__version__, python=sys.version.split()[0])
    selected = [case for case in release_cases.cases() if pattern is None or pattern in case.name]
    selected = selected[:: int(os.environ.get(_EVERY_VARIABLE, "1"))]
    meta["count"] = len(selected)
    with open(output, "ab") as stream:
        pickle.dump(("meta", meta), stream)
        for index in range(start, len(selected)):
            case = selected[index]
            # Mark the case as started, so that a crash can be pinned on it.
            pickle.dump(("start", index, case.name), stream)
            stream.flush()
            outcome = release_outcomes.run_case(case.function, case.name)
            pickle.dump(("done", index, case.name, outcome), stream)
        pickle.dump(("end", len(selected)), stream)
    if mode == "patched":
        import gymspaces.gymnasium as g

        assert g.is_patched(), "Gymnasium was unpatched during the run"
    return 0


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def _read(path: str) -> list[tuple]:
    records = []
    with open(path, "rb") as stream:
        while True:
            try:
                records.append(pickle.load(stream))
            except EOFError:
                break
            except Exception:  # a record cut short by a crash
                break
    return records


def run_mode(
    mode: str, pattern: str | None, timeout: float
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """Run one mode's worker(s); return (meta, outcomes by name, problems)."""
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = "0"
    env.pop("GYMSPACES_PATCH_UNVERIFIED", None)
    env.pop("GYMSPACES_PATCH", None)  # the start-up hook would patch the plain run
    problems: list[str] = []
    outcomes: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    start = 0
    deadline = time.monotonic() + timeout
    while True:
        handle, output = tempfile.mkstemp(prefix=f"reldiff-{mode}-", suffix=".pickle")
        os.close(handle)
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", mode, "--output", output, "--start", str(start)]
        if pattern is not None:
            command += ["-k", pattern]
        remaining = max(deadline - time.monotonic(), 1.0)
        try:
            finished: subprocess.CompletedProcess | None = subprocess.run(
                command, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=remaining
            )
        except subprocess.TimeoutExpired:
            problems.append(f"{mode}: timed out after {timeout:.0f}s")
            finished = None
        try:
            records = _read(output)
        finally:
            os.unlink(output)
        started: tuple | None = None
        ended = False
        for record in records:
            if record[0] == "meta":
                meta = record[1]
            elif record[0] == "start":
                started = record
            elif record[0] == "done":
                outcomes[record[2]] = record[3]
                started = None
            elif record[0] == "end":
                ended = True
        if ended:
            if finished is not None and finished.returncode != 0:
                problems.append(f"{mode}: worker exited {finished.returncode} after its last case:\n{finished.stderr[-3000:]}")
            break
        if finished is None:
            break
        if started is None:
            problems.append(f"{mode}: worker failed before any case (exit {finished.returncode}):\n{finished.stderr[-3000:]}")
            break
        # The worker died inside a case: that is the case's outcome; go on after it.
        index, name = started[1], started[2]
        outcomes[name] = {"result": ("crashed", finished.returncode, finished.stderr[-500:]), "warnings": (), "stdout": "", "stderr": "", "states": ()}
        problems.append(f"{mode}: worker crashed in case {name!r} (exit {finished.returncode})")
        start = index + 1
        if start >= meta.get("count", 0):
            break
    return meta, outcomes, problems


def _short(value: Any, width: int) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 20] + f"... ({len(text)} chars)"


def differing_parts(plain: Any, patched: Any) -> list[str]:
    if plain is None or patched is None:
        return ["missing"]
    return [key for key in plain if plain.get(key) != patched.get(key)] + [key for key in patched if key not in plain]


def _state_rows(states: Any) -> dict[Any, Any]:
    rows: dict[Any, Any] = {}
    for entry in states or ():
        index, tree = entry[0], entry[1]
        if isinstance(tree, tuple) and tree and isinstance(tree[0], tuple) and len(tree[0]) == 3:
            for path, cls, state in tree:
                rows[(index, path, cls)] = state
        else:
            rows[(index,)] = tree
    return rows


def _compact_state(state: Any) -> Any:
    """A PCG64 state as (state, inc, has_uint32, uinteger), the rest as given."""
    try:
        fields = dict((key[1], value) for key, value in state[2][2])
        inner = dict((key[1], value[1]) for key, value in fields["state"][2])
        return (inner["state"], inner["inc"], fields["has_uint32"][1], fields["uinteger"][1])
    except Exception:
        return state


def describe(part: str, plain: Any, patched: Any, width: int) -> tuple[str, str]:
    """Plain and patched renderings of one differing part, trimmed to what differs."""
    if part == "states":
        a, b = _state_rows(plain), _state_rows(patched)
        keys = [key for key in list(a) + [k for k in b if k not in a] if a.get(key, "absent") != b.get(key, "absent")]
        render = lambda rows: "; ".join(f"{'/'.join(map(str, key))}={_compact_state(rows.get(key, 'absent'))}" for key in keys)  # noqa: E731
        return _short(render(a), width), _short(render(b), width)
    return _short(plain, width), _short(patched, width)


def kind_of(name: str) -> str:
    """A group for the summary: the family (first step), the operation and, for
    the bad-input and mask cases, the input's label (last step)."""
    steps = name.split("/")
    if steps[0] == "single":
        return name
    for index, step in enumerate(steps[1:-1], start=1):
        if step.endswith("-bad") or step in ("mask", "probability", "sizes"):
            return f"{steps[0]}/*/{step}/{steps[-1]}"
    return f"{steps[0]}/*/{steps[-1]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-k", dest="pattern", default=None, help="run only the cases whose name contains this substring")
    parser.add_argument("--json", dest="json_path", default=None, help="write the summary (and every difference) to this file")
    parser.add_argument("--show", type=int, default=200, help="print at most this many differing cases (default 200)")
    parser.add_argument("--width", type=int, default=600, help="cut each printed outcome part to this many characters")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds allowed for each mode's run")
    parser.add_argument("--self-check", action="store_true", help="run plain twice: any difference is the harness's own nondeterminism")
    parser.add_argument("--list", action="store_true", help="list the selected case names and exit")
    parser.add_argument("--worker", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--output", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--every", type=int, default=1, help="run every Nth selected case only (default: all)")
    args = parser.parse_args(argv)
    if not args.worker:
        os.environ[_EVERY_VARIABLE] = str(max(args.every, 1))
    if args.worker:
        return _worker(args.worker, args.output, args.pattern, args.start)
    if args.list:
        sys.path.insert(0, str(TESTS))
        from support import release_cases

        for case in release_cases.cases():
            if args.pattern is None or args.pattern in case.name:
                print(case.name)
        return 0

    began = time.monotonic()
    second = "plain" if args.self_check else "patched"
    runs = {
        "plain": run_mode("plain", args.pattern, args.timeout),
        "patched": run_mode(second, args.pattern, args.timeout),
    }
    (meta_plain, plain, problems_plain), (meta_patched, patched, problems_patched) = runs["plain"], runs["patched"]
    problems = problems_plain + problems_patched
    names = list(plain) + [name for name in patched if name not in plain]
    differing = [name for name in names if plain.get(name) != patched.get(name)]
    summary = {
        "gymnasium": meta_plain.get("gymnasium"),
        "numpy": meta_plain.get("numpy"),
        "python": meta_plain.get("python"),
        "gymspaces": meta_patched.get("gymspaces"),
        "patched_numpy": meta_patched.get("numpy"),
        "cases": len(names),
        "differ": len(differing),
        "problems": problems,
        "seconds": round(time.monotonic() - began, 1),
        "differences": [],
        "kinds": {},
    }
    for name in differing:
        a, b = plain.get(name), patched.get(name)
        parts = differing_parts(a, b)
        shown = {}
        for part in parts:
            if part == "missing":
                shown[part] = {"plain": _short(a, 4000), "patched": _short(b, 4000)}
            else:
                rendered = describe(part, a.get(part), b.get(part), 4000)
                shown[part] = {"plain": rendered[0], "patched": rendered[1]}
        summary["differences"].append({"name": name, "kind": kind_of(name), "parts": shown})
        group = summary["kinds"].setdefault(kind_of(name), {"count": 0, "example": name})
        group["count"] += 1
    print(f"Gymnasium {summary['gymnasium']}, numpy {summary['numpy']}, Python {summary['python']}")
    print(f"gymspaces {summary['gymspaces']}")
    print(f"cases: {summary['cases']}  differ: {summary['differ']}  ({summary['seconds']}s)")
    for problem in problems:
        print(f"PROBLEM: {problem}")
    for difference in summary["differences"][: args.show]:
        print(f"\n--- {difference['name']}  (differs in: {', '.join(difference['parts'])})")
        for part, both in difference["parts"].items():
            print(f"  [{part}] plain:   {both['plain'][: args.width]}")
            print(f"  [{part}] patched: {both['patched'][: args.width]}")
    if len(differing) > args.show:
        print(f"\n... and {len(differing) - args.show} more (--show, --json)")
    if differing:
        print("\nDiffering cases by kind (count, kind, first case):")
        for kind, group in sorted(summary["kinds"].items(), key=lambda item: (-item[1]["count"], item[0])):
            print(f"  {group['count']:5d}  {kind}  ({group['example']})")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(summary, indent=1))
    if meta_plain.get("gymnasium") != meta_patched.get("gymnasium") or not names:
        return 2
    if differing:
        return 1
    return 2 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
