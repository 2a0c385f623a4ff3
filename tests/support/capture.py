"""Patched-vs-plain comparison: what Gymnasium did unpatched, recorded, then checked patched.

In a session with ``GYMSPACES_TEST_PATCHED=1`` Gymnasium's ``sample`` (and
``contains``, the flatten family, the vector helpers) *is* gymspaces' kernel,
so a differential test compares the kernel with itself. This module lets two
runs of the same tests close that gap (issue #23):

* the **write** pass (unpatched) records what every differential helper saw:
  each :func:`~support.differential.outcome` (value or exception, warnings, and
  the generator state when the helper holds the space), and the Gymnasium side
  of ``assert_same_value`` / ``assert_same_generator_state`` /
  ``assert_same_tree_states`` / ``seeded_pair``;
* the **compare** pass (patched) makes the same calls in the same order and
  compares each with the plain record, exactly: type, dtype (byte order
  included), shape and bytes of values through containers; exception class
  (``module.qualname``, so ``gymspaces.error.Error`` is not
  ``gymnasium.error.Error``) and message; warnings (category, message, and the
  file and line they are attributed to); generator states.

Records are keyed by pytest node id and their ordinal within the test: the
suite is deterministic (Hypothesis runs derandomized, the hash seed is pinned
by ``PYTHONHASHSEED``) except for unseeded spaces, whose generators numpy seeds
from OS entropy. That entropy is pinned instead of excluded: numpy draws every
entropy seed through ``numpy.random.bit_generator.randbits``, which a capture
session replaces with a digest of the node id and the draw's ordinal, so an
unseeded space draws the same stream in both passes; each draw is a record
itself, so a patched run that seeds at another point is reported. Only draws in
other threads go to the OS; a test's records made after one are kept as
placeholders (label only) and not compared.

The pytest side (options, the capture file, the summary) is
:mod:`support.capture_plugin`; this module holds the recorder the helpers call
and the exact encoding and comparison of records.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np

TESTS_ROOT = Path(__file__).resolve().parent.parent  # tests/
TREE_ROOT = TESTS_ROOT.parent
_SUPPORT_DIR = str(Path(__file__).resolve().parent) + os.sep
_TESTS_DIR = str(TESTS_ROOT) + os.sep

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}")  # object addresses in reprs and messages
_TEXT_LIMIT = 400
_BYTES_LIMIT = 64
_PREVIEW_BYTES = 32


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


_QUALNAMES: dict[type, str] = {}


def qualname(cls: type) -> str:
    """``module.qualname`` of a class: tells two libraries' same-named classes apart."""
    name = _QUALNAMES.get(cls)
    if name is None:
        name = _QUALNAMES[cls] = f"{cls.__module__}.{cls.__qualname__}"
    return name


# --------------------------------------------------------------------------- encoding


def _text(text: str) -> Any:
    """A string with object addresses blanked; long strings as prefix + digest + length."""
    if "0x" in text:
        text = _ADDRESS.sub("0x?", text)
    if len(text) <= _TEXT_LIMIT:
        return text
    return ("long", text[:200], _digest(text.encode("utf-8", "surrogatepass")), len(text))


def _safe_repr(value: Any) -> Any:
    try:
        return _text(repr(value))
    except Exception as exc:  # noqa: BLE001 - a broken repr is data too
        return f"<repr raised {qualname(type(exc))}>"


def _blob(data: bytes) -> Any:
    """Short byte strings as they are; long ones as digest + length + a prefix to show."""
    if len(data) <= _BYTES_LIMIT:
        return data
    return ("digest", _digest(data), len(data), data[:_PREVIEW_BYTES])


_PY_SCALARS = frozenset({type(None), bool, int, float, complex})
_value_bytes: Callable[[Any], bytes] | None = None


def _array_bytes(array: np.ndarray) -> bytes:
    """The element bytes, as :func:`support.differential.assert_same_value` compares them:
    long double padding left out, and every NaN alike (it compares NaNs as equal)."""
    global _value_bytes
    if _value_bytes is None:
        from support.differential import _value_bytes as value_bytes

        _value_bytes = value_bytes
    if array.dtype.kind in "fc" and array.size:
        nan = np.isnan(array)
        if nan.any():
            array = np.array(array, copy=True)
            array[nan] = np.nan
    return _value_bytes(array)


def _dtype(dtype: np.dtype) -> str:
    return repr(dtype) if dtype.fields else dtype.str


def _is_space(value: Any) -> bool:
    module = type(value).__module__
    return hasattr(value, "_np_random") and module.startswith(("gymnasium.", "gymspaces.", "gym."))


def _space_states(space: Any) -> tuple:
    from support.composite_helpers import generators  # lazy: it imports support.differential

    try:
        return tuple((path, None if gen is None else encode_state(gen)) for path, gen in generators(space))
    except Exception as exc:  # noqa: BLE001 - an odd tree: its repr still counts
        return (f"<generators raised {qualname(type(exc))}>",)


def encode(value: Any, depth: int = 0) -> Any:
    """An exact, comparable and picklable description of ``value``: nested tuples of
    str/bytes/int naming the type (``module.qualname``) at every level."""
    cls = type(value)
    name = qualname(cls)
    if cls in _PY_SCALARS:
        return ("py", name, repr(value))
    if depth > 40:
        return ("deep", name, _safe_repr(value))
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            items = tuple(encode(item, depth + 1) for item in value.ravel())
            return ("array", name, _dtype(value.dtype), value.shape, items)
        return ("array", name, _dtype(value.dtype), value.shape, _blob(_array_bytes(value)))
    if isinstance(value, np.generic):
        if isinstance(value, np.object_):  # pragma: no cover - numpy returns the object itself
            return ("scalar", name, "|O", encode(value.item(), depth + 1))
        return ("scalar", name, _dtype(value.dtype), _blob(_array_bytes(np.asarray(value))))
    if isinstance(value, str):
        return ("str", name, _text(value) if cls is str else _text(str.__str__(value)))
    if isinstance(value, (bytes, bytearray, memoryview)):
        return ("bytes", name, _blob(bytes(value)))
    if isinstance(value, (tuple, list)):
        return ("seq", name, tuple(encode(item, depth + 1) for item in value))
    if isinstance(value, dict):
        return ("map", name, tuple((encode(k, depth + 1), encode(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", name, tuple(sorted((encode(item, depth + 1) for item in value), key=repr)))
    if isinstance(value, np.dtype):
        return ("dtype", name, _dtype(value))
    if isinstance(value, np.random.Generator):
        return ("generator", name, encode_state(value))
    if isinstance(value, np.random.BitGenerator):
        return ("bit_generator", name, encode(value.state, depth + 1))
    if isinstance(value, ctypes.Array):
        return ("ctypes", name, _blob(bytes(memoryview(value).cast("B"))))
    if hasattr(value, "get_obj") and isinstance(getattr(value, "get_obj")(), ctypes.Array):
        return ("ctypes", name, encode(value.get_obj(), depth + 1))  # multiprocessing.Array
    if isinstance(value, BaseException):
        return ("exception", name, _text(str(value)))
    if _is_space(value):
        return ("space", name, _safe_repr(value), _space_states(value))
    return ("object", name, _safe_repr(value))


def encode_state(generator: Any) -> Any:
    """A generator's (or bit generator's) state, PCG64's buffered half-word included."""
    bit_generator = getattr(generator, "bit_generator", generator)
    return ("state", qualname(type(bit_generator)), _state(bit_generator.state))


def _state(part: Any) -> Any:
    """A bit generator's state dict (str keys; int, str and array values) as nested tuples:
    cheaper than :func:`encode` for the most frequent record, and as exact."""
    cls = type(part)
    if cls is dict:
        return tuple((key, _state(value)) for key, value in part.items())
    if cls is int or cls is str:
        return part
    if cls is np.ndarray:
        return (part.dtype.str, part.shape, _blob(part.tobytes()))
    return encode(part)


_ERROR_CLASSES: dict[type, str] = {}


def _error_class(cls: type) -> str:
    """``module.qualname``, marked when it does not import as this very class object (a copy
    of ``gymnasium.error.Error`` with the same name is not ``gymnasium.error.Error``)."""
    name = _ERROR_CLASSES.get(cls)
    if name is None:
        name = qualname(cls)
        try:
            found: Any = sys.modules[cls.__module__]
            for part in cls.__qualname__.split("."):
                found = getattr(found, part)
        except (KeyError, AttributeError):  # a local class: no importable name to compare
            found = cls
        if found is not cls:
            name += " (another class object than the one of that name)"
        _ERROR_CLASSES[cls] = name
    return name


def _where(filename: str) -> str:
    """A warning's file, the same wherever the tree and the environment are."""
    path = filename.replace("\\", "/")
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in path:
            return path.split(marker, 1)[1]
    root = str(TREE_ROOT).replace("\\", "/") + "/"
    if path.startswith(root):
        return path[len(root):]
    return path.rsplit("/", 1)[-1]


def encode_warning(message: Any) -> tuple:
    """``(category, message, file, line)`` of a ``warnings.WarningMessage``."""
    return (qualname(message.category), _text(str(message.message)), _where(message.filename),
            message.lineno)


def encode_outcome(value: Any, error: BaseException | None, caught: list, state_of: Any = None) -> tuple:
    result: tuple
    if error is not None:
        result = ("raised", _error_class(type(error)), _text(str(error)))
    else:
        result = ("returned", encode(value))
    warned = tuple(encode_warning(w) for w in caught)
    state = None
    if state_of is not None:
        generator = getattr(state_of, "_np_random", state_of)
        state = None if generator is None else encode_state(generator)
    return ("outcome", result, warned, state)


# --------------------------------------------------------------------------- rendering


def render(encoded: Any, limit: int = 160) -> str:
    """A short human form of an encoded value."""
    text = _render(encoded)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _render_blob(blob: Any, dtype: str | None = None) -> str:
    if isinstance(blob, tuple) and blob[:1] == ("digest",):
        _, digest, size, prefix = blob
        head = _render_blob(prefix, dtype)
        return f"{head[:-1] if head.endswith(']') else head}, ...] ({size} bytes, digest {digest.hex()[:12]})"
    if dtype is not None:
        try:
            data = np.frombuffer(blob[: len(blob) - len(blob) % np.dtype(dtype).itemsize], dtype)
            return np.array2string(data, separator=", ", threshold=8)
        except (TypeError, ValueError):
            pass
    return repr(blob)


def _render(encoded: Any) -> str:
    if not isinstance(encoded, tuple) or not encoded or not isinstance(encoded[0], str):
        return repr(encoded)
    tag = encoded[0]
    if tag == "long":
        return f"{encoded[1]!r}... ({encoded[3]} chars)"
    if tag == "outcome":
        _, result, warned, state = encoded
        text = _render(result)
        if warned:
            text += f" warning {[w[0].rsplit('.', 1)[-1] + ': ' + render(w[1], 60) for w in warned]}"
        return text
    if tag == "raised":
        return f"raised {encoded[1]}: {render(encoded[2], 120)}"
    if tag == "returned":
        return f"returned {_render(encoded[1])}"
    if tag == "py":
        return encoded[2]
    if tag in ("str", "bytes"):
        return repr(encoded[2]) if isinstance(encoded[2], (str, bytes)) else _render(encoded[2])
    if tag == "array":
        _, name, dtype, shape, body = encoded
        inner = (f"[{', '.join(_render(item) for item in body[:6])}]" if isinstance(body, tuple)
                 and body[:1] != ("digest",) else _render_blob(body, dtype))
        kind = "" if name == "numpy.ndarray" else f"{name} "
        return f"{kind}array({inner}, dtype={dtype}, shape={shape})"
    if tag == "scalar":
        return f"{encoded[1].rsplit('.', 1)[-1]}({_render_blob(encoded[3], encoded[2])[1:-1]})"
    if tag == "seq":
        opening, closing = ("[", "]") if encoded[1] == "builtins.list" else ("(", ")")
        kind = "" if encoded[1] in ("builtins.list", "builtins.tuple") else encoded[1].rsplit(".", 1)[-1]
        return f"{kind}{opening}{', '.join(_render(item) for item in encoded[2][:8])}{closing}"
    if tag == "map":
        return "{" + ", ".join(f"{_render(k)}: {_render(v)}" for k, v in encoded[2][:8]) + "}"
    if tag in ("space", "object", "deep"):
        return _render(encoded[2]) if isinstance(encoded[2], tuple) else str(encoded[2])
    if tag == "state":
        return f"{encoded[1].rsplit('.', 1)[-1]} state {_render(encoded[2])}"
    return repr(encoded)


# --------------------------------------------------------------------------- comparison


@dataclass
class Difference:
    """One way a patched record differs from its plain record."""

    part: str  # what differs: "exception class", "value", "warnings", "generator state", ...
    group: str  # the kind of difference, for the summary's grouping (no per-case numbers)
    plain: str
    patched: str


def _first_difference(plain: Any, patched: Any, path: str = "") -> tuple[str, str, str, str] | None:
    """``(path, aspect, plain, patched)`` of the first place two encodings differ."""
    if plain == patched:
        return None
    at = path or "value"
    if not (isinstance(plain, tuple) and isinstance(patched, tuple) and plain and patched
            and isinstance(plain[0], str) and isinstance(patched[0], str)):
        return at, "content", render(plain), render(patched)
    if plain[0] != patched[0] or (len(plain) > 1 and plain[1] != patched[1]):
        plain_type = plain[1] if len(plain) > 1 else plain[0]
        patched_type = patched[1] if len(patched) > 1 else patched[0]
        if plain_type != patched_type:
            return at, f"type {plain_type} -> {patched_type}", render(plain), render(patched)
    tag = plain[0]
    if tag == "array":
        if plain[2] != patched[2]:
            return at, f"dtype {plain[2]} -> {patched[2]}", render(plain), render(patched)
        if plain[3] != patched[3]:
            return at, "shape", str(plain[3]), str(patched[3])
        if isinstance(plain[4], tuple) and plain[4][:1] != ("digest",) and len(plain[4]) == len(patched[4]):
            for i, (a, b) in enumerate(zip(plain[4], patched[4])):
                found = _first_difference(a, b, f"{at}.flat[{i}]")
                if found:
                    return found
        return at, f"elements ({plain[1].rsplit('.', 1)[-1]} {plain[2]})", render(plain), render(patched)
    if tag == "scalar":
        if plain[2] != patched[2]:
            return at, f"dtype {plain[2]} -> {patched[2]}", render(plain), render(patched)
        return at, f"value ({plain[1]})", render(plain), render(patched)
    if tag == "seq":
        if len(plain[2]) != len(patched[2]):
            return at, f"length ({plain[1]})", str(len(plain[2])), str(len(patched[2]))
        for i, (a, b) in enumerate(zip(plain[2], patched[2])):
            found = _first_difference(a, b, f"{at}[{i}]")
            if found:
                return found
    if tag == "map":
        plain_keys, patched_keys = [k for k, _ in plain[2]], [k for k, _ in patched[2]]
        if plain_keys != patched_keys:
            return at, "keys (order included)", render(("seq", "builtins.list", tuple(plain_keys))), \
                render(("seq", "builtins.list", tuple(patched_keys)))
        for (key, a), (_, b) in zip(plain[2], patched[2]):
            found = _first_difference(a, b, f"{at}[{render(key, 40)}]")
            if found:
                return found
    if tag == "space" and plain[2] == patched[2]:
        return at, "generator states of a space", render(plain[3]), render(patched[3])
    return at, f"{tag} ({plain[1] if len(plain) > 1 else ''})", render(plain), render(patched)


def compare(plain: tuple, patched: tuple) -> list[Difference]:
    """Every part in which two records' payloads differ (empty: identical)."""
    if plain == patched:
        return []
    if plain[0] != "outcome":
        found = _first_difference(plain, patched)
        if found is None:  # pragma: no cover - unequal encodings always differ somewhere
            return [Difference(plain[0], plain[0], render(plain), render(patched))]
        path, aspect, a, b = found
        part = "generator state" if plain[0] == "state" else plain[0]
        return [Difference(part, f"{part}: {aspect}", f"{path} = {a}", f"{path} = {b}")]
    differences = []
    _, plain_result, plain_warned, plain_state = plain
    _, patched_result, patched_warned, patched_state = patched
    if plain_result[0] != patched_result[0]:
        def kind(result: tuple) -> str:
            return f"raised {result[1]}" if result[0] == "raised" else "returned"

        differences.append(Difference(
            "raised vs returned", f"{kind(plain_result)} -> {kind(patched_result)}",
            _render(plain_result), _render(patched_result)))
    elif plain_result[0] == "raised":
        if plain_result[1] != patched_result[1]:
            differences.append(Difference(
                "exception class", f"exception class {plain_result[1]} -> {patched_result[1]}",
                _render(plain_result), _render(patched_result)))
        if plain_result[2] != patched_result[2]:
            differences.append(Difference(
                "exception message", f"exception message of {plain_result[1]}",
                render(plain_result[2], 300), render(patched_result[2], 300)))
    elif plain_result != patched_result:
        found = _first_difference(plain_result[1], patched_result[1])
        assert found is not None
        path, aspect, a, b = found
        differences.append(Difference("value", f"value: {aspect}", f"{path} = {a}", f"{path} = {b}"))
    if plain_warned != patched_warned:
        differences.append(_warnings_difference(plain_warned, patched_warned))
    if plain_state != patched_state:
        differences.append(Difference("generator state", "generator state after the call",
                                      render(plain_state, 300), render(patched_state, 300)))
    return differences


def _warnings_difference(plain: tuple, patched: tuple) -> Difference:
    def show(warned: tuple) -> str:
        runs: list[list] = []  # repeated warnings once, with a count
        for w in warned:
            if runs and runs[-1][0] == w:
                runs[-1][1] += 1
            else:
                runs.append([w, 1])
        return "[" + ", ".join(f"{f'{n} x ' if n > 1 else ''}{w[0].rsplit('.', 1)[-1]}({render(w[1], 100)}) "
                               f"at {w[2]}:{w[3]}" for w, n in runs[:4]) + (", ...]" if len(runs) > 4 else "]")

    plain_categories, patched_categories = [w[0] for w in plain], [w[0] for w in patched]
    if plain_categories != patched_categories:
        short = [c.rsplit(".", 1)[-1] for c in plain_categories]
        group = f"warnings {short} -> {[c.rsplit('.', 1)[-1] for c in patched_categories]}"
    elif [w[1] for w in plain] != [w[1] for w in patched]:
        group = f"warning messages of {sorted(set(plain_categories))}"
    else:
        def site(file: str) -> str:  # outside the libraries: the caller's frame, whichever it is
            return file if file.startswith(("gymnasium/", "gymspaces/", "numpy/")) else "the caller's frame"

        attributed = sorted({f"{site(a[2])} -> {site(b[2])}" for a, b in zip(plain, patched) if a[2:] != b[2:]})
        group = f"warning attribution (file:line) {', '.join(attributed)}"
    return Difference("warnings", group, show(plain), show(patched))


# --------------------------------------------------------------------------- the recorder


@dataclass
class Mismatch:
    """A patched record that differs from (or has no) plain record."""

    nodeid: str
    ordinal: int | None
    label: str
    difference: Difference

    def describe(self) -> str:
        where = "" if self.ordinal is None else f" record #{self.ordinal} ({self.label})"
        d = self.difference
        return (f"{self.nodeid}{where}: {d.part} not as in the unpatched capture\n"
                f"    plain:   {d.plain}\n    patched: {d.patched}")


@dataclass
class CapturedTest:
    """One test's records as the write pass left them."""

    records: list  # (label, kind, payload or None when excluded)
    entropy_at: int | None  # ordinal of the first record made after OS entropy was drawn
    call_end: int  # records made by the end of the call phase
    complete: bool  # setup, call and teardown all passed: the record count is binding


@dataclass
class _Test:
    nodeid: str
    captured: CapturedTest | None = None  # compare mode
    records: list = field(default_factory=list)  # write mode
    count: int = 0
    entropy_draws: int = 0  # pinned entropy draws so far
    entropy_at: int | None = None  # first record after OS entropy reached this test (other threads)
    call_end: int | None = None
    complete: bool = True
    mismatches: list = field(default_factory=list)
    stopped: bool = False  # compare mode: misaligned, later records are not compared
    reported_end: int = 0  # mismatches already raised by a phase check


@dataclass
class Counters:
    records: int = 0  # made in tests
    compared: int = 0
    identical: int = 0
    entropy_records: int = 0  # pinned entropy draws (records of their own, counted in records)
    excluded_entropy: int = 0  # the plain run had drawn OS entropy (another thread) before the record
    excluded_patched_entropy: int = 0  # the patched run had (reported once per test)
    not_compared: int = 0  # beyond an incomplete capture, or after a misalignment
    outside_tests: int = 0  # helper calls outside a test (collection), or in other threads
    entropy_outside_tests: int = 0  # at collection: pinned too, from a session-wide counter
    entropy_other_threads: int = 0  # answered by the OS
    tests: int = 0
    tests_with_records: int = 0
    tests_with_entropy: int = 0
    incomplete_tests: int = 0


def rebuilding_a_generator() -> bool:
    """Whether numpy is rebuilding a bit generator from a copy or a pickle
    (``numpy/random/_pickle.py`` is on the stack): its state is set right after.
    Also asked by :mod:`support.release_outcomes`' entropy hook."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.replace("\\", "/").endswith("numpy/random/_pickle.py"):
            return True
        frame = frame.f_back
    return False


class Recorder:
    """Collects (write) or checks (compare) the records of the running test."""

    def __init__(self, mode: str, captured: dict[str, Callable[[], CapturedTest]] | None = None):
        assert mode in ("write", "compare"), mode
        self.mode = mode
        self.captured = captured or {}
        self.test: _Test | None = None
        self.thread: int | None = None
        self.counters = Counters()
        self.mismatches: list[Mismatch] = []
        self.written: dict[str, CapturedTest] = {}
        self.outside_draws = 0
        self.seen: set[str] = set()

    # ----------------------------------------------------------------- test lifecycle

    def begin(self, nodeid: str) -> None:
        # The key: the node id without object addresses (a parameter's repr in its id would
        # change it per run), numbered if that makes two ids alike.
        key = _ADDRESS.sub("0x?", nodeid)
        if key in self.seen:
            key += f" #{sum(k.startswith(key + ' #') for k in self.seen) + 2}"
        self.test = _Test(key)
        self.thread = threading.get_ident()
        self.seen.add(key)
        self.counters.tests += 1
        if self.mode == "compare":
            load = self.captured.get(nodeid)
            self.test.captured = None if load is None else load()

    def end_call(self) -> None:
        if self.test is not None:
            self.test.call_end = self.test.count

    def mark_incomplete(self) -> None:
        if self.test is not None:
            self.test.complete = False

    def check(self, phase: str) -> list[Mismatch]:
        """Compare mode, after ``phase`` ("call" or "teardown"): the record count, and the
        mismatches not yet reported."""
        test = self.test
        if test is None or self.mode != "compare":
            return []
        captured = test.captured
        if captured is not None and captured.complete and not test.stopped:
            expected = captured.call_end if phase == "call" else len(captured.records)
            if test.count < expected:
                self._mismatch(None, "", Difference(
                    "record count", "fewer helper calls than captured",
                    f"{expected} records by the end of {phase}",
                    f"{test.count} records (the patched run stopped making calls the plain run made)"))
                test.stopped = True
        new = test.mismatches[test.reported_end:]
        test.reported_end = len(test.mismatches)
        return new

    def finish(self) -> None:
        test, self.test = self.test, None
        if test is None:
            return
        if test.count:
            self.counters.tests_with_records += 1
        if test.entropy_at is not None:
            self.counters.tests_with_entropy += 1
        if self.mode == "write":
            if not test.complete:
                self.counters.incomplete_tests += 1
            self.written[test.nodeid] = CapturedTest(
                test.records, test.entropy_at,
                test.count if test.call_end is None else test.call_end, test.complete)

    # ----------------------------------------------------------------- observations

    def _current(self) -> _Test | None:
        if self.test is None or threading.get_ident() != self.thread:
            self.counters.outside_tests += 1
            return None
        return self.test

    def _mismatch(self, ordinal: int | None, label: str, difference: Difference) -> None:
        test = self.test
        assert test is not None
        mismatch = Mismatch(test.nodeid, ordinal, label, difference)
        test.mismatches.append(mismatch)
        self.mismatches.append(mismatch)

    def observe(self, kind: str, payload: Callable[[], tuple]) -> None:
        """One helper observation: ``payload()`` encodes it (called only when needed)."""
        test = self._current()
        if test is None:
            return
        label = _label()
        ordinal = test.count
        test.count += 1
        self.counters.records += 1
        if kind == "entropy":
            self.counters.entropy_records += 1
        if self.mode == "write":
            if test.entropy_at is not None:
                test.records.append((label, kind, None))
                self.counters.excluded_entropy += 1
            else:
                test.records.append((label, kind, payload()))
            return
        captured = test.captured
        if captured is None:
            if ordinal == 0:
                self._mismatch(ordinal, label, Difference(
                    "capture", "test missing from the capture",
                    "no records: the write pass did not run this test",
                    f"a {kind} record; run the write pass over the same tests"))
                test.stopped = True
            self.counters.not_compared += 1
            return
        if test.stopped:
            self.counters.not_compared += 1
            return
        if ordinal >= len(captured.records):
            self.counters.not_compared += 1
            if captured.complete:
                self._mismatch(ordinal, label, Difference(
                    "record count", "more helper calls than captured",
                    f"{len(captured.records)} records in the whole test",
                    f"record #{ordinal} ({kind} at {label}) and maybe more"))
                test.stopped = True
            return
        plain_label, plain_kind, plain_payload = captured.records[ordinal]
        if (plain_label, plain_kind) != (label, kind):
            self._mismatch(ordinal, label, Difference(
                "call sequence", "helper calls in another order (the test took another path)",
                f"{plain_kind} at {plain_label}", f"{kind} at {label}"))
            self.counters.not_compared += 1
            test.stopped = True
            return
        if plain_payload is None:
            self.counters.excluded_entropy += 1
            return
        if test.entropy_at is not None:
            self.counters.excluded_patched_entropy += 1
            return
        differences = compare(plain_payload, payload())
        if kind != "entropy":
            self.counters.compared += 1
            self.counters.identical += not differences
        for difference in differences:
            self._mismatch(ordinal, label, difference)

    def entropy(self, bits: int) -> int | None:
        """numpy asks the OS for ``bits`` bits of entropy (an unseeded generator is being made).

        In the test's own thread the answer is pinned: a digest of the test's node
        id and the draw's ordinal, the same in both passes, and the draw is a
        record of its own (so a patched run that draws at another point is
        reported). Elsewhere (other threads) the OS answers (``None``) and the
        running test's later records become placeholders: not reproducible.
        """
        if rebuilding_a_generator():
            # A copy or unpickling of a bit generator: numpy builds it seeded,
            # then sets the copied state. That entropy is never observable, and
            # how many copies a path makes is not part of the contract.
            return 0
        test = self.test
        if threading.get_ident() != self.thread and self.thread is not None:
            self.counters.entropy_other_threads += 1
            if test is not None and test.entropy_at is None:
                test.entropy_at = test.count
                self._entropy_mismatch(test)
            return None
        if test is None:
            key = f"<outside tests>#{self.outside_draws}"
            self.outside_draws += 1
            self.counters.entropy_outside_tests += 1
        else:
            key = f"{test.nodeid}#{test.entropy_draws}"
            test.entropy_draws += 1
            self.observe("entropy", lambda: ("entropy", bits))
        digest = hashlib.shake_256(key.encode("utf-8", "surrogatepass")).digest((bits + 7) // 8)
        return int.from_bytes(digest, "little") & ((1 << bits) - 1)

    def _entropy_mismatch(self, test: _Test) -> None:
        captured = test.captured
        if self.mode != "compare" or captured is None or test.stopped:
            return
        plain_at = len(captured.records) if captured.entropy_at is None else captured.entropy_at
        if test.count < plain_at:
            self._mismatch(test.count, _label(), Difference(
                "OS entropy", "OS entropy drawn in another thread where the plain run drew none",
                f"no such draw before record #{plain_at}",
                f"a seed drawn from the OS in another thread before record #{test.count}; "
                f"{plain_at - test.count} plain records cannot be compared"))


RECORDER: Recorder | None = None


def _label() -> str:
    """``file:line`` of the innermost test-module frame calling the helper (plus its caller's
    line when that is in the same file): the same in both passes, and where to look."""
    frame: FrameType | None = sys._getframe(2)
    outside = None  # the innermost frame outside support/ and site-packages: a test out of tests/
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_SUPPORT_DIR):
            if filename.startswith(_TESTS_DIR):
                break
            if outside is None and "-packages" not in filename and not filename.startswith("<"):
                outside = frame
        frame = frame.f_back
    if frame is None:
        if outside is None:
            return "?"
        return sys.intern(f"{os.path.basename(outside.f_code.co_filename)}:{outside.f_lineno}")
    label = f"{filename[len(_TESTS_DIR):]}:{frame.f_lineno}"
    caller = frame.f_back
    if caller is not None and caller.f_code.co_filename == filename:
        label += f"<{caller.f_lineno}"
    return sys.intern(label)


# --------------------------------------------------------------------------- helper entry points


def active() -> bool:
    return RECORDER is not None and RECORDER.test is not None


def observe_outcome(value: Any, error: BaseException | None, caught: list, state_of: Any = None) -> None:
    """What :func:`support.differential.outcome` saw (``state_of``: a space or generator whose
    state after the call belongs to the record)."""
    if RECORDER is not None and RECORDER.test is not None:
        RECORDER.observe("outcome", lambda: encode_outcome(value, error, caught, state_of))


def observe_value(value: Any) -> None:
    """A value a helper compares as Gymnasium's (the ``expected`` side)."""
    if RECORDER is not None and RECORDER.test is not None:
        RECORDER.observe("value", lambda: ("value", encode(value)))


def observe_state(generator: Any) -> None:
    """A generator whose state a helper compares as Gymnasium's."""
    if RECORDER is not None and RECORDER.test is not None:
        RECORDER.observe("state", lambda: encode_state(generator))


def observe_tree_states(space: Any) -> None:
    """Every generator of a (Gymnasium) space tree, unset ones included."""
    if RECORDER is not None and RECORDER.test is not None:
        RECORDER.observe("tree", lambda: ("tree", _space_states(space)))
