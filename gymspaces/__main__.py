"""Entry point of ``python -m gymspaces``.

Without arguments it prints the demo table of :mod:`gymspaces.bench.demo`;
``python -m gymspaces bench ...`` runs the benchmark suite and speed gate of
:mod:`gymspaces.bench.cli`.
"""

import sys

USAGE = """Sample every space of gymspaces (Gymnasium's spaces, compiled) and time it against Gymnasium.

example:  python -m gymspaces

usage: python -m gymspaces            every space sampled and timed against Gymnasium, one program patched
       python -m gymspaces bench      the benchmark suite and speed gate; see bench --help
       python -m gymspaces --version  print the version of gymspaces

An unmodified Gymnasium program on gymspaces' kernels (patch mode):
       python -m gymspaces.gymnasium --report train.py"""


def main(argv: list[str]) -> int:
    """Dispatch to the demo or to the ``bench`` command; returns the exit status."""
    if argv and argv[0] == "bench":
        from gymspaces.bench.cli import main as bench

        return bench(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv and argv[0] == "--version":
        from gymspaces._version import __version__

        print(f"gymspaces {__version__}")
        return 0
    if argv:
        print(f"{USAGE}\npython -m gymspaces: error: unknown command {argv[0]!r}", file=sys.stderr)
        return 2
    from gymspaces.bench.demo import main as demo

    return demo([])


sys.exit(main(sys.argv[1:]))
