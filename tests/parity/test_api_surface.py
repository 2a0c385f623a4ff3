"""Every in-scope public name of gymnasium.spaces exists in gymspaces with a compatible signature.

"Compatible" means every call Gymnasium accepts is accepted the same way:
same parameters in the same order with the same names and kinds (a
positional-only Gymnasium parameter may be positional-or-keyword here) and the
same defaults; extra trailing parameters must be optional. Annotations are not
compared. ``inspect`` must be able to read every signature, compiled methods
included -- an unreadable signature is a failure, not a skip. The composite
spaces' members and the vector helpers' signatures are compared at the end.
"""

from __future__ import annotations

import inspect

import gymnasium.error
import gymnasium.spaces
import gymnasium.spaces.text
import gymnasium.utils.seeding
import gymnasium.vector.utils as gym_vector
import numpy as np
import pytest

import gymspaces
import gymspaces.error
import gymspaces.seeding
import gymspaces.text
import gymspaces.vector as gs_vector
from support.differential import GS, GYM, assert_same_value

# Extend these as more of Gymnasium's API comes into scope.
IN_SCOPE_CLASSES = ["Space", "Box", "Discrete", "MultiBinary", "MultiDiscrete", "Text"]

# Members each class must have (a floor: members found on Gymnasium's class are checked too).
EXPECTED_MEMBERS = {
    "Space": ["__init__", "sample", "contains", "seed", "to_jsonable", "from_jsonable",
              "__contains__", "__setstate__", "np_random", "shape", "is_np_flattenable"],
    "Box": ["is_bounded", "__eq__", "__repr__"],
    "Discrete": ["__eq__", "__repr__"],
    "MultiBinary": ["__eq__", "__repr__"],
    "MultiDiscrete": ["__getitem__", "__len__", "__eq__", "__repr__"],
    "Text": ["character_index", "character_list", "character_set", "characters", "__eq__", "__repr__"],
}

# Dunder methods whose signatures are part of the contract when Gymnasium defines them.
CHECKED_DUNDERS = ["__init__", "__contains__", "__eq__", "__repr__", "__setstate__",
                   "__getitem__", "__len__", "__iter__", "__hash__"]


def _members(cls) -> list[str]:
    names = set(EXPECTED_MEMBERS["Space"]) | set(EXPECTED_MEMBERS.get(cls.__name__, []))
    for name in dir(cls):
        if name.startswith("_") and name not in CHECKED_DUNDERS:
            continue
        if name in CHECKED_DUNDERS and inspect.getattr_static(cls, name) is inspect.getattr_static(object, name, None):
            continue  # inherited unchanged from ``object``
        names.add(name)
    return sorted(names)


MEMBER_CASES = [
    pytest.param(class_name, member, id=f"{class_name}.{member}")
    for class_name in IN_SCOPE_CLASSES
    for member in _members(getattr(gymnasium.spaces, class_name))
]

_PO, _PK = inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD


def _same_default(a, b) -> bool:
    if a is b:
        return True
    if a is inspect.Parameter.empty or b is inspect.Parameter.empty:
        return False
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def assert_compatible(actual: inspect.Signature, expected: inspect.Signature, where: str) -> None:
    got, want = list(actual.parameters.values()), list(expected.parameters.values())
    assert len(got) >= len(want), f"{where}: gymspaces {actual} has fewer parameters than gymnasium {expected}"
    for mine, theirs in zip(got, want):
        if theirs.kind is _PO:
            assert mine.kind in (_PO, _PK), f"{where}: {mine} vs {theirs} (kind)"
        else:
            assert mine.name == theirs.name, f"{where}: parameter {mine.name!r} vs {theirs.name!r} in {actual} vs {expected}"
            assert mine.kind == theirs.kind, f"{where}: {mine.name} kind {mine.kind} vs {theirs.kind}"
        assert _same_default(mine.default, theirs.default), (
            f"{where}: default of {mine.name}: {mine.default!r} vs {theirs.default!r}"
        )
    for extra in got[len(want):]:
        assert extra.default is not inspect.Parameter.empty or extra.kind in (
            inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD
        ), f"{where}: extra required parameter {extra}"


def _signature(obj, where):
    try:
        return inspect.signature(obj)
    except (ValueError, TypeError) as exc:
        pytest.fail(f"inspect.signature cannot read {where}: {exc!r}")


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize("name", IN_SCOPE_CLASSES)
def test_class_exists_and_is_exported(name):
    assert name in gymnasium.spaces.__all__, "the in-scope list names something Gymnasium does not export"
    assert hasattr(gymspaces, name)
    assert name in gymspaces.__all__
    cls = getattr(gymspaces, name)
    assert inspect.isclass(cls) and cls.__name__ == name
    assert issubclass(cls, gymspaces.Space)


def test_every_in_scope_gymnasium_name_is_present():
    in_scope = [n for n in gymnasium.spaces.__all__ if n in IN_SCOPE_CLASSES]
    assert sorted(in_scope) == sorted(IN_SCOPE_CLASSES)
    assert [n for n in in_scope if not hasattr(gymspaces, n)] == []


@pytest.mark.parametrize("name", IN_SCOPE_CLASSES)
def test_class_subscription_for_typing_matches(name):
    """``Box[np.float32]`` works where Gymnasium's works, and fails where it fails."""
    from support.differential import assert_same_outcome, both

    gs_result, gym_result = both(lambda lib: getattr(lib, name)[np.float32].__origin__.__name__)
    assert_same_outcome(gs_result, gym_result)


# --------------------------------------------------------------------------- members


@pytest.mark.parametrize("class_name,member", MEMBER_CASES)
def test_member_kind_and_signature(class_name, member):
    gym_cls, gs_cls = getattr(gymnasium.spaces, class_name), getattr(gymspaces, class_name)
    where = f"{class_name}.{member}"
    assert hasattr(gs_cls, member), f"gymspaces.{where} is missing"
    theirs = inspect.getattr_static(gym_cls, member)
    mine = inspect.getattr_static(gs_cls, member)
    if isinstance(theirs, property):
        assert isinstance(mine, property), f"{where} should be a property, is {type(mine)}"
        assert (mine.fset is None) == (theirs.fset is None), f"{where}: settable differs"
        return
    if member == "__hash__":
        assert (getattr(gs_cls, member) is None) == (getattr(gym_cls, member) is None), f"{where}: hashability"
        return
    assert callable(getattr(gs_cls, member)), f"{where} should be callable"
    assert isinstance(mine, staticmethod) == isinstance(theirs, staticmethod), where
    assert isinstance(mine, classmethod) == isinstance(theirs, classmethod), where
    assert_compatible(_signature(getattr(gs_cls, member), f"gymspaces.{where}"),
                      _signature(getattr(gym_cls, member), f"gymnasium.{where}"), where)


@pytest.mark.parametrize("class_name", IN_SCOPE_CLASSES)
def test_expected_members_are_checked(class_name):
    members = _members(getattr(gymnasium.spaces, class_name))
    missing = set(EXPECTED_MEMBERS["Space"]) | set(EXPECTED_MEMBERS.get(class_name, []))
    assert missing - set(members) == set()


_INSTANCES = {
    "Box": lambda lib: lib.Box(0, 1, (2,)),
    "Discrete": lambda lib: lib.Discrete(3),
    "MultiBinary": lambda lib: lib.MultiBinary(3),
    "MultiDiscrete": lambda lib: lib.MultiDiscrete([2, 3]),
    "Text": lambda lib: lib.Text(3),
}


@pytest.mark.parametrize("class_name", list(_INSTANCES))
def test_sample_signature_is_self_mask_probability(class_name):
    """Compiled ``sample`` methods must still read as ``(self, mask=None, probability=None)``."""
    unbound = _signature(getattr(gymspaces, class_name).sample, f"{class_name}.sample")
    assert [(p.name, p.kind, p.default) for p in unbound.parameters.values()] == [
        ("self", _PK, inspect.Parameter.empty),
        ("mask", _PK, None),
        ("probability", _PK, None),
    ], f"{class_name}.sample reads as {unbound}"
    bound = _signature(_INSTANCES[class_name](gymspaces).sample, f"{class_name}().sample")
    assert [(p.name, p.default) for p in bound.parameters.values()] == [("mask", None), ("probability", None)]


@pytest.mark.parametrize("class_name", list(_INSTANCES))
def test_bound_method_signatures_match(class_name):
    gs_space, gym_space = _INSTANCES[class_name](gymspaces), _INSTANCES[class_name](gymnasium.spaces)
    for member in ("sample", "contains", "seed", "to_jsonable", "from_jsonable"):
        assert_compatible(_signature(getattr(gs_space, member), member),
                          _signature(getattr(gym_space, member), member), f"{class_name}().{member}")


@pytest.mark.parametrize("class_name", list(_INSTANCES))
def test_sample_accepts_keywords(class_name):
    # Gymnasium's call forms of sample, by keyword and by position, draw Gymnasium's samples.
    ours, theirs = _INSTANCES[class_name](gymspaces), _INSTANCES[class_name](gymnasium.spaces)
    ours.seed(0)
    theirs.seed(0)
    assert_same_value(ours.sample(mask=None, probability=None), theirs.sample(mask=None, probability=None))
    assert_same_value(ours.sample(None, None), theirs.sample(None, None))
    assert_same_value(type(ours).sample(ours, mask=None), type(theirs).sample(theirs, mask=None))


@pytest.mark.parametrize("class_name", list(_INSTANCES))
def test_instance_attribute_names_are_gymnasiums(class_name):
    """Pickled state dicts look alike: every Gymnasium instance attribute exists here."""
    gs_space, gym_space = _INSTANCES[class_name](gymspaces), _INSTANCES[class_name](gymnasium.spaces)
    gs_space.seed(1)
    gym_space.seed(1)
    gs_space.sample()
    gym_space.sample()
    repr(gs_space)
    repr(gym_space)
    # Gymnasium's pickled state (without gymspaces' kernel caches when patched).
    gym_state = gym_space.__getstate__() if hasattr(gym_space, "__getstate__") else vars(gym_space)
    assert set(gym_state) - set(vars(gs_space)) == set()
    state = gs_space.__getstate__() if hasattr(gs_space, "__getstate__") else vars(gs_space)
    assert set(gym_state) <= set(state)


# --------------------------------------------------------------------------- seeding, errors, constants


def test_np_random_signature():
    assert_compatible(_signature(gymspaces.seeding.np_random, "np_random"),
                      _signature(gymnasium.utils.seeding.np_random, "np_random"), "seeding.np_random")


def test_rng_aliases():
    assert gymspaces.seeding.RNG is np.random.Generator
    assert gymspaces.seeding.RandomNumberGenerator is np.random.Generator
    assert gymnasium.utils.seeding.RNG is gymspaces.seeding.RNG


def test_error_classes():
    assert issubclass(gymspaces.error.Error, Exception)
    assert issubclass(gymspaces.error.CustomSpaceError, Exception)
    assert not issubclass(gymspaces.error.CustomSpaceError, gymspaces.error.Error)
    assert gymspaces.error.Error.__name__ == gymnasium.error.Error.__name__
    assert gymspaces.error.CustomSpaceError.__name__ == gymnasium.error.CustomSpaceError.__name__
    assert issubclass(gymnasium.error.CustomSpaceError, gymnasium.error.Error) is False
    with pytest.raises(gymspaces.error.Error, match="boom"):
        raise gymspaces.error.Error("boom")


def test_alphanumeric():
    assert gymspaces.text.alphanumeric == gymnasium.spaces.text.alphanumeric
    assert isinstance(gymspaces.text.alphanumeric, frozenset)


def test_importing_gymspaces_does_not_import_gymnasium():
    """gymspaces stands alone: Gymnasium is a test dependency only."""
    import os
    import subprocess
    import sys

    package_root = os.path.dirname(os.path.dirname(os.path.abspath(gymspaces.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    code = (
        "import sys, gymspaces, gymspaces.seeding, gymspaces.error, gymspaces.text;"
        "gymspaces.Discrete(3, seed=0).sample(); gymspaces.Box(0, 1, (2,), seed=0).sample();"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'gymnasium'))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"


# --------------------------------------------------------------------------- composite spaces, vector helpers

COMPOSITES = ["Tuple", "Dict", "Sequence", "Graph", "GraphInstance", "OneOf"]


def _parameters(function):
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("name", COMPOSITES)
def test_public_members_and_signatures_match_gymnasium(name):
    ours, theirs = getattr(GS, name), getattr(GYM, name)
    assert name in GS.__all__
    for member in dir(theirs):
        if member.startswith("_") and member not in (
            "__init__", "__getitem__", "__setitem__", "__len__", "__iter__", "__eq__", "__contains__"
        ):
            continue
        assert hasattr(ours, member), f"{name}.{member} is missing"
        reference = getattr(theirs, member)
        if callable(reference) and not isinstance(reference, type):
            assert _parameters(getattr(ours, member)) == _parameters(reference), f"{name}.{member}"
    assert (ours.__hash__ is None) == (theirs.__hash__ is None)


@pytest.mark.parametrize(
    "name", ["batch_space", "batch_differing_spaces", "iterate", "concatenate", "create_empty_array"]
)
def test_vector_signatures_match_gymnasium(name):
    assert _parameters(getattr(gs_vector, name)) == _parameters(getattr(gym_vector, name))
    assert hasattr(getattr(gs_vector, name), "register")
