"""docs/quirks.md defines every quirk id the code and the tests cite, and names existing
tests for each quirk."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "quirks.md"
QUIRK_ID = re.compile(r"\bQ\d+[a-z]?\b")
SECTION = re.compile(r"^### (Q\d+[a-z]?): ", re.M)
TEST_REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
SOURCES = (".py", ".pyx", ".pxd", ".pyi")


def _sections() -> dict[str, str]:
    """Each quirk id of the page and the text of its section."""
    text = PAGE.read_text(encoding="utf-8")
    starts = list(SECTION.finditer(text))
    ends = [match.start() for match in starts[1:]] + [len(text)]
    sections: dict[str, str] = {}
    for match, end in zip(starts, ends):
        assert match.group(1) not in sections, f"{match.group(1)} is defined twice"
        # A section ends at the next quirk or at the next group heading.
        sections[match.group(1)] = text[match.end():end].split("\n## ")[0]
    return sections


def test_each_quirk_names_tests_that_exist():
    sections = _sections()
    assert len(sections) >= 30
    for quirk, body in sections.items():
        references = TEST_REFERENCE.findall(body)
        assert references, f"{quirk} names no pinning test"
        for path, name in references:
            source = ROOT / path
            assert source.is_file(), f"{quirk}: {path} does not exist"
            assert re.search(rf"^def {name}\(", source.read_text(encoding="utf-8"), re.M), (
                f"{quirk}: {path} has no test {name}"
            )


def test_every_cited_quirk_id_is_defined():
    defined = set(_sections())
    undefined = []
    for folder in ("gymspaces", "tests"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                undefined += [
                    f"{path.relative_to(ROOT)}:{number}: {quirk}"
                    for quirk in QUIRK_ID.findall(line)
                    if quirk not in defined
                ]
    assert not undefined, "quirk ids not defined in docs/quirks.md:\n" + "\n".join(undefined)
