"""Property tests of the reduction rules: random shapes (0-d and empty included), axes, keepdims, dtypes, NaNs.

hypothesis draws an array, the reduced axes (``None``, one, several, negative) and
``keepdims``; ``adjoint_check`` (``tests/chainrules/rulesets/conftest.py``) checks, without
finite differences, that the frule and the rrule agree (``<dy, J dx> = <J^T dy, dx>``), that
the cotangent keeps the input's shape and dtype, and that the rules raise exactly where NumPy
does (``max`` of an empty slice, ``quantile`` of an empty array). The entries are drawn from
a small set of values, so ties (max, median) and zeros (prod, cumprod) come up often.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from hypothesis.extra import numpy as hnp

import chainrules  # noqa: F401  (registers the rules)

PROPERTY = settings(max_examples=15, deadline=None, derandomize=True, database=None)

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)
# few distinct values: ties and zeros are frequent
ENTRIES = hs.sampled_from([0.0, 1.0, -1.0, 0.5, 2.0]) | hs.floats(-2, 2, width=32)


@hs.composite
def arrays(draw: hs.DrawFn, dtypes: tuple[type, ...], *, nan: bool = False, shape: tuple[int, ...] | None = None,
           ) -> np.ndarray:
    dtype = np.dtype(draw(hs.sampled_from(dtypes)))
    shape = draw(SHAPES) if shape is None else shape
    x = draw(hnp.arrays(np.float64, shape, elements=ENTRIES))
    if dtype.kind == "c":
        x = x + 1j * draw(hnp.arrays(np.float64, shape, elements=ENTRIES))
    if nan:
        x = np.where(draw(hnp.arrays(np.bool_, shape)), np.nan, x)
    return x.astype(dtype)


@hs.composite
def axes(draw: hs.DrawFn, ndim: int, *, single: bool = False) -> object:
    """``None``, one axis (maybe negative) or, unless ``single``, a tuple of distinct axes."""
    if ndim == 0 or draw(hs.booleans()):
        return None
    axis = draw(hs.integers(-ndim, ndim - 1))
    if single or draw(hs.booleans()):
        return axis
    return tuple(draw(hs.sets(hs.integers(0, ndim - 1), min_size=1, max_size=ndim)))


REAL = (np.float32, np.float64)
VARIANCES = (np.var, np.std, np.nanvar, np.nanstd)
ANY = (np.float32, np.float64, np.complex128)

# (function, dtypes, NaN entries, takes keepdims)
REDUCTIONS = [
    (np.sum, ANY, False), (np.nansum, ANY, True), (np.mean, ANY, False), (np.nanmean, ANY, True),
    (np.prod, ANY, False), (np.nanprod, ANY, True), (np.var, ANY, False), (np.std, ANY, False),
    (np.nanvar, ANY, True), (np.nanstd, ANY, True), (np.max, REAL, False), (np.min, REAL, False),
    (np.nanmax, REAL, True), (np.nanmin, REAL, True), (np.ptp, REAL, False), (np.median, REAL, False),
    (np.nanmedian, REAL, True),
]


@pytest.mark.parametrize(("f", "dtypes", "nan"), REDUCTIONS, ids=[f.__name__ for f, *_ in REDUCTIONS])
@PROPERTY
@given(data=hs.data())
def test_reductions(f, dtypes, nan, data, adjoint_check):
    x = data.draw(arrays(dtypes, nan=nan))
    axis = data.draw(axes(x.ndim))
    keywords = {"keepdims": data.draw(hs.booleans())}
    if f in VARIANCES and data.draw(hs.booleans()):
        keywords["ddof"] = data.draw(hs.sampled_from([1, 0.5]))
    outcome = adjoint_check(f, x, axis, fkwargs=keywords)
    if outcome == "primal raised":  # only an empty reduction of max, min, ptp (no identity)
        assert f in (np.max, np.min, np.nanmax, np.nanmin, np.ptp) and x.size == 0
    elif outcome == "undefined":  # a variance with as many degrees of freedom removed as there are entries
        counts = np.sum(~np.isnan(x), axis=axis) if f in (np.nanvar, np.nanstd) else x.size // max(
            np.size(np.sum(x, axis=axis)), 1)
        assert f in VARIANCES and np.any(np.asarray(counts) <= keywords.get("ddof", 0))


@pytest.mark.parametrize("f", [np.cumsum, np.cumprod, np.nancumsum, np.nancumprod])
@PROPERTY
@given(data=hs.data())
def test_scans(f, data, adjoint_check):
    x = data.draw(arrays(ANY, nan=f in (np.nancumsum, np.nancumprod)))
    axis = data.draw(axes(x.ndim, single=True))
    assert adjoint_check(f, x, axis) == "checked"


@pytest.mark.parametrize("f", [np.quantile, np.nanquantile])
@PROPERTY
@given(data=hs.data())
def test_quantiles(f, data, adjoint_check):
    x = data.draw(arrays(REAL, nan=f is np.nanquantile))
    q = data.draw(hnp.arrays(np.float64, data.draw(hnp.array_shapes(min_dims=0, max_dims=1, max_side=2)),
                             elements=hs.floats(0, 1)))
    method = data.draw(hs.sampled_from(["linear", "weibull", "hazen", "lower", "nearest", "midpoint"]))
    outcome = adjoint_check(f, x, q, data.draw(axes(x.ndim, single=True)), fkwargs={"method": method})
    if outcome == "primal raised":  # NumPy's quantile of an empty array
        assert x.size == 0


@PROPERTY
@given(data=hs.data())
def test_average(data, adjoint_check):
    x = data.draw(arrays(ANY, shape=data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=3))))
    axis = data.draw(axes(x.ndim, single=True))
    if axis is None or not data.draw(hs.booleans()):
        weights = None
    else:
        weights = data.draw(hnp.arrays(np.float64, x.shape[axis], elements=hs.floats(0.5, 2)))
    assert adjoint_check(np.average, x, axis, weights, data.draw(hs.booleans())) == "checked"


@PROPERTY
@given(data=hs.data())
def test_cov(data, adjoint_check):
    variables, observations = data.draw(hs.integers(1, 3)), data.draw(hs.integers(2, 5))
    m = data.draw(arrays(ANY, shape=(variables, observations)))
    aweights = data.draw(hs.none() | hnp.arrays(np.float64, observations, elements=hs.floats(0.5, 2)))
    assert adjoint_check(np.cov, m, None, True, False, None, None, aweights) == "checked"
