"""``python -m gymspaces.gymnasium``: run a program as ``python`` would, with Gymnasium patched.

``--help`` prints :data:`HELP`. See docs/patching.md for what the command guarantees.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
import time
import types
from typing import NoReturn

# A string constant (not the docstring: ``python -OO`` drops docstrings).
HELP = """Run a Python program with Gymnasium's spaces on gymspaces' compiled kernels.

example:  python -m gymspaces.gymnasium --report train.py --its --own --options

usage: python -m gymspaces.gymnasium [--report | --report-details] (script.py | -m mod) [args ...]

The program runs as "python script.py" or "python -m module" would run it
(same sys.argv, __main__ module, tracebacks, exit status), with the same
results: only what provably gives Gymnasium's own result runs compiled.

options (before the program: what follows it is the program's):
  --report          at exit, print to stderr what patch mode gained the
                    program, its own start-up counted (this process and the
                    processes it started), what is left in space
                    operations, and what ran compiled
  --report-details  the same with every operation, every figure and how
                    each is made
  --version         print the versions of gymspaces and Gymnasium and exit
  -h, --help        print this help and exit

The processes the program starts are patched too (GYMSPACES_PATCH=1 is set
for them: AsyncVectorEnv workers, Ray workers); with --report they record
too. docs/patching.md says what patch mode guarantees.
"""
USAGE = next(line for line in HELP.splitlines() if line.startswith("usage:"))
OPTIONS = ("--report", "--report-details", "--version", "--help", "-h")
"""The command's options (before the program)."""
# python -P (3.11+): the interpreter puts no folder of the program on sys.path.
_SAFE_PATH = getattr(sys.flags, "safe_path", False)
# The __main__ module the interpreter makes at start-up holds an empty
# __annotations__ dict up to 3.13; from 3.14 on (PEP 649: a module's
# annotations are made when first asked for) it holds none.
_MAIN_STARTS_WITH_ANNOTATIONS = sys.version_info < (3, 14)
# Beside a script's __file__, python sets __cached__ (None) in __main__ up to
# 3.14; 3.15 sets __cached__ on no module.
_SCRIPT_NAMES = ("__file__", "__cached__") if sys.version_info < (3, 15) else ("__file__",)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, patch Gymnasium and run the program.

    Parameters
    ----------
    argv : list of str, optional
        The command's arguments; ``sys.argv[1:]`` by default.
    """
    # Where the report counts from on a system that does not say when the
    # process started: the command's first clock reading.
    entered = time.perf_counter()
    report, program, as_module, arguments = _parse(list(sys.argv[1:] if argv is None else argv))
    # As with python -m cProfile, what follows the program is the program's: it
    # gets a --report there; say where the command's own goes.
    flag = None if report else next((a for a in arguments if a in ("--report", "--report-details")), None)
    if flag:
        print(
            f"gymspaces: {flag} after the program goes to the program; for patch mode's, put it first: "
            f"python -m gymspaces.gymnasium {flag} {'-m ' if as_module else ''}{program}",
            file=sys.stderr,
        )
    # For the processes the program starts: each patches when it imports
    # Gymnasium (gymspaces._autopatch); one that never does pays the start-up
    # hook alone, a fraction of a millisecond.
    os.environ["GYMSPACES_PATCH"] = "1"
    from gymspaces.gymnasium import _patch

    _patch.patch(report=bool(report))
    if report:
        from gymspaces.gymnasium.profiler.command import report_at_exit

        report_at_exit(entered, report == "details", _program_ran)
    _run(program, as_module, arguments)


# The program's __main__ module, and whether a script's code has started
# (a module's has once runpy has set its __spec__).
_program: types.ModuleType | None = None
_script_started = False


def _program_ran() -> bool:
    """Whether the program's own code started: not when python could not find
    or compile it (a missing script or module, a folder without __main__)."""
    return _script_started or (_program is not None and vars(_program).get("__spec__") is not None)


def _parse(arguments: list[str]) -> tuple[str, str, bool, list[str]]:
    """``(report, script or module, whether a module, program arguments)``; answers --help and --version and exits.

    ``report`` is ``""`` (none), ``"short"`` or ``"details"``.
    """
    report = ""
    answer = ""  # --help or --version: answered once every option is known good
    while arguments and arguments[0].startswith("-") and arguments[0] != "-m":
        option = arguments.pop(0)
        if option == "--report":
            report = report or "short"
        elif option == "--report-details":
            report = "details"
        elif option in ("-h", "--help", "--version"):
            answer = answer or option
        else:
            from gymspaces._usage import unknown_option

            _usage_error(unknown_option(option, OPTIONS))  # before any help: an error is never below it
    if answer == "--version":
        print(_version())
        raise SystemExit(0)
    if answer:
        print(HELP.strip())
        raise SystemExit(0)
    if not arguments:
        _usage_error()
    if arguments[0] != "-m":
        return report, arguments[0], False, arguments[1:]
    if len(arguments) < 2:
        _usage_error("Argument expected for the -m option")  # python's words
    return report, arguments[1], True, arguments[2:]


def _usage_error(problem: str | None = None) -> NoReturn:
    # Shaped like the interpreter's own usage errors, with its exit status 2.
    lines = [problem] if problem else []
    lines += [USAGE, "Try `python -m gymspaces.gymnasium --help' for more information."]
    print("\n".join(lines), file=sys.stderr)
    raise SystemExit(2)


def _version() -> str:
    from gymspaces import __version__

    try:
        from gymnasium import __version__ as gymnasium_version
    except ImportError:
        gymnasium_version = "not installed"
    return f"gymspaces {__version__} (Gymnasium {gymnasium_version})"


def without_gymnasium(problem: str) -> None:
    """Answer ``python -m gymspaces.gymnasium`` when Gymnasium cannot be imported.

    ``python -m gymspaces.gymnasium`` imports the package ``gymspaces.gymnasium``
    before this module, and that import needs Gymnasium. The package calls
    this function when it cannot import Gymnasium: if the import is the
    command's, --help and --version are answered, and any other use gets
    ``problem`` as one line (the interpreter's format for ``-m`` errors) and
    exit status 1, without a traceback. Otherwise it returns, and the package
    raises its ImportError.

    Parameters
    ----------
    problem : str
        What is missing and how to install it.
    """
    # While ``python -m NAME`` imports NAME's packages, sys.argv is
    # ["-m", *arguments], and the interpreter's own argument list holds NAME
    # (or a -m option with NAME attached) right before those arguments.
    if sys.argv[:1] != ["-m"] or len(sys.orig_argv) < len(sys.argv):
        return
    if not re.fullmatch(r"(-\w*m)?gymspaces\.gymnasium(\.__main__)?", sys.orig_argv[-len(sys.argv)]):
        return
    _parse(sys.argv[1:])
    print(f"{sys.executable}: {problem}", file=sys.stderr)
    raise SystemExit(1)


def _run(program: str, as_module: bool, arguments: list[str]) -> None:
    """Run the program in a new ``__main__`` module, as the interpreter would."""
    global _program
    main_module = types.ModuleType("__main__")
    # What the interpreter puts in the __main__ module it makes at start-up, in
    # its order; exec() would otherwise add the builtins' dict, not the module.
    if _MAIN_STARTS_WITH_ANNOTATIONS:
        main_module.__annotations__ = {}
    main_module.__builtins__ = builtins  # type: ignore[attr-defined]
    _program = main_module
    # The program's module stays __main__ after it ends (for atexit handlers,
    # pickling, multiprocessing) as under python; this runner stays alive
    # through its functions' globals.
    sys.modules["__main__"] = main_module
    if as_module:
        sys.argv = ["-m", *arguments]  # what python shows while it looks the module up
        _run_module(program)
    else:
        sys.argv = [program, *arguments]
        _run_script(program, main_module)


def _run_module(name: str, alter_argv: bool = True) -> None:
    """As ``python -m name`` (``alter_argv``: sys.argv[0] becomes the module's file)."""
    import runpy

    # runpy._run_module_as_main is what the interpreter itself calls for -m
    # (by name, from C): the module is found, errors are worded, sys.argv[0]
    # and __main__ (__spec__, __file__, __package__, ...) are set exactly as
    # under ``python -m``, and its frames show in tracebacks as under python.
    error: BaseException | None = None
    try:
        runpy._run_module_as_main(name, alter_argv)  # type: ignore[attr-defined]
    except SystemExit:
        raise
    except BaseException as caught:
        error = caught
    if error is not None:  # reported outside the except clause, as python does: nothing is being handled
        raise _print_uncaught(error)


def _run_script(script: str, main_module: types.ModuleType) -> None:
    """As ``python script``: a source or bytecode file, or a directory or zip file with a __main__.py."""
    global _script_started
    import pkgutil

    filename = _absolute(script)
    if pkgutil.get_importer(filename) is not None:
        # A directory or zip file: python puts it first on sys.path, even with
        # -P, and runs its __main__ module as for -m.
        if _SAFE_PATH:
            sys.path.insert(0, filename)
        else:
            sys.path[0] = filename
        _run_module("__main__", alter_argv=False)
        return
    # python puts the directory of the script, symlinks resolved, first on
    # sys.path (where this command has the working directory); -P leaves it out.
    if not _SAFE_PATH:
        sys.path[0] = os.path.dirname(os.path.realpath(filename))
    try:
        with open(filename, "rb") as file:
            source = file.read()
    except OSError as problem:
        # python's message, with the name the interpreter was started as.
        print(f"{sys.orig_argv[0]}: can't open file {filename!r}: [Errno {problem.errno}] {problem.strerror}", file=sys.stderr)
        raise SystemExit(2) from None

    from importlib.machinery import SourceFileLoader, SourcelessFileLoader
    from importlib.util import MAGIC_NUMBER

    namespace = vars(main_module)
    namespace.update(dict.fromkeys(_SCRIPT_NAMES), __file__=filename)
    # python runs a file as bytecode when it is named .pyc or starts with the
    # first half of the bytecode magic number.
    bytecode = filename.endswith(".pyc") or source[:2] == MAGIC_NUMBER[:2]
    namespace["__loader__"] = (SourcelessFileLoader if bytecode else SourceFileLoader)("__main__", filename)
    error: BaseException | None = None
    try:
        code = _code(source, filename, bytecode)
        _script_started = True
        exec(code, namespace)
    except SystemExit:
        raise  # python exits at once, leaving __file__ in place
    except BaseException as caught:
        error = caught
    finally:
        # python flushes stderr then stdout once a script has run, whatever
        # the outcome (not after -m): output order is kept with buffered stdout.
        for stream in (sys.stderr, sys.stdout):
            try:
                stream.flush()
            except Exception:  # as python: a stream that cannot flush is left
                pass
    # Outside the except clause, as python reports it: nothing is being handled.
    leave = None if error is None else _print_uncaught(error)
    # Once the script has ended, python takes them out of __main__.
    for name in _SCRIPT_NAMES:
        namespace.pop(name, None)
    if leave is not None:
        raise leave


def _absolute(path: str) -> str:
    # python makes the script's path absolute by prefixing the working
    # directory, without normalising: "./a/../b.py" stays as written after
    # the prefix, and in "/" the result starts with "//" ("" and "." are the
    # working directory). Windows normalises, as os.path.abspath does there.
    if path in ("", "."):
        return os.getcwd()
    if os.path.isabs(path):
        return path
    return os.path.abspath(path) if os.name == "nt" else os.getcwd() + os.sep + path


def _code(source: bytes, filename: str, bytecode: bool) -> types.CodeType:
    """The code object of a script file, as python makes it."""
    if not bytecode:
        # dont_inherit: this module's ``from __future__`` imports must not
        # change how the program compiles.
        return compile(source, filename, "exec", dont_inherit=True)
    import marshal
    from importlib.util import MAGIC_NUMBER

    if source[:4] != MAGIC_NUMBER:
        raise RuntimeError("Bad magic number in .pyc file")  # python's error
    code = marshal.loads(source[16:])  # after python's 16-byte header
    if not isinstance(code, types.CodeType):
        raise RuntimeError("Bad code object in .pyc file")
    return code


def _print_uncaught(error: BaseException) -> BaseException:
    """Print an exception the program did not catch, as the interpreter does.

    The traceback loses this runner's frames, so it reads as under python;
    ``sys.excepthook`` prints it, so a hook the program set is honoured.

    Parameters
    ----------
    error : BaseException
        The exception, not SystemExit.

    Returns
    -------
    BaseException
        What to raise to leave as python would: ``SystemExit(1)``, or a
        KeyboardInterrupt, with which the interpreter ends by SIGINT.
    """
    traceback = _without_runner(error.__traceback__)
    error.__traceback__ = traceback  # the default hook prints the exception's own traceback
    _set_last(error)
    hook = sys.excepthook
    try:
        hook(type(error), error, traceback)
    except SystemExit:
        raise  # as python: a hook that exits, exits
    except BaseException as hook_error:
        # python's report of a failing hook: both exceptions.
        hook_error.__traceback__ = _without_runner(hook_error.__traceback__)
        print("Error in sys.excepthook:", file=sys.stderr)
        sys.__excepthook__(type(hook_error), hook_error, hook_error.__traceback__)
        print("\nOriginal exception was:", file=sys.stderr)
        sys.__excepthook__(type(error), error, traceback)
    if not isinstance(error, KeyboardInterrupt):
        return SystemExit(1)

    # A KeyboardInterrupt that leaves the interpreter's -m run makes it exit
    # by SIGINT once finalised (atexit handlers run), as it does for a script.
    # The interpreter prints that exception with sys.excepthook: a one-shot
    # hook stands in, which prints nothing (the program's traceback is
    # printed) and puts back the program's hook and sys.last_*.
    def printed(*_: object) -> None:
        sys.excepthook = hook
        _set_last(error)

    sys.excepthook = printed
    return KeyboardInterrupt()


def _without_runner(traceback: types.TracebackType | None) -> types.TracebackType | None:
    """``traceback`` without its first frames, this module's."""
    while traceback is not None and traceback.tb_frame.f_globals is globals():
        traceback = traceback.tb_next
    return traceback


def _set_last(error: BaseException) -> None:
    # What python records about the exception it reports.
    sys.last_type, sys.last_value, sys.last_traceback = type(error), error, error.__traceback__
    if sys.version_info >= (3, 12):
        sys.last_exc = error


if __name__ == "__main__":
    main()
