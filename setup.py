"""Build the Cython kernels against numpy's C random API.

Kernels that draw random numbers link numpy's static ``npyrandom`` (found in
``numpy/random/lib``) and ``npymath`` (``numpy/_core/lib``), as numpy documents
for third-party users of ``numpy.random.c_distributions``.

Set ``GYMSPACES_DEBUG_BUILD=1`` to compile with bounds and wraparound checks on
(and with debug symbols). A release build carries no debug information: with
gcc or clang it compiles with ``-g0`` (overriding the ``-g`` that Python's own
build flags pass) and, on Linux, links with ``-Wl,--strip-debug`` so that the
static numpy libraries linked in add none either. With debug information the
shared objects weigh 12.5 MB and the Linux x86_64 wheel 5.5 MB; without, 2.6 MB
and 1.4 MB.

Set ``GYMSPACES_NO_INT128=1`` to compile the inline PCG64 step with portable
128-bit arithmetic (two 64-bit words, plain C) even where the compiler has
``unsigned __int128``: the two-word arithmetic of builds without it (MSVC's
takes each 64-bit product's 128 bits from an intrinsic instead), testable on
any machine. ``gymspaces._rng.PCG64_PATH`` then reads ``"portable"`` (otherwise
``"int128"``, or ``"msvc"`` with MSVC on x64 or ARM64).

The Cython and numpy versions a build used are compiled into ``_rng`` (as C
string macros) for ``gymspaces.show_config()``. Every kernel depends on a file
``build/gymspaces-macros.txt`` that holds the macros and changes with them, so
that an in-place rebuild with another setting or numpy recompiles them all.

``setup()`` runs only when this file is run as a script (as setuptools' build
backend and ``python setup.py`` do), so ``tests/project/test_wheel.py`` can
read the flags below without building anything.

The benchmarks' floors kernel (``benchmarks/_floor.pyx``) is compiled only by
builds into the checkout (``pip install -e .``, ``build_ext --inplace``): the
benchmarks run from a checkout, and a wheel ships nothing of them. It is no
extension of the distribution, only of those builds: setuptools makes the
package of every extension importable, and an editable install would then put
a top-level ``benchmarks`` on every path of the environment.
"""

import importlib.util
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

try:
    from setuptools.command.editable_wheel import editable_wheel
except ImportError:  # setuptools < 64: no PEP 660 editable installs
    editable_wheel = None



def _env_vars():
    """``gymspaces/_env_vars.py``, loaded by its path: the package cannot be
    imported before its kernels are built, and its on and off values are the
    build's too."""
    path = Path(__file__).resolve().parent / "gymspaces" / "_env_vars.py"
    spec = importlib.util.spec_from_file_location("_gymspaces_env_vars", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENV_VARS = _env_vars()


def build_switch(name):
    """Whether the build variable ``name`` is on, read as gymspaces reads its own
    (``gymspaces._env_vars.flag``); a value neither on nor off stops the build."""
    value = ENV_VARS.flag(name)
    if value is None:
        raise SystemExit(
            f"{name}={os.environ[name]!r}: set it to one of {', '.join(ENV_VARS.ON)} (on) "
            f"or {', '.join(repr(off) for off in ENV_VARS.OFF)} (off)"
        )
    return value


DEBUG = build_switch("GYMSPACES_DEBUG_BUILD")
NO_INT128 = build_switch("GYMSPACES_NO_INT128")

# A cross build (.ci/arm64) compiles against another architecture's numpy, its
# wheel unpacked: GYMSPACES_NUMPY_ROOT names that numpy package folder, whose
# headers and static libraries are the target's (it must be the version of
# the numpy this build imports, whose Cython declarations it reads).
NUMPY_ROOT = Path(os.environ.get("GYMSPACES_NUMPY_ROOT") or Path(np.__file__).resolve().parent)
CORE = NUMPY_ROOT / "_core"
if not CORE.exists():  # numpy 1.x layout
    CORE = NUMPY_ROOT / "core"
NUMPY_INCLUDE = str(CORE / "include") if os.environ.get("GYMSPACES_NUMPY_ROOT") else np.get_include()
NPYRANDOM_DIR = NUMPY_ROOT / "random" / "lib"
NPYMATH_DIR = CORE / "lib"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": False,
    "binding": True,
    "embedsignature": True,
}

MSVC = sys.platform == "win32"


def build_flags(platform: str, debug: bool) -> tuple[list[str], list[str]]:
    """The extra compile and link arguments of every kernel on ``platform`` (a
    ``sys.platform`` value): MSVC on Windows, gcc or clang elsewhere."""
    # Kernels mirror numpy's arithmetic exactly: no FMA contraction, no fast-math.
    # (MSVC contracts only under /fp:contract or /fp:fast; /fp:precise is explicit.)
    if platform == "win32":
        # MSVC writes debug information to a separate .pdb, and only under /Zi.
        return (["/Od", "/Zi", "/fp:precise"] if debug else ["/O2", "/fp:precise"]), []
    if debug:
        return ["-O0", "-g", "-ffp-contract=off"], []
    # -g0 comes after Python's CFLAGS (which hold -g) and so wins: no debug
    # information is compiled. GNU ld, gold and lld all take --strip-debug, which
    # also drops what the static npyrandom and npymath archives carry; the
    # symbol table stays, so profilers and backtraces still name functions.
    # (Apple's linker never copies debug information into the binary.)
    link_args = ["-Wl,--strip-debug"] if platform.startswith("linux") else []
    return ["-O3", "-g0", "-ffp-contract=off", "-fno-fast-math"], link_args


COMPILE_ARGS, LINK_ARGS = build_flags(sys.platform, DEBUG)
# libm is part of the C runtime on Windows.
MATH_LIBRARIES = [] if MSVC else ["m"]

MACROS = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]
if DEBUG:
    MACROS.append(("GYMSPACES_DEBUG_BUILD", "1"))  # reported as gymspaces._rng.DEBUG_BUILD
if NO_INT128:
    MACROS.append(("GYMSPACES_NO_INT128", "1"))  # reported as gymspaces._rng.PCG64_PATH
# What only _rng is given: the versions it was built with (set by the build below).
RECORD_MACROS: list[tuple[str, str]] = []
# The macro file every kernel depends on (set by the build below).
DEPENDS: list[str] = []

# Modules that call numpy's C distributions link the static random library.
RANDOM_KERNELS = ["_rng", "_categorical", "_discrete", "_multi_discrete", "_box", "_multi_binary", "_text", "_graph"]
# Kernels that draw nothing link only npymath (float16 conversions).
PLAIN_KERNELS = [
    "_registry", "_contains", "_flatten", "_jsonable", "_batch", "_shared_memory", "_direct_batch", "_probes",
    "gymnasium._judge", "gymnasium._calls",
]


def kernel(name: str, random: bool = True, package: str = "gymspaces") -> Extension:
    return Extension(
        f"{package}.{name}",
        [f"{package}/{name.replace('.', '/')}.pyx"],
        include_dirs=[NUMPY_INCLUDE],
        library_dirs=[str(NPYRANDOM_DIR), str(NPYMATH_DIR)] if random else [str(NPYMATH_DIR)],
        libraries=(["npyrandom", "npymath"] if random else ["npymath"]) + MATH_LIBRARIES,
        define_macros=MACROS + (RECORD_MACROS if name == "_rng" else []),
        depends=DEPENDS,
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
    )


# ``GYMSPACES_PATCH=1`` patches Gymnasium when the interpreter imports it: a
# one-line .pth file installed at the top of site-packages loads
# gymspaces/_autopatch.py (alone, not the package) only when the variable is set.
PATCH_HOOK = Path("gymspaces-patch.pth")
BENCH_FLOOR = Path("benchmarks") / "_floor.pyx"


def c_string(text: str) -> str:
    """``text`` as the value of a C string macro; a character that would need escaping
    (none in a version number) makes it ``"unknown"``."""
    return f'"{text}"' if re.fullmatch(r"[A-Za-z0-9.+_-]+", text) else '"unknown"'


def macro_stamp(macros: list[tuple[str, str]], path: Path = Path("build") / "gymspaces-macros.txt") -> str:
    """Write ``macros`` to ``path`` unless it holds them already; return the path.

    setuptools recompiles a kernel only when one of its files is newer than its
    binary, and macros live in no file: every kernel depends on this one, which
    changes exactly when they do.
    """
    text = "".join(f"{name}={value}\n" for name, value in macros)
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(path)


def checkout_only(extension: Extension) -> bool:
    """Whether ``extension`` is built only into a checkout (the benchmarks' kernel), never for the distribution."""
    return not extension.name.startswith("gymspaces.")


class build_py_with_hook(build_py):
    """``build_py`` that also installs the patch-mode start-up hook ``gymspaces-patch.pth``
    at the top of site-packages (in editable installs too, see gymspaces/_autopatch.py)."""

    def run(self):
        super().run()
        self.copy_file(str(PATCH_HOOK), str(Path(self.build_lib) / PATCH_HOOK.name), preserve_mode=False)


class _StrategyWithHook:
    """An editable-wheel strategy that also writes the start-up hook into the wheel."""

    def __init__(self, strategy):
        self.strategy = strategy

    def __call__(self, wheel, files, mapping):
        self.strategy(wheel, files, mapping)
        wheel.writestr(PATCH_HOOK.name, PATCH_HOOK.read_bytes())

    def __enter__(self):
        self.strategy.__enter__()
        return self

    def __exit__(self, *exc_info):
        return self.strategy.__exit__(*exc_info)


class build_ext_on_every_core(build_ext):
    """``build_ext`` that compiles the kernels side by side, one a core, unless ``-j`` says otherwise,
    and the benchmarks' kernel only into a checkout.

    The generated C of a kernel takes gcc -O3 seconds to a minute; one after
    the other they made every install take about two minutes.
    """

    # Built into a checkout only, and kept out of the distribution's
    # ext_modules (which would make their packages importable: see the top).
    checkout_extensions: tuple[Extension, ...] = ()

    def finalize_options(self):
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        into_checkout = self.into_checkout()
        # setuptools prepares each extension it finds in the distribution while
        # it finalizes: lend it the checkout's, then take them back.
        extensions = self.distribution.ext_modules
        if into_checkout:
            names = {ext.name for ext in extensions or []}
            added = [ext for ext in self.checkout_extensions if ext.name not in names]
            self.distribution.ext_modules = [*(extensions or []), *added]
        try:
            super().finalize_options()
        finally:
            self.distribution.ext_modules = extensions
        if not into_checkout:
            self.extensions = [ext for ext in self.extensions if not checkout_only(ext)]

    def into_checkout(self):
        return bool(self.inplace or getattr(self, "editable_mode", False))

    def run(self):
        # An in-place build compiles into build/ first: what it left there of
        # the benchmarks must not reach a wheel built from the same checkout.
        if not self.into_checkout():
            shutil.rmtree(Path(self.build_lib) / "benchmarks", ignore_errors=True)
        super().run()


COMMANDS = {"build_py": build_py_with_hook, "build_ext": build_ext_on_every_core}
# An editable wheel is assembled from a strategy (a .pth or an import finder),
# not from build_py's output: wrap the strategy so that the hook is installed too.
if editable_wheel is not None and hasattr(editable_wheel, "_select_strategy"):

    class editable_wheel_with_hook(editable_wheel):
        def _select_strategy(self, *args, **kwargs):
            return _StrategyWithHook(super()._select_strategy(*args, **kwargs))

    COMMANDS["editable_wheel"] = editable_wheel_with_hook


if __name__ == "__main__":
    from Cython import __version__ as cython_version
    from Cython.Build import cythonize

    RECORD_MACROS += [("GYMSPACES_BUILD_CYTHON", c_string(cython_version)),
                      ("GYMSPACES_BUILD_NUMPY", c_string(np.__version__))]
    DEPENDS.append(macro_stamp(MACROS + RECORD_MACROS))

    extensions = cythonize(
        [kernel(name) for name in RANDOM_KERNELS]
        + [kernel(name, random=False) for name in PLAIN_KERNELS]
        + ([kernel("_floor", random=False, package="benchmarks")] if BENCH_FLOOR.exists() else []),
        compiler_directives=DIRECTIVES,
        include_path=["."],
        # Directives are baked into the generated C: a debug build regenerates it.
        force=DEBUG,
        nthreads=os.cpu_count() or 1,
    )
    build_ext_on_every_core.checkout_extensions = tuple(ext for ext in extensions if checkout_only(ext))
    setup(cmdclass=COMMANDS, ext_modules=[ext for ext in extensions if not checkout_only(ext)])
