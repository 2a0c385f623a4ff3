"""``import gymspaces`` stays light: nothing heavy is imported at module level; patch mode
costs a process what it uses (modules counted, not timed: timings are the machine's)."""

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


def _modules_after(code: str, **env: str) -> set[str]:
    """The modules loaded in a fresh interpreter once ``code`` has run."""
    import os

    environment = {key: value for key, value in os.environ.items() if not key.startswith("GYMSPACES_")}
    environment.update(env)
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True, env=environment,
    )
    assert result.stderr == "", result.stderr
    return set(result.stdout.split())


def test_patch_variable_costs_a_process_that_never_imports_gymnasium_one_small_module():
    """``GYMSPACES_PATCH=1`` (set by ``python -m gymspaces.gymnasium`` for every process
    its program starts): start-up loads the hook module and nothing else -- no
    gymspaces package, NumPy, Gymnasium, nor even ``typing`` or ``importlib.util``."""
    plain = _modules_after("pass")
    hooked = _modules_after("pass", GYMSPACES_PATCH="1")
    assert hooked - plain == {"gymspaces._autopatch"}


def test_patching_imports_only_gymspaces_beyond_gymnasium():
    """``import gymspaces.gymnasium`` and ``patch()``, by hand or by the start-up hook,
    load nothing Gymnasium has not loaded but gymspaces' own modules
    (``multiprocessing`` and the rest are Gymnasium's import already)."""
    gymnasium = _modules_after("import gymnasium")
    # patch() loads gymspaces' shared-memory helpers itself, before it registers
    # Gymnasium's classes with gymspaces' dispatchers: the kernels keep treating
    # Gymnasium's classes as gymspaces' (aliases), the shared-memory pass included.
    by_hand = _modules_after(
        "import gymnasium, gymspaces.gymnasium as g; g.patch(); assert g.is_patched()\n"
        "from gymspaces._kernel_switches import ACTIVE\n"
        "from gymspaces._registry import REGISTRY\n"
        "assert gymnasium.spaces.Box in ACTIVE and gymnasium.spaces.Dict in ACTIVE and REGISTRY.shared_memory_enabled"
    )
    by_hook = _modules_after("import gymnasium, gymspaces.gymnasium as g; assert g.is_patched()", GYMSPACES_PATCH="1")
    for patched in (by_hand, by_hook):
        # (and Cython's shared type module, ``_cython_3_x``, which its kernels register)
        others = {name for name in patched - gymnasium if name.split(".")[0] != "gymspaces"}
        assert {name for name in others if not name.startswith("_cython_")} == set()
    assert "multiprocessing.shared_memory" not in by_hand


def test_vector_loads_shared_memory_helpers_on_first_use():
    """``gymspaces.vector``'s batching helpers need no ``multiprocessing``; its
    shared-memory names load it when first used."""
    batching = _modules_after("import gymspaces.vector as v; v.batch_space")
    assert "multiprocessing" not in batching and "gymspaces.vector.shared_memory" not in batching
    shared = _modules_after(
        "import gymspaces, gymspaces.vector as v\n"
        "from gymspaces.vector import SharedSlice\n"
        "assert 'create_shared_memory' in dir(v)\n"
        "memory = v.create_shared_memory(gymspaces.Discrete(3), n=2)\n"
        "assert v.read_from_shared_memory(gymspaces.Discrete(3), memory, n=2).shape == (2,)"
    )
    assert {"multiprocessing", "gymspaces.vector.shared_memory"} <= shared
