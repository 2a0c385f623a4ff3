"""Sphinx configuration: ``python -m sphinx -W -b html docs docs/_build/html`` (offline).

The pages load nothing from the network: the docs write no math (Unicode
instead), so Sphinx adds no MathJax script, and they link no page that does
not exist (gymspaces is not on the package index yet). tests/docs/test_docs_build.py
checks the built pages.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes

import gymspaces

project = "gymspaces"
author = "The gymspaces developers"
copyright = "2026, The gymspaces developers"  # noqa: A001  (Sphinx's setting name)
release = version = gymspaces.__version__  # from gymspaces/_version.py, its only source

extensions = [
    "myst_parser",           # pages in Markdown
    "sphinx.ext.autodoc",    # the API reference comes from the docstrings
    "sphinx.ext.napoleon",   # numpy-style docstrings
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "none"          # signatures stay readable; types are in the docstrings
autodoc_preserve_defaults = True    # defaults as written (dtype=np.float32), not their repr (<class '...'>)
autodoc_inherit_docstrings = True
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_ivar = True            # "Attributes" sections as fields: :members: documents the attributes
# Type fields name ``Space`` or ``shape``, which several documented classes
# define; Sphinx links the first and would warn that the name is ambiguous.
suppress_warnings = ["ref.python"]

html_theme = "furo"                 # maintained, as Gymnasium's own docs (the `docs` extra)
html_title = f"gymspaces {release}"
# The repository, in the theme's footer and beside each page's title. (No
# package-index link until gymspaces is published there.)
html_theme_options = {
    "source_repository": "https://github.com/gymspaces/gymspaces/",
    "source_branch": "main",
    "source_directory": "docs/",
    "footer_icons": [
        {"name": "GitHub", "url": "https://github.com/gymspaces/gymspaces", "html": "GitHub", "class": ""},
    ],
}
html_static_path = ["_static"]
html_css_files = ["gymspaces.css"]


def _drop_embedded_signature(app, what, name, obj, options, lines):
    """Compiled methods start their docstring with Cython's embedded signature.

    It names the kernel function (``box_sample(self, ...)``), not the method it
    is bound as; autodoc already shows the method's signature.
    """
    import re

    if lines and re.fullmatch(r"\w+\(self(, .*)?\)( -> .*)?", lines[0].strip()):
        del lines[0]
        while lines and not lines[0].strip():
            del lines[0]


def _skip_builtin_members(app, what, name, obj, skip, options):
    """Leave out members whose text is Python's, not gymspaces': methods of a
    builtin type (``get(k[, d]) -> D[k] if k in D, else d.``) and a named
    tuple's field accessors (``Alias for field number 0``; the class's
    docstring describes its fields)."""
    owner = getattr(obj, "__objclass__", None)
    if owner is not None and owner.__module__ == "builtins":
        return True
    if (getattr(obj, "__doc__", None) or "").startswith("Alias for field number"):
        return True
    return None  # autodoc decides


# ``:quirk:`Q20``` in a docstring links to that quirk's section of quirks.md,
# which the page's heading (``### Q20: ...``) labels.
QUIRK_HEADING = re.compile(r"(Q\d+[a-z]?): ")


def _quirk_label(quirk: str) -> str:
    return f"quirk-{quirk.lower()}"


def _label_quirk_sections(app, doctree):
    if app.env.docname != "quirks":
        return
    std = app.env.get_domain("std")
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title).astext()
        match = QUIRK_HEADING.match(title)
        if match:
            std.anonlabels[_quirk_label(match.group(1))] = ("quirks", section["ids"][0])
            std.labels[_quirk_label(match.group(1))] = ("quirks", section["ids"][0], title)


def _quirk_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``:quirk:`Q20``` -> "quirk Q20", linked to its section (an unknown id is a build warning)."""
    reference = addnodes.pending_xref(
        rawtext, refdomain="std", reftype="ref", reftarget=_quirk_label(text), refexplicit=True, refwarn=True,
        refdoc=inliner.document.settings.env.docname,
    )
    reference += nodes.inline(rawtext, f"quirk {text}", classes=["xref", "std", "std-ref"])
    return [reference], []


def setup(app):
    app.connect("autodoc-process-docstring", _drop_embedded_signature)
    app.connect("autodoc-skip-member", _skip_builtin_members)
    app.connect("doctree-read", _label_quirk_sections)
    app.add_role("quirk", _quirk_role)
