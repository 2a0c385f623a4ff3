"""Argument rules shared by every space and kernel (imports nothing of gymspaces).

``sample`` takes a mask or a probability, never both: the check and its
message live here once. Kernels test the condition inline (it is on hot
paths) and raise :func:`mask_and_probability_error`.
"""

from __future__ import annotations

from typing import Any


def mask_and_probability_error(mask: Any, probability: Any) -> ValueError:
    """The error ``sample`` raises when given both a mask and a probability."""
    return ValueError(
        "Only one of `mask` or `probability` can be provided, actual values: "
        f"mask={mask}, probability={probability}"
    )


def check_mask_or_probability(mask: Any, probability: Any) -> None:
    """Raise :func:`mask_and_probability_error` if both are given."""
    if mask is not None and probability is not None:
        raise mask_and_probability_error(mask, probability)
