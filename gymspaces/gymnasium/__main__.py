"""``python -m gymspaces.gymnasium``: run an unmodified program with Gymnasium patched.

Usage::

    python -m gymspaces.gymnasium [--report] script.py [args ...]
    python -m gymspaces.gymnasium [--report] -m module [args ...]

The program runs as ``python script.py`` / ``python -m module`` would run it
(``sys.argv``, ``__main__``, exit status, tracebacks), after
:func:`gymspaces.gymnasium.patch`. ``GYMSPACES_PATCH=1`` is set for the
processes it starts, which the start-up hook installed with gymspaces patches
too (``AsyncVectorEnv`` workers under ``spawn``/``forkserver``, Ray workers;
``fork`` children inherit the patched interpreter). ``--report`` prints, at
exit, which space operations ran and which spaces did not run compiled.
"""

from __future__ import annotations

import os
import runpy
import sys

USAGE = "usage: python -m gymspaces.gymnasium [--report] (script.py | -m module) [args ...]"


def main(argv: list[str] | None = None) -> None:
    """Parse ``argv`` (default ``sys.argv[1:]``), patch, and run the program."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    report = False
    while arguments and arguments[0].startswith("-") and arguments[0] != "-m":
        option = arguments.pop(0)
        if option == "--report":
            report = True
        elif option in ("-h", "--help"):
            print(USAGE)
            print(__doc__.split("\n\n", 2)[2].strip())
            return
        else:
            raise SystemExit(f"{USAGE}\nunknown option: {option}")
    module = None
    if arguments and arguments[0] == "-m":
        if len(arguments) < 2:
            raise SystemExit(f"{USAGE}\n-m needs a module name")
        module = arguments[1]
        arguments = arguments[2:]
    elif not arguments:
        raise SystemExit(USAGE)
    else:
        script = arguments.pop(0)

    os.environ["GYMSPACES_PATCH"] = "1"
    from gymspaces.gymnasium import _patch

    _patch.patch(report=report)
    if report:
        import atexit

        from gymspaces.gymnasium._report import report as report_table

        atexit.register(lambda: print(report_table(), file=sys.stderr))

    if module is not None:
        # As ``python -m module``: sys.path[0] is the working directory (it
        # already is, since this runs under -m); argv[0] becomes the module's file.
        sys.argv = [module, *arguments]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        # As ``python script.py``: sys.path[0] is the script's directory.
        sys.argv = [script, *arguments]
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
