"""Fixtures of the array-manipulation tests: a seeded random-array maker and the dtypes every rule is tested at."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


@pytest.fixture(params=[np.float64, np.float32, np.complex128], ids=["float64", "float32", "complex128"])
def dtype(request: Any) -> Any:
    """Every dtype an array rule is tested at."""
    return request.param


@pytest.fixture
def rand() -> Callable[..., np.ndarray]:
    """``rand(*shape, dtype=np.float64)``: a seeded standard-normal array (complex parts for complex dtypes)."""
    rng = np.random.default_rng(20261122)

    def make(*shape: int, dtype: Any = np.float64) -> np.ndarray:
        x = rng.standard_normal(shape)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        return np.asarray(x, dtype=dtype)

    return make
