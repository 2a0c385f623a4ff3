"""Every ``>>>`` example in the docs and in gymspaces' docstrings runs as written."""

from __future__ import annotations

import doctest
import importlib
import pathlib
import pkgutil
import re

import pytest

import gymspaces

ROOT = pathlib.Path(__file__).resolve().parents[2]
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


# The public API: every class and function exported here, and every public
# method or property a class defines itself, shows a runnable example.
PUBLIC_MODULES = [
    "gymspaces",
    "gymspaces.utils",
    "gymspaces.vector",
    "gymspaces.seeding",
    "gymspaces.error",
    "gymspaces.gymnasium",
]


def _own_doc(member):
    """The docstring written for ``member`` itself (property getters, bound functions unwrapped)."""
    if isinstance(member, property):
        member = member.fget
    member = getattr(member, "__func__", member)
    return getattr(member, "__doc__", None) or ""


def _exported():
    """``(qualified name, object)`` for every public class and function, each object once."""
    seen = set()
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            # Skip submodules, type aliases and numpy's classes re-exported for Gymnasium's sake.
            is_ours = getattr(obj, "__module__", "").startswith("gymspaces")
            if (isinstance(obj, type) or callable(obj)) and is_ours and id(obj) not in seen:
                seen.add(id(obj))
                yield f"{module_name}.{name}", obj


def _documented_elsewhere(cls, attr, member):
    """Whether ``member`` is one ``cls`` inherits from outside gymspaces (the
    standard library's ``Mapping``, say): documented there."""
    for base in cls.__mro__[1:]:
        if not base.__module__.startswith("gymspaces") and attr in vars(base):
            return _own_doc(member) == _own_doc(vars(base)[attr])
    return False


def _members(cls):
    """``(name, member)`` for the public methods and properties ``cls`` defines itself."""
    for attr, member in vars(cls).items():
        if attr.startswith("_") or not (isinstance(member, (property, staticmethod, classmethod)) or callable(member)):
            continue
        if not _documented_elsewhere(cls, attr, member):
            yield attr, member


def test_every_public_name_has_an_example():
    missing = []
    for name, obj in _exported():
        if ">>>" not in _own_doc(obj):
            missing.append(name)
        if isinstance(obj, type):
            missing += [f"{name}.{attr}" for attr, member in _members(obj) if ">>>" not in _own_doc(member)]
    assert not missing, "no >>> example in the docstring of: " + ", ".join(missing)


def _resolve(target):
    """The object a dotted autodoc target names (``None`` if it names nothing)."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part, None)
        return obj
    return None


def test_the_api_reference_lists_every_public_name():
    """The API reference (docs/api.md and its pages, docs/api/) documents every
    public class (with its members) and function."""
    page = "\n".join(path.read_text() for path in [ROOT / "docs" / "api.md", *sorted((ROOT / "docs" / "api").glob("*.md"))])
    documented = {id(_resolve(target)) for target in re.findall(r"\.\. auto(?:class|function):: (\S+)", page)}
    undocumented = [name for name, obj in _exported() if id(obj) not in documented]
    assert not undocumented, "missing from the API reference (docs/api/): " + ", ".join(undocumented)
    classes_without_members = [
        target for target, options in re.findall(r"\.\. autoclass:: (\S+)\n((?:   :.*\n)*)", page)
        if ":members:" not in options
    ]
    assert not classes_without_members, "autoclass without :members: in docs/api/: " + ", ".join(classes_without_members)
