"""Every shell command README.md and docs/*.md show is one the project knows how to run.

The commands are read as ``tests/tools/run_documented_commands.py`` reads
them (fenced ``bash`` blocks, and inline ``pip install ... && ...`` recipes),
plus the inline mentions of ``pip install``, ``python -m`` and ``pytest``.
Each is checked against the tree without running anything: an install names
this checkout with extras ``pyproject.toml`` declares (or a wheel a previous
command built, or a build tool), never a name the package index does not
have; ``python -m`` names a module that exists here, or one an earlier
command of the same recipe installed, with options its parser accepts;
``pytest`` paths exist. ``.ci/run`` runs the recipes themselves.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

EXTRAS: dict[str, list[str]] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "optional-dependencies"
]
# What the docs may install from the package index besides this project's extras.
TOOLS = {"build"}
# The reader's own programs in the docs' examples (run_documented_commands.py writes stand-ins).
PLACEHOLDER_SCRIPTS = {"train.py"}
PLACEHOLDER_MODULES = {"package.train", "package.module"}
INLINE_COMMAND = re.compile(r"`((?:pip install|python -m|pytest)\b[^`]*)`")


def _load_runner():
    spec = importlib.util.spec_from_file_location(
        "run_documented_commands", ROOT / "tests" / "tools" / "run_documented_commands.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


RUNNER = _load_runner()


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


@dataclass
class Reader:
    """What the commands of one recipe have done so far."""

    known: bool  # False when the recipe continues from an earlier one: its installs are unknown
    installed: set[str] = field(default_factory=set)  # distribution names
    local: str | None = None  # "editable" or "regular" once this checkout is installed
    left_tree: bool = False  # a `cd` went elsewhere
    built_wheel: bool = False


def _module_file(module: str) -> Path | None:
    """The file ``python -m module`` runs from this tree, if there is one."""
    path = ROOT.joinpath(*module.split("."))
    for candidate in (path / "__main__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _gymnasium_command_help() -> str:
    tree = ast.parse((ROOT / "gymspaces" / "gymnasium" / "__main__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "HELP" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("gymspaces/gymnasium/__main__.py defines no HELP")


def check_pip_install(words: list[str], reader: Reader) -> list[str]:
    problems = []
    editable = False
    words = list(words)
    while "--config-settings" in words:  # an option with a value: setuptools' editable mode only
        at = words.index("--config-settings")
        setting = words[at + 1] if at + 1 < len(words) else ""
        if not re.fullmatch(r"editable_mode=(strict|compat)", setting):
            problems.append(f"pip install --config-settings {setting!r}: not a setting the docs use")
        del words[at : at + 2]
    for word in words:
        if word in ("-e", "--editable"):
            editable = True
            continue
        if word.startswith("-"):
            if word not in ("-q", "--quiet", "-U", "--upgrade"):
                problems.append(f"pip install option {word} is not one the docs use")
            continue
        match = re.fullmatch(r"\.(?:\[([\w,-]+)\])?", word)
        if match:
            extras = match.group(1).split(",") if match.group(1) else []
            unknown = [extra for extra in extras if extra not in EXTRAS]
            if unknown:
                problems.append(f"{word}: no extra {', '.join(unknown)} in pyproject.toml (has {', '.join(EXTRAS)})")
            reader.installed |= {"gymspaces"} | {_requirement_name(r) for extra in extras for r in EXTRAS.get(extra, [])}
            reader.local = "editable" if editable else "regular"
        elif re.fullmatch(r"dist/gymspaces-\*\.whl", word):
            if not reader.built_wheel:
                problems.append(f"{word}: no earlier command of the recipe builds the wheel")
            reader.installed.add("gymspaces")
            reader.local = "regular"
        elif word == "gymspaces":
            problems.append("pip install gymspaces: gymspaces is not on the package index yet")
        elif _requirement_name(word) in TOOLS:
            reader.installed.add(_requirement_name(word))
        else:
            problems.append(f"pip install {word}: neither this checkout, an extra, a built wheel nor a known tool")
        editable = False
    return problems


def check_python_module(module: str, arguments: list[str], reader: Reader) -> list[str]:
    if module in PLACEHOLDER_MODULES:
        return []
    problems = []
    if reader.local == "regular" and not reader.left_tree:
        problems.append(
            f"python -m {module} runs inside the checkout after a regular install: the uncompiled "
            "gymspaces/ folder shadows the installed package (install with -e, or cd elsewhere first)"
        )
    if module == "gymspaces" or module.startswith("gymspaces."):
        if _module_file(module) is None:
            problems.append(f"python -m {module}: no such module in this tree")
        elif module == "gymspaces":
            problems += _check_gymspaces_command(arguments)
        elif module == "gymspaces.gymnasium":
            problems += _check_patch_command(arguments)
        return problems
    if module == "benchmarks":
        return problems + _check_bench_command(arguments, reader)
    if reader.known and module not in reader.installed:
        problems.append(f"python -m {module}: no earlier command of the recipe installs it")
    if module == "sphinx":
        sources = [word for word in arguments if not word.startswith("-") and word != "html"]
        if not sources or not (ROOT / sources[0] / "conf.py").is_file():
            problems.append(f"python -m sphinx {' '.join(arguments)}: the source folder has no conf.py")
        api = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "docs").glob("api/*.md"))
        if reader.known and "gymspaces.gymnasium" in api and "gymnasium" not in reader.installed:
            problems.append("the docs build autodocs gymspaces.gymnasium but does not install Gymnasium")
    elif module == "build":
        if "--wheel" in arguments:
            reader.built_wheel = True
    else:
        problems.append(f"python -m {module}: a module the docs have no business running")
    return problems


def _gymspaces_command_options() -> tuple[str, ...]:
    """The options ``python -m gymspaces`` takes (its OPTIONS), read without running the demo."""
    tree = ast.parse((ROOT / "gymspaces" / "__main__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "OPTIONS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("gymspaces/__main__.py defines no OPTIONS")


def _check_gymspaces_command(arguments: list[str]) -> list[str]:
    if not arguments or arguments[0] in _gymspaces_command_options():
        return []
    return [f"python -m gymspaces {arguments[0]}: unknown command"]


def _check_bench_command(arguments: list[str], reader: Reader) -> list[str]:
    """``python -m benchmarks`` runs from the checkout's top folder, on an editable
    install (which alone compiles the benchmarks' floors kernel into the checkout)."""
    problems = []
    if reader.left_tree:
        problems.append("python -m benchmarks runs from the checkout's top folder, not after a cd elsewhere")
    if reader.known and reader.local != "editable":
        problems.append("python -m benchmarks: no earlier command of the recipe installs this checkout editable")
    from benchmarks.cli import _parser

    try:
        _parser().parse_args(arguments)
    except SystemExit:
        problems.append(f"python -m benchmarks {' '.join(arguments)}: the command rejects these arguments")
    return problems


def _check_patch_command(arguments: list[str]) -> list[str]:
    options = set(re.findall(r"(?<![\w-])(--?[\w-]+)", _gymnasium_command_help()))
    words = list(arguments)
    while words and words[0].startswith("-") and words[0] != "-m":
        if words.pop(0) not in options:
            return [f"python -m gymspaces.gymnasium: unknown option in {' '.join(arguments)}"]
    if not words:
        return []  # a mention of the command and its options
    if words[0] == "-m":
        return [] if len(words) > 1 and words[1] in PLACEHOLDER_MODULES else [f"unknown program module in {arguments}"]
    return [] if words[0] in PLACEHOLDER_SCRIPTS else [f"unknown program {words[0]!r}"]


def check_command(words: list[str], reader: Reader) -> list[str]:
    if words[:2] == ["pip", "install"]:
        return check_pip_install(words[2:], reader)
    if words[:2] == ["python", "-m"] and len(words) > 2:
        return check_python_module(words[2], words[3:], reader)
    if words[0] == "pytest":
        problems = []
        if reader.known and "pytest" not in reader.installed:
            problems.append("pytest: no earlier command of the recipe installs it")
        # Options that take a value (pytest-xdist's -n, ...): the value is no path.
        values_of = {"-n", "--numprocesses", "-k", "-m", "-p", "--benchmark-compare", "--benchmark-json"}
        for previous, word in zip(words, words[1:]):
            if previous in values_of:
                continue
            if not word.startswith("-") and not (ROOT / word).exists():
                problems.append(f"pytest {word}: no such path")
        return problems
    if words[0] == "cd":
        reader.left_tree = True
        return []
    return [f"{' '.join(words)}: not a command the project knows how to run"]


def check_recipe(text: str, fresh: bool) -> list[str]:
    reader = Reader(known=fresh)
    problems: list[str] = []
    for words in RUNNER.commands_of(text):
        problems += check_command(words, reader)
    return problems


RECIPES = RUNNER.recipes(ROOT)


# Until the first release, the docs may name `pip install gymspaces` only to say it finds nothing.
NOT_PUBLISHED = "not on the package index yet"


def _inline_mentions() -> list[tuple[str, str, str]]:
    """(where, command, its paragraph) of every inline command outside fenced blocks."""
    found = []
    for path in RUNNER.documents(ROOT):
        text = path.read_text(encoding="utf-8")
        fenced = [(match.start(), match.end()) for match in re.finditer(r"^```.*?^```", text, flags=re.M | re.S)]
        for match in INLINE_COMMAND.finditer(text):
            if not any(start <= match.start() < end for start, end in fenced):
                paragraph_start = text.rfind("\n\n", 0, match.start()) + 2
                paragraph_end = text.find("\n\n", match.end())
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(ROOT)}@{line}", match.group(1), text[paragraph_start:paragraph_end]))
    return found


def test_the_documents_show_commands() -> None:
    documents = {recipe.document for recipe in RECIPES}
    assert {"README.md", "docs/getting-started.md", "docs/performance.md"} <= documents
    assert any("sphinx" in recipe.text for recipe in RECIPES), "the docs build is a recipe"


@pytest.mark.parametrize("recipe", RECIPES, ids=lambda recipe: recipe.id)
def test_documented_recipe_is_runnable(recipe) -> None:  # type: ignore[no-untyped-def]
    problems = check_recipe(recipe.text, recipe.fresh)
    assert not problems, f"{recipe.id}:\n{recipe.text}\n" + "\n".join(problems)


@pytest.mark.parametrize("mention", _inline_mentions(), ids=lambda mention: mention[0])
def test_inline_command_is_runnable(mention: tuple[str, str, str]) -> None:
    where, text, paragraph = mention
    if text == "pip install gymspaces":
        assert NOT_PUBLISHED in " ".join(paragraph.split()), f"{where}: `{text}` is named as if it worked"
        return
    problems = check_recipe(text, fresh=text.startswith("pip install"))
    assert not problems, f"{where}: `{text}`\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("pip install gymspaces", "not on the package index"),
        ('pip install ".[nope]"', "no extra nope"),
        ("pip install . && python -m gymspaces", "shadows the installed package"),
        ('pip install ".[bench]" && python -m sphinx -b html docs out', "no earlier command of the recipe installs it"),
        ('pip install -e ".[bench]" && python -m benchmarks --fast', "the command rejects"),
        ('pip install ".[bench]" && cd ~ && python -m benchmarks --quick', "not after a cd elsewhere"),
        ("python -m gymspaces bench --quick", "unknown command"),
        ("python -m gymspaces --verbose", "unknown command"),
        ('pip install -e ".[test]" && pytest tests/nowhere', "no such path"),
        ("python -m gymspaces.nowhere", "no such module"),
        ("pip install dist/gymspaces-*.whl", "builds the wheel"),
        ("make docs", "not a command the project knows"),
    ],
)
def test_the_checks_catch_mistakes(text: str, problem: str) -> None:
    problems = check_recipe(text, fresh=text.startswith("pip install"))
    assert any(problem in found for found in problems), problems


def test_allowed_forms_pass() -> None:
    assert check_recipe("pip install . && cd ~ && python -m gymspaces", fresh=True) == []
    assert check_recipe("pip install build && python -m build --wheel && pip install dist/gymspaces-*.whl", True) == []
    assert check_recipe('pip install -e ".[docs]" && python -m sphinx -W -b html docs docs/_build/html', True) == []

