"""``python -m benchmarks --instructions``: instructions per call, counted by callgrind, for a CI gate.

A time depends on what else the machine is doing; a count of executed
instructions does not. Valgrind's callgrind runs an interpreter that imports
everything once, then forks one process per case; that process sets up each
side of the case (gymspaces, Gymnasium, and a patched case's kernels), warms
it up, then calls it :data:`CALLS` times between two markers: a call of
``os.sched_get_priority_max``, which nothing else calls, and on whose entry
``--dump-before`` makes callgrind write the counts gathered since the
previous marker. The dump after a side's calls holds exactly those calls.

A count is the same on every run of the same code, interpreter and inputs,
loaded machine or not, full run or subset, in any order:

* the heap each case starts from is the same: the modules are compiled to
  bytecode before the count (:func:`prime`), the forking interpreter is
  given the same command line whichever cases are counted, and between two
  forks it keeps nothing (:func:`run_child`);
* where a case's own objects land still decides how some tables keyed by
  address behave (patch mode's judges, the kernels' caches of Gymnasium's
  spaces): each of gymspaces' sides is counted in :data:`PLACEMENTS`
  placements (Gymnasium's, never judged, in one: :func:`placements`) and the
  least count is kept;
* the hash seed and glibc's allocator thresholds are fixed, address
  randomisation is off where ``setarch -R`` is allowed, and the cyclic
  garbage collector is off during the calls (and its generations hold
  nothing from before the fork).

Several counting interpreters run at once (one per core, :func:`workers`),
each counting the next case no other has claimed; a line per case counted
says where the count is (:class:`_Progress`).

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
from typing import Any, TextIO

from benchmarks.allocator import FIXED_MALLOC
from benchmarks.cases import CASES, CASES_BY_KEY, Case
from benchmarks.errors import UsageError
from benchmarks.libraries import library
from benchmarks.patched import KERNELS
from benchmarks.results import COUNTED, Run

MODE = COUNTED
"""The ``Run.mode`` of a count run; a count run is only compared with another."""
CALLS = 40
"""Calls counted per placement of a case's side: the count is exact, so forty say what a million would."""
WARM_UP = 10
"""Calls before counting: the interpreter specialises a call site over its first few calls."""
PLACEMENTS = 3
"""Each side of a case is set up and counted this many times in one process, every set-up's objects
kept alive so the next one's land at other addresses; its count is the least. Patch mode's judges and
the kernels' caches of other libraries' spaces remember objects in tables of slots chosen by address
(gymspaces/gymnasium/_judge.pyx, gymspaces/_rng.pyx): two of a case's objects in one slot evict each
other on every call, and where they land depends on everything the process allocated before
(``patched_dict_flatdim``: 8,177, 8,460 and 8,372 instructions a call in three placements). The
least is the count without such a collision, unless all three have one."""
def placements(side: str) -> int:
    """How many placements of ``side`` are counted: one of Gymnasium's, which a comparison never judges (it
    divides both runs by the baseline's Gymnasium count) and which is most of a count's work."""
    return 1 if side == "gymnasium" else PLACEMENTS


PLACEMENT_SHIFT = 4096 + 48
"""Bytes of each block allocated before a placement's set-up (``placement * 7`` blocks)."""
MAX_WORKERS = 4
"""At most this many counting interpreters at once (one per core): counts do not depend on it."""
POLL = 0.25
"""Seconds between two looks at which cases are counted, for the progress lines."""
MARKER = "sched_get_priority_max"
"""The C library function whose entry makes callgrind dump its counts (nothing else calls it)."""
NOT_COUNTED = {
    "e2e_dict_async": "its workers run in other processes, which callgrind does not follow",
}
"""Per-call cases left out of a count run, and why."""
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


Side = tuple[str, Callable[[], Callable[[], Any]], Callable[[], contextlib.AbstractContextManager[Any]]]


def _sides(case: Case, libs: dict[str, Any]) -> list[Side]:
    """(side, setup, context) of each side of ``case`` this interpreter can run, as the suite runs them
    (``context()`` makes a new context each time: a placement enters its own)."""
    sides: list[Side] = []
    for name in ("gymspaces", "gymnasium"):
        if name in libs:
            sides.append((name, functools.partial(case.setup, libs[name]), functools.partial(case.entered, libs[name])))
    if case.kernels is not None:
        sides.append((KERNELS, functools.partial(case.kernels, libs["gymspaces"]), contextlib.nullcontext))
    return sides


def _reason(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _count_case(key: str, libs: dict[str, Any], calls: int) -> dict[str, Any]:
    """Set up, warm and count every side of case ``key`` in its :func:`placements`.

    Returns what its dumps hold, in marker order: ``pairs``, one ``[side,
    counted]`` per pair of markers (``counted`` false when the calls raised
    between them), and why a side could not be set up.
    """
    pairs: list[list[Any]] = []
    unmeasured = ""
    kept: list[Any] = []  # every placement's objects live on, so the next one's go elsewhere
    with contextlib.ExitStack() as built:
        for side, setup, context in _sides(CASES_BY_KEY[key], libs):
            for placement in range(placements(side)):
                # A different number and size of blocks before each placement's set-up.
                kept.append([bytearray(PLACEMENT_SHIFT * placement) for _ in range(placement * 7)])
                marked = counted = False
                try:
                    with context(), warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        func = setup()
                        kept.append(func)
                        built.callback(getattr(func, "close", lambda: None))
                        for _ in range(WARM_UP):
                            func()
                        gc.collect()
                        gc.disable()
                        try:
                            _mark(0)  # dumps the set-up
                            marked = True
                            for _ in range(calls):
                                func()
                            counted = True
                        finally:
                            if marked:
                                _mark(0)  # dumps the calls
                            gc.enable()
                except (KeyboardInterrupt, SystemExit):
                    raise
                except BaseException as error:  # noqa: BLE001  pytest.skip raises a BaseException
                    unmeasured = unmeasured or f"{side}: {_reason(error)}"
                if marked:
                    pairs.append([side, counted])
                if not counted:
                    break  # a side that fails once is not counted
    return {"key": key, "pid": os.getpid(), "pairs": pairs, "unmeasured": unmeasured}


def _mark(policy: int) -> None:
    getattr(os, MARKER)(policy)


def _claim(folder: str, index: int) -> bool:
    """Whether this process is the first to claim case ``index`` (of every counting interpreter)."""
    try:
        os.close(os.open(os.path.join(folder, f"claim.{index}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _fork_case(folder: str, index: int, key: str, libs: dict[str, Any], calls: int) -> int:
    """Count case ``key`` in a process forked from this one, unless another interpreter claimed it.

    The wait status of that process. This function leaves nothing behind in
    the interpreter that calls it (its objects are freed in the reverse order
    of their allocation), so the next fork finds the very same heap.
    """
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            gc.enable()
            if key and _claim(folder, index):  # the first fork, of no case, only reaches the steady state
                found = json.dumps(_count_case(key, libs, calls))
                path = os.path.join(folder, f"case.{index}.json")
                Path(f"{path}.part").write_text(found, encoding="utf8")
                os.replace(f"{path}.part", path)  # whole, as the parent's progress sees it
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    del _
    del pid
    return status


def _libraries() -> dict[str, Any]:
    libs = {"gymspaces": library("gymspaces")}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            libs["gymnasium"] = library("gymnasium")
    except ImportError:
        pass
    return libs


def _every(selection: str) -> list[tuple[int, str]]:
    """(index, key) of every countable case, in its fixed order (``selection`` marks the ones to count)."""
    keys = counted_keys()
    if len(selection) != len(keys) or set(selection) - {"0", "1"}:
        raise RuntimeError(f"a selection of {len(selection)} cases, not {len(keys)}: another checkout's?")
    return list(enumerate(keys))


def prime(selection: str) -> None:
    """Outside callgrind, before the count: import, set up and call once every side of the selection.

    Python compiles a module it imports to bytecode and keeps it
    (``__pycache__``); a module imported without it is compiled again, which
    allocates differently. Run once first, this leaves every module the count
    imports compiled, so the first count after a change places the heap as
    the next ones do (a changed module moved counts by up to 1% before).
    """
    from gymspaces._demo import plain_gymnasium

    libs = _libraries()
    with plain_gymnasium():
        for index, key in _every(selection):
            if selection[index] != "1":
                continue
            for _, setup, context in _sides(CASES_BY_KEY[key], libs):
                with contextlib.suppress(Exception), context(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    func = setup()
                    try:
                        func()
                    finally:
                        getattr(func, "close", lambda: None)()


def run_child(selection: str, calls: int, folder: str) -> None:
    """Inside callgrind: count the cases of ``selection``, each in a process forked from this one.

    ``selection`` holds one ``1`` or ``0`` per countable case of
    :func:`counted_keys` (all of them, in their fixed order): the same length
    whichever cases a run counts, so the command line places the heap the
    same way, and this interpreter builds the same list of every case
    whichever it counts (a list of the chosen ones would have moved the
    heap with their number). Several of these interpreters may run at once
    on the same selection: a case is counted by the first that claims it.

    A count depends a little on the heap the calls find (a table keyed by
    addresses, a dict resized, an arena allocated). Every case is forked from
    this interpreter in the same state: it has imported everything, its
    objects are collected and frozen out of the garbage collector's
    generations, the collector is off between forks, one fork is made first
    so the steady state is reached, and nothing it does between forks stays
    allocated. What ran before a case, or whether it ran at all, leaves no
    trace in that case's heap. Writes, per case, ``case.INDEX.json`` in
    ``folder``: its process (whose dumps hold its counts), the pairs of
    markers made, and why a side could not be set up.
    """
    from gymspaces._demo import plain_gymnasium

    every = _every(selection)
    libs = _libraries()
    with plain_gymnasium():  # gymspaces' side is patched only inside its case's context
        gc.collect()
        gc.freeze()  # nothing the interpreter holds now is collected again: fewer instructions, same heap
        gc.disable()
        try:
            _fork_case(folder, -1, "", libs, calls)
            for index, key in every:
                if selection[index] != "1":  # a string of one character: a cached object, nothing allocated
                    continue
                status = _fork_case(folder, index, key, libs, calls)
                if status != 0:
                    raise RuntimeError(f"counting {key} failed in its process (wait status {status})")
        finally:
            gc.enable()


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


def workers() -> int:
    """How many counting interpreters run at once: one per core this process may use, at most four."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


class _Progress:
    """One line per case counted, on ``stream``; redrawn in place on a terminal.

    A CI service stops a job that prints nothing for ten minutes, and a full
    count takes minutes: off a terminal every case counted is a line.
    """

    def __init__(self, stream: TextIO | None, keys: Sequence[str]) -> None:
        self.stream = stream
        self.keys = keys
        self.started = time.perf_counter()
        self.interactive = stream is not None and bool(getattr(stream, "isatty", lambda: False)())

    def case(self, done: int, key: str) -> None:
        if self.stream is None:
            return
        elapsed = time.perf_counter() - self.started
        text = f"counted {done:>3}/{len(self.keys)} {elapsed:5.0f} s  {key}"
        if self.interactive:
            self.stream.write("\r" + text.ljust(79)[:79] + ("\n" if done == len(self.keys) else ""))
        else:
            self.stream.write(text[:100] + "\n")
        self.stream.flush()


def _wait(processes: list[subprocess.Popen[str]], folder: Path, indices: dict[int, str], progress: _Progress) -> None:
    """Wait for every counting interpreter, reporting each case as its result appears; stop all if one fails."""
    seen: set[int] = set()
    while True:
        running = [process.poll() is None for process in processes]
        for index in sorted(indices):
            if index not in seen and (folder / f"case.{index}.json").exists():
                seen.add(index)
                progress.case(len(seen), indices[index])
        failed = [process for process in processes if process.returncode not in (None, 0)]
        if failed:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            return
        if not any(running):
            return
        time.sleep(POLL)


def count_run(
    keys: Sequence[str] | None = None, *, calls: int = CALLS, verbose: bool = False,
    jobs: int | None = None, progress: TextIO | None = None,
) -> Run:
    """Count the instructions per call of every side of the countable cases among ``keys``.

    Parameters
    ----------
    keys : sequence of str, optional
        The cases to count (default: every countable case).
    calls : int
        Calls counted per placement of each side.
    verbose : bool
        Show valgrind's and the interpreters' own output.
    jobs : int, optional
        Counting interpreters run at once (default :func:`workers`): counts do
        not depend on it.
    progress : text stream, optional
        Where to say each case counted (default: nowhere).

    Returns
    -------
    Run
        ``medians[key][side]`` in instructions per call (the least over the
        placements), ``mode`` :data:`MODE`, ``unmeasured`` with why a case
        was not counted.
    """
    program = valgrind()
    counted = counted_keys(keys)
    if not counted:
        raise UsageError("--instructions counts the cases timed per call; none of these is: "
                         f"{', '.join(keys or [])}")
    every = counted_keys()
    selection = "".join("1" if key in counted else "0" for key in every)
    indices = {index: key for index, key in enumerate(every) if key in counted}
    jobs = jobs or workers()
    with tempfile.TemporaryDirectory(prefix="gymspaces-callgrind-") as scratch:
        folder = Path(scratch)
        command = [
            *_no_randomisation(), program, "--tool=callgrind", f"--dump-before={MARKER}",
            f"--callgrind-out-file={folder}/callgrind.%p", "--dump-line=no",
            sys.executable, "-m", "benchmarks.instructions", "--child", selection, str(calls), str(folder),
        ]
        # A fixed environment: its size and contents place the heap, and the hash seed orders sets and
        # dicts of strings, so the same code runs the same path.
        env = {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
        env.update(PYTHONHASHSEED="0", **FIXED_MALLOC)
        started = time.perf_counter()
        root = Path(__file__).resolve().parents[1]  # where ``-m benchmarks`` finds the package
        primed = subprocess.run(
            [sys.executable, "-m", "benchmarks.instructions", "--prime", selection], env=env, cwd=root,
            check=False, capture_output=not verbose, text=True,
        )
        if primed.returncode != 0:
            tail = "\n".join((primed.stderr or "").strip().splitlines()[-15:])
            raise RuntimeError(f"importing the cases before the count failed (exit {primed.returncode}):\n{tail}")
        with contextlib.ExitStack() as logs:
            processes = [
                subprocess.Popen(
                    command, env=env, text=True, cwd=root,
                    stdout=None if verbose else subprocess.DEVNULL,
                    stderr=None if verbose else logs.enter_context(
                        open(folder / f"stderr.{number}", "w", encoding="utf8")
                    ),
                )
                for number in range(min(jobs, len(counted)))
            ]
            _wait(processes, folder, indices, _Progress(progress, counted))
        missing = [key for index, key in indices.items() if not (folder / f"case.{index}.json").exists()]
        if missing or any(process.returncode != 0 for process in processes):
            codes = ", ".join(str(process.returncode) for process in processes)
            tails = []
            for number in range(len(processes)):
                with contextlib.suppress(OSError):
                    tails += (folder / f"stderr.{number}").read_text(encoding="utf8").strip().splitlines()[-15:]
            raise RuntimeError(f"the count under callgrind failed (exits {codes}):\n" + "\n".join(tails))
        run = Run(mode=MODE, versions=_versions())
        found = {index: json.loads((folder / f"case.{index}.json").read_text(encoding="utf8")) for index in indices}
        for index in sorted(indices, key=lambda index: counted.index(indices[index])):
            _read_case(run, folder, found[index], calls)
        seconds = time.perf_counter() - started
    run.machine = f"{platform.python_implementation()} {platform.python_version()} {platform.system()}"
    run.identity = {
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": f"{platform.system()} {platform.machine()}",
        "cpu": f"callgrind, {PLACEMENTS} x {calls} calls a case and side, {jobs} at once, in {seconds:.0f} s",
        "cores": None,
    }
    return run


def _read_case(run: Run, folder: Path, found: dict[str, Any], calls: int) -> None:
    """Put a case's counts in ``run``: per side, the least per-call count over its placements."""
    key, pairs = found["key"], found["pairs"]
    if found["unmeasured"]:
        run.unmeasured[key] = found["unmeasured"]
    dumps = _dumps(folder, found["pid"])
    # Two markers per pair: the first dumps the set-up, the second the calls.
    if len(dumps) != 2 * len(pairs):
        raise RuntimeError(
            f"{key}: {len(dumps)} callgrind dumps for {len(pairs)} pairs of markers: something else "
            f"called {MARKER}, so the dumps cannot be matched to the sides"
        )
    counts: dict[str, list[float | None]] = {}
    for (side, counted), dump in zip(pairs, dumps[1::2]):
        counts.setdefault(side, []).append(_total(dump) / calls if counted else None)
    for side, placed in counts.items():
        if len(placed) == placements(side) and None not in placed:  # a side that failed once is not counted
            run.medians.setdefault(key, {})[side] = min(value for value in placed if value is not None)


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
        f"instructions per call (Ir), callgrind, {CALLS} calls after {WARM_UP} to warm up: the least of "
        f"{PLACEMENTS} placements",
        "in the heap (Gymnasium's side: one); ratio = Gymnasium / the column before it;",
        "kernels = gymspaces' own classes (patch-mode cases)",
    ]
    lines += aligned(table)
    for key, why in sorted(run.unmeasured.items()):
        lines.append(f"not counted: {key} ({why})")
    return lines


def _child_main(argv: list[str]) -> int:
    selection, calls, folder = argv[0], int(argv[1]), argv[2]
    run_child(selection, calls, folder)
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        sys.exit(_child_main(sys.argv[2:]))
    if sys.argv[1:2] == ["--prime"]:
        prime(sys.argv[2])
        sys.exit(0)
    sys.exit("python -m benchmarks.instructions is run by python -m benchmarks --instructions")


__all__ = [
    "CALLS", "MODE", "NOT_COUNTED", "PLACEMENTS", "count_run", "counted_keys", "countable", "prime", "render_counts",
    "run_child", "workers",
]
