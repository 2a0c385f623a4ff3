"""The version of gymspaces: the single place it is written.

``pyproject.toml`` reads it (``[tool.setuptools.dynamic]``) without importing
the package, ``gymspaces.__version__`` and the documentation import it.
"""

__version__ = "0.1.0"
