"""What the test modules share.

* ``recipes``: the one way to describe a space (tree) -- a :class:`~support.recipes.Recipe`,
  built with either library and a seed; ``spaces_corpus`` holds the fixed
  recipes, ``recipe_strategies`` the Hypothesis strategies that generate them.
* ``differential``: run a call on both libraries and compare results exactly.
* ``capture``, ``capture_plugin``: record those calls in an unpatched session and
  compare a patched session's with them (``GYMSPACES_TEST_CAPTURE``).
* ``composite_helpers``: generators, valid masks and nested seeds of a space tree,
  and an exact comparison of two (nested) samples.
* ``fuzz_support``: corrupted masks, probabilities and values for the fuzz tests, and
  ``on_seeded_pairs``, their tests on a space built and seeded in both libraries.
* ``processes``: worker processes that must all exit cleanly.
* ``common_checks``: checks the per-space modules run on their recipes.
* ``clients``: import an RL framework for the client tests (a skip without it);
  ``clients_envs``: environments for the client tests.
"""
