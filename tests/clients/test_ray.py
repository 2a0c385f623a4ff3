"""gymspaces spaces on Ray: they travel to actors and keep their sample stream.

A local Ray cluster is started by the test module. Ray is an optional extra
(``pip install ray``), not a dependency: without it these tests are skipped,
unless ``GYMSPACES_REQUIRE_RAY=1`` (set by ``.ci/run``), which turns a
missing Ray into a failure so CI cannot silently skip them.
"""

from __future__ import annotations

import copy
import os

import numpy as np
import pytest
from support.differential import GS, GYM, assert_same_value
from support.switches import switch

if switch("GYMSPACES_REQUIRE_RAY"):
    import ray
else:
    ray = pytest.importorskip("ray")

SAMPLES = 5


def _spaces(lib):
    """Spaces of every kind, nested, built the same way in both libraries."""
    return {
        "box-image": lib.Box(0, 255, (84, 84, 3), np.uint8, seed=1),
        "discrete": lib.Discrete(7, start=-3, seed=2),
        "multi-discrete": lib.MultiDiscrete([[2, 3], [4, 5]], seed=3),
        "multi-binary": lib.MultiBinary(6, seed=4),
        "text": lib.Text(8, charset="abcxyz", seed=5),
        "nested": lib.Dict(
            {
                "obs": lib.Tuple((lib.Box(-1, 1, (3,)), lib.Discrete(4))),
                "history": lib.Sequence(lib.Box(0, 1, (2,)), stack=True),
                "graph": lib.Graph(lib.Box(0, 1, (3,)), lib.Discrete(3)),
                "choice": lib.OneOf((lib.Discrete(2), lib.MultiBinary(3))),
            },
            seed=6,
        ),
    }


@pytest.fixture(scope="module")
def cluster():
    """A local Ray cluster (two CPUs, small object store), shut down after the module."""
    ray.init(
        num_cpus=2,
        object_store_memory=80 * 1024 * 1024,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    yield
    ray.shutdown()


def _actor_class():
    # Defined in a function so that Ray ships it by value: the workers need not
    # import this test module, only gymspaces.
    @ray.remote
    class SpaceWorker:
        def __init__(self, space):
            self.space = space

        def sample(self, count):
            return [self.space.sample() for _ in range(count)]

        def space_back(self):
            return self.space

    return SpaceWorker


def _stream(space, count):
    return [space.sample() for _ in range(count)]


def assert_identical(actual, expected, where=""):
    """Exact equality of two gymspaces samples: types, dtypes, shapes and values."""
    assert type(actual) is type(expected), f"{where}: {type(actual)} vs {type(expected)}"
    if isinstance(expected, np.ndarray):
        assert actual.dtype.str == expected.dtype.str and actual.shape == expected.shape, where
        np.testing.assert_array_equal(actual, expected, err_msg=where)
    elif isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected), where
        for i, (a, b) in enumerate(zip(actual, expected)):
            assert_identical(a, b, f"{where}[{i}]")
    elif isinstance(expected, dict):
        assert list(actual) == list(expected), where
        for key in expected:
            assert_identical(actual[key], expected[key], f"{where}[{key!r}]")
    else:
        assert actual == expected, where


@pytest.mark.parametrize("name", list(_spaces(GS)))
def test_actor_continues_the_in_process_stream(cluster, name):
    space, reference = _spaces(GS)[name], _spaces(GYM)[name]
    for _ in range(2):  # mid-stream, not freshly seeded
        space.sample(), reference.sample()
    twin = copy.deepcopy(space)
    worker = _actor_class().remote(space)
    remote = ray.get(worker.sample.remote(SAMPLES))
    local = _stream(twin, SAMPLES)
    expected = _stream(reference, SAMPLES)
    for i in range(SAMPLES):
        assert_identical(remote[i], local[i], f"{name} sample {i}")
        assert_same_value(remote[i], expected[i], f"{name} sample {i} vs Gymnasium")
    # The actor's space comes back in the state it reached, and goes on from there.
    returned = ray.get(worker.space_back.remote())
    assert returned == space
    assert_identical(_stream(returned, 2), _stream(twin, 2), f"{name} after the round trip")


def test_nested_samples_come_back_intact_through_the_object_store(cluster):
    space = _spaces(GS)["nested"]
    samples = _stream(space, SAMPLES)
    refs = [ray.put(sample) for sample in samples]
    for i, (ref, sample) in enumerate(zip(refs, samples)):
        assert_identical(ray.get(ref), sample, f"object store {i}")

    @ray.remote
    def contains_and_flatten(space, sample):
        import gymspaces.utils

        return space.contains(sample), gymspaces.utils.flatten(space, sample)

    import gymspaces.utils

    for i, sample in enumerate(samples):
        inside, flat = ray.get(contains_and_flatten.remote(space, refs[i]))
        assert inside is True
        assert_identical(flat, gymspaces.utils.flatten(space, sample), f"remote flatten {i}")


def test_ray_workers_of_a_patched_program_are_patched(tmp_path):
    """``python -m gymspaces.gymnasium`` sets GYMSPACES_PATCH=1; Ray workers inherit it
    and the start-up hook patches them, so spaces built in a task run compiled."""
    import subprocess
    import sys

    script = tmp_path / "ray_program.py"
    script.write_text(
        "import gymnasium, ray\n"
        "ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)\n"
        "@ray.remote\n"
        "def probe():\n"
        "    from gymspaces.gymnasium import is_compiled\n"
        "    space = gymnasium.spaces.Dict({'a': gymnasium.spaces.Box(0, 1, (2,))}, seed=3)\n"
        "    return is_compiled(space), space.sample()['a'].tolist()\n"
        "compiled, sample = ray.get(probe.remote())\n"
        "print('worker', compiled, sample)\n"
        "ray.shutdown()\n"
    )
    environment = {key: value for key, value in os.environ.items() if key != "GYMSPACES_PATCH"}
    plain = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=environment,
                           timeout=300, check=False)
    patched = subprocess.run([sys.executable, "-m", "gymspaces.gymnasium", str(script)], capture_output=True,
                             text=True, env=environment, timeout=300, check=False)
    assert plain.returncode == 0 and patched.returncode == 0, plain.stderr[-2000:] + patched.stderr[-2000:]
    plain_line = [line for line in plain.stdout.splitlines() if line.startswith("worker")][0]
    patched_line = [line for line in patched.stdout.splitlines() if line.startswith("worker")][0]
    assert plain_line.startswith("worker False") and patched_line.startswith("worker True")
    assert plain_line.split(" ", 2)[2] == patched_line.split(" ", 2)[2]  # the same numbers
