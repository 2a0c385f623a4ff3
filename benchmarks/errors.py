"""How ``python -m benchmarks`` fails: its usage error, exit statuses and the extras it names."""

from __future__ import annotations

EXIT_OK, EXIT_MISSED, EXIT_USAGE, EXIT_ERROR = 0, 1, 2, 3
EXIT_REGRESSED = 4  # a speedup fell past --fail-above against the --compare baseline

# The bench runs from a checkout (the suite is not in the wheel) and gymspaces
# is not on the package index: the extras install from the checkout.
BENCH_EXTRA = "pip install -e '.[bench]' in the checkout"
PLOT_EXTRA = "pip install -e '.[plot]' in the checkout, or pip install matplotlib"


class UsageError(Exception):
    """A problem with the command line, the environment or an input file."""


__all__ = [
    "BENCH_EXTRA", "EXIT_ERROR", "EXIT_MISSED", "EXIT_OK", "EXIT_REGRESSED", "EXIT_USAGE", "PLOT_EXTRA", "UsageError",
]
