"""Entry point of ``python -m gymspaces``: the demo table of :mod:`gymspaces._demo`.

The benchmark suite and speed gate are not shipped: from a checkout, run
``python -m benchmarks`` (``benchmarks/``).
"""

import sys

USAGE = "usage: python -m gymspaces [--version | --help]"

HELP = f"""Sample every space of gymspaces (Gymnasium's spaces, compiled) and time it against Gymnasium.

example:  python -m gymspaces

{USAGE}

  (no option)  every space sampled and timed against Gymnasium, one program patched
  --version    print the version of gymspaces
  -h, --help   print this help

A Gymnasium program of yours, unmodified, on gymspaces' kernels (patch mode):
       python -m gymspaces.gymnasium --report YOUR_SCRIPT.py
The benchmark suite and speed gate, from a checkout:
       python -m benchmarks --quick --check"""

OPTIONS = ("--help", "-h", "--version")


def main(argv: list[str]) -> int:
    """Run the demo, or print the help or the version; returns the exit status."""
    if argv and argv[0] in ("-h", "--help"):
        print(HELP)
        return 0
    if argv and argv[0] == "--version":
        from gymspaces._version import __version__

        print(f"gymspaces {__version__}")
        return 0
    if argv:
        # The problem first, then the one-line usage: the help is one option away.
        lines = [f"python -m gymspaces: error: {_problem(argv[0])}", USAGE,
                 "Try `python -m gymspaces --help' for more information."]
        print("\n".join(lines), file=sys.stderr)
        return 2
    from gymspaces._demo import main as demo

    return demo([])


def _problem(word: str) -> str:
    """What is wrong with the first argument, with the nearest option when it is a misspelt one."""
    if word.startswith("-"):
        from gymspaces._usage import unknown_option  # only on this error: not loaded otherwise

        return unknown_option(word, OPTIONS)
    if word == "bench":
        return f"unknown command {word!r} (the benchmarks run from a checkout: python -m benchmarks)"
    return f"unknown command {word!r}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
