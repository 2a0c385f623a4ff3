"""Entry point of ``python -m gymspaces``: the demo table of :mod:`gymspaces._demo`.

The benchmark suite and speed gate are not shipped: from a checkout, run
``python -m benchmarks`` (``benchmarks/``).
"""

import sys

USAGE = """Sample every space of gymspaces (Gymnasium's spaces, compiled) and time it against Gymnasium.

example:  python -m gymspaces

usage: python -m gymspaces            every space sampled and timed against Gymnasium, one program patched
       python -m gymspaces --version  print the version of gymspaces

An unmodified Gymnasium program on gymspaces' kernels (patch mode):
       python -m gymspaces.gymnasium --report train.py
The benchmark suite and speed gate, from a checkout:
       python -m benchmarks --quick --check"""


def main(argv: list[str]) -> int:
    """Run the demo, or print the usage or the version; returns the exit status."""
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv and argv[0] == "--version":
        from gymspaces._version import __version__

        print(f"gymspaces {__version__}")
        return 0
    if argv:
        hint = " (the benchmarks run from a checkout: python -m benchmarks)" if argv[0] == "bench" else ""
        print(f"{USAGE}\npython -m gymspaces: error: unknown command {argv[0]!r}{hint}", file=sys.stderr)
        return 2
    from gymspaces._demo import main as demo

    return demo([])


sys.exit(main(sys.argv[1:]))
