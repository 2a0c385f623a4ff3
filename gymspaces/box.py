"""The :class:`Box` space: arrays within per-coordinate bounds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast, overload

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~10 ms to import; annotations only
    from numpy.typing import NDArray
    from typing_extensions import TypeVar

    # ``default=``: a bare ``Box`` annotation means ``Box[Any]`` (as Gymnasium's has a default).
    _RealScalar = np.floating[Any] | np.integer[Any] | np.bool_
    ScalarT = TypeVar("ScalarT", bound=_RealScalar, covariant=True, default=Any)
    _ChosenScalarT = TypeVar("_ChosenScalarT", bound=_RealScalar)
else:
    from typing import TypeVar

    ScalarT = TypeVar("ScalarT", bound=np.generic, covariant=True)

from gymspaces import _box, _jsonable
from gymspaces._sample_batch import all_rows, batch_count, contains_batch_by_items, numeric_batch, sample_batch_by_loop
from gymspaces._warnings import warn
from gymspaces.space import Space

__all__ = ["Box"]

def _short_repr(array: NDArray[Any]) -> str:
    """A constant non-empty array prints as its value, anything else in full."""
    if array.size != 0 and np.min(array) == np.max(array):
        return str(np.min(array))
    return str(array)


def _is_real_scalar(value: object) -> bool:
    """Python/numpy ints and floats, but not bools."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


class Box(Space[np.ndarray[Any, np.dtype[ScalarT]]]):
    """A (possibly unbounded) box in ℝⁿ or ℤⁿ.

    Parameters
    ----------
    low, high : scalar or numpy.ndarray
        Lower and upper bounds; scalars are broadcast to ``shape``. ``-inf`` /
        ``inf`` make a coordinate unbounded (signed integer boxes store the
        dtype's limits instead).
    shape : sequence of int, optional
        Required when both bounds are scalars and the shape is not ``(1,)``.
    dtype : float, integer or bool dtype
        dtype of samples (default ``float32``).
    seed : int, numpy.random.Generator or None
        Seed of the space's generator.

    Examples
    --------
    Scalar bounds broadcast to ``shape``; a seeded space samples reproducibly:

    >>> import numpy as np
    >>> from gymspaces import Box
    >>> space = Box(-1.0, 1.0, shape=(3,), seed=0)
    >>> space
    Box(-1.0, 1.0, (3,), float32)
    >>> space.sample()
    array([ 0.27392337, -0.46042657, -0.918053  ], dtype=float32)
    >>> space.contains(np.array([0.5, 0.0, -1.0], dtype=np.float32))
    True

    Per-coordinate bounds come as arrays, and integer dtypes suit images:

    >>> Box(np.array([0.0, -2.0], np.float32), np.array([1.0, 2.0], np.float32))
    Box([ 0. -2.], [1. 2.], (2,), float32)
    >>> Box(0, 255, shape=(2, 2), dtype=np.uint8, seed=0).sample()
    array([[163,  69],
           [ 10,   4]], dtype=uint8)
    """

    dtype: np.dtype[ScalarT]
    _shape: tuple[int, ...]
    low: NDArray[ScalarT]
    high: NDArray[ScalarT]
    bounded_below: NDArray[np.bool_]
    bounded_above: NDArray[np.bool_]
    low_repr: str | None
    high_repr: str | None

    # The dtype picks the type parameter: float32 by default, as in Gymnasium.
    @overload
    def __init__(
        self: Box[np.float32],
        low: Any,
        high: Any,
        shape: Sequence[int | np.integer[Any]] | None = None,
        dtype: type[np.float32] | np.dtype[np.float32] = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Box[_ChosenScalarT],
        low: Any,
        high: Any,
        shape: Sequence[int | np.integer[Any]] | None = None,
        *,
        dtype: type[_ChosenScalarT] | np.dtype[_ChosenScalarT],
        seed: int | np.random.Generator | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Box[_ChosenScalarT],
        low: Any,
        high: Any,
        shape: Sequence[int | np.integer[Any]] | None,
        dtype: type[_ChosenScalarT] | np.dtype[_ChosenScalarT],
        seed: int | np.random.Generator | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Box[Any],
        low: Any,
        high: Any,
        shape: Sequence[int | np.integer[Any]] | None = None,
        dtype: str | type[float] | type[int] | type[bool] = ...,
        seed: int | np.random.Generator | None = None,
    ) -> None: ...
    def __init__(
        self,
        low: Any,
        high: Any,
        shape: Sequence[int | np.integer[Any]] | None = None,
        dtype: Any = np.float32,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        if dtype is None:
            raise ValueError("Box dtype must be explicitly provided, cannot be None.")
        self.dtype = np.dtype(dtype)
        if self.dtype.kind not in ("i", "u", "f", "b"):
            raise ValueError(
                f"Invalid Box dtype ({self.dtype}), must be an integer, floating, or bool dtype"
            )
        self._shape = self._resolve_shape(low, high, shape)

        dtype_min: float
        dtype_max: float
        if self.dtype.kind == "b":
            dtype_min, dtype_max = 0, 1
        elif self.dtype.kind == "f":
            finfo = np.finfo(cast("np.dtype[np.floating[Any]]", self.dtype))
            dtype_min, dtype_max = float(finfo.min), float(finfo.max)
        else:
            iinfo = np.iinfo(cast("np.dtype[np.integer[Any]]", self.dtype))
            dtype_min, dtype_max = int(iinfo.min), int(iinfo.max)

        self.low, self.bounded_below = self._cast_bound(low, dtype_min, "low")
        self.high, self.bounded_above = self._cast_bound(high, dtype_max, "high")

        if self.low.shape != self._shape:
            raise ValueError(
                f"Box low.shape doesn't match provided shape, low.shape={self.low.shape}, "
                f"shape={self._shape}"
            )
        if self.high.shape != self._shape:
            raise ValueError(
                f"Box high.shape doesn't match provided shape, high.shape={self.high.shape}, "
                f"shape={self._shape}"
            )
        # Compared as NDArray[Any]: numpy 2.2's stubs (the last numpy for Python
        # 3.10) define no ``>`` between arrays of a generic scalar type.
        low_bound: NDArray[Any] = self.low
        if np.any(low_bound > self.high):
            raise ValueError(
                "Box all low values must be less than or equal to high (some values break this), "
                f"low={self.low}, high={self.high}"
            )
        self.low_repr = None
        self.high_repr = None
        super().__init__(self._shape, self.dtype, seed)

    @staticmethod
    def _resolve_shape(low: Any, high: Any, shape: Any) -> tuple[int, ...]:
        if shape is not None:
            if not isinstance(shape, Iterable):
                raise TypeError(f"Expected Box shape to be an iterable, actual type={type(shape)}")
            if not all(isinstance(dim, (int, np.integer)) for dim in shape):
                raise TypeError(
                    "Expected all Box shape elements to be integer, "
                    f"actual type={tuple(type(dim) for dim in shape)}"
                )
            return tuple(int(dim) for dim in shape)
        if isinstance(low, np.ndarray) and isinstance(high, np.ndarray):
            if low.shape != high.shape:
                raise ValueError(
                    "Box low.shape and high.shape don't match, "
                    f"low.shape={low.shape}, high.shape={high.shape}"
                )
            return low.shape
        if isinstance(low, np.ndarray):
            return low.shape
        if isinstance(high, np.ndarray):
            return high.shape
        if _is_real_scalar(low) and _is_real_scalar(high):
            return (1,)
        raise ValueError(
            "Box shape is not specified, therefore inferred from low and high. Expected low and "
            f"high to be np.ndarray, integer, or float.Actual types low={type(low)}, "
            f"high={type(high)}"
        )

    def _cast_bound(
        self, bound: Any, dtype_limit: float, side: Literal["low", "high"]
    ) -> tuple[NDArray[Any], NDArray[np.bool_]]:
        """Validate one bound and return it as an array of the Box dtype with its boundedness.

        ``side`` selects the infinity that means "unbounded" (``-inf`` for low,
        ``inf`` for high) and the direction of the dtype-range check.
        """
        is_low = side == "low"
        infinity = -np.inf if is_low else np.inf
        if _is_real_scalar(bound):
            bounded = np.full(self._shape, bound > -np.inf if is_low else bound < np.inf)
            if np.isnan(bound):
                raise ValueError(f"No {side} value can be equal to `np.nan`, {side}={bound}")
            if bound == infinity:
                if self.dtype.kind == "i":
                    bound = dtype_limit
                elif self.dtype.kind in {"u", "b"}:
                    raise ValueError(
                        f"Box unsigned int dtype don't support `{'-' if is_low else ''}np.inf`, "
                        f"{side}={bound}"
                    )
            elif bound < dtype_limit if is_low else bound > dtype_limit:
                kind = "min" if is_low else "max"
                raise ValueError(
                    f"Box {side} is out of bounds of the dtype range, {side}={bound}, "
                    f"{kind} dtype={dtype_limit}"
                )
            return np.full(self._shape, bound, dtype=self.dtype), bounded

        if not isinstance(bound, np.ndarray):
            raise ValueError(
                f"Box {side} must be a np.ndarray, integer, or float, actual type={type(bound)}"
            )
        if bound.dtype.kind not in ("f", "i", "u", "b"):
            kinds = "floating, integer, or bool" if is_low else "floating or integer"
            raise ValueError(f"Box {side} must be a {kinds} dtype, actual dtype={bound.dtype}")
        if np.any(np.isnan(bound)):
            raise ValueError(f"No {side} value can be equal to `np.nan`, {side}={bound}")
        bounded = -np.inf < bound if is_low else bound < np.inf
        infinite = np.isneginf(bound) if is_low else np.isposinf(bound)
        if np.any(infinite):
            if self.dtype.kind == "i":
                # Gymnasium writes the dtype limit into the caller's array
                # (quirk Q11, docs/quirks.md).
                bound[infinite] = dtype_limit
            elif self.dtype.kind in {"u", "b"}:
                raise ValueError(
                    f"Box unsigned int dtype don't support `{'-' if is_low else ''}np.inf`, "
                    f"{side}={bound}"
                )
        elif bound.dtype != self.dtype and np.any(
            bound < dtype_limit if is_low else dtype_limit < bound
        ):
            kind = "min" if is_low else "max"
            raise ValueError(
                f"Box {side} is out of bounds of the dtype range, {side}={bound}, "
                f"{kind} dtype={dtype_limit}"
            )
        if bound.dtype.kind == "f" and self.dtype.kind == "f":
            own = np.finfo(cast("np.dtype[np.floating[Any]]", self.dtype))
            if own.precision < np.finfo(bound.dtype).precision:
                warn(
                    f"Box {side}'s precision lowered by casting to {self.dtype}, "
                    f"current {side}.dtype={bound.dtype}"
                )
        return bound.astype(self.dtype), bounded

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of the Box's elements.

        Examples
        --------
        >>> from gymspaces import Box
        >>> Box(0.0, 1.0, shape=(84, 84, 3)).shape
        (84, 84, 3)
        """
        return self._shape

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """A Box flattens to a 1-D Box (always ``True``).

        Examples
        --------
        >>> from gymspaces import Box
        >>> from gymspaces.utils import flatten_space
        >>> space = Box(0.0, 1.0, shape=(2, 3))
        >>> space.is_np_flattenable
        True
        >>> flatten_space(space)
        Box(0.0, 1.0, (6,), float32)
        """
        return True

    def is_bounded(self, manner: Literal["both", "below", "above"] = "both") -> bool:
        """Whether every coordinate is bounded ``"below"``, ``"above"`` or on ``"both"`` sides.

        Parameters
        ----------
        manner : {"both", "below", "above"}
            Which side(s) must be finite for every coordinate.

        Returns
        -------
        bool

        Raises
        ------
        ValueError
            If ``manner`` is not one of the three values.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box
        >>> space = Box(0.0, np.inf, shape=(2,))
        >>> space.is_bounded(), space.is_bounded("below"), space.is_bounded("above")
        (False, True, False)
        >>> Box(-1.0, 1.0, shape=(2,)).is_bounded()
        True
        """
        below = bool(np.all(self.bounded_below))
        above = bool(np.all(self.bounded_above))
        if manner == "both":
            return below and above
        if manner == "below":
            return below
        if manner == "above":
            return above
        raise ValueError(f"manner is not in {{'below', 'above', 'both'}}, actual value: {manner}")

    if TYPE_CHECKING:

        def sample(self, mask: None = None, probability: None = None) -> NDArray[ScalarT]:
            """A random element (a Box takes neither a mask nor probabilities)."""

    else:
        # Compiled: normal / exponential / uniform passes exactly as Gymnasium draws them.
        sample = _box.box_sample

    def _sample_with_numpy(self) -> NDArray[Any]:
        """Sampling through numpy's Generator methods, for bounds of another dtype.

        Only reached when ``low``/``high``/``bounded_*`` were reassigned with
        arrays of other dtypes: numpy's type promotion then shapes the result,
        so the same Generator calls and array operations are made in order.
        """
        generator = self.np_random
        # NDArray[Any]: numpy 2.2's stubs (the last numpy for Python 3.10)
        # reject arrays of a generic scalar type as Generator.uniform's bounds.
        low: NDArray[Any] = self.low
        high: NDArray[Any] = self.high if self.dtype.kind == "f" else self.high.astype("int64") + 1
        out = np.empty(self.shape)
        below, above = self.bounded_below, self.bounded_above
        unbounded, lower_only = ~below & ~above, below & ~above
        upper_only, both = ~below & above, below & above
        out[unbounded] = generator.normal(size=unbounded[unbounded].shape)
        out[lower_only] = generator.exponential(size=lower_only[lower_only].shape) + low[lower_only]
        out[upper_only] = -generator.exponential(size=upper_only[upper_only].shape) + high[upper_only]
        out[both] = generator.uniform(low=low[both], high=high[both], size=both[both].shape)
        if self.dtype.kind in "iub":
            out = np.floor(out)
        if self.dtype.kind in "iu":
            info = np.iinfo(cast("np.dtype[np.integer[Any]]", self.dtype))
            margin = 2 if self.dtype == np.int64 else 0
            out = out.clip(min=info.min + margin, max=info.max - margin)
        out = out.astype(self.dtype)
        if self.dtype == np.int64:
            out = out.clip(min=self.low, max=self.high)
        return out

    # Uniform bounds (e.g. 0..255 images) pickle as one element each.
    _compact_arrays = ("low", "high", "bounded_below", "bounded_above")

    # Batched sampling and membership (not in Gymnasium; see Space.sample_batch).

    def sample_batch(self, n: Any, mask: Any = None, probability: Any = None, out: Any = None) -> Any:
        """Draw ``n`` samples at once (not in Gymnasium): the Box kernel fills all rows in one call.

        Returns an array of shape ``(n, *space.shape)`` and the space's dtype,
        equal to ``n`` stacked :meth:`Box.sample` draws. Like ``Box.sample``, it
        accepts no mask or probability (passing one raises
        :class:`gymspaces.error.Error`). ``out`` is filled in place and returned.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box
        >>> batch = Box(-1, 1, shape=(2,), seed=0).sample_batch(3)
        >>> batch.shape, batch.dtype
        ((3, 2), dtype('float32'))
        >>> loop = Box(-1, 1, shape=(2,), seed=0)
        >>> np.array_equal(batch, np.stack([loop.sample() for _ in range(3)]))
        True
        """

        count = batch_count(n)
        if mask is not None or probability is not None:
            self.sample(mask=mask, probability=probability)  # raises Gymnasium's error
        drawn = _box.box_sample_batch(self, count, out)
        return sample_batch_by_loop(self, count, out=out) if drawn is None else drawn

    def contains_batch(self, batch: Any) -> np.ndarray:
        """Membership of every row (not in Gymnasium): shape, castability and bounds checked at once.

        An array batch whose rows have the wrong shape, or whose dtype does not
        cast safely to the space's dtype, gives ``False`` for every row.

        Examples
        --------
        >>> import numpy as np
        >>> from gymspaces import Box
        >>> space = Box(0, 1, shape=(2,))
        >>> space.contains_batch(np.array([[0.5, 0.5], [1.5, 0.0], [0.0, 1.0]], dtype=np.float32))
        array([ True, False,  True])
        >>> space.contains_batch(np.array([[0.5, 0.5]], dtype=np.float64))  # float64 is not float32
        array([False])
        """
        if not numeric_batch(batch):
            return contains_batch_by_items(self, batch)
        if batch.shape[1:] != self.shape or not np.can_cast(batch.dtype, self.dtype):
            return np.zeros(batch.shape[0], dtype=np.bool_)
        return all_rows(batch, (batch >= self.low) & (batch <= self.high))

    def _batch_placeholder(self, count: int) -> Any:
        # concatenate stacks the samples themselves (np.stack) when out is None.
        return None

    # Compiled: arrays of the Box's own dtype are checked in C.
    contains = _box.box_contains

    def _contains_with_numpy(self, x: Any) -> bool:
        """General membership rules (any input), as Gymnasium applies them."""
        if not isinstance(x, np.ndarray):
            warn("Casting input x to numpy array.")
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError, OverflowError):
                return False
        return bool(
            np.can_cast(x.dtype, self.dtype)
            and x.shape == self.shape
            and np.all(x >= self.low)
            and np.all(x <= self.high)
        )

    def to_jsonable(self, sample_n: Iterable[NDArray[Any]]) -> list[Any]:
        """Samples as nested lists (``[sample.tolist() for sample in sample_n]``).

        Examples
        --------
        >>> from gymspaces import Box
        >>> space = Box(0, 9, shape=(2,), dtype=int, seed=0)
        >>> space.to_jsonable([space.sample(), space.sample()])
        [[6, 2], [0, 0]]
        """
        return _jsonable.rows_tolist(sample_n)

    def from_jsonable(self, sample_n: Iterable[Any]) -> list[NDArray[Any]]:
        """Nested lists back to arrays of the Box's dtype (inverse of :meth:`to_jsonable`).

        Examples
        --------
        >>> from gymspaces import Box
        >>> space = Box(-1.0, 1.0, shape=(2,))
        >>> space.from_jsonable([[0.5, -0.25], [1.0, 0.0]])
        [array([ 0.5 , -0.25], dtype=float32), array([1., 0.], dtype=float32)]
        """
        return [np.asarray(sample, dtype=self.dtype) for sample in sample_n]

    def __repr__(self) -> str:
        # Computed once and kept, as Gymnasium does: stale after in-place edits
        # (quirk Q14, docs/quirks.md).
        if self.low_repr is None:
            self.low_repr = _short_repr(self.low)
        if self.high_repr is None:
            self.high_repr = _short_repr(self.high)
        return f"Box({self.low_repr}, {self.high_repr}, {self.shape}, {self.dtype})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Box)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and np.allclose(self.low, other.low)
            and np.allclose(self.high, other.high)
        )

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        super().__setstate__(state)
        # Pickles from before the repr cache existed.
        if not hasattr(self, "low_repr"):
            self.low_repr = _short_repr(self.low)
        if not hasattr(self, "high_repr"):
            self.high_repr = _short_repr(self.high)
