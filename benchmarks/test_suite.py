"""gymspaces vs Gymnasium, every case of ``benchmarks.cases.CASES``.

The suite itself is :mod:`benchmarks.suite`, which ``python -m benchmarks``
runs; this module only exposes it to ``pytest benchmarks``. Each case is one
pytest-benchmark group holding both implementations: read the ratio of medians
within a group, or run ``python -m benchmarks`` for the ratio table.
"""

from benchmarks.suite import test_case, test_import_baseline, test_startup

__all__ = ["test_case", "test_import_baseline", "test_startup"]
