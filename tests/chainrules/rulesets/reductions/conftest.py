"""Fixtures of the reduction tests: a seeded random-array maker and the dtypes the rules are tested at."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


@pytest.fixture(params=[np.float64, np.float32, np.complex128], ids=["float64", "float32", "complex128"])
def dtype(request: Any) -> Any:
    """The dtypes of functions that take complex input."""
    return request.param


@pytest.fixture(params=[np.float64, np.float32], ids=["float64", "float32"])
def real_dtype(request: Any) -> Any:
    """The dtypes of functions of real input (order statistics, extrema)."""
    return request.param


@pytest.fixture
def rand() -> Callable[..., np.ndarray]:
    """``rand(shape, dtype=np.float64)``: a seeded standard-normal array (complex parts for complex dtypes)."""
    rng = np.random.default_rng(20261122)

    def make(shape: Any, dtype: Any = np.float64) -> np.ndarray:
        x = rng.standard_normal(shape)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        return np.asarray(x, dtype=dtype)

    return make


AXIS_FORMS = [
    pytest.param(((), {}), id="all"),
    pytest.param(((0,), {}), id="axis0-positional"),
    pytest.param(((), {"axis": 0}), id="axis0-keyword"),
    pytest.param(((-1,), {}), id="axis-negative"),
    pytest.param(((), {"axis": (0, 2)}), id="axis-tuple"),
    pytest.param(((), {"axis": (-1, 0), "keepdims": True}), id="axis-tuple-keepdims"),
    pytest.param(((None,), {"keepdims": True}), id="none-keepdims"),
]
"""Positional and keyword spellings of ``axis`` (int, negative, tuple, ``None``) and ``keepdims``."""


@pytest.fixture(params=AXIS_FORMS)
def axis_form(request: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``(positional arguments after the array, keyword arguments)`` of a reduction call."""
    return request.param
