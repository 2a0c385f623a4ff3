"""Gymnasium's wrappers, single-env and vector, on an environment built with compatible spaces.

Each wrapper stack runs once on ``DemoEnv("compat")`` and once on
``DemoEnv("gymnasium")``; the wrapped spaces must be equal and every reset
and step must return exactly the same values of the same types (the wrappers
build their own spaces from ours, flatten, filter, rescale, normalise...).
"""

from __future__ import annotations

from functools import partial

import gymnasium.wrappers as wrappers
import gymnasium.wrappers.vector as vector_wrappers
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv
from support.gymnasium_envs import DemoEnv
from test_gymnasium_compat import _rollout as _raw_rollout
from test_gymnasium_compat import _same


def _without_clock(value):
    """``value`` with the wall-clock episode times (``"t"``, ``"_t"``) that
    RecordEpisodeStatistics reports removed: they differ between any two runs."""
    if isinstance(value, dict):
        return {key: _without_clock(item) for key, item in value.items() if key not in ("t", "_t")}
    if type(value) in (list, tuple):  # not GraphInstance or other named tuples
        return type(value)(_without_clock(item) for item in value)
    return value


def _rollout(env, steps=8):
    return _without_clock(_raw_rollout(env, steps))


def _pixels(observation):
    return observation["position"] * 2.0


SINGLE = {
    "filter": lambda env: wrappers.FilterObservation(env, ["position", "flags"]),
    "flatten_normalize": lambda env: wrappers.NormalizeObservation(wrappers.FlattenObservation(env)),
    "flatten_dtype": lambda env: wrappers.DtypeObservation(wrappers.FlattenObservation(env), np.float64),
    "filter_flatten_rescale": lambda env: wrappers.RescaleObservation(
        wrappers.FlattenObservation(wrappers.FilterObservation(env, ["position"])), -2.0, 2.0
    ),
    "frame_stack": lambda env: wrappers.FrameStackObservation(wrappers.FlattenObservation(env), 3),
    "time_aware": lambda env: wrappers.TimeAwareObservation(wrappers.TimeLimit(env, 5)),
    "delay": lambda env: wrappers.DelayObservation(wrappers.FlattenObservation(env), 2),
    "statistics_time_limit": lambda env: wrappers.RecordEpisodeStatistics(wrappers.TimeLimit(env, 4)),
    "transform_observation": lambda env: wrappers.TransformObservation(
        env, _pixels, env.observation_space["position"]
    ),
}

CONTINUOUS = {
    "rescale_action": lambda env: wrappers.RescaleAction(env, -3.0, 3.0),
    "clip_action": lambda env: wrappers.ClipAction(env),
    "sticky_action": lambda env: wrappers.StickyAction(env, 0.5),
}


@pytest.mark.parametrize("name", sorted(SINGLE))
def test_single_env_wrappers(name):
    ours, theirs = SINGLE[name](DemoEnv("compat")), SINGLE[name](DemoEnv("gymnasium"))
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    _same(_rollout(ours, 10), _rollout(theirs, 10))


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
def test_action_wrappers(name):
    ours = CONTINUOUS[name](DemoEnv("compat", "box"))
    theirs = CONTINUOUS[name](DemoEnv("gymnasium", "box"))
    assert ours.action_space == theirs.action_space
    _same(_rollout(ours, 10), _rollout(theirs, 10))


VECTOR = {
    "flatten": lambda env: vector_wrappers.FlattenObservation(env),
    "filter": lambda env: vector_wrappers.FilterObservation(env, ["position", "mode"]),
    "flatten_normalize": lambda env: vector_wrappers.NormalizeObservation(vector_wrappers.FlattenObservation(env)),
    "statistics": lambda env: vector_wrappers.RecordEpisodeStatistics(env),
    "dict_info_to_list": lambda env: vector_wrappers.DictInfoToList(env),
}


@pytest.mark.parametrize("name", sorted(VECTOR))
def test_vector_wrappers(name):
    ours = VECTOR[name](SyncVectorEnv([partial(DemoEnv, "compat")] * 3))
    theirs = VECTOR[name](SyncVectorEnv([partial(DemoEnv, "gymnasium")] * 3))
    try:
        assert ours.single_observation_space == theirs.single_observation_space
        assert ours.observation_space == theirs.observation_space
        _same(_rollout(ours, 12), _rollout(theirs, 12))
    finally:
        ours.close()
        theirs.close()


@pytest.mark.parametrize("wrap", [
    lambda env: vector_wrappers.RescaleAction(env, -2.0, 2.0),
    lambda env: vector_wrappers.ClipAction(env),
], ids=["rescale_action", "clip_action"])
def test_vector_action_wrappers(wrap):
    ours = wrap(SyncVectorEnv([partial(DemoEnv, "compat", "box")] * 2))
    theirs = wrap(SyncVectorEnv([partial(DemoEnv, "gymnasium", "box")] * 2))
    try:
        assert ours.action_space == theirs.action_space
        _same(_rollout(ours, 8), _rollout(theirs, 8))
    finally:
        ours.close()
        theirs.close()
