"""The batching rules under the module name Gymnasium gives them (``gymnasium.vector.utils.space_utils``).

They are defined in :mod:`gymspaces._batching`, below the flatten utilities
and the shared-memory helpers that use them.
"""

from gymspaces._batching import batch_differing_spaces, batch_space, concatenate, create_empty_array, iterate

__all__ = ["batch_space", "batch_differing_spaces", "iterate", "concatenate", "create_empty_array"]

# Shown (docs, reprs, pickles by reference) under their public module.
for _public in (batch_space, batch_differing_spaces, iterate, concatenate, create_empty_array):
    _public.__module__ = __name__
del _public
