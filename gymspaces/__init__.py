"""gymspaces: Gymnasium's spaces with compiled, sample-stream-exact hot paths.

Every class here is a drop-in for its namesake in ``gymnasium.spaces``: the same
constructor arguments, errors, reprs and seeding, and -- for the same seed --
bit-for-bit the same samples as Gymnasium 1.4.0.
"""

from typing import TYPE_CHECKING

from gymspaces._unbuilt import missing_kernels as _missing_kernels

# Before any kernel is imported: a kernel not built here would be taken from
# another install's folder if there is one (see _unbuilt), or fail as a
# circular import.
if _missing_kernels():
    from gymspaces._unbuilt import unbuilt_error

    raise unbuilt_error(_missing_kernels())
del _missing_kernels

from gymspaces._version import __version__
from gymspaces.box import Box
from gymspaces.dict import Dict
from gymspaces.discrete import Discrete
from gymspaces.graph import Graph, GraphInstance
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.oneof import OneOf
from gymspaces.sequence import Sequence
from gymspaces.space import Space
from gymspaces.text import Text
from gymspaces.tuple import Tuple
from gymspaces import _batching_rules  # noqa: F401  (registers every class's batching rules)
from gymspaces.utils import flatdim, flatten, flatten_space, unflatten
# After the classes it draws with: imported first, it was charged (by
# ``python -X importtime``) with importing them, every kernel and
# numpy.random -- some 15 ms; its draws cost about 0.5 ms.
from gymspaces._selfcheck import verify_kernels as _verify_kernels
from gymspaces import _fill_registry  # noqa: F401  (last: tells the kernels every class and rule)

# gymspaces.vector (which pulls in multiprocessing) is imported on use, as
# with gymnasium.spaces.

if TYPE_CHECKING:
    from gymspaces._config import Config


def show_config(mode: str = "stdout") -> "Config | None":
    """Print what build of gymspaces this is, or return it as dicts.

    Like ``numpy.show_config()``, not in Gymnasium: the version; the Cython and
    numpy the kernels were built with and the numpy running now; the C
    compiler; the PCG64 arithmetic compiled (``"int128"``, ``"msvc"`` or
    ``"portable"``) and whether bulk fills draw inline or through numpy (and
    why); the import self-checks; a debug build or not; free threading. Paste
    its output (or ``python -m gymspaces --version --verbose``'s) into a bug
    report.

    Parameters
    ----------
    mode : {"stdout", "dicts"}
        Print the facts, or return them as a dict of sections.

    Examples
    --------
    >>> import gymspaces
    >>> facts = gymspaces.show_config(mode="dicts")
    >>> facts["gymspaces"]["version"] == gymspaces.__version__
    True
    >>> facts["pcg64"]["path"] in ("int128", "msvc", "portable")
    True
    """
    from gymspaces._config import show_config as show  # loaded on call: import gymspaces pays nothing

    return show(mode)

__all__ = [
    "Space",
    "Box",
    "Discrete",
    "Text",
    "MultiDiscrete",
    "MultiBinary",
    "Graph",
    "GraphInstance",
    "Tuple",
    "Sequence",
    "Dict",
    "OneOf",
    "flatdim",
    "flatten_space",
    "flatten",
    "unflatten",
    "show_config",
]

_verify_kernels()
del _verify_kernels
