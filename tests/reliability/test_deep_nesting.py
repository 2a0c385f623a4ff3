"""Dict/Tuple trees nested deeper than the kernels walk (``MAX_KERNEL_DEPTH``, _nesting.pxd).

The kernels recurse on the C stack: a tree nested a hundred thousand levels
deep used to overflow it in ``flatten``, ``unflatten`` and ``iterate`` (a
segfault). Past 64 levels they now leave the tree to the Python rules, which
recurse in Python frames: the result is Gymnasium's, and far too deep a tree
raises ``RecursionError`` as Gymnasium's code does.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import gymnasium
import numpy as np
import pytest

import gymspaces
from gymspaces import utils, vector
from support.differential import assert_same_value

BEYOND_THE_KERNELS = 100  # past MAX_KERNEL_DEPTH (64), well within Python's recursion limit


def _nested(lib: Any, levels: int, kind: str) -> tuple[Any, Any]:
    space, value = lib.Discrete(3), np.int64(2)
    for _ in range(levels):
        if kind == "dict":
            space, value = lib.Dict({"a": space, "b": lib.Box(0, 1, (2,))}), {"a": value, "b": np.ones(2, np.float32)}
        else:
            space, value = lib.Tuple((lib.Box(0, 1, (2,)), space)), (np.ones(2, np.float32), value)
    return space, value


def _operations(utils_module: Any, vector_module: Any, space: Any, value: Any) -> dict[str, Any]:
    flat = utils_module.flatten(space, value)
    out = vector_module.create_empty_array(space, 2)
    batch = vector_module.concatenate(space, [value, value], out)
    return {
        "flatten": flat,
        "unflatten": utils_module.unflatten(space, flat),
        "flatdim": utils_module.flatdim(space),
        "concatenate": batch,
        "concatenate is out": batch is out,
        "iterate": list(vector_module.iterate(vector_module.batch_space(space, 2), batch)),
    }


@pytest.mark.parametrize("kind", ["dict", "tuple"])
def test_trees_deeper_than_the_kernels_walk_give_gymnasiums_results(kind: str) -> None:
    import gymnasium.vector.utils as gym_vector

    ours = _operations(utils, vector, *_nested(gymspaces, BEYOND_THE_KERNELS, kind))
    theirs = _operations(gymnasium.spaces.utils, gym_vector, *_nested(gymnasium.spaces, BEYOND_THE_KERNELS, kind))
    assert ours.keys() == theirs.keys()
    for name in ours:
        assert_same_value(ours[name], theirs[name], name)


@pytest.mark.parametrize("kind", ["dict", "tuple"])
def test_patch_mode_leaves_trees_deeper_than_the_kernels_walk_to_gymnasium(kind: str) -> None:
    from gymspaces.gymnasium import patched, plain_reason

    space, _ = _nested(gymnasium.spaces, BEYOND_THE_KERNELS, kind)
    shallow, _ = _nested(gymnasium.spaces, 3, kind)
    with patched():
        reason = plain_reason(space)
        assert reason is not None and reason.startswith("too-deep: ")
        assert reason.endswith("spaces nested more than 64 levels deep")
        assert plain_reason(shallow) is None


@pytest.mark.parametrize("kind", ["dict", "tuple"])
def test_a_tree_nested_far_too_deep_raises_recursion_error_never_crashes(kind: str) -> None:
    # In a child interpreter: a crash must fail the test, not end the session.
    script = textwrap.dedent(
        f"""
        import numpy as np
        import gymspaces
        from gymspaces import utils, vector

        space, value = gymspaces.Discrete(3), np.int64(2)
        for _ in range(200_000):
            if {kind!r} == "dict":
                space, value = gymspaces.Dict({{"a": space}}), {{"a": value}}
            else:
                space, value = gymspaces.Tuple((space,)), (value,)
        operations = {{
            "flatten": lambda: utils.flatten(space, value),
            "unflatten": lambda: utils.unflatten(space, np.zeros(3)),
            "flatdim": lambda: utils.flatdim(space),
            "concatenate": lambda: vector.concatenate(space, [value, value], vector.create_empty_array(space, 2)),
            "iterate": lambda: list(vector.iterate(space, value)),
            "contains": lambda: space.contains(value),
            "sample": lambda: space.sample(),
            "to_jsonable": lambda: space.to_jsonable([value]),
            "shared memory": lambda: vector.create_shared_memory(space, 2),
        }}
        for name, operation in operations.items():
            try:
                operation()
            except RecursionError:
                print(name, "RecursionError")
            else:
                print(name, "returned")
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert len(lines) == 9, result.stdout
    assert all(line.endswith(" RecursionError") for line in lines), result.stdout
