"""Fixtures of the reduction tests: the real dtypes and the spellings of ``axis``.

``dtype`` (the dtypes of functions that take complex input) and ``rand`` are the shared ones of
``tests/chainrules/conftest.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest


@pytest.fixture(params=[np.float64, np.float32], ids=["float64", "float32"])
def real_dtype(request: Any) -> Any:
    """The dtypes of functions of real input (order statistics, extrema)."""
    return request.param


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
