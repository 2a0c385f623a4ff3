"""The kernels learn the space classes and helpers they need from one registry.

``gymspaces._registry.REGISTRY`` is filled by ``gymspaces._fill_registry`` when
``import gymspaces`` completes; only the layers that load on use fill their
own fields, and no kernel has a setter of its own.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gymspaces"

# The modules that write the registry's fields, and which.
WRITERS = {
    "_fill_registry.py": "every field ``import gymspaces`` can fill",
    "_kernel_switches.py": "the switches",
    "vector/shared_memory.py": "the shared-memory fields (loaded on use)",
    "gymnasium/_judge.pyx": "the checked kernels' verdicts (with Gymnasium)",
}
ON_USE = {"SynchronizedArray", "SharedSlice", "write_shared_leaf", "write_shared_tuple", "read_shared_leaf",
          "shared_memory_enabled"}
ASSIGNMENT = re.compile(r"\b(?:REGISTRY|registry)\.\w+(?:\s*,\s*(?:REGISTRY|registry)\.\w+)*\s*=(?!=)|setattr\(REGISTRY\b")


def test_only_the_wiring_modules_write_the_registry():
    writers = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.suffix in (".py", ".pyx", ".pxd") and ASSIGNMENT.search(path.read_text(encoding="utf-8"))
    }
    assert writers == set(WRITERS)


def test_no_kernel_has_a_setter_of_its_own():
    setters = re.compile(r"^def (?:set_|use_|configure|register_)\w*\(", flags=re.M)
    found = [path.name for path in PACKAGE.glob("*.pyx") if setters.search(path.read_text(encoding="utf-8"))]
    assert found == []


def test_import_gymspaces_fills_every_field_but_those_loaded_on_use():
    code = (
        "import gymspaces\n"
        "from gymspaces._registry import REGISTRY, Registry\n"
        "names = sorted(name for name, member in vars(Registry).items() if type(member).__name__ == 'getset_descriptor')\n"
        "print(' '.join(name for name in names if getattr(REGISTRY, name) in (None, False)))\n"
        "import gymspaces.vector.shared_memory, gymspaces.gymnasium\n"  # what loads on use
        "print(' '.join(name for name in names if getattr(REGISTRY, name) in (None, False)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    unfilled, still_unfilled = result.stdout.split("\n")[:2]
    assert set(unfilled.split()) == ON_USE
    assert still_unfilled == ""
