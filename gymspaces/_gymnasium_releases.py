"""The Gymnasium releases patch mode is verified on, in a module that imports nothing.

Patch mode (``gymspaces.gymnasium``) patches these releases and leaves others
unpatched unless asked. The hints that say how to install Gymnasium name them
from here, where Gymnasium is missing and patch mode cannot be imported.
"""

VERIFIED_GYMNASIUM = ("0.29.1", "1.0.0", "1.1.1", "1.2.2", "1.3.0", "1.4.0")


def install_hint() -> str:
    """How to install Gymnasium for patch mode: a pip command and the verified releases."""
    *older, newest = VERIFIED_GYMNASIUM
    return f"pip install 'gymnasium=={newest}' (patch mode supports Gymnasium {', '.join(older)} and {newest})"
