"""The one place that tells the kernels the space classes and helpers they need.

Imported by ``gymspaces/__init__`` once every class and rule of the package is
defined, it fills the registry the kernels read (:mod:`gymspaces._registry`)
in one go, so no kernel depends on which module happened to be imported
first. It also hands the rule registries to :mod:`gymspaces._kernel_switches`,
which keeps the registry's switches and alias table in step with them.

Two layers load on use and fill their own fields when they do:
:mod:`gymspaces.vector.shared_memory` (``import gymspaces`` must not import
multiprocessing) and :mod:`gymspaces.gymnasium` (it imports Gymnasium).
"""

from __future__ import annotations

from gymspaces import _batching, _batching_rules, _flattening, _kernel_switches
from gymspaces._registry import REGISTRY
from gymspaces.box import Box
from gymspaces.dict import Dict
from gymspaces.discrete import Discrete
from gymspaces.graph import Graph
from gymspaces.multi_binary import MultiBinary
from gymspaces.multi_discrete import MultiDiscrete
from gymspaces.oneof import OneOf
from gymspaces.sequence import Sequence
from gymspaces.space import Space
from gymspaces.text import Text
from gymspaces.tuple import Tuple

__all__: list[str] = []


def _wire() -> None:
    registry = REGISTRY
    # Kernels recognise spaces by exact class. Instances of Space keep kernel
    # caches in their own __dict__ (see KERNEL_CACHE_ATTRS); other spaces'
    # caches are kept beside them.
    registry.Space, registry.Text, registry.Tuple, registry.Dict = Space, Text, Tuple, Dict
    registry.Box, registry.Discrete = Box, Discrete
    registry.MultiDiscrete, registry.MultiBinary = MultiDiscrete, MultiBinary
    registry.Sequence, registry.Graph, registry.OneOf = Sequence, Graph, OneOf
    # Dict.contains's walk checks a child through ``in`` in C only while its
    # __contains__ is Space's (which calls ``contains``); the membership
    # kernels read ``_shape`` while ``shape`` is Space's property.
    registry.space_contains, registry.space_shape = Space.__contains__, Space.shape
    # What the kernels leave undecided, handed over as functions, not looked up
    # as methods: they serve every space a kernel runs for, and a private name
    # on a subclass is no hook.
    registry.box_sample_with_numpy = Box._sample_with_numpy
    registry.box_contains_with_numpy = Box._contains_with_numpy
    registry.discrete_contains_general = Discrete._contains_general
    registry.multi_discrete_sample_masked = MultiDiscrete._sample_masked
    registry.multi_discrete_contains_general = MultiDiscrete._contains_general
    # Dict.contains_batch and Dict/Tuple.to_jsonable handle these children in C
    # while the child's method is the built-in one.
    registry.box_contains_batch = Box.contains_batch
    registry.discrete_contains_batch = Discrete.contains_batch
    registry.multi_discrete_contains_batch = MultiDiscrete.contains_batch
    registry.box_to_jsonable = Box.to_jsonable
    registry.discrete_to_jsonable = Discrete.to_jsonable
    registry.multi_discrete_to_jsonable = MultiDiscrete.to_jsonable
    registry.flatten, registry.unflatten = _flattening.generic_flatten, _flattening.generic_unflatten

    _kernel_switches.compiled_while_built_in("flatten_enabled", _flattening.BUILT_IN_RULES)
    _kernel_switches.compiled_while_built_in("concatenate_enabled", {_batching.concatenate: _batching_rules.BUILT_IN_CONCATENATE})
    _kernel_switches.compiled_while_built_in("iterate_enabled", {_batching.iterate: _batching_rules.BUILT_IN_ITERATE})
    for dispatcher in (_batching.concatenate, _batching.iterate, *_flattening.BUILT_IN_RULES):
        _kernel_switches.watch(dispatcher)


_wire()
