"""Property tests of the elementwise rules: random shapes (0-d and empty included), broadcasting and dtypes.

For each family, hypothesis draws arguments inside the function's domain and
``adjoint_check`` (``tests/chainrules/rulesets/conftest.py``) checks, without finite
differences, that the frule and the rrule agree (``<dy, J dx> = <J^T dy, dx>``), that the
cotangents keep their arguments' shapes and dtypes, and that nothing raises where NumPy
does not. The examples are derandomized (the same on every run) and few.
"""

from __future__ import annotations

import builtins
import math
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from hypothesis.extra import numpy as hnp

import chainrules  # noqa: F401  (registers the rules)

PROPERTY = settings(max_examples=12, deadline=None, derandomize=True, database=None)

REAL = (np.float32, np.float64)
COMPLEX = (np.float32, np.float64, np.complex128)


def _domain(x: np.ndarray, domain: str) -> np.ndarray:
    """Real ``x`` (entries in [-3, 3]) moved inside a domain."""
    if domain == "positive":
        return np.abs(x) + 0.25
    if domain == "above_one":
        return np.abs(x) + 1.25
    if domain == "unit":
        return x / 3.5
    if domain == "nonzero":
        return np.where(np.abs(x) < 0.25, 0.25, x)
    if domain == "noninteger":  # away from the jumps of mod, floor and round
        return np.floor(x) + 0.5 + 0.25 * np.tanh(x)
    return x


def _complex_domain(re: np.ndarray, im: np.ndarray, domain: str) -> np.ndarray:
    """A complex value from real and imaginary parts in [-3, 3], inside a domain (away from singular points)."""
    if domain == "positive":
        return np.abs(re) / 4 + 0.5 + 0.25j * im
    if domain == "above_one":
        return np.abs(re) / 4 + 1.5 + 0.25j * im
    if domain == "unit":
        return (re + 1j * im) / 4
    if domain == "nonzero":
        z = re + 1j * im
        return np.where(np.abs(z) < 0.25, 0.25 + 0.25j, z)
    if domain == "noninteger":
        return _domain(re, domain) + 1j * _domain(im, domain)
    return re + 1j * im


def arguments(dtypes: tuple[type, ...], shapes: list[tuple[int, ...]], domains: tuple[str, ...]) -> hs.SearchStrategy:
    """Arrays of the given shapes, one dtype for all, each moved into its domain."""

    @hs.composite
    def draw(draw_: hs.DrawFn) -> tuple[np.ndarray, ...]:
        dtype = np.dtype(draw_(hs.sampled_from(dtypes)))
        out = []
        for shape, domain in zip(shapes, domains):
            real = draw_(hnp.arrays(np.float64, shape, elements=hs.floats(-3, 3, width=32)))
            if dtype.kind == "c":
                imag = draw_(hnp.arrays(np.float64, shape, elements=hs.floats(-3, 3, width=32)))
                value = _complex_domain(real, imag, domain)
            else:
                value = _domain(real, domain)
            out.append(np.asarray(value, dtype=dtype))
        return tuple(out)

    return draw()


ONE_SHAPE = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
TWO_SHAPES = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=0, max_side=3)

# (function, dtypes, domain of each argument)
UNARY = [
    (np.sin, COMPLEX, "any"), (np.cos, COMPLEX, "any"), (np.tan, COMPLEX, "unit"), (np.arcsin, COMPLEX, "unit"),
    (np.arccos, COMPLEX, "unit"), (np.arctan, COMPLEX, "unit"), (np.deg2rad, REAL, "any"),
    (np.rad2deg, REAL, "any"), (np.sinh, COMPLEX, "any"), (np.cosh, COMPLEX, "any"), (np.tanh, COMPLEX, "any"),
    (np.arcsinh, COMPLEX, "unit"), (np.arccosh, COMPLEX, "above_one"), (np.arctanh, COMPLEX, "unit"),
    (np.exp, COMPLEX, "any"), (np.exp2, COMPLEX, "any"), (np.expm1, COMPLEX, "any"), (np.log, COMPLEX, "positive"),
    (np.log2, COMPLEX, "positive"), (np.log10, COMPLEX, "positive"), (np.log1p, COMPLEX, "positive"),
    (np.sqrt, COMPLEX, "positive"), (np.cbrt, REAL, "nonzero"), (np.square, COMPLEX, "any"),
    (np.reciprocal, COMPLEX, "nonzero"), (np.absolute, COMPLEX, "nonzero"), (np.fabs, REAL, "nonzero"),
    (np.negative, COMPLEX, "any"), (np.positive, COMPLEX, "any"), (np.conjugate, COMPLEX, "any"),
    (np.real, COMPLEX, "any"), (np.imag, COMPLEX, "any"), (np.angle, COMPLEX, "nonzero"),
    (np.sign, COMPLEX, "nonzero"), (np.floor, REAL, "noninteger"), (np.rint, REAL, "noninteger"),
    (np.round, COMPLEX, "noninteger"), (np.sinc, COMPLEX, "any"), (np.i0, REAL, "any"),
    (np.spacing, REAL, "nonzero"), (np.frexp, REAL, "nonzero"), (np.modf, REAL, "noninteger"),
    (np.nan_to_num, COMPLEX, "any"), (np.unwrap, REAL, "any"),
]

BINARY = [
    (np.add, COMPLEX, ("any", "any")), (np.subtract, COMPLEX, ("any", "any")),
    (np.multiply, COMPLEX, ("any", "any")), (np.divide, COMPLEX, ("any", "nonzero")),
    (np.power, COMPLEX, ("positive", "any")), (np.float_power, REAL, ("positive", "any")),
    (np.arctan2, REAL, ("any", "nonzero")), (np.hypot, REAL, ("nonzero", "any")),
    (np.maximum, REAL, ("any", "any")), (np.minimum, REAL, ("any", "any")), (np.fmax, REAL, ("any", "any")),
    (np.fmin, REAL, ("any", "any")), (np.logaddexp, REAL, ("any", "any")), (np.logaddexp2, REAL, ("any", "any")),
    (np.copysign, REAL, ("nonzero", "nonzero")), (np.mod, REAL, ("noninteger", "positive")),
    (np.fmod, REAL, ("noninteger", "positive")), (np.divmod, REAL, ("noninteger", "positive")),
    (np.heaviside, REAL, ("nonzero", "any")), (np.nextafter, REAL, ("any", "any")),
]


@pytest.mark.parametrize(("f", "dtypes", "domain"), UNARY, ids=[f.__name__ for f, *_ in UNARY])
@PROPERTY
@given(data=hs.data())
def test_unary(f, dtypes, domain, data, adjoint_check):
    shape = data.draw(ONE_SHAPE if f is not np.unwrap else hnp.array_shapes(min_dims=1, max_dims=2, max_side=3))
    (x,) = data.draw(arguments(dtypes, [shape], (domain,)))
    if data.draw(hs.booleans()) and x.ndim == 0 and x.dtype.itemsize == 8:
        x = x.item()  # a Python number
    assert adjoint_check(f, x) == "checked"


@pytest.mark.parametrize(("f", "dtypes", "domains"), BINARY, ids=[f.__name__ for f, *_ in BINARY])
@PROPERTY
@given(data=hs.data())
def test_binary_broadcasting(f, dtypes, domains, data, adjoint_check):
    shapes = data.draw(TWO_SHAPES).input_shapes
    x1, x2 = data.draw(arguments(dtypes, list(shapes), domains))
    assert adjoint_check(f, x1, x2) == "checked"


@PROPERTY
@given(data=hs.data())
def test_clip(data, adjoint_check):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=2, min_side=0,
                                                         max_side=3)).input_shapes
    a, lo, hi = data.draw(arguments(REAL, list(shapes), ("any", "any", "any")))
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    bounds = data.draw(hs.sampled_from(["both", "no lower", "no upper", "crossed"]))
    if bounds == "no lower":
        lo = None
    elif bounds == "no upper":
        hi = None
    elif bounds == "crossed":
        lo, hi = hi, lo
    assert adjoint_check(np.clip, a, lo, hi) == "checked"


@PROPERTY
@given(data=hs.data())
def test_where(data, adjoint_check):
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, min_side=0,
                                                         max_side=3)).input_shapes
    condition = data.draw(hnp.arrays(np.bool_, shapes[0]))
    x, y = data.draw(arguments(COMPLEX, list(shapes[1:]), ("any", "any")))
    assert adjoint_check(np.where, condition, x, y) == "checked"


# Python scalars through math, operator and the builtins: (function, domain of each argument)
SCALAR = [
    (math.sin, ("any",)), (math.exp, ("any",)), (math.log, ("positive",)), (math.log, ("positive", "above_one")),
    (math.sqrt, ("positive",)), (math.atan2, ("any", "nonzero")), (math.pow, ("positive", "any")),
    (math.hypot, ("nonzero", "any", "any")), (math.fmod, ("noninteger", "positive")), (math.erf, ("any",)),
    (math.lgamma, ("positive",)), (math.copysign, ("nonzero", "nonzero")),
    (operator.add, ("any", "any")), (operator.mul, ("any", "any")), (operator.truediv, ("any", "nonzero")),
    (operator.pow, ("positive", "any")), (operator.mod, ("noninteger", "positive")), (operator.neg, ("any",)),
    (builtins.abs, ("nonzero",)), (builtins.pow, ("positive", "any")), (builtins.max, ("any", "any", "any")),
    (builtins.min, ("any", "any")),
]


@pytest.mark.parametrize(("f", "domains"), SCALAR, ids=[f"{f.__name__}-{len(d)}" for f, d in SCALAR])
@PROPERTY
@given(data=hs.data())
def test_python_scalars(f, domains, data, adjoint_check):
    values = data.draw(arguments((np.float64,), [()] * len(domains), domains))
    assert adjoint_check(f, *(float(v) for v in values)) == "checked"
