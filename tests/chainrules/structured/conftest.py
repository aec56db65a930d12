"""Fixtures of the structured-matrix tests: every type (and its ``lower`` variants).

Seeded random data: the shared ``rand`` of ``tests/chainrules/conftest.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

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
