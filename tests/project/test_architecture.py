"""The package's imports run one way, as docs/architecture.md draws them.

Every module of the package is read as source (``.py`` by its syntax tree,
``.pyx``/``.pxd`` line by line) and every import of another gymspaces module --
at module level or inside a function, but not under ``TYPE_CHECKING`` -- is an
edge. Importing ``gymspaces.vector.shared_memory`` also runs the package
``gymspaces.vector``, so that is an edge too.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

TREE = Path(__file__).resolve().parents[2]
PACKAGE = TREE / "gymspaces"
ARCHITECTURE = TREE / "docs" / "architecture.md"


def documented_layers() -> dict[str, int]:
    """Module -> layer, from the table in docs/architecture.md."""
    layers: dict[str, int] = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        row = re.match(r"\|\s*(\d+)\s*\|([^|]*)\|", line)
        if row is None:
            continue
        for name in re.findall(r"`([\w.]+)`", row.group(2)):
            module = "gymspaces" if name == "gymspaces" else f"gymspaces.{name}"
            assert module not in layers, f"{module} is listed twice in docs/architecture.md"
            layers[module] = int(row.group(1))
    return layers


def module_name(path: Path) -> str:
    parts = list(path.relative_to(TREE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in path.parts:
            modules.setdefault(module_name(path), path)
    return modules


def _under_type_checking(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imported_names(path: Path, module: str) -> set[str]:
    """Every gymspaces name ``module`` imports: a module, or a name inside one."""
    names: set[str] = set()
    source = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        pattern = r"^\s*(?:from\s+(gymspaces[\w.]*)\s+c?import\s+([\w, ]+)|c?import\s+(gymspaces[\w.]*))"
        for match in re.finditer(pattern, source, flags=re.M):
            if match.group(3):
                names.add(match.group(3))
            for item in (match.group(2) or "").split(","):
                if item.strip():
                    names.add(f"{match.group(1)}.{item.split()[0]}")
        return names
    tree = ast.parse(source)
    skipped = _under_type_checking(tree)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names if alias.name.startswith("gymspaces"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.startswith("gymspaces"):
                # ``from gymspaces import _box`` imports the module gymspaces._box;
                # ``from gymspaces import Box`` resolves to gymspaces itself below.
                names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_edges() -> set[tuple[str, str]]:
    modules = package_modules()
    edges: set[tuple[str, str]] = set()
    for module, path in modules.items():
        for name in imported_names(path, module):
            target = name
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target not in modules or target == module:
                continue
            edges.add((module, target))
            # Importing a submodule runs its packages' __init__ first, unless
            # they are the importer's own packages (running already, as the root
            # package is whenever any of its modules is).
            parent = target.rsplit(".", 1)[0]
            while "." in parent and not (module + ".").startswith(parent + "."):
                edges.add((module, parent))
                parent = parent.rsplit(".", 1)[0]
    return edges


def test_every_module_has_a_documented_layer():
    layers = documented_layers()
    modules = set(package_modules())
    assert sorted(modules - set(layers)) == [], "add these modules to the table in docs/architecture.md"
    assert sorted(set(layers) - modules) == [], "docs/architecture.md lists modules that do not exist"


def test_imports_never_go_up_a_layer():
    layers = documented_layers()
    upward = sorted(
        (f"{source} (layer {layers[source]}) imports {target} (layer {layers[target]})")
        for source, target in import_edges()
        if layers[target] > layers[source]
    )
    assert upward == []


def test_the_import_graph_has_no_cycle():
    graph: dict[str, set[str]] = {}
    for source, target in import_edges():
        graph.setdefault(source, set()).add(target)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for successor in sorted(graph.get(node, ())):
            if state.get(successor) == 1:
                cycle = path[path.index(successor) :] + [successor]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if successor not in state:
                visit(successor)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_kernels_import_only_from_layer_zero():
    layers = documented_layers()
    modules = package_modules()
    kernels = [module for module, path in modules.items() if path.suffix in (".pyx", ".pxd")]
    assert kernels, "no kernel sources found"
    for source, target in import_edges():
        if source in kernels:
            # Below it, only the compiled base; beside it, only the kernels of its own layer.
            beside = target in kernels and layers[target] == layers[source]
            assert layers[target] == 0 or beside, f"kernel {source} imports {target}"


def test_the_space_layer_knows_no_subclass():
    # Space, the batching functions and the generic batch rule see subclasses only through methods they define.
    spaces = {"gymspaces.box", "gymspaces.discrete", "gymspaces.multi_discrete", "gymspaces.multi_binary",
              "gymspaces.text", "gymspaces.tuple", "gymspaces.dict", "gymspaces.sequence", "gymspaces.graph",
              "gymspaces.oneof"}
    for source, target in import_edges():
        if source in ("gymspaces.space", "gymspaces._sample_batch", "gymspaces._batching"):
            assert target not in spaces, f"{source} imports {target}"


# ------------------------------------------------------------------ the traces
# docs/architecture.md, "Three calls, step by step": every "`gymspaces/x.pyx:123`"
# is followed by "`name`" or "`outer.name`", and that pair names exactly one
# line: the definition of ``name`` in the file (when it has exactly one), else
# its first use in the code of the file; with ``outer``, its first use in the
# code of ``outer``'s body. A reference moved to another line fails, and so
# does one the code moved away from, even where the name still stands there.

_DEFINITION = re.compile(
    r"^(?P<indent>\s*)(?:async\s+def|def|class|cdef\s+class|cpdef|cdef|ctypedef)\b[^(:=]*?\b(?P<name>\w+)\s*[(:\[]"
)
_ASSIGNMENT = re.compile(r"^(?P<indent>\s*)(?P<name>\w+)\s*(?::[^=]+)?=(?!=)")


def _code_names(source: str) -> dict[int, set[str]]:
    """The identifiers in each line's code (not in its strings and comments)."""
    names: dict[int, set[str]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME:
                names.setdefault(token.start[0], set()).add(token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):  # pragma: no cover - a source tokenize cannot read
        pytest.fail("the referenced source could not be tokenized")
    return names


def _definitions(lines: list[str], name: str) -> list[int]:
    found = []
    for number, line in enumerate(lines, 1):
        for pattern in (_DEFINITION, _ASSIGNMENT):
            match = pattern.match(line)
            if match and match.group("name") == name:
                found.append(number)
                break
    return found


def _body(lines: list[str], outer: str) -> range:
    """The line numbers of the unique definition of ``outer`` and its body."""
    defined = _definitions(lines, outer)
    assert len(defined) == 1, f"{outer} is defined {len(defined)} times: qualify it no further than a unique name"
    start = defined[0]
    indent = len(lines[start - 1]) - len(lines[start - 1].lstrip())
    for number in range(start + 1, len(lines) + 1):
        text = lines[number - 1]
        if text.strip() and not text.lstrip().startswith("#") and len(text) - len(text.lstrip()) <= indent:
            return range(start, number)
    return range(start, len(lines) + 1)


def referenced_line(path: Path, qualified: str) -> int | None:
    """The one line ``qualified`` (``name`` or ``outer.name``) may point at in ``path``."""
    source = path.read_text(encoding="utf-8")
    lines, names = source.splitlines(), _code_names(source)
    outer, _, name = qualified.rpartition(".")
    if outer:
        candidates: range | list[int] = _body(lines, outer)[1:]
    else:
        defined = _definitions(lines, name)
        if len(defined) == 1:
            return defined[0]
        candidates = range(1, len(lines) + 1)
    return next((number for number in candidates if name in names.get(number, ())), None)


def trace_references() -> list[tuple[str, int, str]]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    every = re.findall(r"[\w/.]+\.(?:py|pyx|pxd|pyi):\d+", text)
    found = re.findall(r"`(gymspaces/[\w/.]+):(\d+)` `([\w.]+)`", text)
    references = [(path, int(line), name) for path, line, name in found]
    assert len(every) == len(references), sorted(set(every) - {f"{path}:{line}" for path, line, _ in references})
    return references


def test_the_traces_point_at_the_lines_they_name():
    references = trace_references()
    assert len(references) >= 40
    wrong = [
        f"{path}:{line} `{name}`: that names line {found}"
        for path, line, name in references
        if (found := referenced_line(TREE / path, name)) != line
    ]
    assert wrong == []


def test_a_reference_names_one_line_whatever_else_holds_the_name(tmp_path):
    # The check itself: a name that stands on several lines (a definition, uses,
    # a comment) names just one of them, so a reference moved to another fails.
    source = tmp_path / "module.py"
    source.write_text(
        "def outer():\n    # calls inner\n    x = 1\n    inner(x)\n    inner(x)\n\n\ndef inner(x):\n    return x\n"
    )
    assert referenced_line(source, "inner") == 8  # its definition, not a use
    assert referenced_line(source, "outer.inner") == 4  # its first use in outer's code (not the comment)
    assert referenced_line(source, "outer.x") == 3
