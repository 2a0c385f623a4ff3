"""Sphinx configuration: ``python -m sphinx -W -b html docs docs/_build/html`` (offline)."""

from __future__ import annotations

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
autodoc_inherit_docstrings = True
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_ivar = True            # "Attributes" sections as fields: :members: documents the attributes
# Type fields name ``Space`` or ``shape``, which several documented classes
# define; Sphinx links the first and would warn that the name is ambiguous.
suppress_warnings = ["ref.python"]

html_theme = "furo"                 # maintained, as Gymnasium's own docs (the `docs` extra)
html_title = f"gymspaces {release}"
# The repository and the package index, in the theme's footer and beside each page's title.
html_theme_options = {
    "source_repository": "https://github.com/gymspaces/gymspaces/",
    "source_branch": "main",
    "source_directory": "docs/",
    "footer_icons": [
        {"name": "GitHub", "url": "https://github.com/gymspaces/gymspaces", "html": "GitHub", "class": ""},
        {"name": "PyPI", "url": "https://pypi.org/project/gymspaces/", "html": "PyPI", "class": ""},
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


def setup(app):
    app.connect("autodoc-process-docstring", _drop_embedded_signature)
