"""Property-based tests of the array rules: random shapes, axes, indices, dtypes, 0-d and empty arrays.

For every drawn call ``f(*args)`` (no finite differences):

* the frule's and the rrule's primal outputs are ``f(*args)``;
* the frule and the rrule are adjoint: ``<dy, J dx> == sum_i <J^T dy, dx_i>`` for random
  tangents ``dx`` and cotangent ``dy`` (the real inner product, complex parts included);
* when NumPy rejects the arguments, both rules raise NumPy's exception type (errors pass
  through), and they raise nothing else: no crash outside the documented errors.

The arguments are drawn to be valid most of the time, and sometimes not (an axis one past the
last, a section count that does not divide the axis). Hypothesis runs derandomized (the same
examples on every run), few examples per property, without a deadline or a database.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import chainrules  # noqa: F401  (registers the rules)
from chainrules.testing import check_adjoint as adjoint_property
from chainrules.testing import strategies as st

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

ARRAYS = st.arrays(st.dtypes(complex_=True), st.shapes(min_dims=0, max_dims=3, min_side=0, max_side=3), bound=4.0)
NONEMPTY = st.arrays(st.dtypes(complex_=True), st.shapes(min_dims=1, max_dims=3, min_side=1, max_side=3), bound=4.0)


def check_adjoint(f: Any, *args: Any, **fkwargs: Any) -> None:
    """The primal, the adjointness of the frule and rrule of ``f`` at ``args``, or the same error as NumPy's."""
    assert adjoint_property(f, *args, fkwargs=fkwargs) in ("checked", "primal raised")


def _axis(draw: Any, ndim: int, none: bool = False) -> Any:
    """An axis of an ``ndim``-d array (now and then one past the end: NumPy's AxisError)."""
    choices = list(range(-ndim, ndim + 1)) if ndim else [0]
    axis = draw(hs.sampled_from(choices + ([None] if none else [])))
    return axis


# ---- shape and axes ------------------------------------------------------------------------------------------
@PROPERTY
@given(hs.data())
def test_reshape_ravel_transpose(data):
    x = data.draw(ARRAYS)
    dims = list(x.shape)
    new_shape = tuple(data.draw(hs.permutations(dims))) + (1,) * data.draw(hs.integers(0, 1))
    order = data.draw(hs.sampled_from(["C", "F", "A"]))
    check_adjoint(np.reshape, x, new_shape, order)
    check_adjoint(np.ravel, x, order)
    check_adjoint(np.transpose, x, tuple(data.draw(hs.permutations(range(x.ndim)))))
    check_adjoint(np.ndarray.flatten, x, order)


@PROPERTY
@given(hs.data())
def test_moveaxis_swapaxes_expand_squeeze(data):
    x = data.draw(ARRAYS)
    check_adjoint(np.moveaxis, x, _axis(data.draw, x.ndim), _axis(data.draw, x.ndim))
    check_adjoint(np.swapaxes, x, _axis(data.draw, x.ndim), _axis(data.draw, x.ndim))
    check_adjoint(np.expand_dims, x, _axis(data.draw, x.ndim + 1))
    check_adjoint(np.squeeze, x)
    check_adjoint(np.atleast_3d, x)


@PROPERTY
@given(hs.data())
def test_broadcast_to_and_tile(data):
    x = data.draw(ARRAYS)
    lead = tuple(data.draw(hs.lists(hs.integers(0, 2), max_size=2)))
    target = lead + tuple(d if d != 1 else data.draw(hs.integers(1, 3)) for d in x.shape)
    check_adjoint(np.broadcast_to, x, target)
    check_adjoint(np.tile, x, tuple(data.draw(hs.lists(hs.integers(0, 2), min_size=1, max_size=3))))
    y = data.draw(st.arrays(x.dtype, hs.just(target[len(lead):] if x.ndim else ()), bound=4.0))
    check_adjoint(np.broadcast_arrays, x, y)


# ---- reordering, repetition, joining, splitting --------------------------------------------------------------
@PROPERTY
@given(hs.data())
def test_flip_roll_repeat(data):
    x = data.draw(ARRAYS)
    check_adjoint(np.flip, x, _axis(data.draw, x.ndim, none=True))
    check_adjoint(np.roll, x, data.draw(hs.integers(-4, 4)), _axis(data.draw, x.ndim, none=True))
    axis = _axis(data.draw, x.ndim, none=True)
    length = x.size if axis is None or x.ndim == 0 else x.shape[axis] if -x.ndim <= axis < x.ndim else 1
    repeats = data.draw(hs.one_of(hs.integers(0, 3), hs.lists(hs.integers(0, 2), min_size=length, max_size=length)))
    check_adjoint(np.repeat, x, repeats, axis)
    check_adjoint(np.resize, x, tuple(data.draw(hs.lists(hs.integers(0, 3), max_size=2))))


@PROPERTY
@given(hs.data())
def test_concatenate_stack_split(data):
    x = data.draw(NONEMPTY)
    axis = _axis(data.draw, x.ndim)
    other_shape = list(x.shape)
    if -x.ndim <= axis < x.ndim:
        other_shape[axis] = data.draw(hs.integers(0, 3))
    y = data.draw(st.arrays(x.dtype, hs.just(tuple(other_shape)), bound=4.0))
    check_adjoint(np.concatenate, [x, y], axis)
    check_adjoint(np.stack, (x, x * 2), _axis(data.draw, x.ndim + 1))
    check_adjoint(np.split, x, data.draw(hs.integers(1, 3)), axis)
    check_adjoint(np.array_split, x, data.draw(hs.integers(1, 3)), axis)
    check_adjoint(np.append, x, y, axis)


@PROPERTY
@given(hs.data())
def test_insert_delete_trim_zeros(data):
    x = data.draw(NONEMPTY)
    axis = _axis(data.draw, x.ndim, none=True)
    n = x.size if axis is None else x.shape[axis] if -x.ndim <= axis < x.ndim else 1
    positions = data.draw(hs.lists(hs.integers(0, max(n - 1, 0)), max_size=3))
    check_adjoint(np.delete, x, positions, axis)
    check_adjoint(np.insert, x, positions, data.draw(st.arrays(x.dtype, hs.just(()), bound=4.0)), axis)
    zeros = data.draw(hs.integers(0, 2))
    check_adjoint(np.trim_zeros, np.concatenate([np.zeros(zeros, x.dtype), x.ravel(), np.zeros(1, x.dtype)]))


@PROPERTY
@given(hs.data())
def test_pad(data):
    x = data.draw(ARRAYS)
    mode = data.draw(hs.sampled_from(["constant", "edge", "wrap", "reflect", "symmetric", "linear_ramp", "mean",
                                      "maximum", "minimum", "median"]))
    width = tuple((data.draw(hs.integers(0, 4)), data.draw(hs.integers(0, 4))) for _ in range(x.ndim))
    kwargs = {"reflect_type": data.draw(hs.sampled_from(["even", "odd"]))} if mode in ("reflect", "symmetric") else {}
    if mode in ("maximum", "minimum", "median") and x.dtype.kind == "c":
        x = x.real  # NumPy orders real numbers only
    check_adjoint(np.pad, x, width if x.ndim else 0, mode, **kwargs)


# ---- gathering, indexing, sorting --------------------------------------------------------------------------
@PROPERTY
@given(hs.data())
def test_take_and_take_along_axis(data):
    x = data.draw(NONEMPTY)
    axis = _axis(data.draw, x.ndim, none=True)
    n = x.size if axis is None else x.shape[axis] if -x.ndim <= axis < x.ndim else 1
    indices = np.asarray(data.draw(hs.lists(hs.integers(-n, n - 1), max_size=4)), dtype=np.intp)
    mode = data.draw(hs.sampled_from(["raise", "wrap", "clip"]))
    check_adjoint(np.take, x, indices, axis, None, mode)
    if axis is not None and -x.ndim <= axis < x.ndim:
        shape = list(x.shape)
        shape[axis] = data.draw(hs.integers(0, 3))
        along = np.asarray(data.draw(hs.lists(hs.integers(0, n - 1), min_size=int(np.prod(shape)),
                                              max_size=int(np.prod(shape)))), dtype=np.intp).reshape(shape)
        check_adjoint(np.take_along_axis, x, along, axis)


def _index_part(draw: Any, length: int) -> Any:
    kinds = ["slice", "none", "array"] + (["int"] if length else [])
    kind = draw(hs.sampled_from(kinds))
    if kind == "int":
        return draw(hs.integers(-length, length - 1))
    if kind == "slice":
        return slice(draw(hs.integers(-3, 3) | hs.none()), draw(hs.integers(-3, 3) | hs.none()),
                     draw(hs.sampled_from([None, 1, 2, -1])))
    if kind == "none":
        return None
    return np.asarray(draw(hs.lists(hs.integers(-length, length - 1), max_size=3)) if length else [], dtype=np.intp)


@PROPERTY
@given(hs.data())
def test_getitem(data):
    x = data.draw(ARRAYS)
    parts = [_index_part(data.draw, n) for n in x.shape[:data.draw(hs.integers(0, x.ndim))]]
    if data.draw(hs.booleans()) and x.ndim:
        parts.insert(data.draw(hs.integers(0, len(parts))), Ellipsis)
    index: Any = tuple(parts)
    if data.draw(hs.booleans()):
        index = data.draw(st.arrays(np.float64, hs.just(x.shape), bound=1.0)) > 0  # a boolean mask
    check_adjoint(operator.getitem, x, index)


@PROPERTY
@given(hs.data())
def test_sort_partition_diagonal(data):
    x = data.draw(NONEMPTY)
    axis = _axis(data.draw, x.ndim, none=True)
    real = x.real if x.dtype.kind == "c" else x
    check_adjoint(np.sort, real, axis)
    if x.ndim and axis is not None and -x.ndim <= axis < x.ndim:
        check_adjoint(np.partition, real, data.draw(hs.integers(0, x.shape[axis] - 1)), axis)
    if x.ndim >= 2:
        check_adjoint(np.diagonal, x, data.draw(hs.integers(-3, 3)), 0, -1)


@PROPERTY
@given(hs.data())
def test_compress_extract_choose_select(data):
    x = data.draw(NONEMPTY)
    mask = data.draw(st.arrays(np.float64, hs.just(x.shape), bound=1.0)) > 0
    check_adjoint(np.extract, mask, x)
    check_adjoint(np.compress, mask.ravel()[: x.shape[0]], x, 0)
    y = data.draw(st.arrays(x.dtype, hs.just(x.shape), bound=4.0))
    picks = np.asarray(mask, dtype=np.intp)
    check_adjoint(np.choose, picks, [x, y])
    check_adjoint(np.select, [mask, ~mask & (np.abs(y) > 1)], [x, y], data.draw(hs.floats(-2, 2)))


# ---- creation --------------------------------------------------------------------------------------------
@PROPERTY
@given(hs.data())
def test_linspace_and_meshgrid(data):
    start = data.draw(st.arrays(np.float64, st.shapes(max_dims=1, max_side=3), bound=4.0))
    stop = data.draw(hs.floats(-4, 4))
    num = data.draw(hs.integers(0, 4))
    check_adjoint(np.linspace, start, stop, num, data.draw(hs.booleans()), data.draw(hs.booleans()))
    vectors = [data.draw(st.arrays(np.float64, (data.draw(hs.integers(0, 3)),), bound=4.0)) for _ in range(2)]
    check_adjoint(np.meshgrid, *vectors, indexing=data.draw(hs.sampled_from(["xy", "ij"])),
                  sparse=data.draw(hs.booleans()))
