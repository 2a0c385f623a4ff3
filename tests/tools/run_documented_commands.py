"""Run every shell command README.md and docs/*.md show, as written, on fresh virtual environments.

Usage::

    python tests/tools/run_documented_commands.py [--tree DIR] [--list] [--only ID[,ID...]]
                                                  [--skip-quickstart] [--keep]

A *recipe* is a fenced ``bash`` block, or an inline code span that installs
and then runs something (``pip install ... && ...``, such as the README's
docs build). Recipes run in the order of their document, each as one
``bash -e`` script:

* a recipe that starts with ``pip install`` starts on a fresh machine: a new
  virtual environment and a fresh copy of the tree (no compiled file, no
  build directory);
* any other recipe continues where the reader of the document is: in the
  environment and copy of the previous recipe of the same document. When the
  document installed nothing before it, the reader has set up as a
  contributor does: ``pip install -e ".[test]"`` (the README Quick start's
  second command) in a fresh copy.

``HOME`` is a new empty folder outside the copy (``cd ~`` leaves the tree),
pip keeps its usual download cache, and ``GYMSPACES_GATE=warn`` lets the
benchmark commands finish on a busy machine (they check that the commands
run, not the speed; the speed gate is ``.ci/run``'s). The programs the docs
name as the reader's own (``train.py``, ``package.train``,
``package.module``) are written as small Gymnasium loops beside the copy's
top level before a recipe uses them.

The recipes, their order and their identifiers (``README.md:3``, the third
recipe of README.md) are those ``--list`` prints; ``--only`` runs a subset
(with the recipes they continue from); ``--skip-quickstart`` leaves out the
README's Quick start, which ``.ci/run`` runs verbatim itself. Exits 1 and lists the failing recipes
when one fails, 0 otherwise. ``tests/project/test_documented_commands.py``
checks the same commands against the project without running them.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(?:bash|sh|shell|console)[ \t]*\n(.*?)^```", re.M | re.S)
# Inline code that is a whole recipe: an install followed by what it is for.
INLINE = re.compile(r"`(pip install [^`]*&&[^`]+)`")
QUICKSTART = re.compile(r"<!-- quickstart:begin -->.*?<!-- quickstart:end -->", re.S)
# The environment of a reader who continues a document that installed nothing.
CONTRIBUTOR_SETUP = 'python -m pip install --quiet -e ".[test]"'
# What a copy of the tree leaves out: what a build or a run leaves behind.
NOT_SOURCES = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd", "*.c", "_build", ".venv",
    ".pytest_cache", ".hypothesis", ".benchmarks", ".mypy_cache",
)

# The reader's own program, as the docs name it: a few steps of a Gymnasium env.
STAND_IN = '''"""Stand-in for the reader's program (tests/tools/run_documented_commands.py)."""
import sys

import gymnasium

env = gymnasium.make("CartPole-v1")
env.reset(seed=0)
for _ in range(20):
    env.step(env.action_space.sample())
print("stand-in program ran with", sys.argv[1:])
'''
STAND_INS = {"train.py": STAND_IN, "package/__init__.py": "", "package/train.py": STAND_IN,
             "package/module.py": STAND_IN}


@dataclass
class Recipe:
    """One runnable piece of a document."""

    document: str  # path relative to the tree, e.g. "docs/getting-started.md"
    index: int  # 1-based, in the document's order
    offset: int  # where it starts in the document
    text: str  # the shell text as written
    quickstart: bool = False  # in the README's Quick start

    @property
    def id(self) -> str:
        return f"{self.document}:{self.index}"

    @property
    def fresh(self) -> bool:
        """Starts on a fresh machine (its first command installs)."""
        commands = commands_of(self.text)
        return bool(commands) and commands[0][:2] == ["pip", "install"]


def documents(tree: Path) -> list[Path]:
    return [tree / "README.md", *sorted((tree / "docs").glob("*.md"))]


def recipes(tree: Path) -> list[Recipe]:
    """Every recipe of README.md and docs/*.md, document by document, in order."""
    found = []
    for path in documents(tree):
        text = path.read_text(encoding="utf-8")
        pieces = [(match.start(), match.group(1)) for match in FENCE.finditer(text)]
        fenced = [(match.start(), match.end()) for match in FENCE.finditer(text)]
        pieces += [
            (match.start(), match.group(1))
            for match in INLINE.finditer(text)
            if not any(start <= match.start() < end for start, end in fenced)
        ]
        quickstart = [(match.start(), match.end()) for match in QUICKSTART.finditer(text)]
        for index, (offset, body) in enumerate(sorted(pieces), start=1):
            inside = any(start <= offset < end for start, end in quickstart)
            found.append(Recipe(str(path.relative_to(tree)), index, offset, body, inside))
    return found


def commands_of(text: str) -> list[list[str]]:
    """The simple commands of a shell text, each as its words: comments dropped,
    continued lines joined, split at ``&&``, ``||`` and ``;``."""
    commands: list[list[str]] = []
    for line in text.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        current: list[str] = []
        for word in lexer:
            if word in ("&&", "||", ";"):
                if current:
                    commands.append(current)
                current = []
            else:
                current.append(word)
        if current:
            commands.append(current)
    return commands


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / "python"


def run(selected: list[Recipe], tree: Path, work: Path) -> list[str]:
    """Run the recipes; returns the ids of those that failed."""
    failed: list[str] = []
    reader: dict[str, tuple[Path, Path, Path]] = {}  # document -> (venv, copy, home)
    counter = 0
    for recipe in selected:
        if recipe.fresh or recipe.document not in reader:
            counter += 1
            base = work / f"{counter:02d}-{re.sub(r'[^A-Za-z0-9]+', '-', recipe.id)}"
            copy, venv, home = base / "tree", base / "venv", base / "home"
            shutil.copytree(tree, copy, ignore=NOT_SOURCES)
            home.mkdir()
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(venv_python(venv)), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
            reader[recipe.document] = (venv, copy, home)
            if not recipe.fresh:
                print(f"\n===== {recipe.id} continues a document that installed nothing: {CONTRIBUTOR_SETUP}", flush=True)
                subprocess.run(shlex.split(CONTRIBUTOR_SETUP.replace("python", str(venv_python(venv)), 1)),
                               cwd=copy, check=True)
        venv, copy, home = reader[recipe.document]
        if re.search(r"\btrain\.py\b|\bpackage\.\w+", recipe.text):
            for name, content in STAND_INS.items():
                if not (copy / name).exists():
                    (copy / name).parent.mkdir(parents=True, exist_ok=True)
                    (copy / name).write_text(content, encoding="utf-8")
        environment = dict(os.environ)
        for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "PIP_REQUIRE_VIRTUALENV"):
            environment.pop(name, None)
        environment.update(
            VIRTUAL_ENV=str(venv),
            PATH=f"{venv_python(venv).parent}{os.pathsep}{environment['PATH']}",
            HOME=str(home),
            PIP_CACHE_DIR=environment.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip"),
            GYMSPACES_GATE="warn",
        )
        print(f"\n===== {recipe.id}  (in {copy}, {'fresh environment' if recipe.fresh else 'continued'})", flush=True)
        print(recipe.text.rstrip(), flush=True)
        started = time.perf_counter()
        completed = subprocess.run(["bash", "-e", "-c", recipe.text], cwd=copy, env=environment)
        elapsed = time.perf_counter() - started
        status = "ok" if completed.returncode == 0 else f"FAILED (exit {completed.returncode})"
        print(f"===== {recipe.id}: {status} in {elapsed:.0f}s", flush=True)
        if completed.returncode != 0:
            failed.append(recipe.id)
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout or unpacked sdist (default: this one)")
    parser.add_argument("--list", action="store_true", help="print the recipes and their ids, run nothing")
    parser.add_argument("--only", metavar="ID[,ID...]", help="run these recipes (and those they continue from)")
    parser.add_argument("--skip-quickstart", action="store_true",
                        help="leave out the README's Quick start (.ci/run runs it verbatim itself)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    every = recipes(tree)
    if args.list:
        for recipe in every:
            kind = "fresh" if recipe.fresh else "continues"
            print(f"{recipe.id:28} {kind:9}  {' | '.join(recipe.text.strip().splitlines())}")
        return 0
    selected = every
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {recipe.id for recipe in every}
        if unknown:
            parser.error(f"no recipe {', '.join(sorted(unknown))} (see --list)")
        # A recipe that continues needs the recipes of its document back to the last fresh one.
        keep: set[str] = set()
        for position, recipe in enumerate(every):
            if recipe.id in wanted:
                back = position
                while back > 0 and not every[back].fresh and every[back - 1].document == recipe.document:
                    back -= 1
                keep.update(item.id for item in every[back : position + 1])
        selected = [recipe for recipe in every if recipe.id in keep]
    if args.skip_quickstart:
        selected = [recipe for recipe in selected if not recipe.quickstart]
    work = Path(tempfile.mkdtemp(prefix="gymspaces-docs-commands."))
    print(f"work directory: {work}")
    try:
        failed = run(selected, tree, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if failed:
        print(f"\n{len(failed)} of {len(selected)} documented recipes failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"\nall {len(selected)} documented recipes ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
