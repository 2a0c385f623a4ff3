"""The glossary (docs/architecture.md, "Words") has every term the code coins, and no other.

The terms are collected from the code, not kept by hand. Where the package
names its own concepts:

* the classes of the patch layer (``gymspaces/gymnasium/``) and those the
  kernels share (declared in a ``.pxd``), and the patch layer's modules;
* names ending in one of the concept words of :data:`HEADS`
  (``general_rule``, ``tree_reason``, ``release_proven``...) in the patch
  layer and the kernels (``gymspaces/_*.pyx``, ``_*.pxd``);
* the phrases "<word> rule", "<word> reason" and "<word> kernel" in their
  comments and docstrings ("the general rule");
* the names of their functions that do one of the spaces' operations, a
  name ending in the operation (``unmasked_multi_discrete_sample``);
* the patch layer's switches: module-level ``NAME: bool`` constants and the
  ``cdef public``/``readonly bint`` attributes of its classes (``RERUN_ON_ERROR``).

Each is split into words (``RNGHandle`` -> "rng handle"). It is covered when
it is a glossary term or one of a row's aliases, or when every word of it is
a word the reader already has: a word of some glossary term ("tree verdict"
is the verdict on a tree), a word of gymspaces' public API (class, function
and method names and their parameters, with their -ed/-ing forms: "masked",
"batching"), or a grammar word. So "general rule" fails until the glossary
says what the general rule is, and "batch kernel" passes.

A glossary term that no code uses any more fails too (a stale entry).
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import gymspaces
import gymspaces.error
import gymspaces.utils
import gymspaces.vector

TREE = Path(__file__).resolve().parents[2]
PACKAGE = TREE / "gymspaces"
ARCHITECTURE = TREE / "docs" / "architecture.md"
SUFFIXES = (".py", ".pyx", ".pxd", ".pyi")

LAYER = sorted(path for path in (PACKAGE / "gymnasium").rglob("*") if path.suffix in SUFFIXES)  # the profiler too
KERNELS = sorted(path for path in PACKAGE.iterdir() if path.suffix in (".pyx", ".pxd") and path.name.startswith("_"))

HEADS = ("rule", "reason", "entry", "proven", "kernel", "verdict")
"""Words the package builds its concepts' names on: ``<qualifier>_<head>`` names a kind of it."""

PHRASE_HEADS = ("rule", "reason", "kernel")
"""Heads whose phrases in prose ("the general rule") name a kind of it too. (Not "entry":
an entry of an array is the ordinary word.)"""

GRAMMAR = frozenset(
    """a an the of in on at to by for from with without as and or nor not no it its their this that
    these those each every any all both either some many more most less other another same such
    one two three per whose which what where when then than if so is are be been was were has
    have had do does can may must will would should into out over under only also just very own""".split()
)
"""English function words: a phrase's qualifier that is one of these is no qualifier ("its own rule")."""

EXCLUDED = {
    "make entries": "a function that makes the entries (gymnasium/_entries.py), not a kind of entry",
    "hundred rules": "gymnasium/_patch.py counts rules ('some hundred rules')",
    "after fork": "_AfterFork is named for multiprocessing's register_after_fork, which holds it",
    "processes": "gymnasium/profiler/processes.py: the run's processes, the ordinary word",
    "current sample": "gymnasium/_entries.py: a release's sample, called as today's; 'current' as in English",
}
"""Compounds that are not terms, each with why (keep this short)."""


def singulars(word: str) -> set[str]:
    """``word`` and what it is if it is a plural ("entries" -> "entry", "aliases" -> "alias")."""
    forms = {word, "child"} if word == "children" else {word}
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
        if word.endswith("es"):
            forms.add(word[:-2])
        if word.endswith("ies"):
            forms.add(word[:-3] + "y")
    return forms


def split_words(name: str) -> list[str]:
    """``RNGHandle`` -> ["rng", "handle"], ``release_proven`` -> ["release", "proven"]."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return [word for word in re.split(r"[\s_\-']+", spaced.lower()) if word]


def same_words(one: list[str], other: list[str]) -> bool:
    return len(one) == len(other) and all(singulars(a) & singulars(b) for a, b in zip(one, other))


def glossary() -> list[list[str]]:
    """The terms of the "Words" table, one list of aliases per row."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Words\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or cells[0] in ("word", "") or set(cells[0]) <= set("-"):
            continue
        rows.append([alias.strip().strip("`") for alias in cells[0].split(",")])
    return rows


def api_words() -> set[str]:
    """The words of gymspaces' public names, their parameters', and their -ed/-ing forms."""
    names: list[str] = ["mask", "probability", "register", "dispatch"]  # sample's arguments; a dispatcher's API
    modules = (gymspaces, gymspaces.utils, gymspaces.vector, gymspaces.error)
    for module in modules:
        for name in module.__all__:
            names.append(name)
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, gymspaces.Space):
                names.extend(attribute for attribute in vars(obj) if not attribute.startswith("_"))
            try:
                names.extend(inspect.signature(obj).parameters)
            except (TypeError, ValueError):
                pass
    words = {word for name in names for word in split_words(name)}
    return {form for word in words for form in (word, word + "ed", word + "d", word + "ing", word[:-1] + "ing")}


def operations() -> set[str]:
    """The last words of the spaces' operations: their public methods, and the public
    functions of one word (``flatten``, ``concatenate``)."""
    methods = [name for name, value in vars(gymspaces.Space).items() if callable(value) and not name.startswith("_")]
    helpers = [
        name
        for module in (gymspaces, gymspaces.vector)
        for name in module.__all__
        if "_" not in name and callable(getattr(module, name)) and not isinstance(getattr(module, name), type)
    ]
    return {split_words(name)[-1] for name in methods + helpers}


def prose(text: str) -> Iterator[str]:
    """The comments and triple-quoted strings (docstrings) of a source file, without inline code."""
    for match in re.finditer(r'"""(.*?)"""|#([^\n]*)', text, flags=re.S):
        yield re.sub(r"``[^`]*``|`[^`]*`", " , ", match.group(1) or match.group(2) or "")


def coined() -> dict[str, set[str]]:
    """Every compound the code coins -> where (file: how found)."""
    found: dict[str, set[str]] = {}

    def add(name: str, where: Path, how: str, first: bool = False) -> None:
        words = split_words(name)
        while words and words[0] in GRAMMAR:
            words.pop(0)
        if words:
            words = words[:1] if first else words
            found.setdefault(" ".join(words), set()).add(f"{where.relative_to(TREE)}: {how}")

    heads = "|".join(rf"{head[:-1]}(?:y|ies)" if head.endswith("y") else rf"{head}s?" for head in HEADS)
    phrase_heads = "|".join(rf"{head}s?" for head in PHRASE_HEADS)
    operation = re.compile(rf"_(?:{'|'.join(sorted(operations()))})$")
    for path in LAYER + KERNELS:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^\s*(?:cdef\s+)?class\s+(\w+)[(:]", text, flags=re.M):
            if path in LAYER or path.suffix == ".pxd":
                add(match.group(1), path, "class")
        for match in re.finditer(rf"\b([A-Za-z]\w*_(?:{heads}))\b", text):
            add(match.group(1), path, "name")
        for match in re.finditer(r"^\s*c?p?def\s+(?:[\w.*]+\s+)*?(\w+)\s*\(", text, flags=re.M):
            if operation.search(match.group(1)):
                add(match.group(1), path, "operation")
        for part in prose(text):
            for match in re.finditer(rf"(?<![\w'.-])([a-z][a-z-]*) ({phrase_heads})\b", part):
                add(f"{match.group(1)} {match.group(2)}", path, "phrase")
        if path in LAYER:
            # A switch reads as a sentence ("rerun on error"): its first word names the concept.
            for match in re.finditer(r"^([A-Z][A-Z0-9_]*)\s*:\s*bool\b", text, flags=re.M):
                add(match.group(1), path, "switch", first=True)
            for match in re.finditer(r"^\s+cdef\s+(?:public|readonly)\s+bint\s+([\w, ]+)", text, flags=re.M):
                for name in match.group(1).split(","):
                    add(name.strip(), path, "switch", first=True)
    for path in LAYER:
        if path.suffix == ".py" and path.stem not in ("__init__", "__main__"):
            add(path.stem, path, "module")
    return found


def covered(compound: str, terms: list[list[str]], known: set[str]) -> bool:
    words = compound.split()
    if any(same_words(words, split_words(alias)) for row in terms for alias in row):
        return True
    return all(singulars(word) & known for word in words)


def test_every_coined_term_is_in_the_glossary() -> None:
    terms = glossary()
    known = api_words() | GRAMMAR
    known |= {form for row in terms for alias in row for word in split_words(alias) for form in singulars(word)}
    missing = {
        compound: sorted(where)
        for compound, where in coined().items()
        if compound not in EXCLUDED and not covered(compound, terms, known)
    }
    assert not missing, "coined in the code, missing from docs/architecture.md 'Words': " + "; ".join(
        f"{compound!r} ({', '.join(where[:2])})" for compound, where in sorted(missing.items())
    )


@functools.cache
def code_texts() -> tuple[str, ...]:
    """Every source file of the package and the benchmarks, comments and docstrings included."""
    return tuple(
        path.read_text(encoding="utf-8")
        for folder in (PACKAGE, TREE / "benchmarks")
        for path in sorted(folder.rglob("*"))
        if path.suffix in SUFFIXES and "__pycache__" not in path.parts
    )


def term_pattern(alias: str) -> re.Pattern[str]:
    """``alias`` as the code may write it: words joined by a space, ``_`` or ``-`` (or
    nothing, in a class name), in any case, each maybe inflected ("handing over")."""
    forms = []
    for word in split_words(alias):
        stems = singulars(word) | {stem[:-1] + "ie" for stem in singulars(word) if stem.endswith("y")}
        alternatives = "|".join(re.escape(stem) for stem in sorted(stems, key=len, reverse=True))
        forms.append(rf"(?:{alternatives})(?:e?s|e?d|ing|ren)?")
    return re.compile(r"(?<![a-z])" + r"[\s_-]?".join(forms) + r"(?![a-z])", flags=re.I)


@pytest.mark.parametrize("alias", [alias for row in glossary() for alias in row])
def test_every_glossary_term_is_used_in_the_code(alias: str) -> None:
    pattern = term_pattern(alias)
    assert any(pattern.search(text) for text in code_texts()), (
        f"{alias!r} is in docs/architecture.md 'Words' but no code under gymspaces/ or benchmarks/ uses it"
    )


def test_the_collection_finds_what_it_looks_for() -> None:
    # The collectors themselves: a coined compound of each kind is found, and would fail alone.
    found = coined()
    kinds = ("general rule", "release proven", "rerun", "operation", "method entry", "replay", "unmasked multi discrete sample")
    for compound in kinds:
        assert compound in found, compound
    assert not covered("general rule", [["rule"]], GRAMMAR)


# --------------------------------------------------------------------------- one sense of "plain"

PLAIN_NAMES = frozenset(
    {
        "plain_reason", "note_plain", "ran_plain", "plain_space", "_noting_plain_spaces", "plain_run", "plain_calls",
        "plain_outer_seconds", "plain_seconds", "plain_sample", "plain_text", "plain_per_call", "plain_gymnasium",
        "one_plain", "_plain_summary", "_plain_section", "COMPOSITE_MASKS_PLAIN", "plain_probe", "plain_median",
        "plain_times", "plain_medians", "plain_side", "plain_result", "plain_results", "plain_rows", "plain",
        "_timing_plain_operations", "plain_probe_in_spaces", "plain_probe_seconds", "_PLAIN_DEPTH",
    }
)
"""Every name with the word "plain" in it: each is about Gymnasium's own code (a call that
ran it, the time it took, a run of it). A new one joins only with that sense."""

PLAIN_NEXT = GRAMMAR | {
    "gymnasium", "gymnasium's", "code", "run", "runs", "result", "results", "estimate", "call", "calls", "time",
    "times", "s", "us", "ms", "side", "median", "medians", "about", "again", "against", "patched", "mode",
    "entries", "rows", "then", "first", "last", "once", "too", "sampling", "share",
}
"""What may follow "plain" in prose: it stays the adjective of Gymnasium's own code ("plain
Gymnasium", "plain run", "plain and patched"), never "a plain dict" or "plain Python"."""


def _plain_words(text: str) -> Iterator[tuple[str, str]]:
    """(kind, what) of every use of "plain" in a source file: names, and prose with the next word."""
    for match in re.finditer(r"\b\w*[pP][lL][aA][iI][nN]\w*\b", text):
        name = match.group(0)
        if "plain" in split_words(name) and name not in ("plain", "Plain", "PLAIN"):
            yield "name", name
    for part in prose(text):
        for match in re.finditer(r"\bplain\b[\s,]*([\w']+)?", part, flags=re.I):
            yield "prose", (match.group(1) or "").lower()


def test_plain_keeps_one_sense_gymnasiums_own_code() -> None:
    strays = set()
    for text in code_texts():
        for kind, what in _plain_words(text):
            figure = what[:1].isdigit()  # "0.33 us plain, 0.43 us patched"
            if (kind == "name" and what not in PLAIN_NAMES) or (
                    kind == "prose" and what and not figure and what not in PLAIN_NEXT):
                strays.add(f"{kind}: {what}")
    assert not strays, "'plain' means Gymnasium's own code; name these otherwise or add them: " + ", ".join(sorted(strays))


def test_the_plain_check_catches_a_new_sense() -> None:
    offenders = list(_plain_words('def plain_dict_reason(x):\n    # a plain dict of arrays\n    return x\n'))
    assert ("name", "plain_dict_reason") in offenders and ("prose", "dict") in offenders


# --------------------------------------------------------------------------- what the tables name exists

NAMED = re.compile(r"`([^`]+)`")


def _cells(section: str, column: int) -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    body = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip().strip("|").split("|") for line in body.splitlines() if line.startswith("|")]
    return [row[column].strip() for row in rows[2:] if len(row) > column]


def _resolve(token: str) -> list[Path]:
    """The files a path token names (``gymnasium/_guard.py``, ``_flatten.pyx``, ``gymnasium/profiler/``)."""
    for base in (PACKAGE, TREE):
        found = sorted(base.glob(token.rstrip("/"))) if "*" in token else [base / token.rstrip("/")]
        found = [path for path in found if path.exists()]
        if found:
            return [file for path in found for file in (sorted(path.rglob("*.py")) if path.is_dir() else [path])]
    return []


def _names_exist(cell: str) -> list[str]:
    """What a table cell names that does not exist: files, and identifiers in the files it names."""
    tokens = NAMED.findall(cell)
    paths = [token for token in tokens if re.search(r"/|\.(py|pyx|pxd|pyi|toml)$", token)]
    missing = [token for token in paths if not _resolve(token)]
    files = [file for token in paths for file in _resolve(token)] or [
        path for path in PACKAGE.rglob("*") if path.suffix in SUFFIXES
    ]
    texts = [file.read_text(encoding="utf-8") for file in files]
    for token in tokens:
        if token in paths or " " in token or "(" in token:
            continue  # a file, or code quoted as an example
        module, _, name = token.rpartition(".")
        # ``module.name``: the name in that module (``_kernel_switches.add``); else in the cell's files.
        within = [file for suffix in (".py", ".pyx") for file in _resolve(module.replace(".", "/") + suffix)]
        pattern = re.compile(r"\b" + re.escape(name).replace(r"\*", r"\w*") + r"\b")
        searched = [file.read_text(encoding="utf-8") for file in within] if module and within else texts
        if re.fullmatch(r"[\w.*]+", token) and not any(pattern.search(text) for text in searched):
            missing.append(token)
    return missing


@pytest.mark.parametrize(("section", "column"), [("Words", 2), ("Where a behaviour lives", 1), ("Where a behaviour lives", 2)])
def test_every_file_and_name_the_tables_give_exists(section: str, column: int) -> None:
    missing = {cell[:60]: found for cell in _cells(section, column) if (found := _names_exist(cell))}
    assert not missing, f"docs/architecture.md '{section}' names what is not there: {missing}"


def test_the_table_check_finds_a_missing_name() -> None:
    assert _names_exist("`gymnasium/_guard.py` (`children`)") == ["children"]
    assert _names_exist("`gymnasium/_nothing.py`") == ["gymnasium/_nothing.py"]
    assert _names_exist("`gymnasium/_judge.pyx` (`children_reason`)") == []
