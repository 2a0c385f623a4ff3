"""Every ``>>>`` example in the docs and in gymspaces' docstrings runs as written."""

from __future__ import annotations

import doctest
import importlib
import pathlib
import pkgutil

import pytest

import gymspaces

ROOT = pathlib.Path(__file__).resolve().parents[1]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# Modules whose import needs optional packages (the compatibility layer
# imports Gymnasium, the bench CLI pytest) are still checked: the test extra
# installs both.
MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(gymspaces.__path__, "gymspaces.")
    if name != "gymspaces.__main__"  # importing it runs the demo
)


@pytest.mark.parametrize("path", sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"], ids=lambda p: p.name)
def test_markdown_examples(path):
    result = doctest.testfile(str(path), module_relative=False, optionflags=FLAGS, verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("path", sorted((ROOT / "docs").glob("*.md")), ids=lambda p: p.name)
def test_markdown_python_blocks_run(path):
    """Code blocks written as plain Python (no ``>>>`` prompts) run as written."""
    import re

    for block in re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.S):
        if ">>>" not in block:
            exec(compile(block, str(path), "exec"), {})


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in finder.find(module, name):  # each example sees its module's globals
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} failing example(s) in {name}"


@pytest.mark.parametrize("page", ["getting-started.md", "batched.md"])
def test_the_docs_hold_examples(page):
    assert doctest.testfile(str(ROOT / "docs" / page), module_relative=False, optionflags=FLAGS).attempted > 0
