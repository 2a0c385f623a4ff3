"""Spaces that are Gymnasium spaces and run on gymspaces.

Every class here derives from its gymspaces namesake *and* from the
Gymnasium one: ``isinstance(space, gymnasium.spaces.Box)`` and
``isinstance(space, gymspaces.Box)`` hold, and Gymnasium's helpers
(``flatten``, ``batch_space``, shared memory, ``check_env``, wrappers, vector
envs) accept the spaces. They are the installed Gymnasium's classes with
patch mode's code always on (:mod:`gymspaces.gymnasium`, ``patch``): each is
built by that release's ``__init__`` and keeps its methods, while ``sample``
and ``contains`` -- and Gymnasium's flatten family and vector helpers on
these classes -- run gymspaces' kernels wherever the outcome is provably the
release's, and the release's own code otherwise. Whatever the release, a
compatible space gives exactly what the same Gymnasium space gives (values,
generator states, exceptions, warnings); ``sample_batch``, ``contains_batch``
and the other methods gymspaces adds are there too. An environment switches
with one line::

    from gymspaces.gymnasium import spaces   # was: from gymnasium import spaces

Composite spaces (``Tuple``, ``Dict``, ``OneOf``, ``Sequence``, ``Graph``)
hold compatible children: a plain gymspaces or plain Gymnasium child is
replaced by a compatible *view* of it that shares its attributes and its
generator (so the composite draws the same stream as with the original
object; only reseeding the original, which gives it a new generator, no
longer reaches the view). A custom space (a subclass, or a ``Space`` of no known class) is
kept as it is: it samples itself, but only a custom *Gymnasium* space is
understood by Gymnasium's helpers. Derive custom spaces from
:class:`Space` below to have both. Graph samples are :class:`GraphInstance`,
an instance of both libraries' ``GraphInstance``.

Each Gymnasium space class the installed release has gets its compatible
class: on Gymnasium 0.29, which has no ``OneOf``, there is no compatible
``OneOf`` (use :class:`gymspaces.OneOf`, which Gymnasium's code does not know).

Equality follows Gymnasium's rules and accepts the plain Gymnasium and the
plain gymspaces namesake on either side: ``spaces.Box(0, 1) ==
gymnasium.spaces.Box(0, 1) == gymspaces.Box(0, 1)``.
"""

from gymspaces.gymnasium import _classes, _release_classes
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
from gymspaces.gymnasium._release import SPACE_NAMES as _SPACE_NAMES
from gymspaces.gymnasium.spaces import utils
from gymspaces.gymnasium.spaces.utils import flatdim, flatten, flatten_space, unflatten

if "OneOf" in _SPACE_NAMES:  # Gymnasium 1.x; before, there is no Gymnasium OneOf to be
    from gymspaces.gymnasium._classes import OneOf

# The compatible classes (as _classes lists them), then their flatten family.
__all__ = [*_classes.CLASS_NAMES, "flatdim", "flatten_space", "flatten", "unflatten"]

# Registered with both libraries' helpers; the release's methods, patch mode's entries and helper rules.
_release_classes.follow_release()
