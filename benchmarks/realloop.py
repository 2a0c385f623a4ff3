"""Real-loop benchmark cases: whole programs built only from what the libraries ship.

Each loop is a small program as users write them -- Taxi rollouts with action
masks, tabular Q-learning, a ``make_vec`` CartPole, a CleanRL-style
``SyncVectorEnv`` with ``RecordEpisodeStatistics`` and a numpy policy, a
``FlattenObservation`` CartPole driven by a fixed policy (flattening, no
sampling), and
(when installed) PettingZoo board games and MiniGrid -- run whole, from
``make`` to ``close``, once per round: patched (gymspaces' side) and plain
(Gymnasium's side) in the same run. Every round returns a fingerprint of what
the program computed (returns, Q-table, last observations) and every round of
either side must equal the fingerprint of a plain run bit for bit, so no
speedup is bought with other numbers.

Before timing, one plain run is made with every patchable space operation of
Gymnasium timed (its own code, not patched): ``share`` is the fraction of the
plain run spent in them, and ``1 / (1 - share)`` what the loop would gain
if they took no time (``if_free``). Both go into pytest-benchmark's
``extra_info`` of the case, for the report.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from gymspaces._demo import TAXI_LABEL, plain_gymnasium, taxi_random
from benchmarks.table import aligned


@dataclass(frozen=True)
class Loop:
    """One real loop: ``run()`` runs the whole program and returns its fingerprint."""

    key: str
    label: str
    run: Callable[[], Any]
    requires: tuple[str, ...] = ()
    """Modules besides Gymnasium the loop needs; without them the case is skipped."""


# --------------------------------------------------------------- the programs


def _taxi_q_learning(steps: int = 12000, epsilon: float = 0.1) -> Any:
    """Tabular Q-learning on Taxi: epsilon-greedy, exploring with masked samples, greedy among legal actions."""
    import gymnasium

    env = gymnasium.make("Taxi-v4")
    observation, info = env.reset(seed=0)
    env.action_space.seed(0)
    rng = np.random.default_rng(0)
    q = np.zeros((500, 6))  # Taxi's states and actions
    for _ in range(steps):
        mask = info["action_mask"]
        if rng.random() < epsilon:
            action = env.action_space.sample(mask)
        else:
            action = int(np.argmax(np.where(mask == 1, q[observation], -np.inf)))
        following, reward, terminated, truncated, info = env.step(action)
        target = float(reward) + (0.0 if terminated else 0.99 * q[following].max())
        q[observation, action] += 0.1 * (target - q[observation, action])
        observation = following
        if terminated or truncated:
            observation, info = env.reset()
    env.close()
    return q


def _cartpole_make_vec(steps: int = 5000) -> Any:
    """``gymnasium.make_vec("CartPole-v1", 8)`` stepped with random actions."""
    import gymnasium

    envs = gymnasium.make_vec("CartPole-v1", num_envs=8)
    observations, _ = envs.reset(seed=0)
    envs.action_space.seed(0)
    total = 0.0
    for _ in range(steps):
        observations, rewards, _, _, _ = envs.step(envs.action_space.sample())
        total += float(rewards.sum())
    envs.close()
    return observations, total


def _cartpole_cleanrl(steps: int = 5000) -> Any:
    """CleanRL's setup: SyncVectorEnv of 4 CartPoles with RecordEpisodeStatistics, a small numpy policy."""
    import gymnasium

    def make_env() -> Any:
        return gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.make("CartPole-v1"))

    envs = gymnasium.vector.SyncVectorEnv([make_env for _ in range(4)])
    rng = np.random.default_rng(0)
    hidden, output = rng.normal(0, 0.5, (4, 16)), rng.normal(0, 0.5, (16, 2))
    observations, _ = envs.reset(seed=0)
    returns: list[float] = []
    for _ in range(steps):
        logits = np.tanh(observations @ hidden) @ output
        probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        actions = (rng.random(4) < probabilities[:, 1]).astype(np.int64)
        observations, _, _, _, infos = envs.step(actions)
        if "episode" in infos:
            returns.extend(infos["episode"]["r"][infos["_episode"]].tolist())
    envs.close()
    return returns, observations


def _cartpole_flatten_observation(steps: int = 10000) -> Any:
    """CartPole under ``FlattenObservation``, driven by a fixed policy (push the way the
    pole leans): every step flattens the Box observation, and nothing is sampled."""
    import gymnasium

    env = gymnasium.wrappers.FlattenObservation(gymnasium.make("CartPole-v1"))
    observation, _ = env.reset(seed=0)
    episode_return, returns = 0.0, []
    for _ in range(steps):
        action = int(observation[2] + 0.5 * observation[3] > 0)
        observation, reward, terminated, truncated, _ = env.step(action)
        episode_return += float(reward)
        if terminated or truncated:
            returns.append(episode_return)
            episode_return = 0.0
            observation, _ = env.reset()
    env.close()
    return returns, observation


def _pettingzoo_game(name: str, games: int) -> Callable[[], Any]:
    """Random legal moves (``action_space(agent).sample(observation["action_mask"])``) in a PettingZoo classic game."""

    def run() -> Any:
        module = importlib.import_module(f"pettingzoo.classic.{name}")
        env = module.env()
        outcomes = []
        for game in range(games):
            env.reset(seed=game)
            for agent in env.possible_agents:
                env.action_space(agent).seed(game)
            for agent in env.agent_iter():
                observation, reward, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    outcomes.append((agent, float(reward)))
                    action = None
                else:
                    action = env.action_space(agent).sample(observation["action_mask"])
                env.step(action)
        env.close()
        return outcomes

    return run


def _minigrid(steps: int = 3000) -> Any:
    """MiniGrid's DoorKey with random actions (a Dict observation with MiniGrid's own mission space)."""
    import gymnasium
    importlib.import_module("minigrid")  # registers the environments

    env = gymnasium.make("MiniGrid-DoorKey-8x8-v0")
    observation, _ = env.reset(seed=0)
    env.action_space.seed(0)
    total = 0.0
    for _ in range(steps):
        observation, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        total += float(reward)
        if terminated or truncated:
            observation, _ = env.reset()
    env.close()
    return total, observation["image"], observation["direction"]


LOOPS: dict[str, Loop] = {
    loop.key: loop
    for loop in (
        Loop("real_taxi_random", TAXI_LABEL, taxi_random),
        Loop("real_taxi_q_learning", "Taxi-v4 epsilon-greedy Q-learning, masked, 12000 steps", _taxi_q_learning),
        Loop("real_cartpole_make_vec", "make_vec CartPole-v1 x8 random actions, 5000 steps", _cartpole_make_vec),
        Loop(
            "real_cartpole_cleanrl",
            "SyncVectorEnv CartPole x4 + RecordEpisodeStatistics, numpy policy, 5000 steps",
            _cartpole_cleanrl,
        ),
        Loop(
            "real_cartpole_flatten",
            "FlattenObservation(CartPole-v1), fixed pole-angle policy, 10000 steps",
            _cartpole_flatten_observation,
        ),
        Loop(
            "real_pettingzoo_connect_four",
            "PettingZoo connect_four random masked moves, 150 games",
            _pettingzoo_game("connect_four_v3", 150),
            ("pettingzoo",),
        ),
        Loop(
            "real_pettingzoo_tictactoe",
            "PettingZoo tictactoe random masked moves, 400 games",
            _pettingzoo_game("tictactoe_v3", 400),
            ("pettingzoo",),
        ),
        Loop("real_minigrid_doorkey", "MiniGrid DoorKey-8x8 random actions, 3000 steps", _minigrid, ("minigrid",)),
    )
}
"""The real loops by case key."""

GYMNASIUM_ONLY = tuple(key for key, loop in LOOPS.items() if not loop.requires)
"""The loops built from Gymnasium alone (gated by floors in targets.toml)."""


# --------------------------------------------------------------- the plain share


@dataclass(frozen=True)
class Probe:
    """One plain run of a loop with Gymnasium's space operations timed."""

    fingerprint: Any
    seconds: float
    """The run's time, the timers' own cost taken out."""
    in_spaces: float
    """Time in space operations (outermost calls), the timers' own cost taken out."""
    calls: int

    @property
    def share(self) -> float:
        return min(self.in_spaces / self.seconds, 1.0) if self.seconds > 0 else 0.0

    @property
    def if_free(self) -> float:
        """The gain if the timed operations took no time: ``1 / (1 - share)``."""
        return float("inf") if self.share >= 1.0 else 1.0 / (1.0 - self.share)


@contextlib.contextmanager
def _timing_plain_operations() -> Iterator[Any]:
    """Gymnasium's own space operations -- the ones patching takes over
    (``gymspaces.gymnasium.recorder.operation_labels``) -- timed into a scratch
    record of the profiler's recording (yielded)."""
    import gymnasium.spaces as spaces

    from gymspaces.gymnasium.profiler import recording
    from gymspaces.gymnasium.recorder import operation_labels
    from gymspaces.gymnasium._release import SPACE_NAMES, utils_helper, vector_helper

    undo: list[Callable[[], None]] = []
    record = recording.Record()
    saved = recording.replace(record)
    try:
        for (name, operation), label in operation_labels().items():
            if name not in SPACE_NAMES:
                continue
            cls = getattr(spaces, name)
            if operation in ("sample", "contains"):
                original = cls.__dict__[operation]
                setattr(cls, operation, recording.timed(label, original, original))
                undo.append(functools.partial(setattr, cls, operation, original))
                continue
            helper = utils_helper(operation) or vector_helper(operation)
            if helper is None or cls not in helper.registry:
                continue
            original = helper.registry[cls]
            helper.register(cls, recording.timed(label, original, original))
            undo.append(functools.partial(helper.register, cls, original))
        yield record
    finally:
        while undo:
            undo.pop()()
        recording.replace(saved)


def probe(key: str) -> Probe:
    """Run the loop ``key`` plain once with its space operations timed (see :class:`Probe`)."""
    from gymspaces.gymnasium.profiler import estimate

    with plain_gymnasium(), _timing_plain_operations() as record:
        start = time.perf_counter()
        fingerprint = LOOPS[key].run()
        elapsed = time.perf_counter() - start
    outer_cost, nested_cost = estimate.timer_cost()
    group = estimate.Group()
    group.add(record.snapshot())
    calls = sum(group.calls.values())
    in_spaces = sum(group.in_operations((outer_cost, nested_cost)).values())
    # Every timed call, outermost or nested, costs the run a whole timer.
    seconds = max(elapsed - calls * nested_cost, in_spaces)
    return Probe(fingerprint, seconds, in_spaces, calls)


_probes: dict[str, Probe] = {}


def _same(a: Any, b: Any) -> bool:
    from benchmarks.e2e import _same as same

    return same(a, b)


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: blocked with sys.modules[module] = None
        return False


def setup(key: str) -> Callable[[Any], Callable[[], Any]]:
    """The ``Case.setup`` of the loop ``key``: one whole run per call, checked against a plain run."""

    def build(lib: Any) -> Callable[[], Any]:
        loop = LOOPS[key]
        missing = [module for module in loop.requires if not _installed(module)]
        if missing:
            import pytest

            pytest.skip(f"not installed: {', '.join(missing)}")
        if key not in _probes:
            _probes[key] = probe(key)
        reference = _probes[key]

        def run() -> Any:
            fingerprint = loop.run()
            if not _same(fingerprint, reference.fingerprint):
                raise AssertionError(f"{key}: this run ({lib.name}) computed other results than the plain run")
            return fingerprint

        run.extra_info = {  # type: ignore[attr-defined]
            "share": reference.share,
            "plain_probe_seconds": reference.seconds,
            "plain_probe_in_spaces": reference.in_spaces,
        }
        return run

    return build


def render(run: Any) -> list[str]:
    """The real-loop table of a bench run (``results.Run``): plain s, patched s, ratio, share, if free."""
    rows = [key for key in LOOPS if key in run.medians]
    if not rows:
        return []
    header = ["real loop", "plain", "patched", "ratio", "share", "if free"]
    table = [header]
    for key in rows:
        plain, patched = run.median(key, "gymnasium"), run.median(key, "gymspaces")
        share = run.extra.get(key, {}).get("share")
        if_free = None if share is None else (float("inf") if share >= 1 else 1 / (1 - share))
        table.append(
            [
                key,
                "-" if plain is None else f"{plain:.3f} s",
                "-" if patched is None else f"{patched:.3f} s",
                "-" if plain is None or not patched else f"{plain / patched:.2f}x",
                "-" if share is None else f"{share:.1%}",
                "-" if if_free is None else f"{if_free:.2f}x",
            ]
        )
    lines = aligned(table)
    lines.append("share = fraction of a plain run in the space operations patch mode replaces;")
    lines.append("if free = 1 / (1 - share), the gain if those operations took no time; a loop can gain")
    lines.append("more where Gymnasium's operations also slow the code around them (docs/performance.md)")
    return lines


__all__ = ["GYMNASIUM_ONLY", "LOOPS", "Loop", "Probe", "probe", "render", "setup"]
