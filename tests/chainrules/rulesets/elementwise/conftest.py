"""Fixtures of the elementwise tests: a seeded sampler of arrays and scalars in a given range."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


@pytest.fixture
def sample() -> Callable[..., Any]:
    """``sample(shape, dtype=np.float64, low=-1.0, high=1.0)``: seeded uniform values.

    Complex dtypes get real and imaginary parts in ``[low, high]``; ``shape=None`` gives a
    NumPy scalar of the dtype, ``dtype=float``/``complex`` a Python scalar.
    """
    rng = np.random.default_rng(20261122)

    def make(shape: Any = (2, 3), dtype: Any = np.float64, low: float = -1.0, high: float = 1.0) -> Any:
        size = () if shape is None else shape
        x = rng.uniform(low, high, size)
        if np.dtype(dtype).kind == "c":
            x = x + 1j * rng.uniform(low, high, size)
        if dtype in (float, complex):
            return dtype(x)
        x = np.asarray(x, dtype=dtype)
        return x[()] if shape is None else x

    return make


@pytest.fixture
def check_unary(sample: Callable[..., Any]) -> Callable[..., None]:
    """``check_unary(f, low, high, dtype, complex_range=None)``: the standard checks of a unary rule.

    At the given dtype: a (2, 3) array (rrule and frule), a 0-d array and a NumPy scalar
    (both directions, along the real and imaginary axes for complex dtypes via
    ``test_scalar``), and for float64/complex128 a Python scalar. Values are drawn from
    ``[low, high]`` (for complex dtypes, from ``complex_range`` for both parts if given).
    """
    from chainrules.testing import test_frule, test_rrule, test_scalar

    def check(f: Any, low: float, high: float, dtype: Any, complex_range: tuple[float, float] | None = None,
              **options: Any) -> None:
        if np.dtype(dtype).kind == "c" and complex_range is not None:
            low, high = complex_range
        x = sample((2, 3), dtype, low, high)
        test_rrule(f, x, **options)
        test_frule(f, x, **options)
        test_rrule(f, sample((), dtype, low, high), **options)
        test_scalar(f, sample(None, dtype, low, high), **options)
        if np.dtype(dtype) in (np.float64, np.complex128):
            python_type = complex if np.dtype(dtype).kind == "c" else float
            test_scalar(f, sample(None, python_type, low, high), **options)

    return check


@pytest.fixture
def check_binary(sample: Callable[..., Any]) -> Callable[..., None]:
    """``check_binary(f, ranges, dtype)``: the standard checks of a binary rule.

    ``ranges`` gives ``(low, high)`` for each argument. Broadcast shapes ``(2, 3)`` with
    ``(3,)`` and ``(2, 1)`` with ``(1, 3)``, both rules; a Python scalar with an array;
    two NumPy scalars of the dtype; a 0-d array with an array.
    """
    from chainrules.testing import test_frule, test_rrule

    def check(f: Any, ranges: tuple[tuple[float, float], tuple[float, float]], dtype: Any, **options: Any) -> None:
        (l1, h1), (l2, h2) = ranges
        for s1, s2 in (((2, 3), (3,)), ((2, 1), (1, 3))):
            a, b = sample(s1, dtype, l1, h1), sample(s2, dtype, l2, h2)
            test_rrule(f, a, b, **options)
            test_frule(f, a, b, **options)
        python_type = complex if np.dtype(dtype).kind == "c" else float
        test_rrule(f, sample(None, python_type, l1, h1), sample((3,), dtype, l2, h2), **options)
        test_rrule(f, sample((2, 3), dtype, l1, h1), sample(None, python_type, l2, h2), **options)
        a, b = sample(None, dtype, l1, h1), sample(None, dtype, l2, h2)
        test_rrule(f, a, b, **options)
        test_frule(f, a, b, **options)
        test_rrule(f, sample((), dtype, l1, h1), sample((3,), dtype, l2, h2), **options)

    return check


DTYPES = (np.float64, np.float32, np.complex128)


def pytest_generate_tests(metafunc: Any) -> None:
    """Parametrize ``unary_case`` from the test module's ``UNARY`` table.

    ``UNARY`` lists ``(function, real range, complex range or None)``; each function is
    tested at float64 and float32, and at complex128 when it takes complex input.
    """
    if "unary_case" in metafunc.fixturenames:
        cases = [pytest.param((f, real, cplx, dtype), id=f"{f.__name__}-{np.dtype(dtype).name}")
                 for f, real, cplx in metafunc.module.UNARY for dtype in DTYPES
                 if cplx is not None or np.dtype(dtype).kind == "f"]
        metafunc.parametrize("unary_case", cases)
