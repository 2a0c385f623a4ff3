"""gymspaces' on/off environment variables: one set of values, read alike by every reader.

``gymspaces._env_vars`` defines them. The start-up hook (``gymspaces._autopatch``)
and ``gymspaces-patch.pth`` hold copies, since they run before the package may
be imported; these tests keep the copies in step and check that each reader
takes every spelling the same way.
"""

from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import gymnasium
import pytest

from gymspaces import _env_vars
from gymspaces.gymnasium import _patch

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = ("GYMSPACES_PATCH", "GYMSPACES_PATCH_UNVERIFIED")
UNKNOWN = ("maybe", "2", "y", "tru", "enable", "1 0", "o n")
SPELLINGS = [
    (spelling, expected)
    for values, expected in ((_env_vars.ON, True), (_env_vars.OFF, False))
    for value in values
    for spelling in (value, value.upper(), f" {value.title()} ", f"\t{value}\n")
] + [(value, None) for value in UNKNOWN]


@pytest.fixture
def hook(monkeypatch: pytest.MonkeyPatch):
    """The start-up hook module (imported with the variable unset, it does nothing)."""
    monkeypatch.delenv("GYMSPACES_PATCH", raising=False)
    import gymspaces._autopatch

    return gymspaces._autopatch


def _pth_off_values() -> tuple[str, ...]:
    line = (ROOT / "gymspaces-patch.pth").read_text().splitlines()[-1]
    match = re.match(r'import os; os\.environ\.get\("GYMSPACES_PATCH", ""\)\.strip\(\)\.lower\(\) not in (\([^)]*\))', line)
    assert match, line
    return ast.literal_eval(match.group(1))


def test_the_start_up_copies_hold_the_same_values(hook) -> None:
    assert (hook.ON, hook.OFF) == (_env_vars.ON, _env_vars.OFF)
    assert sorted(_pth_off_values()) == sorted(_env_vars.OFF)
    assert not set(_env_vars.ON) & set(_env_vars.OFF)


@pytest.mark.parametrize(("value", "expected"), SPELLINGS)
def test_every_spelling_is_read_alike_by_every_reader(
    monkeypatch: pytest.MonkeyPatch, hook, value: str, expected: bool | None
) -> None:
    for name in VARIABLES:
        monkeypatch.setenv(name, value)
        assert _env_vars.flag(name) is expected, name
    # The start-up hook on GYMSPACES_PATCH, and the .pth line that loads it for anything not off.
    assert hook.requested(value) is expected
    assert (value.strip().lower() not in _pth_off_values()) is (expected is not False)
    # patch() on GYMSPACES_PATCH_UNVERIFIED: a value not understood is off.
    monkeypatch.setattr(gymnasium, "__version__", "9.9.9")
    monkeypatch.setattr(_patch, "_warned_version", True)  # the warning is tested in tests/compat
    assert _patch._may_patch(None) is (expected is True)


def test_unset_is_off(monkeypatch: pytest.MonkeyPatch, hook) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
        assert _env_vars.flag(name) is False
    assert hook.requested(None) is False


def test_a_value_not_understood_warns_with_the_values_understood(hook, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GYMSPACES_PATCH", "maybe")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hook._start()
    assert [str(warning.message) for warning in caught] == [
        "GYMSPACES_PATCH='maybe' is not understood (on: 1, true, yes, on; off: 0, false, no, off, empty): "
        "Gymnasium is not patched"
    ]


@pytest.mark.parametrize(("value", "expected"), SPELLINGS)
def test_the_build_and_the_test_run_read_their_switches_alike(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: bool | None
) -> None:
    """setup.py's GYMSPACES_DEBUG_BUILD / GYMSPACES_NO_INT128 and the test run's
    GYMSPACES_TEST_PATCHED / GYMSPACES_REQUIRE_* take every spelling as
    gymspaces' own variables do; one neither on nor off stops the build or the run."""
    import runpy

    from support.switches import switch

    monkeypatch.setenv("GYMSPACES_NO_INT128", value)
    monkeypatch.setenv("GYMSPACES_REQUIRE_EXAMPLE", value)
    if expected is None:
        with pytest.raises(SystemExit, match="GYMSPACES_NO_INT128"):
            runpy.run_path(str(ROOT / "setup.py"), run_name="gymspaces_setup")
        with pytest.raises(SystemExit, match="GYMSPACES_REQUIRE_EXAMPLE"):
            switch("GYMSPACES_REQUIRE_EXAMPLE")
    else:
        assert runpy.run_path(str(ROOT / "setup.py"), run_name="gymspaces_setup")["NO_INT128"] is expected
        assert switch("GYMSPACES_REQUIRE_EXAMPLE") is expected
