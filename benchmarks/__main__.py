"""``python -m benchmarks`` (from the checkout's top folder): the command of :mod:`benchmarks.cli`."""

import sys

from benchmarks.cli import main

sys.exit(main(sys.argv[1:]))
