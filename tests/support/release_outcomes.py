"""Record what one release-differential case did, in a form compared with ``==``.

A case (:mod:`support.release_cases`) is a function of a :class:`Tracker`: it
builds its own seeded spaces, registers them with the tracker and returns a
value. :func:`run_case` calls it and keeps

* ``result``: ``("value", encoded value)`` or ``("raise", class, message)``
  (class as ``module.qualname``);
* ``warnings``: every warning, as (category, message, file basename, line):
  Gymnasium's logger warns through :func:`warnings.warn`, and its ``error``
  (0.29) and ``info``/``debug`` print to stderr, so stdout and stderr are
  kept too;
* ``states``: the bit-generator state of every tracked space and of each of
  its sub-spaces after the call (``None`` where no generator was made);
* ``entropy_draws``: how many seeds the case drew from "OS entropy".

Gymnasium itself makes unseeded generators (1.x ``Graph`` batches its node
space at construction, a stacked ``Sequence`` its feature space, and so on),
which numpy seeds from OS entropy. That entropy is pinned, not excluded:
numpy draws it through ``numpy.random.bit_generator.randbits`` (a module
global looked up at each call), which :func:`run_case` answers with a digest
of the case's name and the draw's ordinal. Such generators are then the same
in both runs, and a run that draws entropy at another point shows.
Rebuilding a generator from a copy or a pickle also asks for entropy, then
sets the copied state: those draws are answered with 0 and not counted.

:func:`encode` turns any value into nested tuples of strings, ints and bytes:
type (module and qualname) always, arrays by dtype, shape, strides, bytes and
flags, numpy scalars by type and bytes, floats by ``float.hex``, containers
in their order (dict key order included), named tuples (``GraphInstance``) by
field, spaces by class, ``repr`` and every instance attribute. Object
addresses in text (``0x7f...``) are blanked so two processes compare equal.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from support.capture import rebuilding_a_generator

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def blank(text: str) -> str:
    """``text`` with object addresses replaced, so that runs compare equal."""
    return _ADDRESS.sub("0x?", text)


def qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _space_class() -> type | None:
    try:
        import gymnasium.spaces

        return gymnasium.spaces.Space
    except Exception:  # pragma: no cover - gymnasium is always there
        return None


_SPACE = _space_class()


def generator_state(rng: Any) -> Any:
    """The bit generator's full state (``None`` for no generator)."""
    if rng is None:
        return None
    if isinstance(rng, np.random.Generator):
        return ("Generator", qualname(type(rng.bit_generator)), encode(rng.bit_generator.state))
    return ("not-a-generator", qualname(type(rng)), blank(repr(rng)))


def children(space: Any) -> list[tuple[str, Any]]:
    """The direct sub-spaces of a Gymnasium space, with a path step each."""
    out: list[tuple[str, Any]] = []
    inner = getattr(space, "spaces", None)
    if isinstance(inner, dict):
        out.extend((f"[{key!r}]", sub) for key, sub in inner.items())
    elif isinstance(inner, (tuple, list)):
        out.extend((f"[{index}]", sub) for index, sub in enumerate(inner))
    for attribute in ("feature_space", "node_space", "edge_space"):
        sub = getattr(space, attribute, None)
        if sub is not None and _SPACE is not None and isinstance(sub, _SPACE):
            out.append((f".{attribute}", sub))
    return out


def tree_states(space: Any, path: str = "") -> list[tuple[str, str, Any]]:
    """(path, class, generator state) for ``space`` and every sub-space, depth first.

    Reads ``_np_random`` directly: the ``np_random`` property would seed an
    unseeded space from OS entropy.
    """
    rng = vars(space).get("_np_random") if hasattr(space, "__dict__") else None
    rows = [(path or "root", qualname(type(space)), generator_state(rng))]
    for step, sub in children(space):
        rows.extend(tree_states(sub, (path or "root") + step))
    return rows


def _encode_space(space: Any, depth: int) -> tuple:
    attributes = []
    for name, value in sorted(vars(space).items()):
        if name == "_np_random":
            attributes.append((name, generator_state(value)))
        else:
            attributes.append((name, encode(value, depth + 1)))
    try:
        text = blank(repr(space))
    except Exception as exc:  # a repr that raises is an outcome too
        text = ("repr raised", qualname(type(exc)), blank(str(exc)))
    return ("space", qualname(type(space)), text, tuple(attributes))


def _encode_array(value: np.ndarray, depth: int) -> tuple:
    head = (
        "ndarray",
        qualname(type(value)),
        value.dtype.str,
        value.dtype.char,
        value.shape,
        value.strides,
        bool(value.flags.writeable),
        bool(value.flags.c_contiguous),
    )
    if value.dtype.hasobject:
        return (*head, tuple(encode(item, depth + 1) for item in value.ravel(order="C")))
    if value.dtype.fields is not None:
        return (*head, value.tobytes(), str(value.dtype))
    return (*head, value.tobytes())


def encode(value: Any, depth: int = 0) -> Any:
    """An exactly comparable, picklable rendering of ``value`` (see the module doc)."""
    if depth > 40:
        return ("too deep", qualname(type(value)))
    kind = type(value)
    name = qualname(kind)
    if value is None or kind in (bool, int, str, bytes):
        return (name, value)
    if kind is float:
        return (name, value.hex())
    if kind is complex:
        return (name, value.real.hex(), value.imag.hex())
    if isinstance(value, np.ndarray):
        return _encode_array(value, depth)
    if isinstance(value, np.generic):
        if isinstance(value, np.object_):  # pragma: no cover - numpy never hands one out
            return (name, encode(value.item(), depth + 1))
        return ("npscalar", name, value.dtype.str, value.dtype.char, value.tobytes())
    if isinstance(value, np.dtype):
        return ("dtype", value.str, value.char, qualname(value.type))
    if isinstance(value, np.random.Generator):
        return generator_state(value)
    if isinstance(value, type):
        return ("class", qualname(value))
    if isinstance(value, BaseException):
        return ("exception", name, blank(str(value)))
    if isinstance(value, tuple) and hasattr(kind, "_fields"):
        return ("namedtuple", name, tuple((field, encode(getattr(value, field), depth + 1)) for field in kind._fields))
    if isinstance(value, (tuple, list)):
        return ("seq", name, tuple(encode(item, depth + 1) for item in value))
    if isinstance(value, dict):
        return ("map", name, tuple((encode(key, depth + 1), encode(item, depth + 1)) for key, item in value.items()))
    if isinstance(value, (set, frozenset)):
        # Iteration order of a set depends on its history: compare the members.
        return ("set", name, tuple(sorted(repr(encode(item, depth + 1)) for item in value)))
    if _SPACE is not None and isinstance(value, _SPACE):
        return _encode_space(value, depth)
    if kind.__name__ == "SynchronizedArray" or hasattr(value, "get_obj"):
        raw = value.get_obj()
        return ("shared", name, qualname(type(raw)), len(raw), bytes(memoryview(raw).cast("B")))
    if isinstance(value, range):
        return (name, value.start, value.stop, value.step)
    return ("other", name, blank(repr(value)))


class Tracker:
    """What a case hands its function: ``t(space)`` registers and returns the space."""

    def __init__(self) -> None:
        self.spaces: list[Any] = []

    def __call__(self, space: Any) -> Any:
        self.spaces.append(space)
        return space

    def states(self) -> tuple:
        rows = []
        for index, space in enumerate(self.spaces):
            if _SPACE is not None and isinstance(space, _SPACE):
                rows.append((index, tuple(tree_states(space))))
            else:
                rows.append((index, ("not a space", qualname(type(space)))))
        return tuple(rows)


_ENTROPY: dict[str, Any] = {"key": None, "draws": 0}


def pin_entropy() -> None:
    """Route numpy's OS-entropy draws through the case's key (idempotent)."""
    import numpy.random.bit_generator as bit_generator

    if getattr(bit_generator.randbits, "release_differential", False):
        return
    original = bit_generator.randbits

    def randbits(bits: int) -> int:
        key = _ENTROPY["key"]
        if key is None:
            return original(bits)
        if rebuilding_a_generator():
            return 0
        ordinal = _ENTROPY["draws"]
        _ENTROPY["draws"] = ordinal + 1
        digest = hashlib.shake_256(f"{key}#{ordinal}".encode("utf-8", "surrogatepass")).digest((bits + 7) // 8)
        return int.from_bytes(digest, "little") & ((1 << bits) - 1)

    randbits.release_differential = True  # type: ignore[attr-defined]
    bit_generator.randbits = randbits
    # numpy must still draw its entropy there, or nothing is pinned.
    probes = []
    for _ in range(2):
        _ENTROPY.update(key="probe", draws=0)
        probes.append(int(np.random.SeedSequence().entropy))
    _ENTROPY.update(key=None, draws=0)
    if probes[0] != probes[1]:
        raise RuntimeError("numpy no longer draws OS entropy through numpy.random.bit_generator.randbits")


def _warning_row(message: warnings.WarningMessage) -> tuple:
    return (
        qualname(message.category),
        blank(str(message.message)),
        os.path.basename(str(message.filename)),
        message.lineno,
    )


def run_case(function: Callable[[Tracker], Any], key: str) -> dict[str, Any]:
    """Run one case and return its outcome (a dict of comparable parts).

    ``key`` (the case's name) pins the OS entropy the case draws.
    """
    pin_entropy()
    _ENTROPY.update(key=key, draws=0)
    tracker = Tracker()
    out, err = io.StringIO(), io.StringIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                value = function(tracker)
            except Exception as exc:
                result: tuple = ("raise", qualname(type(exc)), blank(str(exc)))
            else:
                try:
                    result = ("value", encode(value))
                except Exception as exc:  # the recorder's own failure is reported, not hidden
                    result = ("encode failed", qualname(type(exc)), blank(str(exc)))
        try:
            states = tracker.states()
        except Exception as exc:
            states = (("states failed", qualname(type(exc)), blank(str(exc))),)
    draws = _ENTROPY["draws"]
    _ENTROPY.update(key=None, draws=0)
    return {
        "result": result,
        "warnings": tuple(_warning_row(message) for message in caught),
        "stdout": blank(out.getvalue()),
        "stderr": blank(err.getvalue()),
        "states": states,
        "entropy_draws": draws,
    }
