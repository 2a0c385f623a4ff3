"""Tooling, not imported by the library: ``python -m gymspaces`` and ``python -m gymspaces bench``.

* :mod:`gymspaces.bench.demo` -- the table that samples every space;
* :mod:`gymspaces.bench.cases` -- the benchmark cases (one callable per library);
* :mod:`gymspaces.bench.e2e` -- end-to-end cases: unmodified Gymnasium loops, patched vs plain;
* :mod:`gymspaces.bench.suite` -- the pytest-benchmark suite over the cases;
* :mod:`gymspaces.bench.cli` -- the ``bench`` command: ratio table, floors, gate.
"""
