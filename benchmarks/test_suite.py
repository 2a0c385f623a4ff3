"""gymspaces vs Gymnasium, every case of ``gymspaces.bench.cases.CASES``.

The suite itself lives in ``gymspaces/bench/suite.py`` so that
``python -m gymspaces bench`` runs the same code from an installed package;
this module only exposes it to ``pytest benchmarks``. Each case is one
pytest-benchmark group holding both implementations: read the ratio of medians
within a group, or run ``python -m gymspaces bench`` for the ratio table.
"""

from gymspaces.bench.suite import test_case, test_import_baseline

__all__ = ["test_case", "test_import_baseline"]
