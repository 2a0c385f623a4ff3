"""pytest side of the patched-vs-plain comparison (:mod:`support.capture`).

Two variables, both required, select it::

    GYMSPACES_TEST_CAPTURE=<file> GYMSPACES_TEST_CAPTURE_MODE=write    # unpatched session
    GYMSPACES_TEST_CAPTURE=<file> GYMSPACES_TEST_CAPTURE_MODE=compare  # usually patched

``write`` refuses a patched session and overwrites ``<file>`` when the session
ends; ``compare`` refuses a missing or unfinished file. Both need
``PYTHONHASHSEED`` set to a number (the same one): the order of a set of
strings -- a ``Text`` charset given as a set -- depends on it.

In compare mode a test fails (``pytest.fail``, no traceback into the plugin)
at the end of its call phase when one of its records differs from the
capture, when it makes more or fewer helper calls than the capture holds for
it (for a test that passed in the write pass), or when it is not in the
capture at all. Every difference is also listed, grouped, in the
terminal summary, and the session fails if any was found (a test marked xfail
cannot hide one). ``GYMSPACES_TEST_CAPTURE_REPORT=<file.json>`` writes the
full list.

Both passes may run on several processes with pytest-xdist, one file per
worker (``-n 2 --dist loadfile``: each module then runs whole, in its order,
in one process, so module fixtures and the records keyed by node id are the
same in both passes; other ``--dist`` modes are refused). Each worker writes
its part (``<file>.<worker>``) and its summary; the controlling process
merges the parts into ``<file>`` (write) or sums the summaries and fails the
session on any difference (compare).
"""

from __future__ import annotations

import functools
import json
import os
import pickle
import platform
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from support import capture

FILE_ENV = "GYMSPACES_TEST_CAPTURE"
MODE_ENV = "GYMSPACES_TEST_CAPTURE_MODE"
REPORT_ENV = "GYMSPACES_TEST_CAPTURE_REPORT"
MAGIC = "gymspaces-test-capture"
FORMAT = 1
SHOWN_PER_TEST = 5
EXAMPLES_PER_GROUP = 1


def _environment() -> dict[str, str]:
    import gymnasium

    import gymspaces

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "gymnasium": gymnasium.__version__,
        "gymspaces": gymspaces.__version__,
        "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""),
        "GYMSPACES_FUZZ_SCALE": os.environ.get("GYMSPACES_FUZZ_SCALE", ""),
    }


def _settings() -> tuple[str, Path] | None:
    path, mode = os.environ.get(FILE_ENV, ""), os.environ.get(MODE_ENV, "")
    if not path and not mode:
        return None
    if not path or mode not in ("write", "compare"):
        raise pytest.UsageError(
            f"{FILE_ENV}=<file> and {MODE_ENV}=write|compare go together "
            f"(got {FILE_ENV}={path!r}, {MODE_ENV}={mode!r})")
    return mode, Path(path).absolute()  # the session may run from another folder (tests/conftest.py)


def configure(config: pytest.Config) -> None:
    """Registers the plugin when the variables ask for it: called from ``tests/conftest.py``,
    or as this module's ``pytest_configure`` (``-p support.capture_plugin``, for a session
    outside the suite, such as the tests of this mechanism)."""
    settings = _settings()
    if settings is None or config.pluginmanager.has_plugin("gymspaces-capture"):
        return
    mode, path = settings
    seed = os.environ.get("PYTHONHASHSEED", "")
    if not seed.isdigit():
        raise pytest.UsageError(
            f"{FILE_ENV} needs PYTHONHASHSEED set to a number in both passes (the same one): "
            f"set iteration order, e.g. a Text charset given as a set, depends on it (got {seed!r})")
    from gymspaces.gymnasium import is_patched

    if mode == "write" and is_patched():
        raise pytest.UsageError(
            f"{MODE_ENV}=write records plain Gymnasium: run it without GYMSPACES_TEST_PATCHED "
            "(and without GYMSPACES_PATCH)")
    workers = config.getoption("numprocesses", None)
    if workers and config.getoption("dist", "no") != "loadfile":
        raise pytest.UsageError(
            f"{FILE_ENV} with pytest-xdist needs --dist loadfile: each module must run whole, in "
            f"order, in one process in both passes (got --dist {config.getoption('dist', 'no')})")
    plugin = CapturePlugin(mode, path, patched=is_patched(), distributed=bool(workers))
    config.pluginmanager.register(plugin, "gymspaces-capture")


pytest_configure = configure


class CapturePlugin:
    def __init__(self, mode: str, path: Path, *, patched: bool, distributed: bool = False):
        self.mode, self.path, self.patched = mode, path, patched
        # Under pytest-xdist: a worker's id ("gw0"...), and whether this is the
        # controlling process (which runs no test, and gathers the workers' parts).
        self.worker = os.environ.get("PYTEST_XDIST_WORKER")
        self.controller = distributed and self.worker is None
        self.header: dict[str, Any] = {}
        self.chunks: dict[str, bytes] = {}
        self.interrupted = False
        captured: dict[str, Callable[[], capture.CapturedTest]] | None = None
        if mode == "compare":
            self.header, self.chunks = read(path)
            mine = _environment()
            differing = {k: (self.header["environment"].get(k), v) for k, v in mine.items()
                         if k != "gymspaces" and self.header["environment"].get(k) != v}
            if differing:
                raise pytest.UsageError(
                    f"{path} was captured in another environment (captured, now): {differing}")
            captured = {nodeid: functools.partial(_decode, blob) for nodeid, blob in self.chunks.items()}
        self.recorder = capture.Recorder(mode, captured)

    # ----------------------------------------------------------------- lifecycle

    def pytest_configure(self, config: pytest.Config) -> None:
        capture.RECORDER = self.recorder
        _install_entropy_hook()
        if self.controller:  # before any worker starts: no part of an earlier session is gathered
            for stale in _parts(self.path):
                stale.unlink()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        _remove_entropy_hook()
        capture.RECORDER = None

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: Any) -> Any:
        self.recorder.begin(item.nodeid)
        try:
            return (yield)
        finally:
            self.recorder.finish()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Any:
        try:
            result = yield
        except BaseException as exc:
            self.recorder.end_call()
            found = self.recorder.check("call")
            if found:
                exc.add_note(_message(found, "also, patched outcomes differ from the unpatched capture"))
            raise
        self.recorder.end_call()
        _fail(self.recorder.check("call"))
        return result

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: Any) -> Any:
        result = yield
        _fail(self.recorder.check("teardown"))
        return result

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed or report.skipped or hasattr(report, "wasxfail"):
            self.recorder.mark_incomplete()

    def pytest_keyboard_interrupt(self) -> None:
        self.interrupted = True

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self.controller:
            self._gather()
        elif self.worker is not None:
            self._write_part()
            return
        if self.mode == "write":
            if self.interrupted:
                return  # an interrupted capture is not written: compare would miss tests
            header = {"magic": MAGIC, "format": FORMAT, "environment": _environment(),
                      "args": list(session.config.invocation_params.args),
                      "counters": vars(self.recorder.counters).copy()}
            written = {nodeid: _encode(test) for nodeid, test in self.recorder.written.items()}
            write(self.path, header, {**self.chunks, **written} if self.controller else written)
            return
        if self.recorder.mismatches and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        report_path = os.environ.get(REPORT_ENV)
        if report_path:
            Path(report_path).write_text(json.dumps([
                {"nodeid": m.nodeid, "ordinal": m.ordinal, "label": m.label, "part": m.difference.part,
                 "group": m.difference.group, "plain": m.difference.plain, "patched": m.difference.patched}
                for m in self.recorder.mismatches], indent=1))

    # ------------------------------------------------------------ pytest-xdist

    def _write_part(self) -> None:
        """A worker's records (write) and its summary, for the controller to gather."""
        recorder = self.recorder
        part = {"counters": vars(recorder.counters).copy(), "mismatches": recorder.mismatches,
                "seen": recorder.seen, "interrupted": self.interrupted,
                "tests": {nodeid: _encode(test) for nodeid, test in recorder.written.items()}}
        target = self.path.with_name(f"{self.path.name}.{self.worker}")
        with open(target.with_name(target.name + ".partial"), "wb") as f:
            pickle.dump(part, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(target.with_name(target.name + ".partial"), target)

    def _gather(self) -> None:
        """The workers' parts summed into this (controlling) process's recorder."""
        recorder = self.recorder
        for path in _parts(self.path):
            with open(path, "rb") as f:
                part = pickle.load(f)
            path.unlink()
            for name, value in part["counters"].items():
                setattr(recorder.counters, name, getattr(recorder.counters, name) + value)
            recorder.mismatches.extend(part["mismatches"])
            recorder.seen |= part["seen"]
            self.interrupted = self.interrupted or part["interrupted"]
            if self.mode == "write":
                self.chunks.update(part["tests"])

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        c = self.recorder.counters
        write_line = terminalreporter.write_line
        terminalreporter.section(f"patched-vs-plain capture ({self.mode})")
        calls = c.records - c.entropy_records
        if self.mode == "write":
            size = self.path.stat().st_size if self.path.exists() else 0
            write_line(f"{self.path}: {calls} helper records from {c.tests_with_records} of {c.tests} tests, "
                       f"{calls - c.excluded_entropy} comparable, {c.excluded_entropy} placeholders (made after "
                       f"a thread drew OS entropy, in {c.tests_with_entropy} tests); {c.entropy_records} "
                       f"entropy draws pinned to the node id; {c.incomplete_tests} tests did not pass (their "
                       f"record counts are not binding); {size / 1e6:.1f} MB")
        else:
            session = "patched" if self.patched else "UNPATCHED (a determinism check: expect no difference)"
            write_line(f"{self.path} against this {session} session: {calls} helper records in "
                       f"{c.tests_with_records} of {c.tests} tests; {c.compared} compared ({c.identical} "
                       f"identical), {c.excluded_entropy} excluded (a thread drew OS entropy in the plain run), "
                       f"{c.excluded_patched_entropy} excluded (in the patched run), {c.not_compared} not "
                       f"compared (beyond an unfinished capture, or after the calls diverged); "
                       f"{c.entropy_records} pinned entropy draws")
            missing = len(set(self.chunks) - self.recorder.seen)
            if missing:
                write_line(f"{missing} captured tests did not run in this session (another selection?)")
        if c.outside_tests or c.entropy_outside_tests or c.entropy_other_threads:
            write_line(f"outside the tests' own thread: {c.outside_tests} helper calls not recorded; "
                       f"entropy draws: {c.entropy_outside_tests} outside tests (pinned), "
                       f"{c.entropy_other_threads} in other threads (from the OS)")
        mismatches = self.recorder.mismatches
        if self.mode == "compare":
            write_line(f"{len(mismatches)} differences in {len({m.nodeid for m in mismatches})} tests"
                       + (":" if mismatches else ""))
        groups: dict[str, list[capture.Mismatch]] = defaultdict(list)
        for mismatch in mismatches:
            groups[mismatch.difference.group].append(mismatch)
        for group, members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            files = Counter(m.nodeid.split("::")[0] for m in members)
            write_line(f"  {len(members):6d} x {group}  [{len({m.nodeid for m in members})} tests; "
                       + ", ".join(f"{f} {n}" for f, n in files.most_common(4)) + "]")
            for example in members[:EXAMPLES_PER_GROUP]:
                write_line("         e.g. " + example.describe().replace("\n", "\n         "))


def _parts(path: Path) -> list[Path]:
    """The workers' parts of the capture ``path`` (``<file>.gw0``, ...)."""
    return sorted(path.parent.glob(f"{path.name}.gw*[0-9]"))


def _fail(found: list[capture.Mismatch]) -> None:
    if found:  # the message says it all: no traceback into this plugin
        pytest.fail(_message(found, "patched outcomes differ from the unpatched capture"), pytrace=False)


def _message(found: list[capture.Mismatch], title: str) -> str:
    lines = [f"{title}: {len(found)} difference(s)"]
    lines += [m.describe() for m in found[:SHOWN_PER_TEST]]
    if len(found) > SHOWN_PER_TEST:
        lines.append(f"... and {len(found) - SHOWN_PER_TEST} more")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the file


def _encode(test: capture.CapturedTest) -> bytes:
    return zlib.compress(pickle.dumps(
        (test.records, test.entropy_at, test.call_end, test.complete), protocol=pickle.HIGHEST_PROTOCOL), 6)


def _decode(blob: bytes) -> capture.CapturedTest:
    return capture.CapturedTest(*pickle.loads(zlib.decompress(blob)))


def write(path: Path, header: dict, chunks: dict[str, bytes]) -> None:
    """One pickle: the header and every test's compressed records; replaced atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as f:
        pickle.dump({"header": header, "tests": chunks, "complete": True}, f, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)


def read(path: Path) -> tuple[dict, dict[str, bytes]]:
    """The capture written by a finished write pass (the file is trusted: CI writes it)."""
    if not path.exists():
        raise pytest.UsageError(f"{MODE_ENV}=compare: {path} does not exist; run the write pass first")
    try:
        with open(path, "rb") as f:
            data = pickle.load(f)
        header = data["header"]
        ok = header.get("magic") == MAGIC and data.get("complete") is True
    except Exception as exc:  # noqa: BLE001 - any unreadable file
        raise pytest.UsageError(f"{path} is not a capture file: {exc!r}") from exc
    if not ok:
        raise pytest.UsageError(f"{path} is not a finished capture file")
    if header.get("format") != FORMAT:
        raise pytest.UsageError(f"{path} has capture format {header.get('format')}, expected {FORMAT}")
    return header, data["tests"]


# --------------------------------------------------------------------------- OS entropy


_original_randbits: Any = None


def _install_entropy_hook() -> bool:
    """Pin OS entropy for whichever recorder is installed (see
    :meth:`support.capture.Recorder.entropy`): numpy's ``SeedSequence()`` (so ``default_rng()``,
    a space's lazy ``np_random``, ...) draws it through ``numpy.random.bit_generator.randbits``,
    a module global looked up at each call. False if the hook was already there."""
    global _original_randbits
    import numpy.random.bit_generator as bit_generator

    if _original_randbits is not None:
        return False
    original = _original_randbits = bit_generator.randbits  # type: ignore[attr-defined]

    def randbits(k: int) -> int:
        recorder = capture.RECORDER
        pinned = None if recorder is None else recorder.entropy(k)
        return original(k) if pinned is None else pinned

    bit_generator.randbits = randbits  # type: ignore[attr-defined]
    # The hook must see numpy's own draws: two fresh recorders pin the same seeds.
    session = capture.RECORDER
    try:
        probes = []
        for _ in range(2):
            capture.RECORDER = capture.Recorder("write")
            probes.append([np.random.SeedSequence().entropy for _ in range(2)])
    finally:
        capture.RECORDER = session
    if probes[0] != probes[1]:
        _remove_entropy_hook()
        raise pytest.UsageError("numpy no longer draws entropy through bit_generator.randbits: "
                                "update support/capture_plugin.py")
    return True


def _remove_entropy_hook() -> None:
    global _original_randbits
    if _original_randbits is not None:
        import numpy.random.bit_generator as bit_generator

        bit_generator.randbits = _original_randbits  # type: ignore[attr-defined]
        _original_randbits = None


__all__ = ["configure", "CapturePlugin", "read", "write"]
