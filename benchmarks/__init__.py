"""The benchmark suite and speed gate of gymspaces: ``python -m benchmarks`` from a checkout.

Not shipped in the wheel (the package keeps only ``python -m gymspaces``, the
demo table of :mod:`gymspaces._demo`). The cases and the suite:

* :mod:`benchmarks.cases` -- the benchmark cases (one callable per library);
* :mod:`benchmarks.e2e` -- end-to-end cases: unmodified Gymnasium loops, patched vs plain;
* :mod:`benchmarks.realloop` -- real-loop cases: whole programs, patched vs plain;
* :mod:`benchmarks.floors` -- the floor of every micro case (its least work);
* :mod:`benchmarks.suite` -- the pytest-benchmark suite over the cases.

The ``bench`` command, one job per module:

* :mod:`benchmarks.cli` -- the command line and the order of the steps;
* :mod:`benchmarks.runner` -- runs the suite with pytest in this process;
* :mod:`benchmarks.progress` -- the progress display while it runs;
* :mod:`benchmarks.results` -- the medians read from pytest-benchmark's JSON;
* :mod:`benchmarks.targets` -- the speed targets read from TOML;
* :mod:`benchmarks.evaluation` -- ratios and distances judged against the targets;
* :mod:`benchmarks.gate` -- ``--check``: misses measured again, the verdict;
* :mod:`benchmarks.render` -- the text report;
* :mod:`benchmarks.chart` -- the ``--plot`` bar chart;
* :mod:`benchmarks.table` -- aligned text columns and durations;
* :mod:`benchmarks.errors` -- the usage error, exit statuses and extras to install.
"""
