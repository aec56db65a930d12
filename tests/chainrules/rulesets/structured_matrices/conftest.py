"""Fixtures of the rules for structured matrices: every type and flag, a fixed-step finite-difference method.

``dtype`` (complex: complex symmetric, Hermitian, ... matrices) and ``rand`` are the shared ones of
``tests/chainrules/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from chainrules.testing import FiniteDifferenceMethod, central_fdm
from chainrules.testing.structured import STRUCTURED_KINDS, kind_name, random_structured


@pytest.fixture(params=STRUCTURED_KINDS, ids=kind_name)
def kind(request: Any) -> tuple[type, bool]:
    """A structured type and its ``lower`` flag."""
    return request.param


@pytest.fixture
def make(kind: tuple[type, bool]) -> Callable[..., Any]:
    """``make(dtype=np.float64, n=3, seed=0)``: a random well-conditioned matrix of the current kind."""
    cls, lower = kind
    return lambda dtype=np.float64, n=3, seed=0: random_structured(cls, n, dtype, rng=seed, lower=lower)


@pytest.fixture
def fdm() -> FiniteDifferenceMethod:
    """A fixed-step 5-point method: the rules here are smooth (mostly bilinear) on well-scaled 3 x 3
    inputs, so the adaptive step search of the default method only costs time."""
    return central_fdm(5, 1, adapt=0)
