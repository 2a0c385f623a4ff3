"""gymspaces' dispatchers (``gymspaces._dispatch``) against functools.singledispatch:
the same parameters by name, the same resolution for plain classes, unions and ABCs,
and caches that follow every registration."""

from __future__ import annotations

import abc
import functools
import inspect
import sys
from typing import Any, Union

import pytest

import gymspaces
import gymspaces.utils as gs_utils
import gymspaces.vector as gs_vector
from gymspaces._dispatch import space_dispatch

HELPERS = [
    gs_utils.flatdim, gs_utils.flatten_space, gs_vector.batch_space, gs_vector.concatenate,
    gs_vector.iterate, gs_vector.create_empty_array,
    gs_vector.read_from_shared_memory, gs_vector.write_to_shared_memory,
]


@pytest.mark.parametrize("helper", HELPERS, ids=lambda helper: helper.__name__)
def test_each_helper_takes_its_documented_parameters_by_name(helper: Any) -> None:
    own = inspect.signature(helper.__wrapped__)
    assert inspect.signature(helper, follow_wrapped=False) == own
    assert helper.__code__.co_varnames[: helper.__code__.co_argcount] == tuple(own.parameters)
    assert helper.__name__ == helper.__wrapped__.__name__ and helper.__doc__ == helper.__wrapped__.__doc__


def test_keyword_and_default_arguments_bind_as_in_the_default() -> None:
    space = gymspaces.Discrete(3)
    batched = gs_vector.batch_space(space=space, n=2)
    assert batched == gs_vector.batch_space(space, 2)
    assert gs_vector.batch_space(space) == gs_vector.batch_space(space, 1)  # n's default
    items = list(gs_vector.iterate(space=batched, items=[1, 2]))
    assert items == [1, 2]
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        gs_vector.batch_space(space, x=2)


def _pair() -> tuple[Any, Any]:
    """A gymspaces dispatcher and a functools one over the same default."""

    def default(space: Any, value: Any = None) -> str:
        return "default"

    return space_dispatch(default), functools.singledispatch(default)


class Base:
    pass


class Child(Base):
    pass


class Other:
    pass


class Protocolish(abc.ABC):
    pass


Protocolish.register(Other)


def test_plain_classes_unions_and_abcs_resolve_as_singledispatch_resolves_them() -> None:
    ours, theirs = _pair()
    refusals = []
    for dispatcher in (ours, theirs):
        dispatcher.register(Base, lambda space, value=None: "base")
        dispatcher.register(Protocolish, lambda space, value=None: "abc")
        try:  # a union: singledispatch takes it from Python 3.11 on, and refuses it before
            dispatcher.register(Union[int, float], lambda space, value=None: "number")  # noqa: UP007
        except TypeError as error:
            refusals.append(str(error))
    assert len(refusals) in (0, 2) and len(set(refusals)) <= 1, refusals
    for instance in (Base(), Child(), Other(), 3, 2.5, "text"):
        assert ours(instance) == theirs(instance), type(instance)
    number = "default" if refusals else "number"
    assert [ours(x) for x in (Child(), Other(), 3, "text")] == ["base", "abc", number, "default"]
    assert bool(refusals) == (sys.version_info < (3, 11))


def test_a_registration_takes_effect_at_once_for_a_class_already_dispatched() -> None:
    ours, _ = _pair()
    assert ours(Child()) == "default"  # cached for Child (through singledispatch's weak cache)
    ours.register(Base, lambda space, value=None: "base")
    assert ours(Child()) == "base"
    ours.register(Child, lambda space, value=None: "child")
    assert ours(Child()) == "child" and ours.dispatch(Child) is ours.registry[Child]
    ours.unregister(Child)
    assert ours(Child()) == "base"


def test_a_default_with_more_parameters_than_the_templates_is_refused() -> None:
    def too_many(space: Any, a: Any, b: Any, c: Any, d: Any) -> None: ...

    with pytest.raises(TypeError, match="1 to 4 parameters"):
        space_dispatch(too_many)
