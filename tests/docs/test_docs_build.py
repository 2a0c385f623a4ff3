"""The built documentation works offline and links what it names.

Each page of the HTML build (``built_docs``, see conftest.py) is read with the
standard library's HTML parser: no script, style sheet or link that needs the
package index or a CDN; no signature that shows a default's repr
(``dtype=<class 'numpy.float32'>``); no member documented with Python's own
text (a builtin method's docstring, a named tuple's field alias); every link
between pages lands on a page and an anchor that exist; and no page names
another in plain text where a link belongs. The build itself runs with
warnings as errors, so an unresolved reference (a quirk id quirks.md does not
define) fails it.
"""

from __future__ import annotations

import html.parser
import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import pytest


@dataclass
class Page:
    """What the checks need of one HTML page."""

    path: Path
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)
    scripts: list[str] = field(default_factory=list)  # src of each script, "" for inline ones
    stylesheets: list[str] = field(default_factory=list)
    signatures: dict[str, str] = field(default_factory=dict)  # id of a documented object -> its signature's text
    prose: str = ""  # the text outside code, scripts and signatures


class _Reader(html.parser.HTMLParser):
    CODE = frozenset({"code", "pre", "script", "style", "kbd", "samp"})

    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.open_code = 0
        self.signature: str | None = None  # the id of the <dt class="sig"> being read
        self.signature_depth = 0
        self.prose: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.page.ids.add(values["id"])
        if tag == "a" and "href" in values:
            self.page.links.append(values["href"])
        if tag == "script":
            self.page.scripts.append(values.get("src", ""))
        if tag == "link" and "stylesheet" in values.get("rel", "").split():
            self.page.stylesheets.append(values.get("href", ""))
        if tag in self.CODE:
            self.open_code += 1
        if tag == "dt":
            if self.signature is not None:
                self.signature_depth += 1
            elif "sig" in values.get("class", "").split() and values.get("id"):
                self.signature, self.signature_depth = values["id"], 0
                self.page.signatures[self.signature] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in self.CODE and self.open_code:
            self.open_code -= 1
        if tag == "dt" and self.signature is not None:
            if self.signature_depth:
                self.signature_depth -= 1
            else:
                self.signature = None

    def handle_data(self, data: str) -> None:
        if self.signature is not None:
            self.page.signatures[self.signature] += data
        elif not self.open_code:
            self.prose.append(data)

    def close(self) -> None:
        super().close()
        self.page.prose = " ".join(" ".join(self.prose).split())


@pytest.fixture(scope="module")
def pages(built_docs: Path) -> dict[str, Page]:
    """Every documentation page of the build, by its path relative to the build."""
    read = {}
    for path in sorted(built_docs.rglob("*.html")):
        relative = path.relative_to(built_docs).as_posix()
        if relative.startswith(("_", "genindex", "search")):  # Sphinx's own pages and sources
            continue
        page = Page(path)
        reader = _Reader(page)
        reader.feed(path.read_text(encoding="utf-8"))
        reader.close()
        read[relative] = page
    assert {"index.html", "quirks.html", "changelog.html", "api/spaces.html"} <= set(read)
    return read


def _external(url: str) -> bool:
    return urlparse(url).scheme in ("http", "https") or url.startswith("//")


def test_no_link_to_the_package_index(pages: dict[str, Page]) -> None:
    """gymspaces is not on the package index yet: no page links its project page there."""
    found = [(name, link) for name, page in pages.items() for link in page.links
             if urlparse(link).hostname in ("pypi.org", "pypi.python.org", "test.pypi.org")]
    assert not found, found


def test_pages_load_nothing_from_the_network(pages: dict[str, Page]) -> None:
    """No script or style sheet from elsewhere (MathJax from a CDN was one): the
    docs read the same offline."""
    found = [(name, source) for name, page in pages.items() for source in page.scripts + page.stylesheets
             if _external(source)]
    assert not found, found
    mathjax = [name for name, page in pages.items() if any("mathjax" in source.lower() for source in page.scripts)]
    assert not mathjax, f"MathJax loaded by {mathjax}: write the math in Unicode"
    raw_math = [name for name, page in pages.items() if re.search(r"\\\(|\\\[|\\mathbb", page.prose)]
    assert not raw_math, f"TeX shown as text on {raw_math}"


def test_signatures_show_defaults_as_written(pages: dict[str, Page]) -> None:
    found = [(name, text.strip()) for name, page in pages.items() for text in page.signatures.values()
             if "<class '" in text or re.search(r"<\w[\w.]* object at 0x", text)]
    assert not found, found
    box = pages["api/spaces.html"].signatures["gymspaces.Box"]
    assert "dtype=np.float32" in box, box


def _documented_object(name: str) -> object:
    """The object an API page documents under ``name`` (``gymspaces.Box.sample``)."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:]:
            value = value.__dict__[part] if part in getattr(value, "__dict__", {}) else getattr(value, part)
        return value
    raise LookupError(name)


def test_members_are_gymspaces_own(pages: dict[str, Page]) -> None:
    """Every documented member is defined by gymspaces: none is a builtin type's
    method (``get(k[, d]) -> D[k] if k in D, else d.``) or a named tuple's field
    accessor (``Alias for field number 0``)."""
    checked = 0
    for name, page in pages.items():
        for documented in page.signatures:
            if not documented.startswith("gymspaces.") or documented.count(".") < 2:
                continue
            value = _documented_object(documented)
            if isinstance(value, (property, classmethod, staticmethod)):
                value = getattr(value, "fget", None) or value.__func__
            owner = getattr(value, "__objclass__", None)
            assert owner is None or owner.__module__ != "builtins", f"{name}: {documented} is {owner.__name__}'s"
            assert not (getattr(value, "__doc__", None) or "").startswith("Alias for field number"), documented
            if callable(value):
                module = getattr(value, "__module__", None) or ""
                assert module.startswith("gymspaces"), f"{name}: {documented} comes from {module or 'a builtin'}"
            checked += 1
    assert checked > 50, checked
    texts = " ".join(page.prose for name, page in pages.items() if name.startswith("api/"))
    for builtin_text in ("Alias for field number", "if k in D, else d", "Return self", "See help(type(self))"):
        assert builtin_text not in texts


def test_links_between_pages_land(pages: dict[str, Page], built_docs: Path) -> None:
    """Each link to another page of the docs names a page that exists and an anchor on it."""
    broken = []
    for name, page in pages.items():
        for link in page.links:
            if _external(link) or link.startswith(("mailto:", "javascript:")):
                continue
            target, anchor = urldefrag(link)
            if target.startswith(("_sources/", "../_sources/", "genindex", "search", "_images/", "../_images/")):
                continue
            resolved = (page.path.parent / target).resolve() if target else page.path.resolve()
            key = resolved.relative_to(built_docs.resolve()).as_posix()
            if key not in pages:
                broken.append(f"{name}: {link} (no page {key})")
            elif anchor and anchor not in pages[key].ids:
                broken.append(f"{name}: {link} (no anchor #{anchor} on {key})")
    assert not broken, "\n".join(broken)


def test_quirks_cited_by_the_api_are_links(pages: dict[str, Page]) -> None:
    """A docstring's ``:quirk:`Q20``` is a link to the quirk's section."""
    links = [link for name, page in pages.items() if name.startswith("api/") for link in page.links
             if "quirks.html#q" in link]
    assert len(links) >= 6, links
    quirk_ids = pages["quirks.html"].ids
    assert all(urldefrag(link)[1] in quirk_ids for link in links)


def test_pages_name_other_pages_by_links(pages: dict[str, Page]) -> None:
    """A page names another with a link, not as a path in the text
    ("(docs/patching.md)", "quirk Q20 in docs/quirks.md")."""
    found = [(name, match.group(0)) for name, page in pages.items()
             for match in re.finditer(r"\b(?:docs/)?[\w-]+\.md\b", page.prose)]
    assert not found, found
