"""``python -m benchmarks --instructions``: instructions per call, counted by callgrind, for a CI gate.

A time depends on what else the machine is doing; a count of executed
instructions does not. Valgrind's callgrind runs one interpreter that sets
up every case of the run on each side (gymspaces, Gymnasium, and a patched
case's kernels), warms it up, then calls it :data:`CALLS` times between
two markers: a call of ``os.sched_get_priority_max``, which nothing else
calls, and on whose entry ``--dump-before`` makes callgrind write the
counts gathered since the previous marker. The dump after a case's calls
holds exactly those calls, so a count per call is the same on every run
of the same code, interpreter and inputs, loaded machine or not
(hash seed fixed, glibc's allocator thresholds fixed, address
randomisation off where ``setarch -R`` is allowed, the cyclic garbage
collector off during the calls).

A count run is a :class:`~benchmarks.results.Run` whose "medians" are
instructions per call, in ``"instructions"`` mode, so ``--figures``,
``--compare`` and ``--fail-above`` read it as they read a timed run: the
speedup of a case is Gymnasium's count over gymspaces'. Only the cases
timed per call are counted (a whole program, a fresh interpreter or a
worker process is work callgrind would not see or would take minutes
over); those stay with the time-based compare.

Examples
--------
>>> run = count_run(["discrete_sample"])  # doctest: +SKIP
>>> run.medians["discrete_sample"]  # doctest: +SKIP
{'gymspaces': 1748.0, 'gymnasium': 14392.0}
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.cases import CASES, CASES_BY_KEY, Case
from benchmarks.errors import UsageError
from benchmarks.libraries import library
from benchmarks.patched import KERNELS
from benchmarks.results import COUNTED, Run

MODE = COUNTED
"""The ``Run.mode`` of a count run; a count run is only compared with another."""
CALLS = 100
"""Calls counted per case and side: the count is exact, so a hundred say what a million would."""
WARM_UP = 10
"""Calls before counting: the interpreter specialises a call site over its first few calls."""
MARKER = "sched_get_priority_max"
"""The C library function whose entry makes callgrind dump its counts (nothing else calls it)."""
NOT_COUNTED = {
    "e2e_dict_async": "its workers run in other processes, which callgrind does not follow",
}
"""Per-call cases left out of a count run, and why."""
FIXED_MALLOC = {
    "MALLOC_MMAP_THRESHOLD_": "131072",
    "MALLOC_TRIM_THRESHOLD_": "1073741824",
    "MALLOC_TOP_PAD_": "16777216",
}
"""glibc's allocator tuned to fixed values. By default it moves its mmap and trim thresholds as the
program frees large blocks, so a large allocation (an image's pickle) takes another path when
the environment or the working directory differ: up to 8% more instructions in a case, measured."""
KEPT_VARIABLES = ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV", "LD_LIBRARY_PATH", "TMPDIR", "VALGRIND_LIB")
"""The only variables of the environment the count's interpreter gets (a CI job's or a shell's others would
move the heap, and with it the count of an allocation-heavy case)."""
SIDES = ("gymspaces", "gymnasium", KERNELS)
VALGRIND_HINT = "install valgrind (Debian and Ubuntu: apt-get install valgrind)"


def countable(case: Case) -> bool:
    """Whether ``case`` is counted: timed per call, in this process."""
    return not case.slow and case.key not in NOT_COUNTED


def counted_keys(keys: Sequence[str] | None = None) -> list[str]:
    """The keys of the cases a count run of ``keys`` (default: every case) counts."""
    chosen = [CASES_BY_KEY[key] for key in keys] if keys is not None else list(CASES)
    return [case.key for case in chosen if countable(case)]


# ---------------------------------------------------------------- the child


Side = tuple[str, Callable[[], Callable[[], Any]], contextlib.AbstractContextManager[Any]]


def _sides(case: Case, libs: dict[str, Any]) -> list[Side]:
    """(side, setup, context) of each side of ``case`` this interpreter can run, as the suite runs them."""
    sides: list[Side] = []
    for name in ("gymspaces", "gymnasium"):
        if name in libs:
            sides.append((name, functools.partial(case.setup, libs[name]), case.entered(libs[name])))
    if case.kernels is not None:
        sides.append((KERNELS, functools.partial(case.kernels, libs["gymspaces"]), contextlib.nullcontext()))
    return sides


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _count_case(key: str, libs: dict[str, Any], calls: int) -> dict[str, Any]:
    """Set up, warm and count every side of case ``key``; what its dumps hold, in marker order."""
    blocks: list[str] = []
    unmeasured = ""
    with contextlib.ExitStack() as built:
        for side, setup, context in _sides(CASES_BY_KEY[key], libs):
            try:
                with context, warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    func = setup()
                    built.callback(getattr(func, "close", lambda: None))
                    for _ in range(WARM_UP):
                        func()
                    gc.collect()
                    gc.disable()
                    try:
                        _mark(0)  # dumps the set-up
                        for _ in range(calls):
                            func()
                        _mark(0)  # dumps the calls
                    finally:
                        gc.enable()
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as error:  # noqa: BLE001  pytest.skip raises a BaseException
                unmeasured = unmeasured or f"{side}: {_reason(error)}"
                continue
            blocks.append(side)
    return {"key": key, "pid": os.getpid(), "sides": blocks, "unmeasured": unmeasured}


def _mark(policy: int) -> None:
    getattr(os, MARKER)(policy)


def run_child(keys: Sequence[str], calls: int, out: str) -> None:
    """Inside callgrind: count every side of ``keys``, each case in a process forked from this one.

    A count depends a little on the heap the calls find (a dict resized, an
    arena allocated): forked from one interpreter that has imported
    everything, each case finds the same heap whatever ran before it, so
    adding, removing or changing one case leaves the others' counts as they
    were. Writes, per case, its process (whose dumps hold its counts), the
    sides counted in marker order, and why a side could not be set up.
    """
    from gymspaces._demo import plain_gymnasium

    libs = {"gymspaces": library("gymspaces")}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            libs["gymnasium"] = library("gymnasium")
    except ImportError:
        pass
    results = []
    with plain_gymnasium():  # gymspaces' side is patched only inside its case's context
        gc.collect()
        for index, key in enumerate(keys):
            found = Path(f"{out}.{index}")
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    found.write_text(json.dumps(_count_case(key, libs, calls)), encoding="utf8")
                    code = 0
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            if status != 0 or not found.exists():
                raise RuntimeError(f"counting {key} failed in its process (wait status {status})")
            results.append(json.loads(found.read_text(encoding="utf8")))
    Path(out).write_text(json.dumps(results), encoding="utf8")


# ---------------------------------------------------------------- the parent


def valgrind() -> str:
    """The path of valgrind; a :class:`UsageError` saying how to get it when it is missing."""
    path = shutil.which("valgrind")
    if path is None:
        raise UsageError(f"--instructions counts with valgrind's callgrind, which is not installed: {VALGRIND_HINT}")
    return path


def _no_randomisation() -> list[str]:
    """``setarch -R`` where this machine allows turning address randomisation off, else nothing."""
    setarch = shutil.which("setarch")
    if setarch is None:
        return []
    probe = subprocess.run([setarch, "-R", "true"], capture_output=True, check=False)
    return [setarch, "-R"] if probe.returncode == 0 else []


def _total(dump: Path) -> int:
    """The instructions a callgrind dump counted (its ``totals:`` line)."""
    found = re.search(r"^(?:totals|summary):\s*(\d+)", dump.read_text(encoding="utf8", errors="replace"), re.M)
    if found is None:
        raise RuntimeError(f"{dump} holds no totals line: not a callgrind dump")
    return int(found.group(1))


def _dumps(folder: Path, pid: int) -> list[Path]:
    """Callgrind's numbered dumps of process ``pid``, in the order written."""
    numbered = [(int(path.name.rsplit(".", 1)[1]), path) for path in folder.glob(f"callgrind.{pid}.*")]
    return [path for _, path in sorted(numbered)]


def _versions() -> dict[str, str]:
    import numpy

    import gymspaces

    versions = {"gymspaces": gymspaces.__version__, "numpy": numpy.__version__}
    with contextlib.suppress(ImportError):
        import gymnasium

        versions["gymnasium"] = gymnasium.__version__
    return versions


def count_run(keys: Sequence[str] | None = None, *, calls: int = CALLS, verbose: bool = False) -> Run:
    """Count the instructions per call of every side of the countable cases among ``keys``.

    Returns
    -------
    Run
        ``medians[key][side]`` in instructions per call, ``mode`` :data:`MODE`,
        ``unmeasured`` with why a case was not counted.
    """
    program = valgrind()
    counted = counted_keys(keys)
    if not counted:
        raise UsageError("--instructions counts the cases timed per call; none of these is: "
                         f"{', '.join(keys or [])}")
    with tempfile.TemporaryDirectory(prefix="gymspaces-callgrind-") as scratch:
        folder = Path(scratch)
        out = folder / "blocks.json"
        command = [
            *_no_randomisation(), program, "--tool=callgrind", f"--dump-before={MARKER}",
            f"--callgrind-out-file={folder}/callgrind.%p", "--dump-line=no",
            sys.executable, "-m", "benchmarks.instructions", "--child", ",".join(counted), str(calls), str(out),
        ]
        # A fixed environment: its size and contents place the heap, and the hash seed orders sets and
        # dicts of strings, so the same code runs the same path.
        env = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
        env.update(PYTHONHASHSEED="0", **FIXED_MALLOC)
        started = time.perf_counter()
        done = subprocess.run(
            command, env=env, check=False, text=True, cwd=Path(__file__).resolve().parents[1],  # finds benchmarks
            stdout=None if verbose else subprocess.DEVNULL, stderr=None if verbose else subprocess.PIPE,
        )
        if done.returncode != 0 or not out.exists():
            tail = "" if verbose else "\n".join((done.stderr or "").strip().splitlines()[-15:])
            raise RuntimeError(f"the count under callgrind failed (exit {done.returncode}):\n{tail}")
        run = Run(mode=MODE, versions=_versions())
        for found in json.loads(out.read_text(encoding="utf8")):
            key, sides = found["key"], found["sides"]
            if found["unmeasured"]:
                run.unmeasured[key] = found["unmeasured"]
            dumps = _dumps(folder, found["pid"])
            # Two markers per side counted: the first dumps its set-up, the second its calls.
            if len(dumps) != 2 * len(sides):
                raise RuntimeError(
                    f"{key}: {len(dumps)} callgrind dumps for {len(sides)} sides counted: something else "
                    f"called {MARKER}, so the dumps cannot be matched to the sides"
                )
            for side, dump in zip(sides, dumps[1::2]):
                run.medians.setdefault(key, {})[side] = _total(dump) / calls
        seconds = time.perf_counter() - started
    run.machine = f"{platform.python_implementation()} {platform.python_version()} {platform.system()}"
    run.identity = {
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": f"{platform.system()} {platform.machine()}",
        "cpu": f"callgrind, {calls} calls a case and side, counted in {seconds:.0f} s",
        "cores": None,
    }
    return run


def render_counts(run: Run) -> list[str]:
    """A count run as a table: per case, each side's instructions per call and Gymnasium's over gymspaces'."""
    from benchmarks.table import aligned

    table = [["case", "gymspaces", "Gymnasium", "ratio", "kernels", "ratio"]]
    for key, counts in run.medians.items():
        if not isinstance(counts, dict):
            continue
        ours, theirs, kernels = (counts.get(side) for side in SIDES)

        def cell(value: float | None) -> str:
            return "-" if value is None else f"{value:,.0f}"

        def ratio(side: float | None) -> str:
            return "-" if side is None or theirs is None else f"{theirs / side:.2f}x"

        table.append([key, cell(ours), cell(theirs), ratio(ours), cell(kernels), ratio(kernels) if kernels else "-"])
    lines = [
        f"instructions per call (Ir), callgrind, {CALLS} calls after {WARM_UP} to warm up",
        "ratio = Gymnasium / the column before it; kernels = gymspaces' own classes (patch-mode cases)",
    ]
    lines += aligned(table)
    for key, why in sorted(run.unmeasured.items()):
        lines.append(f"not counted: {key} ({why})")
    return lines


def _child_main(argv: list[str]) -> int:
    keys, calls, out = argv[0].split(","), int(argv[1]), argv[2]
    run_child(keys, calls, out)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.exit(_child_main(sys.argv[2:]))
    sys.exit("python -m benchmarks.instructions is run by python -m benchmarks --instructions")


__all__ = ["CALLS", "MODE", "NOT_COUNTED", "count_run", "counted_keys", "countable", "render_counts", "run_child"]
