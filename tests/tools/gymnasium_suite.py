"""Gymnasium's own test suite, plain and under patch mode, test id for test id.

Runs the ``tests/`` folder of a Gymnasium release (envs, wrappers, vector,
utils, spaces, ...) twice with pytest and pytest-xdist: once plain, once with
``GYMSPACES_PATCH=1`` in the environment of pytest and its workers (the
start-up hook ``gymspaces-patch.pth`` then runs Gymnasium's space classes on
gymspaces' kernels). Each pass writes a JUnit XML; every test id
``(classname, name)`` gets a status (passed, failed, error, skipped, xfailed,
xpassed) and pytest's one-line message (exception or skip/xfail reason; not
the traceback, whose frames legitimately differ). A test file with any
difference is run again serially in both modes, and the serial runs decide
for that file: a difference that vanishes serially is xdist flakiness (say,
two workers sharing a folder), one that stays is real.

Before running, a subprocess with each pass's environment must print
``is_patched()`` False plain and True under ``GYMSPACES_PATCH=1`` (after
``import gymnasium``: the hook may patch at that import). A small plugin
(``-p``, written into the work folder) also records, in every pytest process
that imported Gymnasium, whether it was patched at the end of its session, and
marks xpassed tests, which JUnit XML otherwise reports as passed.

Getting Gymnasium's tests (the release's tag; its repository)::

    git clone https://github.com/Farama-Foundation/Gymnasium /tmp/Gymnasium
    mkdir /tmp/gymnasium-1.4.0
    git -C /tmp/Gymnasium archive v1.4.0 tests pyproject.toml \\
        | tar -x -C /tmp/gymnasium-1.4.0

The interpreter needs that Gymnasium release with its test extras (for
1.4.0: ``gymnasium[classic-control,toy-text,box2d,mujoco,array-api,other]``,
``pytest pytest-xdist scipy dill array_api_extra``; jax, torch, ale_py
optionally: tests without them are skipped in both modes), and gymspaces with
its hook. Running::

    python tests/tools/gymnasium_suite.py --tests /tmp/gymnasium-1.4.0
        [-n 2] [--python /path/to/venv/bin/python] [--only spaces wrappers/vector]
        [--json summary.json] [--workdir DIR] [--min-tests 100]

Without a display, Gymnasium's MuJoCo rendering tests fail in both modes (and
``human`` rendering aborts its process). To run them too, put
``MUJOCO_GL=osmesa PYOPENGL_PLATFORM=osmesa xvfb-run -a`` before the command
(Debian: ``apt-get install xvfb xauth libosmesa6 libgl1-mesa-dri``).

Exit status: 0 when no real difference remains, both modes ran the same test
ids, more than ``--min-tests`` of them ran (not skipped) in each mode, and
both patch checks passed; 1 otherwise; 2 when a pass could not be made (no
JUnit XML, pytest's usage or internal error, nothing collected).

Messages are compared after :func:`normalise`, which rewrites only what
changes from run to run by itself: memory addresses, pytest's numbered
temporary folders and xdist worker names, ``tempfile`` names and durations.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

WIDTH = 100
MODES = ("plain", "patched")
STATUSES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
PATCH_VAR = "GYMSPACES_PATCH"
PROBE_VAR = "GYMNASIUM_SUITE_PROBE"
PROBE_MODULE = "gymnasium_suite_probe"
XPASS_PROPERTY = "gymnasium_suite_outcome"

Key = tuple[str, str]  # (classname, name) of a JUnit testcase


@dataclass(frozen=True)
class Outcome:
    """A test's status and its normalised message ("" for a plain pass)."""

    status: str
    message: str = ""

    def describe(self) -> str:
        return f"{self.status}: {self.message}" if self.message else self.status


@dataclass
class Pass:
    """One pytest run in one mode: its results, exit code, time and probe records."""

    label: str
    mode: str
    results: dict[Key, Outcome]
    exit_code: int
    seconds: float
    probes: list[dict] = field(default_factory=list)
    log: str = ""


class RunFailed(Exception):
    """A pytest run that produced nothing to compare (exit status 2)."""


# --- messages ------------------------------------------------------------------------------

_TEMP_DIRS = "|".join(map(re.escape, sorted({tempfile.gettempdir(), "/tmp"})))
_NORMALISERS = [
    # `<X object at 0x7f3a...>`: a new address in every process
    (re.compile(r"0x[0-9a-fA-F]{8,}"), "0x?"),
    # tmp_path: pytest numbers its base folder per run (pytest-of-USER/pytest-12)
    (re.compile(r"(pytest-of-[^/\s]+/pytest-)\d+"), r"\1N"),
    # xdist worker names (popen-gw1 in tmp_path, "worker 'gw0' crashed"): scheduling picks them
    (re.compile(r"\bgw\d+\b"), "gwN"),
    # tempfile.mkdtemp/NamedTemporaryFile names: 'tmp' and 8 random characters
    (re.compile(f"({_TEMP_DIRS})/tmp[a-z0-9_]{{8}}\\b"), r"\1/tmpXXXXXXXX"),
    # durations ("took 1.25s", "in 301 ms"): timing, not behaviour
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ns|us|µs|ms|s|sec|secs|seconds)\b"), "<duration>"),
]


def normalise(message: str) -> str:
    """Rewrite the parts of ``message`` that differ between two runs of the same code.

    Only memory addresses, pytest's per-run temporary folder numbers, xdist worker
    names, ``tempfile`` names and durations: anything else that differs is a difference.
    """
    for pattern, replacement in _NORMALISERS:
        message = pattern.sub(replacement, message)
    return message


# --- JUnit XML -----------------------------------------------------------------------------


def outcome_of(testcase: ET.Element) -> Outcome:
    """The outcome of one ``<testcase>`` element of pytest's JUnit XML.

    A test can carry several results (a failure, then an error at teardown): the
    status is the first of failed, error, xfailed, skipped, and every message is kept.
    """
    kinds, messages = [], []
    for child in testcase:
        if child.tag == "failure":
            kinds.append("failed")
        elif child.tag == "error":
            kinds.append("error")
        elif child.tag == "skipped":
            kinds.append("xfailed" if child.get("type") == "pytest.xfail" else "skipped")
        else:
            continue
        messages.append(child.get("message", ""))
    if not kinds:
        # JUnit XML has no xpassed: the probe plugin leaves a property on such a testcase
        xpassed = any(
            prop.get("name") == XPASS_PROPERTY and prop.get("value") == "xpassed"
            for prop in testcase.iter("property")
        )
        return Outcome("xpassed" if xpassed else "passed")
    status = next(s for s in ("failed", "error", "xfailed", "skipped") if s in kinds)
    return Outcome(status, normalise(" | ".join(messages)))


def parse_junit(path: str | Path) -> dict[Key, Outcome]:
    """Every testcase of a JUnit XML file, keyed by ``(classname, name)``.

    A key seen twice (two test files mangled to the same dotted name) gets ``#2``...
    appended to its name, so that no result is dropped.
    """
    results: dict[Key, Outcome] = {}
    for testcase in ET.parse(path).getroot().iter("testcase"):
        classname, name = testcase.get("classname", ""), testcase.get("name", "")
        key, copy = (classname, name), 1
        while key in results:
            copy += 1
            key = (classname, f"{name}#{copy}")
        results[key] = outcome_of(testcase)
    return results


def file_of(key: Key, root: str | Path) -> str | None:
    """The test file (relative to ``root``, with ``/``) that a JUnit key came from.

    pytest writes ``tests/envs/test_x.py::TestC::test_y[a.b]`` as classname
    ``tests.envs.test_x.TestC`` and name ``test_y[a.b]``; a collection error has an
    empty classname and the dotted file as name. The longest dotted prefix naming a
    file under ``root`` wins. None when there is none (the test cannot be rerun).
    """
    classname, name = key
    parts = (classname or name.split("[", 1)[0]).split(".")
    for end in range(len(parts), 0, -1):
        if Path(root, *parts[:end - 1], parts[end - 1] + ".py").is_file():
            return "/".join(parts[:end]) + ".py"
    return None


def display_id(key: Key, root: str | Path) -> str:
    """A pytest-like id for display: ``tests/x/test_y.py::Class::test_z[p]``."""
    classname, name = key
    path = file_of(key, root)
    if path is None:
        return f"{classname}::{name}" if classname else name
    module = path[:-3].replace("/", ".")
    inner = [part for part in classname[len(module):].split(".") if part]
    return "::".join([path, *inner] + ([name] if classname else []))


def differences(
    plain: dict[Key, Outcome], patched: dict[Key, Outcome]
) -> dict[Key, tuple[Outcome | None, Outcome | None]]:
    """Keys whose outcome differs, or that only one mode ran (None on the other side)."""
    return {
        key: (plain.get(key), patched.get(key))
        for key in sorted(set(plain) | set(patched))
        if plain.get(key) != patched.get(key)
    }


def counts(results: dict[Key, Outcome]) -> dict[str, int]:
    tally = dict.fromkeys(STATUSES, 0)
    for outcome in results.values():
        tally[outcome.status] += 1
    return tally


def check_probes(mode: str, probes: list[dict]) -> str | None:
    """None if every pytest process that imported Gymnasium was patched as its mode says."""
    seen = [record for record in probes if record.get("gymnasium")]
    want = mode == "patched"
    wrong = [record for record in seen if record.get("patched") is not want]
    if wrong:
        return f"{mode}: {len(wrong)} of {len(seen)} processes not patched as wanted: {wrong[:3]}"
    if want and not seen:
        return f"{mode}: no pytest process reported having imported Gymnasium"
    return None


# --- running -------------------------------------------------------------------------------

PROBE_SOURCE = f'''\
"""Written by gymspaces' tests/tools/gymnasium_suite.py: marks xpassed tests, records patching."""
import json
import os
import sys

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    report = (yield).get_result()
    # JUnit XML writes an xpassed test as passed; the teardown report carries this property there
    if report.when == "call" and report.passed and hasattr(report, "wasxfail"):
        item.user_properties.append(({XPASS_PROPERTY!r}, "xpassed"))


def pytest_sessionfinish(session):
    folder = os.environ.get({PROBE_VAR!r})
    if not folder:
        return
    record = {{"pid": os.getpid(), "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
              "gymnasium": "gymnasium" in sys.modules, "patched": None}}
    if record["gymnasium"]:  # imported only now, after the last test: it changes no result
        try:
            import gymspaces.gymnasium

            record["patched"] = bool(gymspaces.gymnasium.is_patched())
        except Exception as error:
            record["patched"] = f"{{type(error).__name__}}: {{error}}"
    with open(os.path.join(folder, f"{{os.getpid()}}.json"), "w") as out:
        json.dump(record, out)
'''

CHECK_SOURCE = """\
import json, sys
import gymnasium  # first: the hook may patch when Gymnasium is imported
import gymspaces.gymnasium as g
import gymspaces, numpy
print(json.dumps({"patched": g.is_patched(), "gymnasium": gymnasium.__version__,
                  "numpy": numpy.__version__, "python": sys.version.split()[0],
                  "gymspaces": getattr(gymspaces, "__version__", "?"),
                  "gymspaces_at": gymspaces.__path__[0]}))
"""


def environment(mode: str, plugin_dir: Path) -> dict[str, str]:
    """The environment of a pass: the caller's, with patch mode on or off, the probe importable."""
    env = dict(os.environ)
    env.pop(PATCH_VAR, None)
    if mode == "patched":
        env[PATCH_VAR] = "1"
    # An outer pytest's worker identity (when this tool runs inside a test) is not ours
    for name in list(env):
        if name.startswith("PYTEST_XDIST_") or name == "PYTEST_CURRENT_TEST":
            del env[name]
    # Tests parametrized over sets or dicts collect in hash order: one order for every run
    env.setdefault("PYTHONHASHSEED", "0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugin_dir), env.get("PYTHONPATH")]))
    return env


def check_patching(python: str, root: Path, plugin_dir: Path) -> tuple[dict[str, dict], list[str]]:
    """Ask ``python`` in each mode's environment whether Gymnasium is patched.

    Returns each mode's answer (``patched``, versions) and the problems found.
    """
    answers, problems = {}, []
    for mode in MODES:
        done = subprocess.run(
            [python, "-c", CHECK_SOURCE], check=False, cwd=root, env=environment(mode, plugin_dir),
            capture_output=True, text=True, timeout=600,
        )
        try:
            answers[mode] = json.loads(done.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            problems.append(f"{mode}: the check printed no answer (exit {done.returncode}): "
                            f"{done.stderr.strip()[-500:]}")
            continue
        if answers[mode]["patched"] is not (mode == "patched"):
            problems.append(f"{mode}: is_patched() is {answers[mode]['patched']}")
    return answers, problems


def run_pytest(
    options: argparse.Namespace, root: Path, workdir: Path, mode: str, label: str,
    targets: list[str], workers: int,
) -> Pass:
    """One pytest run of ``targets`` in ``mode``; ``workers`` 0: in-process, one test at a time."""
    stem = workdir / f"{label}-{mode}"
    xml, probe_dir = stem.with_suffix(".xml"), workdir / f"{label}-{mode}-probe"
    probe_dir.mkdir()
    xml.unlink(missing_ok=True)
    command = [
        options.python, "-m", "pytest", "-p", "no:cacheprovider", "-p", PROBE_MODULE,
        "--rootdir", str(root), f"--junitxml={xml}", "-q", "-n", str(workers),
        # a test file that fails to import must not stop the other files from running
        "--continue-on-collection-errors", *options.pytest_arg, *targets,
    ]
    env = environment(mode, workdir)
    env[PROBE_VAR] = str(probe_dir)
    started = time.perf_counter()
    with open(stem.with_suffix(".log"), "w") as log:
        log.write(" ".join(command) + "\n")
        log.flush()
        code = subprocess.run(
            command, check=False, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT
        ).returncode
    seconds = time.perf_counter() - started
    if code == 5:
        raise RunFailed(f"{label} {mode}: pytest collected no test (see {stem}.log)")
    if code not in (0, 1) or not xml.is_file():
        raise RunFailed(f"{label} {mode}: pytest exited {code}, JUnit XML "
                        f"{'written' if xml.is_file() else 'missing'} (see {stem}.log)")
    probes = [json.loads(path.read_text()) for path in sorted(probe_dir.glob("*.json"))]
    return Pass(label, mode, parse_junit(xml), code, seconds, probes, f"{stem}.log")


def run_both(options, root, workdir, label, targets, workers, say) -> dict[str, Pass]:
    passes = {}
    for mode in MODES:
        say(f"{label} {mode}: running {len(targets)} target(s), -n {workers} ...")
        passes[mode] = run_pytest(options, root, workdir, mode, label, targets, workers)
        done = passes[mode]
        say(f"{label} {mode}: {len(done.results)} test ids, exit {done.exit_code}, "
            f"{done.seconds:.1f} s")
    return passes


# --- reporting -----------------------------------------------------------------------------


def wrap(text: str, indent: str = "", limit: int = 0) -> list[str]:
    """``text`` as lines of at most WIDTH columns; ``limit`` > 0 caps the count."""
    lines = []
    for line in text.splitlines() or [""]:
        lines += textwrap.wrap(
            line, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
            break_long_words=True, break_on_hyphens=False, drop_whitespace=False,
        ) or [indent]
    if limit and len(lines) > limit:
        lines = lines[:limit] + [f"{indent}... ({len(lines) - limit} more lines: see --json)"]
    return [line.rstrip() for line in lines]


def describe_differences(diffs, root, show: int) -> list[str]:
    lines = []
    for key, (plain, patched) in list(diffs.items())[:show]:
        lines += wrap(display_id(key, root), "  ")
        for mode, outcome in (("plain", plain), ("patched", patched)):
            text = outcome.describe() if outcome else "(not run)"
            lines += wrap(f"{mode + ':':9}{text}", "      ", limit=8)
    if len(diffs) > show:
        lines.append(f"  ... and {len(diffs) - show} more (see --json)")
    return lines


def kinds(diffs) -> list[str]:
    """The differences grouped by both outcomes' first lines, largest group first."""
    def short(outcome: Outcome | None) -> str:
        return outcome.describe().splitlines()[0][:80] if outcome else "(not run)"

    groups: dict[tuple[str, str], int] = {}
    for plain, patched in diffs.values():
        group = (short(plain), short(patched))
        groups[group] = groups.get(group, 0) + 1
    lines = []
    for (plain, patched), count in sorted(groups.items(), key=lambda item: -item[1]):
        lines += [f"  {count:5d} x plain:   {plain}", f"{'':10}patched: {patched}"]
    return lines


def count_table(columns: dict[str, dict[Key, Outcome]]) -> list[str]:
    tallies = {name: counts(results) for name, results in columns.items()}
    lines = ["  status   " + "".join(f"{name:>18}" for name in columns)]
    for status in STATUSES:
        row = "".join(f"{tally[status]:>18}" for tally in tallies.values())
        lines.append(f"  {status:9}{row}")
    lines.append(f"  {'total':9}" + "".join(f"{len(results):>18}" for results in columns.values()))
    return lines


def as_json(diffs, root) -> list[dict]:
    def outcome(outcome: Outcome | None) -> dict | None:
        return None if outcome is None else {"status": outcome.status, "message": outcome.message}

    return [
        {"id": display_id(key, root), "classname": key[0], "name": key[1],
         "plain": outcome(plain), "patched": outcome(patched)}
        for key, (plain, patched) in diffs.items()
    ]


# --- the command ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Run Gymnasium's own test suite plain and under GYMSPACES_PATCH=1; compare.")
    parser.add_argument("--tests", required=True, metavar="DIR",
                        help="folder holding Gymnasium's tests/ (the rootdir of the runs)")
    parser.add_argument("-n", dest="workers", type=int, default=2, help="xdist workers (default 2)")
    parser.add_argument("--python", default=sys.executable, help="interpreter to run pytest with")
    parser.add_argument("--only", nargs="+", metavar="SUBDIR", default=[],
                        help="only these folders or files of tests/ (e.g. spaces wrappers/vector)")
    parser.add_argument("--json", metavar="OUT", help="write a summary here")
    parser.add_argument("--workdir", help="folder for JUnit XMLs and logs (default: a new one)")
    parser.add_argument("--min-tests", type=int, default=100,
                        help="fail unless more test ids than this ran (not skipped) in each mode")
    parser.add_argument("--show", type=int, default=100, help="differences listed per list")
    parser.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                        help="extra pytest argument for every run, both modes (repeatable)")
    return parser.parse_args(argv)


def run(options: argparse.Namespace, check_patch: bool = True, out=None) -> tuple[int, dict]:
    """Run both modes, rerun differing files serially, report; returns (exit status, summary).

    ``check_patch=False`` skips both patch checks: for testing the comparison on a
    folder of tests that does not use Gymnasium. The command line always checks.
    """
    out = out or sys.stdout

    def say(text: str = "", indent: str = "") -> None:
        for line in wrap(text, indent):
            print(line, file=out, flush=True)

    root = Path(options.tests).resolve()
    if not (root / "tests").is_dir():
        say(f"error: {root} holds no tests/ folder")
        return 2, {}
    targets = []
    for only in options.only or [""]:
        target = Path("tests", only.removeprefix("tests/").strip("/")).as_posix()
        if not (root / target).exists():
            say(f"error: {root / target} does not exist")
            return 2, {}
        targets.append(target)
    workdir = Path(options.workdir or tempfile.mkdtemp(prefix="gymnasium-suite-")).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / f"{PROBE_MODULE}.py").write_text(PROBE_SOURCE)
    problems: list[str] = []
    summary: dict = {"tests": str(root), "targets": targets, "workers": options.workers,
                     "python": options.python, "workdir": str(workdir)}

    if check_patch:
        answers, found = check_patching(options.python, root, workdir)
        summary["check"] = answers
        if "plain" in answers:
            a = answers["plain"]
            say(f"Gymnasium {a['gymnasium']}, numpy {a['numpy']}, Python {a['python']}, "
                f"gymspaces {a['gymspaces']} at {a['gymspaces_at']}")
        said = "; ".join(f"{mode} {answer['patched']}" for mode, answer in answers.items())
        say(f"patch check, is_patched() after import gymnasium: {said or 'no answer'}")
        if found:
            for problem in found:
                say(f"PROBLEM: {problem}")
            say("the patched run would not be patched (or the plain one would be): stopping")
            summary.update(ok=False, problems=found)
            _write_json(options, summary)
            return 1, summary
    say(f"tests: {root} ({' '.join(targets)}); work folder: {workdir}")

    try:
        parallel = run_both(options, root, workdir, "parallel", targets, options.workers, say)
        first = differences(parallel["plain"].results, parallel["patched"].results)
        files = sorted({f for f in (file_of(key, root) for key in first) if f})
        serial: dict[str, Pass] = {}
        if files:
            say(f"{len(first)} test ids differ in {len(files)} file(s): rerunning those serially")
            try:
                serial = run_both(options, root, workdir, "serial", files, 0, say)
            except RunFailed as error:
                # A test that kills its process (a crash in compiled code, MuJoCo without a
                # display) ends an in-process run: one xdist worker still runs one test at a
                # time, and a crash takes only the worker down
                say(f"{error}; again with one xdist worker")
                serial = run_both(options, root, workdir, "serial-1", files, 1, say)
    except RunFailed as error:
        say(f"error: {error}")
        summary.update(ok=False, problems=[str(error)])
        _write_json(options, summary)
        return 2, summary

    final = {}
    for mode in MODES:
        kept = {k: v for k, v in parallel[mode].results.items() if file_of(k, root) not in files}
        final[mode] = kept | (serial[mode].results if serial else {})
    real = differences(final["plain"], final["patched"])
    flaky = {key: both for key, both in first.items() if key not in real}

    if check_patch:
        for run_pass in [*parallel.values(), *serial.values()]:
            problem = check_probes(run_pass.mode, run_pass.probes)
            if problem:
                problems.append(f"{run_pass.label} {problem}")
        say("worker probes: " + ("every pytest process patched as its mode says" if not problems
                                 else "WRONG"))
    ids = {mode: set(final[mode]) for mode in MODES}
    if ids["plain"] != ids["patched"]:
        problems.append(f"the modes ran different test ids: {len(ids['plain'] - ids['patched'])} "
                        f"only plain, {len(ids['patched'] - ids['plain'])} only patched")
    for mode in MODES:
        ran = sum(outcome.status != "skipped" for outcome in final[mode].values())
        if ran <= options.min_tests:
            problems.append(f"{mode}: only {ran} tests ran (not skipped); expected more than "
                            f"{options.min_tests}")
    if real:
        problems.append(f"{len(real)} real difference(s)")

    say()
    say("per status (parallel pass):")
    for line in count_table({m: parallel[m].results for m in MODES}):
        say(line)
    if serial:
        say(f"after the serial reruns of {len(files)} file(s):")
        for line in count_table(final):
            say(line)
    passes = [*parallel.values(), *serial.values()]
    say(f"test ids: {len(final['plain'])} plain, {len(final['patched'])} patched; wall time: "
        + ", ".join(f"{p.label} {p.mode} {p.seconds:.0f} s" for p in passes))
    say(f"flaky (differed in the parallel pass, not serially): {len(flaky)}")
    for line in describe_differences(flaky, root, options.show):
        say(line)
    say(f"real differences: {len(real)}")
    if len(real) > 1:
        for line in kinds(real)[:20]:  # ten groups
            say(line)
    for line in describe_differences(real, root, options.show):
        say(line)
    for problem in problems:
        say(f"PROBLEM: {problem}")
    ok = not problems
    say("verdict: " + ("OK" if ok else "FAILED"))

    summary.update(
        ok=ok, problems=problems, test_ids=len(final["plain"]), rerun_files=files,
        passes=[{"label": p.label, "mode": p.mode, "exit": p.exit_code,
                 "seconds": round(p.seconds, 1), "test_ids": len(p.results),
                 "counts": counts(p.results), "probes": p.probes, "log": p.log} for p in passes],
        counts={mode: counts(final[mode]) for mode in MODES},
        real=as_json(real, root), flaky=as_json(flaky, root),
    )
    _write_json(options, summary)
    return (0 if ok else 1), summary


def _write_json(options: argparse.Namespace, summary: dict) -> None:
    if options.json:
        Path(options.json).write_text(json.dumps(summary, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))[0]


if __name__ == "__main__":
    sys.exit(main())
