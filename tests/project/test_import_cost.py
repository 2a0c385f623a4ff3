"""``import gymspaces`` stays light: nothing heavy is imported at module level."""

import subprocess
import sys

HEAVY = ("gymnasium", "multiprocessing", "numpy.typing", "matplotlib", "pytest")


def test_import_loads_no_heavy_module():
    code = (
        "import sys, gymspaces; "
        f"print([name for name in {HEAVY!r} if name in sys.modules])"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", result.stdout


def test_public_names_still_resolve_lazily():
    code = (
        "import gymspaces, gymspaces.vector as v, gymspaces.utils as u; "
        "space = gymspaces.Dict({'a': gymspaces.Discrete(2)}); "
        "print(u.flatdim(space), v.batch_space(space, 3).shape is None)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["2", "True"]
