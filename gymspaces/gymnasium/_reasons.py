"""Why a patched call runs Gymnasium's own code: one code per check patch mode makes.

A reason is ``"code: detail"``: the code names the check that failed (the
report groups calls by it, tests trigger each one), the detail says what it
found (``"subclass-overrides: Doubled redefines n"``). Every reason patch mode
gives starts with one of :data:`CODES`, in the order the checks run.
"""

from __future__ import annotations

__all__ = ["CODES", "code_of", "coded"]

CODES: dict[str, str] = {
    "left-to-gymnasium": "patch mode never takes this operation of the class: Gymnasium's code is as fast",
    "not-patched": "Gymnasium is not patched, or the patch that installed the entry was undone",
    "program-rule": "the program registered a rule of its own with one of gymspaces' helpers",
    "not-a-gymnasium-class": "a space (or sub-space) of a class that is none of Gymnasium's ten",
    "subclass-overrides": "a subclass of Gymnasium's class redefines what Gymnasium's code reads",
    "generator-not-numpy": "the space's np_random is not exactly a numpy Generator",
    "attributes-changed": "the space's attributes are not as Gymnasium's __init__ leaves them",
    "too-deep": "spaces nested deeper than the kernels walk",
    "release-differs": "the installed Gymnasium release gives another outcome than 1.4.0 here",
    "argument-not-taken": "arguments the compiled code does not take (Gymnasium's may answer otherwise)",
    "may-warn": "Gymnasium's code may warn on these arguments (a cast numpy warns about, say)",
}
"""Every reason code, with what it means, in the order patch mode checks."""


def coded(code: str, detail: str) -> str:
    """The reason ``"code: detail"``; ``code`` must be one of :data:`CODES`."""
    if code not in CODES:
        raise ValueError(f"not a reason code: {code!r}")
    return f"{code}: {detail}"


def code_of(reason: str) -> str:
    """The code a reason starts with."""
    return reason.partition(": ")[0]
