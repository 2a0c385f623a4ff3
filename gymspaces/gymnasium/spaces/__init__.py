"""Spaces that are Gymnasium spaces and run on gymspaces.

Every class here derives from its gymspaces namesake *and* from the
Gymnasium one, in that order: ``isinstance(space, gymnasium.spaces.Box)``
holds, Gymnasium's helpers (``flatten``, ``batch_space``, shared memory,
``check_env``, wrappers, vector envs) accept the spaces, while ``sample``,
``contains``, ``seed`` and ``np_random`` are gymspaces' compiled
implementations. Gymnasium's flatten family and vector helpers are
registered to run gymspaces' implementations on these classes (same
results, compatible spaces returned), so ``FlattenObservation`` and vector
envs take the compiled paths too. An environment switches with one line::

    from gymspaces.gymnasium import spaces   # was: from gymnasium import spaces

Composite spaces (``Tuple``, ``Dict``, ``OneOf``, ``Sequence``, ``Graph``)
hold compatible children: a plain gymspaces or plain Gymnasium child is
replaced by a compatible *view* of it that shares its attributes and its
generator (so the composite draws the same stream as with the original
object; only reseeding the original, which gives it a new generator, no
longer reaches the view). A custom space (a subclass, or a ``Space`` of no known class) is
kept as it is: it samples itself, but only a custom *Gymnasium* space is
understood by Gymnasium's helpers. Derive custom spaces from
:class:`Space` below to have both.

Each Gymnasium space class the installed release has gets its compatible
class: on Gymnasium 0.29, which has no ``OneOf``, there is no compatible
``OneOf`` (use :class:`gymspaces.OneOf`, which Gymnasium's code does not know).

On a Gymnasium release other than 1.4.0 the classes give that release's own
results: each is built by the release's ``__init__``, keeps the release's
methods, and samples, checks membership and runs Gymnasium's hot helpers
through patch mode's guarded paths, with the release's rules
(``docs/patching.md``, "Gymnasium releases").

Equality follows Gymnasium's rules and accepts the plain Gymnasium and the
plain gymspaces namesake on either side: ``spaces.Box(0, 1) ==
gymnasium.spaces.Box(0, 1) == gymspaces.Box(0, 1)``.
"""

from gymspaces.gymnasium import _classes, _registration, _release_classes
from gymspaces.gymnasium._classes import (
    Box,
    Dict,
    Discrete,
    Graph,
    GraphInstance,
    MultiBinary,
    MultiDiscrete,
    Sequence,
    Space,
    Text,
    Tuple,
)
from gymspaces.gymnasium._compat_utils import flatdim, flatten, flatten_space, unflatten
from gymspaces.gymnasium._release import SPACE_NAMES as _SPACE_NAMES
from gymspaces.gymnasium.spaces import utils

if "OneOf" in _SPACE_NAMES:  # Gymnasium 1.x; before, there is no Gymnasium OneOf to be
    from gymspaces.gymnasium._classes import OneOf

# The compatible classes (as _classes lists them), then their flatten family.
__all__ = [*_classes.CLASS_NAMES, "flatdim", "flatten_space", "flatten", "unflatten"]

_registration.register_with_gymnasium()
# On a release other than 1.4.0, the classes give that release's results.
_release_classes.follow_release()
