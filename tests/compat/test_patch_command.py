"""``python -m gymspaces.gymnasium`` runs a program as ``python`` does; ``GYMSPACES_PATCH`` values.

Each case runs the same program under a real ``python`` and under the command
(same interpreter, same working directory) and compares what the program
observes and prints, stdout and stderr separately, and the exit status. The
programs import nothing of gymspaces or Gymnasium, so patching cannot show in
their output.
"""

from __future__ import annotations

import os
import py_compile
import re
import signal
import site
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import gymnasium
import pytest

import gymspaces
from gymspaces._gymnasium_releases import install_hint

ROOT = Path(__file__).resolve().parents[2]
COMMAND = ["-m", "gymspaces.gymnasium"]

# What a program sees of itself: its __main__ module's names (in order, with
# the loader's class, name and path and the spec's name), sys.argv, sys.path[0],
# whether annotations are evaluated (this test's and the runner's
# ``from __future__`` must not leak), what atexit handlers find in __main__,
# and whether it can read a data file next to itself and import a module next
# to its real file after changing directory.
PROBE = textwrap.dedent(
    """
    import atexit, os, sys

    def describe(value):
        if type(value).__name__.endswith("Loader"):
            return f"{type(value).__name__}(name={value.name!r}, path={value.path!r})"
        if type(value).__name__ == "ModuleSpec":
            return f"ModuleSpec(name={value.name!r}, origin={value.origin!r}, parent={value.parent!r})"
        if callable(value):  # 3.14+ (PEP 649): the __annotate__ function of the module's annotations
            return f"{type(value).__name__} {value.__qualname__}"
        return f"module {value.__name__}" if isinstance(value, type(sys)) else repr(value)

    for name, value in list(globals().items()):
        if name not in ("atexit", "os", "sys", "describe"):
            print(name, "=", describe(value))
    print("argv", sys.argv)
    print("path0", sys.path[0])
    print("__main__ is this module", sys.modules["__main__"].__dict__ is globals())
    NAMESPACE = globals()
    atexit.register(lambda: print("at exit: same __main__", sys.modules["__main__"].__dict__ is NAMESPACE,
                                  "__file__ kept", "__file__" in NAMESPACE, flush=True))
    x: int = 1
    print("annotations", sys.modules[__name__].__annotations__)  # 3.14+ has no __annotations__ global
    if "__file__" in globals():
        os.chdir("/")
        print("data", open(os.path.dirname(__file__) + "/data.txt").read())
    import sibling
    print("sibling", sibling.__file__)
    if sys.argv[1:2] == ["--fail"]:
        raise ValueError("asked to")
    """
)


def run(args: list[str], cwd: Path, *, merged: bool = False, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key not in ("GYMSPACES_PATCH", "PYTHONUNBUFFERED")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merged else subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


def assert_same_as_python(args: list[str], cwd: Path, options: tuple[str, ...] = (), **kwargs: object) -> str:
    """Run ``python [options] args`` and ``python [options] -m gymspaces.gymnasium args``; return the output."""
    plain = run([*options, *args], cwd, **kwargs)  # type: ignore[arg-type]
    ours = run([*options, *COMMAND, *args], cwd, **kwargs)  # type: ignore[arg-type]
    assert ours.stdout == plain.stdout
    assert ours.stderr == plain.stderr
    assert ours.returncode == plain.returncode
    return plain.stdout + (plain.stderr or "")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# Packages that shadow the installed ones (PYTHONPATH comes first on sys.path).
BROKEN = "raise RuntimeError('broken on purpose')"
NOT_INSTALLED = "raise ModuleNotFoundError(\"No module named 'gymnasium'\", name='gymnasium')"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A probe script in ``sub/``, a real one in ``real/`` with a symlink to it in ``links/``, a package."""
    for folder in ("sub", "real", "links", "pkg"):
        write(tmp_path / folder / "data.txt", f"data of {folder}")
        write(tmp_path / folder / "sibling.py", "")
    write(tmp_path / "sub" / "probe.py", PROBE)
    write(tmp_path / "real" / "probe.py", PROBE)
    (tmp_path / "links" / "probe.py").symlink_to(Path("..") / "real" / "probe.py")
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "pkg" / "probe.py", PROBE)
    return tmp_path


@pytest.mark.parametrize("script", ["sub/probe.py", "./sub/../sub/probe.py", "{tmp}/sub/probe.py"])
def test_script_sees_what_it_sees_under_python(tree: Path, script: str) -> None:
    output = assert_same_as_python([script.format(tmp=tree), "a", "--b"], tree)
    # Spelled out for the first form (beside the exact comparison above, which
    # also holds what differs between versions: __annotations__ until 3.13,
    # __annotate__ from 3.14, __cached__ until 3.14): python prefixes the
    # working directory, without normalising the path.
    if script == "sub/probe.py":
        file = f"{tree}/sub/probe.py"
        for line in [
            "__builtins__ = module builtins",
            f"__loader__ = SourceFileLoader(name='__main__', path={file!r})",
            "__package__ = None",
            "__spec__ = None",
            f"__file__ = {file!r}",
            "argv ['sub/probe.py', 'a', '--b']",
            f"path0 {tree}/sub",
            "__main__ is this module True",
            "annotations {'x': <class 'int'>}",
            "data data of sub",
            "at exit: same __main__ True __file__ kept False",
        ]:
            assert line in output.splitlines()


def test_script_in_the_root_folder(tree: Path) -> None:
    # From "/", python's __file__ starts with "//": the prefix is not normalised.
    output = assert_same_as_python([str(tree.relative_to("/") / "sub" / "probe.py")], Path("/"))
    assert f"__file__ = '/{tree}/sub/probe.py'" in output


def test_symlinked_script_imports_next_to_its_real_file(tree: Path) -> None:
    output = assert_same_as_python(["links/probe.py"], tree)
    assert f"path0 {tree}/real" in output  # the symlink resolved
    assert f"sibling {tree}/real/sibling.py" in output
    assert f"__file__ = '{tree}/links/probe.py'" in output  # the path as given
    assert "data data of links" in output


def test_safe_path_option_leaves_sys_path_alone(tree: Path) -> None:
    output = assert_same_as_python(["sub/probe.py"], tree, options=("-P",))
    if sys.version_info < (3, 11):  # -P is new in Python 3.11: 3.10 rejects it, with the runner too
        assert "Unknown option: -P" in output
    else:
        assert f"path0 {tree}/sub" not in output and "No module named 'sibling'" in output


def test_module_sees_what_it_sees_under_python_m(tree: Path) -> None:
    output = assert_same_as_python(["-m", "pkg.probe", "x"], tree)
    origin = f"{tree}/pkg/probe.py"
    assert f"__spec__ = ModuleSpec(name='pkg.probe', origin={origin!r}, parent='pkg')" in output
    assert "__package__ = 'pkg'" in output and "__builtins__ = module builtins" in output
    assert f"argv [{origin!r}, 'x']" in output
    assert "at exit: same __main__ True __file__ kept True" in output


@pytest.mark.parametrize("kind", ["directory", "zip"])
def test_directory_or_zip_with_main(tree: Path, kind: str) -> None:
    if kind == "directory":
        write(tree / "app" / "__main__.py", PROBE)
        write(tree / "app" / "sibling.py", "")
    else:
        with zipfile.ZipFile(tree / "app", "w") as archive:
            archive.writestr("__main__.py", PROBE)
            archive.writestr("sibling.py", "")
    assert "__spec__ = ModuleSpec(name='__main__'" in assert_same_as_python(["app", "y"], tree)


def test_bytecode_file(tree: Path) -> None:
    source = write(tree / "compiled.py", "print('compiled', __file__, type(__loader__).__name__)\n")
    py_compile.compile(str(source), cfile=str(tree / "compiled.pyc"))
    assert "SourcelessFileLoader" in assert_same_as_python(["compiled.pyc"], tree)


@pytest.mark.parametrize("args", [["missing.py"], ["sub/missing.py"], ["empty"]], ids=["file", "in-folder", "folder-without-main"])
def test_missing_program(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "empty").mkdir()
    output = assert_same_as_python(args, tmp_path)
    if args == ["missing.py"]:
        # python's line, with the interpreter's name as it was started.
        assert output == f"{sys.executable}: can't open file '{tmp_path}/missing.py': [Errno 2] No such file or directory\n"


@pytest.mark.parametrize("module", ["nonexistent", "pkg.nonexistent", "pkg"])
def test_missing_module_is_one_line(tree: Path, module: str) -> None:
    output = assert_same_as_python(["-m", module], tree)
    assert len(output.splitlines()) == 1 and "Traceback" not in output
    if module == "nonexistent":
        assert output == f"{sys.executable}: No module named nonexistent\n"


def test_m_without_a_module(tmp_path: Path) -> None:
    plain, ours = run(["-m"], tmp_path), run([*COMMAND, "-m"], tmp_path)
    assert ours.returncode == plain.returncode == 2
    assert ours.stderr.splitlines()[0] == plain.stderr.splitlines()[0] == "Argument expected for the -m option"


# Programs whose uncaught exception (or exit) python reports in its own ways.
FAILURES = {
    "nested-frames": "def f():\n    raise ValueError('boom')\ndef g():\n    f()\ng()\n",
    "chained": "try:\n    1 / 0\nexcept ZeroDivisionError as error:\n    raise KeyError('then') from error\n",
    "syntax-error": "print('never')\ndef (\n",
    "hook-set": (
        "import sys\n"
        "def hook(kind, value, tb):\n"
        "    print('hook', kind.__name__, tb.tb_frame.f_code.co_filename, tb.tb_next is None, sys.exc_info(), file=sys.stderr)\n"
        "sys.excepthook = hook\n"
        "raise KeyError(1)\n"
    ),
    "hook-fails": "import sys\ndef hook(*args):\n    raise ValueError('in the hook')\nsys.excepthook = hook\nraise KeyError(1)\n",
    "hook-exits": "import sys\nsys.excepthook = lambda *args: sys.exit(7)\nraise KeyError(1)\n",
    "exit-code": "import sys\nsys.exit(5)\n",
    "exit-message": "import sys\nsys.exit('bye')\n",
    "last-exception": (
        "import atexit, sys\n"
        "atexit.register(lambda: print('at exit', sys.last_value, sys.excepthook is sys.__excepthook__, flush=True))\n"
        "raise LookupError('remembered')\n"
    ),
}


@pytest.mark.parametrize("program", list(FAILURES))
def test_failing_script_reports_as_python(tmp_path: Path, program: str) -> None:
    write(tmp_path / "sub" / "fails.py", FAILURES[program])
    output = assert_same_as_python(["sub/fails.py"], tmp_path)
    assert "gymspaces" not in output and "runpy" not in output  # no frame of the runner


def test_failing_module_reports_as_python_m(tree: Path) -> None:
    write(tree / "pkg" / "fails.py", FAILURES["nested-frames"])
    output = assert_same_as_python(["-m", "pkg.fails"], tree)
    assert "gymspaces" not in output and "ValueError: boom" in output  # python -m shows runpy's frames


def test_output_order_with_buffered_stdout(tmp_path: Path) -> None:
    """python flushes stdout after a script, before reporting its exception."""
    write(tmp_path / "prints.py", "print('printed first')\nraise KeyError(1)\n")
    output = assert_same_as_python(["prints.py"], tmp_path, merged=True)
    assert output.startswith("printed first\nTraceback")


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_keyboard_interrupt_ends_by_sigint(tmp_path: Path) -> None:
    write(
        tmp_path / "interrupted.py",
        "import atexit\natexit.register(print, 'at exit')\ndef train():\n    raise KeyboardInterrupt\ntrain()\n",
    )
    plain = run(["interrupted.py"], tmp_path)
    assert plain.returncode == -signal.SIGINT
    assert assert_same_as_python(["interrupted.py"], tmp_path).startswith("at exit\nTraceback")


# GYMSPACES_PATCH at start-up.

PATCHED = "from gymspaces.gymnasium import is_patched; print(is_patched())"


@pytest.mark.parametrize(
    ("value", "patched"),
    [("1", True), (" TRUE ", True), ("yes", True), ("On", True),
     ("", False), ("0", False), ("false", False), (" No", False), ("OFF ", False)],
)
def test_patch_variable_values(tmp_path: Path, value: str, patched: bool) -> None:
    result = run(["-c", PATCHED], tmp_path, GYMSPACES_PATCH=value)
    assert (result.stdout, result.stderr, result.returncode) == (f"{patched}\n", "", 0)


LOADED = "import sys; print(sorted(m for m in sys.modules if m.startswith(('gymspaces', 'gymnasium', 'numpy'))))"


def test_patch_variable_off_costs_nothing(tmp_path: Path) -> None:
    assert run(["-c", LOADED], tmp_path, GYMSPACES_PATCH=" Off ").stdout == "[]\n"


def test_start_up_hook_patches_when_gymnasium_is_imported_and_not_before(tmp_path: Path) -> None:
    """On, start-up loads the hook module alone: no NumPy, Gymnasium or rest of gymspaces
    until the program imports Gymnasium, which is then patched, and the hook is gone."""
    program = (
        LOADED + "\n"
        "hooks = [type(finder).__name__ for finder in sys.meta_path if 'gymspaces' in type(finder).__module__]\n"
        "import gymnasium\n"
        "from gymspaces.gymnasium import is_compiled, is_patched\n"
        "print(hooks, is_patched(), is_compiled(gymnasium.spaces.Box(0, 1, (2,))))\n"
        "print([type(finder).__name__ for finder in sys.meta_path if 'gymspaces' in type(finder).__module__])\n"
        "print(type(gymnasium.__loader__).__name__, gymnasium.__spec__.loader is gymnasium.__loader__)\n"
    )
    result = run(["-c", program], tmp_path, GYMSPACES_PATCH="1")
    assert result.stderr == "" and result.returncode == 0
    assert result.stdout.splitlines() == [
        "['gymspaces._autopatch']",
        "['PatchOnImport'] True True",
        "[]",  # the hook has left sys.meta_path
        "SourceFileLoader True",  # and Gymnasium's module has its own loader
    ]


@pytest.mark.parametrize(
    "program",
    [
        "import gymnasium",
        "import gymspaces.gymnasium",  # imports Gymnasium: the hook runs inside that import
        "import gymnasium.spaces",
        "from gymnasium.spaces import Box",
        "from gymnasium.vector.utils import batch_space",
        "import gymspaces; import gymnasium",
        "import gymspaces._autopatch, gymnasium",  # the hook module, already loaded at start-up
        "import importlib, gymnasium; importlib.reload(gymnasium)",
        "import importlib, gymspaces._autopatch as hook; importlib.reload(hook); import gymnasium; importlib.reload(hook)",
        "import threading; t = threading.Thread(target=__import__, args=('gymnasium',)); t.start(); t.join()",
    ],
)
@pytest.mark.parametrize("warnings", ["default", "error"])
def test_start_up_hook_patches_whatever_imports_gymnasium_first(tmp_path: Path, program: str, warnings: str) -> None:
    check = (
        "\nimport sys, gymnasium\n"
        "from gymspaces.gymnasium import is_compiled, is_patched\n"
        "space = gymnasium.spaces.Dict({'a': gymnasium.spaces.Box(0, 1, (2,))}, seed=0)\n"
        "print(is_patched(), is_compiled(space), space.contains(space.sample()))\n"
        "print(sum(type(finder).__name__ == 'PatchOnImport' for finder in sys.meta_path))\n"
    )
    result = run(["-W", warnings, "-c", program + check], tmp_path, GYMSPACES_PATCH="1")
    assert (result.stdout, result.stderr, result.returncode) == ("True True True\n0\n", "", 0)


def assert_one_warning(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 0 and result.stdout.splitlines()[-1] in ("False", "ran")
    assert len(result.stderr.splitlines()) == 1, result.stderr  # no traceback, no "Error processing line"
    assert "RuntimeWarning: GYMSPACES_PATCH" in result.stderr and all(word in result.stderr for word in words)


@pytest.mark.parametrize("warnings", ["default", "error"])
def test_patch_variable_not_understood(tmp_path: Path, warnings: str) -> None:
    result = run(["-W", warnings, "-c", PATCHED], tmp_path, GYMSPACES_PATCH="maybe")
    assert_one_warning(result, "'maybe' is not understood")
    assert run(["-W", "ignore", "-c", PATCHED], tmp_path, GYMSPACES_PATCH="maybe").stderr == ""


@pytest.mark.parametrize("warnings", ["default", "error"])
def test_start_up_hook_failure_is_one_warning(tmp_path: Path, warnings: str) -> None:
    """gymspaces broken (its hook module loads, the package does not): nothing at
    start-up, which does not import it; one warning when the program imports
    Gymnasium, which it then uses unpatched."""
    shadow = tmp_path / "shadow" / "gymspaces"
    write(shadow / "__init__.py", BROKEN)
    write(shadow / "_autopatch.py", Path(gymspaces.__file__).with_name("_autopatch.py").read_text())
    environment = {"GYMSPACES_PATCH": "1", "PYTHONPATH": str(tmp_path / "shadow")}
    assert run(["-W", warnings, "-c", "print('ran')"], tmp_path, **environment).stderr == ""
    program = "import gymnasium\nprint(gymnasium.spaces.Discrete(3).contains(1))\nprint('ran')"
    result = run(["-W", warnings, "-c", program], tmp_path, **environment)
    assert_one_warning(result, "cannot patch Gymnasium: RuntimeError: broken on purpose")
    assert result.stdout == "True\nran\n"


@pytest.mark.parametrize("warnings", ["default", "error"])
def test_start_up_hook_without_gymspaces_is_one_warning(tmp_path: Path, warnings: str) -> None:
    """The .pth line where gymspaces cannot be found at all (run as site runs it,
    with -S: no site-packages): one warning at start-up, and the program runs."""
    line = (ROOT / "gymspaces-patch.pth").read_text().splitlines()[-1]
    result = run(["-S", "-W", warnings, "-c", f"exec({line!r})\nprint('ran')"], tmp_path, GYMSPACES_PATCH="1", PYTHONPATH="")
    assert_one_warning(result, "cannot be imported: ModuleNotFoundError: No module named 'gymspaces'")


@pytest.mark.parametrize("warnings", ["default", "error"])
def test_start_up_hook_leaves_gymnasium_errors_to_the_program(tmp_path: Path, warnings: str) -> None:
    """Gymnasium broken: nothing at start-up (it is not imported then); the program's
    ``import gymnasium`` raises Gymnasium's own error, each time it tries, and the
    hook stays for a later import that succeeds."""
    write(tmp_path / "shadow" / "gymnasium" / "__init__.py", BROKEN)
    environment = {"GYMSPACES_PATCH": "1", "PYTHONPATH": str(tmp_path / "shadow")}
    assert run(["-W", warnings, "-c", "print('ran')"], tmp_path, **environment).stderr == ""
    program = (
        "import sys\n"
        "for _ in range(2):\n"
        "    try:\n"
        "        import gymnasium\n"
        "    except RuntimeError as error:\n"
        "        print(error, sum(type(finder).__name__ == 'PatchOnImport' for finder in sys.meta_path))\n"
    )
    result = run(["-W", warnings, "-c", program], tmp_path, **environment)
    assert (result.stdout, result.stderr, result.returncode) == ("broken on purpose 1\n" * 2, "", 0)


def test_installed_start_up_hook_is_this_checkout() -> None:
    """The hook tested above is the installed one: reinstall after editing gymspaces-patch.pth."""
    source = ROOT / "gymspaces-patch.pth"
    installed = [Path(folder) / source.name for folder in site.getsitepackages() if (Path(folder) / source.name).exists()]
    if not source.exists() or not installed:
        pytest.skip("not a checkout with gymspaces installed in site-packages")
    assert installed[0].read_text() == source.read_text()


# --help, --version and usage errors.


def test_help_is_plain_text(tmp_path: Path) -> None:
    result = run([*COMMAND, "--help"], tmp_path)
    assert result.returncode == 0, result.stderr
    # One line of what it does, then one example, then the usage.
    what, _, example, _, usage = result.stdout.splitlines()[:5]
    assert what == "Run a Python program with Gymnasium's spaces on gymspaces' compiled kernels."
    assert example.startswith("example:  python -m gymspaces.gymnasium --report train.py")
    assert usage.startswith("usage: python -m gymspaces.gymnasium")
    assert "--report-details" in result.stdout and "GYMSPACES_PATCH=1" in result.stdout
    assert "``" not in result.stdout and not re.search(r":\w+:`", result.stdout)  # no reST markup
    assert max(map(len, result.stdout.splitlines())) <= 100  # a terminal's width


def test_version(tmp_path: Path) -> None:
    result = run([*COMMAND, "--version"], tmp_path)
    assert (result.stdout, result.returncode) == (f"gymspaces {gymspaces.__version__} (Gymnasium {gymnasium.__version__})\n", 0)
    result = run(["-m", "gymspaces", "--version"], tmp_path)
    assert (result.stdout, result.returncode) == (f"gymspaces {gymspaces.__version__}\n", 0)


@pytest.mark.parametrize(("args", "first_line"), [([], "usage:"), (["--bogus", "x.py"], "unknown option --bogus")])
def test_usage_errors(tmp_path: Path, args: list[str], first_line: str) -> None:
    result = run([*COMMAND, *args], tmp_path)
    assert result.returncode == 2 and result.stderr.startswith(first_line) and "--help" in result.stderr


@pytest.mark.parametrize(
    ("typed", "meant"), [("--reprot", "--report"), ("--report-detials", "--report-details"), ("--verison", "--version")]
)
def test_unknown_option_suggests_the_nearest(tmp_path: Path, typed: str, meant: str) -> None:
    result = run([*COMMAND, typed, "x.py"], tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines()[0] == f"unknown option {typed} (did you mean {meant}?)"


@pytest.mark.parametrize("args", [["-h", "--reprot"], ["--reprot", "--help"], ["--version", "--bogus", "x.py"]])
def test_an_error_comes_instead_of_help(tmp_path: Path, args: list[str]) -> None:
    """A mistyped option is answered with the error, first, whatever else is asked."""
    result = run([*COMMAND, *args], tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("unknown option ") and len(result.stderr.splitlines()) == 3, result.stderr


def test_without_gymnasium(tmp_path: Path) -> None:
    write(tmp_path / "shadow" / "gymnasium" / "__init__.py", NOT_INSTALLED)
    write(tmp_path / "trainer.py", "import gymspaces.gymnasium\n")
    shadow = str(tmp_path / "shadow")
    result = run([*COMMAND, "--help"], tmp_path, PYTHONPATH=shadow)
    assert result.returncode == 0 and result.stdout.startswith("Run a Python program"), result.stderr
    result = run([*COMMAND, "--version"], tmp_path, PYTHONPATH=shadow)
    assert result.stdout == f"gymspaces {gymspaces.__version__} (Gymnasium not installed)\n"
    result = run([*COMMAND, "train.py"], tmp_path, PYTHONPATH=shadow)
    assert result.returncode == 1
    assert result.stderr == f"{sys.executable}: gymspaces.gymnasium needs Gymnasium: {install_hint()}\n"
    # Anything else that imports gymspaces.gymnasium gets the ImportError.
    for args in (["trainer.py", "--help"], ["-m", "trainer", "--help"]):
        result = run(args, tmp_path, PYTHONPATH=shadow)
        assert result.returncode == 1 and result.stdout == ""
        assert result.stderr.endswith(f"ImportError: gymspaces.gymnasium needs Gymnasium: {install_hint()}\n")
