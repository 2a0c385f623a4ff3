"""Entry point of ``python -m gymspaces``: the demo table of :mod:`gymspaces._demo`,
or the version (``--version``; with ``--verbose``, then :func:`gymspaces.show_config`).

The benchmark suite and speed gate are not shipped: from a checkout, run
``python -m benchmarks`` (``benchmarks/``).
"""

import sys

USAGE = "usage: python -m gymspaces [--version [--verbose] | --help]"

HELP = f"""Sample every space of gymspaces (Gymnasium's spaces, compiled) and time it against Gymnasium.

example:  python -m gymspaces

{USAGE}

  (no option)  every space sampled and timed against Gymnasium, one program patched
  --version    print the version of gymspaces
  --version --verbose
               the version, then what build this is (gymspaces.show_config():
               compiler, Cython and numpy versions, PCG64 path, self-checks);
               paste it into a bug report
  -h, --help   print this help

A Gymnasium program of yours, unmodified, on gymspaces' kernels (patch mode):
       python -m gymspaces.gymnasium --report YOUR_SCRIPT.py
The benchmark suite and speed gate, from a checkout:
       python -m benchmarks --quick --check"""

OPTIONS = ("--help", "-h", "--version")
# Options that only follow another (``--version --verbose``), never come first.
FOLLOWING_OPTIONS = ("--verbose",)


def main(argv: list[str]) -> int:
    """Run the demo, or print the help, the version or the build; returns the exit status."""
    if argv in (["-h"], ["--help"]):
        print(HELP)
        return 0
    if argv == ["--version"]:
        from gymspaces._version import __version__

        print(f"gymspaces {__version__}")
        return 0
    if argv == ["--version", "--verbose"]:
        from gymspaces import show_config

        show_config()  # its first line is the version
        return 0
    if argv:
        # The problem first, then the one-line usage: the help is one option away.
        lines = [f"python -m gymspaces: error: {_problem(argv)}", USAGE,
                 "Try `python -m gymspaces --help' for more information."]
        print("\n".join(lines), file=sys.stderr)
        return 2
    from gymspaces._demo import main as demo

    return demo([])


def _problem(argv: list[str]) -> str:
    """What is wrong with the arguments, with the nearest option when one is misspelt."""
    unknown = [word for word in argv if word not in OPTIONS + FOLLOWING_OPTIONS]
    if not unknown:  # known options, in a combination the command does not take
        if argv[0] == "--verbose":
            return "--verbose only goes after --version"
        return f"{' '.join(argv)}: options that do not go together"
    word = unknown[0]
    if word.startswith("-"):
        from gymspaces._usage import unknown_option  # only on this error: not loaded otherwise

        return unknown_option(word, OPTIONS + FOLLOWING_OPTIONS)
    if word == "bench":
        return f"unknown command {word!r} (the benchmarks run from a checkout: python -m benchmarks)"
    return f"unknown command {word!r}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
