"""Fixtures shared by the rule tests: the dtypes a rule is tested at and a seeded random-array maker.

A test folder keeps what it does differently in its own ``conftest.py``: the linear-algebra tests
override ``rand_seed`` (they draw their own random stream), the array tests ``rand`` (it takes the shape
as separate arguments), the reduction tests add ``real_dtype``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


@pytest.fixture(params=[np.float64, np.float32, np.complex128], ids=["float64", "float32", "complex128"])
def dtype(request: Any) -> Any:
    """Every dtype a rule is tested at: double and single precision, and complex (LAPACK has all three)."""
    return request.param


@pytest.fixture
def rand_seed() -> int:
    """The seed of :func:`rand`'s generator (a fresh generator for every test)."""
    return 20261122


@pytest.fixture
def rand(rand_seed: int) -> Callable[..., np.ndarray]:
    """``rand(shape, dtype=np.float64)``: a seeded standard-normal array (complex parts for complex dtypes)."""
    rng = np.random.default_rng(rand_seed)

    def make(shape: Any, dtype: Any = np.float64) -> np.ndarray:
        x = rng.standard_normal(shape)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.standard_normal(shape)
        return np.asarray(x, dtype=dtype)

    return make
