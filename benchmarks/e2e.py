"""End-to-end benchmark cases: unmodified Gymnasium loops, patched vs unpatched.

The ``"gymspaces"`` side of each case runs with
:func:`gymspaces.gymnasium.patch` on (see :attr:`Case.context`), the
``"gymnasium"`` side on plain Gymnasium; the loop itself is the same code.
Before timing, every case runs a short trajectory both ways and fails if the
observations differ in any bit, so a speedup is never bought with other
numbers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from gymspaces._demo import plain_gymnasium

STEPS_CHECKED = 12


def _dict_env_class() -> type:
    import gymnasium

    class DictObservationEnv(gymnasium.Env):
        """Samples its Dict observation space every step and checks the action."""

        def __init__(self) -> None:
            spaces = gymnasium.spaces
            self.observation_space = spaces.Dict(
                {
                    "position": spaces.Box(-1, 1, (3,)),
                    "velocity": spaces.Box(-1, 1, (3,)),
                    "mode": spaces.Discrete(5),
                    "buttons": spaces.MultiDiscrete([3, 4]),
                }
            )
            self.action_space = spaces.Box(-1, 1, (2,))

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            super().reset(seed=seed)
            self.observation_space.seed(seed)
            return self.observation_space.sample(), {}

        def step(self, action: Any) -> Any:
            if not self.action_space.contains(action):
                raise ValueError(f"invalid action {action!r}")
            return self.observation_space.sample(), 0.0, False, False, {}

    return DictObservationEnv


def _cartpole_sync() -> Any:
    import gymnasium

    return gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 8)


def _dict_sync() -> Any:
    import gymnasium

    return gymnasium.vector.SyncVectorEnv([_dict_env_class()] * 8)


def _dict_async() -> Any:
    import gymnasium

    # fork: workers inherit the parent's (un)patched interpreter, as under
    # ``python -m gymspaces.gymnasium`` where every start method is patched.
    return gymnasium.vector.AsyncVectorEnv([_dict_env_class()] * 4, shared_memory=True, context="fork")


def _flatten_observation() -> Any:
    import gymnasium

    return gymnasium.wrappers.FlattenObservation(_dict_env_class()())


def _stepper(make: Callable[[], Any]) -> tuple[Callable[[], Any], Callable[[], list[Any]]]:
    """A step of ``make()``'s env with a random action, and a checked trajectory."""

    def trajectory() -> list[Any]:
        env = make()
        observations = [env.reset(seed=7)[0]]
        env.action_space.seed(8)
        for _ in range(STEPS_CHECKED):
            observations.append(env.step(env.action_space.sample())[0])
        env.close()
        return observations

    env = make()
    env.reset(seed=7)
    env.action_space.seed(8)

    def step() -> Any:
        return env.step(env.action_space.sample())

    step.close = env.close  # type: ignore[attr-defined]
    return step, trajectory


def _epsilon_greedy() -> tuple[Callable[[], Any], Callable[[], list[Any]]]:
    """CartPole with epsilon-greedy exploration: a fixed linear policy, 10% random actions."""
    import gymnasium

    weights = np.array([0.0, 0.5, 1.0, 0.8])

    def run(steps: int | None, seed: int = 3) -> Any:
        env = gymnasium.make("CartPole-v1")
        observation, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        rng = np.random.default_rng(seed)
        observations = [observation]

        def step() -> Any:
            nonlocal observation
            if rng.random() < 0.1:
                action = env.action_space.sample()
            else:
                action = int(observation @ weights > 0)
            observation, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                observation, _ = env.reset()
            return observation

        if steps is None:
            return step
        for _ in range(steps):
            observations.append(step())
        env.close()
        return observations

    return run(None), lambda: run(STEPS_CHECKED * 5)


SCENARIOS: dict[str, Callable[[], tuple[Callable[[], Any], Callable[[], list[Any]]]]] = {
    "e2e_cartpole_sync": lambda: _stepper(_cartpole_sync),
    "e2e_dict_sync": lambda: _stepper(_dict_sync),
    "e2e_dict_async": lambda: _stepper(_dict_async),
    "e2e_flatten_observation": lambda: _stepper(_flatten_observation),
    "e2e_epsilon_greedy": _epsilon_greedy,
}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def check_identical(key: str) -> None:
    """Run ``key``'s trajectory unpatched and patched; raise if they differ."""
    from gymspaces.gymnasium import is_patched, patch, unpatch

    was_patched = is_patched()
    _, trajectory = SCENARIOS[key]()
    unpatch()
    try:
        plain = trajectory()
        patch()
        compiled = trajectory()
    finally:
        (patch if was_patched else unpatch)()
    if not _same(plain, compiled):
        raise AssertionError(f"{key}: patched and unpatched runs produced different observations")


def setup(key: str) -> Callable[[Any], Callable[[], Any]]:
    """The ``Case.setup`` of the scenario ``key`` (the library only selects patching)."""

    def build(lib: Any) -> Callable[[], Any]:
        if lib.name == "gymspaces":
            check_identical(key)
        step, _ = SCENARIOS[key]()
        return step

    return build


@contextlib.contextmanager
def context(lib: Any) -> Iterator[None]:
    """Patched for gymspaces' side of a case, plain Gymnasium for the other
    (even if this interpreter was patched before: ``GYMSPACES_PATCH=1``)."""
    from gymspaces.gymnasium import patched

    if lib.name == "gymspaces":
        with patched():
            yield
        return
    with plain_gymnasium():
        yield
