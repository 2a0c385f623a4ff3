"""Text: construction, character attributes, repr, equality, contains, jsonable, pickling, sampling."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import common_checks
import gymnasium.spaces.text
import gymspaces.text
from support.differential import (
    GS,
    GYM,
    assert_same_outcome,
    assert_same_state,
    assert_same_stream,
    assert_same_value,
    both,
    outcome,
    seeded_pair,
)
from support.recipes import recipe_params
from support.spaces_corpus import TEXT_RECIPES
from support.sample_streams import SEEDS, random_probability
# Under the name the moved stream tests call it by: Hypothesis derives a test's
# examples from its body, which keeps them as they were in tests/parity.
from support.sample_streams import pair_or_same_error as _pair_or_same_error

CONSTRUCTOR_ERRORS = {
    "max-float": lambda lib: lib.Text(5.0),
    "max-str": lambda lib: lib.Text("5"),
    "max-None": lambda lib: lib.Text(None),
    "max-bool": lambda lib: lib.Text(True),
    "min-float": lambda lib: lib.Text(5, min_length=1.0),
    "min-np-float": lambda lib: lib.Text(5, min_length=np.float64(1)),
    "min-None": lambda lib: lib.Text(5, min_length=None),
    "min-negative": lambda lib: lib.Text(5, min_length=-1),
    "min-above-max": lambda lib: lib.Text(3, min_length=4),
    "max-negative": lambda lib: lib.Text(-1, min_length=0),
    "min-float-and-max-float": lambda lib: lib.Text(5.0, min_length=1.0),
    "multichar-list": lambda lib: lib.Text(5, charset=["ab", "c"]),
    "multichar-set": lambda lib: lib.Text(5, charset={"xy", "z", "ab"}),
    "empty-string-element": lambda lib: lib.Text(5, charset=["", "a"]),
    "int-elements": lambda lib: lib.Text(5, charset=[1, 2]),
    "charset-int": lambda lib: lib.Text(5, charset=5),
    "charset-None": lambda lib: lib.Text(5, charset=None),
    "positional-min": lambda lib: lib.Text(5, 1),
}


@pytest.mark.parametrize("call", CONSTRUCTOR_ERRORS.values(), ids=CONSTRUCTOR_ERRORS.keys())
def test_constructor_errors(call):
    gs_result, gym_result = both(call)
    assert gym_result.raised, "the case is meant to be an error in Gymnasium"
    assert_same_outcome(gs_result, gym_result, same_message=True)


def _describe(space):
    return (
        repr(space),
        space.min_length,
        space.max_length,
        space.character_list,
        space.character_set,
        space.characters,
        [space.character_index(c) for c in space.character_list],
        space.shape,
        str(space.dtype),
        space.is_np_flattenable,
    )


@pytest.mark.parametrize("recipe", recipe_params(TEXT_RECIPES))
def test_attributes_match_gymnasium(recipe):
    gs_result, gym_result = both(lambda lib: _describe(recipe.build(lib)))
    assert_same_outcome(gs_result, gym_result)
    gs_space = recipe.build(GS)
    assert type(gs_space.min_length) is int and type(gs_space.max_length) is int
    assert type(gs_space.character_list) is tuple and type(gs_space.character_set) is frozenset
    for i, char in enumerate(gs_space.character_list):
        index = gs_space.character_index(char)
        assert type(index) is np.int32 and index == i


def test_charset_ordering():
    assert GS.Text(3, charset="cabca").character_list == ("c", "a", "b")
    assert GS.Text(3, charset={"c", "a", "b"}).character_list == ("a", "b", "c")
    assert GS.Text(3, charset=frozenset("zyx")).character_list == ("x", "y", "z")
    assert GS.Text(3, charset=["q", "p", "q"]).character_list == ("q", "p")
    assert GS.Text(3, charset=("b", "a")).character_list == ("b", "a")
    assert GS.Text(3, charset="cab").characters == "abc"


def test_character_index_missing_raises_key_error():
    for lib in (GS, GYM):
        with pytest.raises(KeyError):
            lib.Text(3, charset="ab").character_index("z")


def test_alphanumeric_constant():
    assert gymspaces.text.alphanumeric == gymnasium.spaces.text.alphanumeric
    assert type(gymspaces.text.alphanumeric) is frozenset and len(gymspaces.text.alphanumeric) == 62
    assert GS.Text(4).character_set == gymspaces.text.alphanumeric


@pytest.mark.parametrize("recipe", recipe_params(TEXT_RECIPES))
def test_repr_matches_gymnasium(recipe):
    common_checks.check_repr(recipe)


EQUALITY_PAIRS = {
    "same": (lambda lib: lib.Text(5), lambda lib: lib.Text(5), True),
    "charset-order": (lambda lib: lib.Text(5, charset="abc"), lambda lib: lib.Text(5, charset="cba"), True),  # quirk Q19 (docs/quirks.md)
    "set-vs-str": (lambda lib: lib.Text(5, charset={"a", "b"}), lambda lib: lib.Text(5, charset="ba"), True),
    "default-vs-explicit": (lambda lib: lib.Text(5), lambda lib: lib.Text(5, charset=gymspaces.text.alphanumeric), True),
    "charset-differs": (lambda lib: lib.Text(5, charset="ab"), lambda lib: lib.Text(5, charset="abc"), False),
    "min-differs": (lambda lib: lib.Text(5), lambda lib: lib.Text(5, min_length=0), False),
    "max-differs": (lambda lib: lib.Text(5), lambda lib: lib.Text(6), False),
    "np-int-lengths": (lambda lib: lib.Text(np.int8(5)), lambda lib: lib.Text(5), True),
    "vs-str": (lambda lib: lib.Text(5), lambda lib: "Text(1, 5)", False),
}


@pytest.mark.parametrize("pair", EQUALITY_PAIRS.values(), ids=EQUALITY_PAIRS.keys())
def test_equality(pair):
    common_checks.check_equality(*pair)


@pytest.mark.parametrize("recipe", recipe_params(TEXT_RECIPES[:5]))
def test_unhashable(recipe):
    common_checks.check_hashing(recipe)


CONTAINS_INPUTS = {
    "ok": "abc", "single": "a", "empty": "", "too-long": "abcabc", "bad-char": "abz",
    "upper": "ABC", "unicode": "α", "emoji": "😀", "list": ["a", "b"], "tuple": ("a",),
    "bytes": b"ab", "None": None, "int": 1, "np-str": np.str_("ab"), "np-array": np.array(["ab"]),
    "nul": "a\x00",
}
CONTAINS_SPACES = {
    "abc": lambda lib: lib.Text(5, charset="abc"),
    "min0": lambda lib: lib.Text(2, min_length=0, charset="ab"),
    "unicode": lambda lib: lib.Text(3, charset="αβ😀"),
    "default": lambda lib: lib.Text(4),
}


@pytest.mark.parametrize("build", CONTAINS_SPACES.values(), ids=CONTAINS_SPACES.keys())
def test_contains_matches_gymnasium(build):
    common_checks.check_contains(build, CONTAINS_INPUTS)


@pytest.mark.parametrize("recipe", recipe_params(TEXT_RECIPES))
def test_jsonable_round_trip(recipe):
    common_checks.check_jsonable(recipe)
    space = recipe.build(GS)
    batch = ("ab", "c")
    assert space.to_jsonable(batch) == ["ab", "c"]
    data = ["x", "y"]
    assert space.from_jsonable(data) is data


@pytest.mark.parametrize("recipe", recipe_params(TEXT_RECIPES))
def test_pickle_and_deepcopy_keep_stream(recipe):
    common_checks.check_pickle_and_deepcopy(recipe)


def test_copy_is_independent_and_shared_generators_stay_shared():
    common_checks.check_original_not_advanced_by_copy(TEXT_RECIPES[1])
    common_checks.check_shared_generator_stays_shared(TEXT_RECIPES[1])


def test_seed_pinned_values():
    space = GS.Text(5, charset="abc", seed=0)
    assert [space.sample() for _ in range(3)] == ["aaacc", "bcbc", "ac"]


def test_samples_are_contained_strings():
    for recipe in TEXT_RECIPES:
        space = recipe.build(GS, seed=0)
        for _ in range(5):
            sample = space.sample()
            assert type(sample) is str
            assert space.min_length <= len(sample) <= space.max_length
            assert sample in space, (recipe.id, sample)


@pytest.mark.parametrize(
    "charset",
    ["\x00", "a\x00b", ["\x00", "z"], "\x00\x01"],
    ids=["nul", "a-nul-b", "nul-z-list", "nul-soh"],
)
def test_charset_with_nul_character_samples_like_gymnasium(charset):
    """Gymnasium's samples go through a numpy unicode array, which drops NUL characters."""
    gs_space, gym_space = seeded_pair(lambda lib: lib.Text(6, min_length=0, charset=charset), 0)
    assert_same_stream(gs_space, gym_space, 5, repr(charset))


def test_fixed_length_mask_uses_requested_length():
    space = GS.Text(10, min_length=2, charset="xy", seed=3)
    for length in range(2, 11):
        assert len(space.sample(mask=(length, None))) == length
        assert len(space.sample(probability=(np.int16(length), np.array([0.25, 0.75])))) == length


def test_char_mask_restricts_characters():
    space = GS.Text(20, min_length=20, charset="abcd", seed=1)
    sample = space.sample(mask=(None, np.array([0, 1, 0, 1], np.int8)))
    assert set(sample) <= {"b", "d"} and len(sample) == 20


def test_empty_charset_rules():
    """k == 0: the empty string with min_length 0, ValueError otherwise (both libraries)."""
    for lib in (GS, GYM):
        assert lib.Text(3, min_length=0, charset="", seed=0).sample() == ""
        with pytest.raises(ValueError, match="minimum length > 0"):
            lib.Text(3, charset="", seed=0).sample()


def test_attribute_reassignment_is_honoured():
    gs_space, gym_space = seeded_pair(lambda lib: lib.Text(5, charset="abc"), 2)
    for space in (gs_space, gym_space):
        space.min_length, space.max_length = 7, 9
    assert_same_stream(gs_space, gym_space, 4, "lengths reassigned")


def test_character_list_reassignment_is_honoured():
    gs_space, gym_space = seeded_pair(lambda lib: lib.Text(5, charset="abc"), 2)
    assert_same_stream(gs_space, gym_space, 2, "before")
    for space in (gs_space, gym_space):
        space._char_list = ("d", "c", "b", "a")
        space._char_set = frozenset("abcd")
    assert_same_stream(gs_space, gym_space, 4, "charset reassigned")


@pytest.mark.parametrize(
    "max_length, min_length",
    [(2**70, 1), (2**70, 2**69), (2**63, 2**63 - 1), (2**63 - 1, 2**63 - 1)],
)
def test_lengths_beyond_int64_fail_like_numpy(max_length, min_length):
    """Gymnasium draws the length with ``integers(min, max + 1)``: beyond int64 that
    raises numpy's ValueError (not an OverflowError); an all-zero mask never allocates."""
    gs_space, gym_space = seeded_pair(lambda lib: lib.Text(max_length, min_length=min_length), 3)
    for kwargs in ({}, {"mask": (None, np.zeros(62, np.int8))}, {"mask": (min_length, np.zeros(62, np.int8))}):
        gs_out, gym_out = both(lambda lib: (gs_space if lib is GS else gym_space).sample(**kwargs))
        assert_same_outcome(gs_out, gym_out, repr(kwargs))
        assert gym_out.raised  # no call here returns: min_length > 0 with nothing to draw
        assert gs_space.np_random.bit_generator.state == gym_space.np_random.bit_generator.state


# --------------------------------------------------------------------------- mask and probability streams


TEXT_MASK_SPACES = {
    "abcde": lambda lib, **kw: lib.Text(5, charset="abcde", **kw),
    "min0-xyzw": lambda lib, **kw: lib.Text(8, min_length=0, charset="xyzw", **kw),
    "set-abc": lambda lib, **kw: lib.Text(6, min_length=2, charset={"c", "a", "b"}, **kw),
    "unicode": lambda lib, **kw: lib.Text(7, charset="αβγ😀中", **kw),
    "single": lambda lib, **kw: lib.Text(3, min_length=0, charset="q", **kw),
}


def _text_kwargs(rng: np.random.Generator, space, variant: int) -> dict:
    k = len(space.character_list)
    length = int(rng.integers(space.min_length, space.max_length + 1))
    char_mask = (rng.random(k) < 0.6).astype(np.int8)
    if not char_mask.any() and space.min_length > 0:
        char_mask[rng.integers(k)] = 1
    probability = random_probability(rng, k, 0.3)
    return [
        {"mask": (length, None)},
        {"mask": (np.int64(length), None)},
        {"mask": (None, char_mask)},
        {"mask": (length, char_mask)},
        {"probability": (None, probability)},
        {"probability": (length, probability)},
        {"probability": (None, None)},
        {"mask": (None, None)},
        {"mask": (length, np.ones(k, dtype=np.int8))},
    ][variant]


@pytest.mark.parametrize("build", TEXT_MASK_SPACES.values(), ids=TEXT_MASK_SPACES.keys())
def test_text_mask_and_probability_streams(build):
    for seed in range(30):
        gs_space, gym_space = seeded_pair(build, seed)
        rng = np.random.default_rng(40_000 + seed)
        for variant in range(9):
            kwargs = _text_kwargs(rng, gym_space, variant)
            assert_same_outcome(
                outcome(lambda: gs_space.sample(**kwargs)),
                outcome(lambda: gym_space.sample(**kwargs)),
                f"seed={seed} variant={variant} {kwargs}",
            )
        assert_same_state(gs_space, gym_space, f"seed={seed}")


def test_text_all_zero_mask_with_min_length_zero_returns_empty_string():
    """Quirk Q19 (docs/quirks.md): the empty string comes back even with a requested length,
    after drawing the length."""
    for seed in range(20):
        gs_space, gym_space = seeded_pair(lambda lib: lib.Text(6, min_length=0, charset="abc"), seed)
        zeros = np.zeros(3, dtype=np.int8)
        for kwargs in ({"mask": (4, zeros)}, {"mask": (None, zeros)}, {"mask": (0, zeros)}):
            gs_value, gym_value = gs_space.sample(**kwargs), gym_space.sample(**kwargs)
            assert_same_value(gs_value, gym_value, f"seed={seed} {kwargs}")
            assert gym_value == ""
            assert_same_state(gs_space, gym_space, f"seed={seed} {kwargs}")
        assert_same_stream(gs_space, gym_space, 2, f"seed={seed} after")


# --------------------------------------------------------------------------- Hypothesis streams


@settings(max_examples=200)
@given(
    max_length=st.integers(0, 30),
    min_length=st.integers(0, 30),
    # NUL has its own test above (test_charset_with_nul_character_samples_like_gymnasium);
    # leaving it out lets the search look for other differences.
    charset=st.text(alphabet=st.characters(exclude_characters="\x00"), min_size=0, max_size=12),
    as_set=st.booleans(),
    seed=SEEDS,
)
def test_hypothesis_text_streams(max_length, min_length, charset, as_set, seed):
    chars = set(charset) if as_set else charset
    gs_space, gym_space = _pair_or_same_error(
        lambda lib: lib.Text(max_length, min_length=min_length, charset=chars))
    if gym_space is None:
        return
    gs_space.seed(seed)
    gym_space.seed(seed)
    assert_same_stream(gs_space, gym_space, 3, f"{gym_space!r}")
