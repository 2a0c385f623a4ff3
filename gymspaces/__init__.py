"""gymspaces: Gymnasium's spaces with compiled, sample-stream-exact hot paths.

Every class here is a drop-in for its namesake in ``gymnasium.spaces``: the same
constructor arguments, errors, reprs and seeding, and -- for the same seed --
bit-for-bit the same samples as Gymnasium 1.4.0.
"""

from gymspaces.box import Box
from gymspaces.discrete import Discrete
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.space import Space
from gymspaces.text import Text

__version__ = "0.1.0"

__all__ = ["Space", "Box", "Discrete", "Text", "MultiDiscrete", "MultiBinary"]

from gymspaces._selfcheck import verify_kernels as _verify_kernels

_verify_kernels()
del _verify_kernels
