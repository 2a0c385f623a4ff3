"""Tooling, not imported by the library: ``python -m gymspaces`` and ``python -m gymspaces bench``.

* :mod:`gymspaces.bench.demo` -- the table that samples every space;
* :mod:`gymspaces.bench.cases` -- the benchmark cases (one callable per library);
* :mod:`gymspaces.bench.e2e` -- end-to-end cases: unmodified Gymnasium loops, patched vs plain;
* :mod:`gymspaces.bench.realloop` -- real-loop cases: whole programs, patched vs plain;
* :mod:`gymspaces.bench.floors` -- the floor of every micro case (its least work);
* :mod:`gymspaces.bench.suite` -- the pytest-benchmark suite over the cases.

The ``bench`` command, one job per module:

* :mod:`gymspaces.bench.cli` -- the command line and the order of the steps;
* :mod:`gymspaces.bench.runner` -- runs the suite with pytest in this process;
* :mod:`gymspaces.bench.progress` -- the progress display while it runs;
* :mod:`gymspaces.bench.results` -- the medians read from pytest-benchmark's JSON;
* :mod:`gymspaces.bench.targets` -- the speed targets read from TOML;
* :mod:`gymspaces.bench.evaluation` -- ratios and distances judged against the targets;
* :mod:`gymspaces.bench.gate` -- ``--check``: misses measured again, the verdict;
* :mod:`gymspaces.bench.render` -- the text report;
* :mod:`gymspaces.bench.chart` -- the ``--plot`` bar chart;
* :mod:`gymspaces.bench.table` -- aligned text columns and durations;
* :mod:`gymspaces.bench.errors` -- the usage error, exit statuses and extras to install.
"""
