"""Rules of the functions whose values are a data-dependent rearrangement of the input.

``np.sort``, ``np.partition``, ``np.sort_complex``, and the values of ``np.unique``,
``np.unique_values``, ``np.unique_all``, ``np.unique_counts`` and ``np.unique_inverse``.

The maths
---------
Sorting returns ``y = x[p]`` for a permutation ``p`` that depends on ``x`` but is locally
constant wherever the entries are distinct. So, with ``p`` held fixed, ``y`` is a gather:
the frule gathers the tangent with ``p`` (``np.argsort``/``np.argpartition`` with the same
``axis`` and ``kind``) and the pullback scatters the cotangent back through ``p``. The
primal output is computed as ``x[p]`` from that very permutation, so output and derivative
always agree (it equals NumPy's ``np.sort``/``np.partition``). At ties the permutation
(a stable one for ``np.sort``) picks a subgradient; the derivative is exact elsewhere.

The set operations ``np.union1d``, ``np.intersect1d``, ``np.setdiff1d`` and
``np.setxor1d`` return values of their inputs: each value's cotangent goes to its first
occurrence in ``ar1`` then ``ar2``. (``intersect1d``'s values exist only where the two
inputs are exactly equal, a non-generic point: the convention gives the cotangent to
``ar1``.)

``np.unique`` returns each distinct value once: away from ties it is ``np.sort`` and its
derivative is the sort's. Where an entry is repeated, the output value is shared by the
copies; the cotangent goes to the *first* occurrence (the index ``return_index=True``
reports), the subgradient convention of ChainRules.jl. The index, inverse and count
outputs are integers: not differentiated.

The cotangent of the input is an :class:`~chainrules_core.InplaceableThunk` (a scatter
into the entries, in place under ``add_``). The in-place methods ``ndarray.sort`` and
``ndarray.partition`` have no rule that pretends to be functional: see
:mod:`chainrules.rulesets.arrays.mutation`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from chainrules.rulesets.arrays._gather_scatter import gathered_cotangent, gathered_tangent
from chainrules.rulesets.arrays._linear_maps import NO, ZERO, tangent_array
from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
from chainrules.rulesets.arrays._signatures import ARRAY_LIKE, REQUIRED, require
from chainrules.rulesets.arrays.gathering import _along_axis_index
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Tangent,
    Varargs,
    cotangent_projector,
    differentiable,
    frule,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

Pullback = Callable[[Any], tuple[Any, ...]]


class _Permutation:
    """``y = x[p]`` read along ``axis`` (``None``: the flattened array) for a fixed ``p``."""

    def __init__(self, shape: tuple[int, ...], order: np.ndarray, axis: Any) -> None:
        self.shape = shape
        self.order = order
        self.flat = axis is None
        if self.flat:
            self.where: Any = np.unravel_index(order, shape)
            self.axis = 0
        else:
            self.axis = normalize_axis_index(axis, len(shape))
            self.where = _along_axis_index(shape, order, self.axis)

    def gather(self, v: np.ndarray) -> np.ndarray:
        return v[self.where]

    def scatter(self, acc: np.ndarray, dy: Any) -> None:
        acc[self.where] += dy  # a permutation: every entry once, no accumulation needed


def _sorted_rule(name: str, a: Any, perm: _Permutation) -> tuple[Any, Callable[[Any], Any]]:
    y = perm.gather(np.asarray(a))
    return y, gathered_cotangent(name, a, y, perm.scatter)


def _sorted_tangent(dx: Any, a: Any, y: Any, perm: _Permutation) -> Any:
    return gathered_tangent(dx, a, y, perm.gather)


def _sort_permutation(a: Any, axis: Any, kind: Any, stable: Any, order: Any = None) -> _Permutation:
    """The permutation ``np.sort`` applies (``order=`` is passed on: NumPy rejects it for plain arrays)."""
    arr = np.asarray(a)
    keyword = {"stable": stable} if stable is not None else {}
    source = arr.ravel() if axis is None else arr
    permutation = np.argsort(source, axis=-1 if axis is None else axis, kind=kind, order=order, **keyword)
    return _Permutation(arr.shape, permutation, axis)


# ---- np.sort ---------------------------------------------------------------------------------------------
@rrule.register(np.sort, ARRAY_LIKE)
def sort_rrule(a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
               stable: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.sort``: the cotangent scattered back through the sorting permutation.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.sort, np.array([3.0, 1.0, 2.0]))
    >>> y, unthunk(pb(np.array([10.0, 20.0, 30.0]))[1])
    (array([1., 2., 3.]), array([30., 10., 20.]))
    """
    perm = _sort_permutation(a, axis, kind, stable, order)
    y, cotangent_a = _sorted_rule("np.sort", a, perm)

    def sort_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO, NO

    return y, sort_pullback


@frule.register(np.sort, ARRAY_LIKE)
def sort_frule(tangents: tuple[Any, ...], a: Any, axis: Any = -1, kind: Any = None, order: Any = None, *,
               stable: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.sort``: the tangent permuted like the values.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0])), np.sort, np.array([5.0, 4.0]))[1]
    array([2., 1.])
    """
    perm = _sort_permutation(a, axis, kind, stable, order)
    y = perm.gather(np.asarray(a))
    return y, _sorted_tangent(tangents[1], a, y, perm)


# Sorting is differentiable where the values are distinct (at a tie the derivative does not exist): the
# samples are continuous random values, distinct with probability one.
@sample_inputs(np.sort)
def _sort_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, label="last axis"))
    yield Sample(x, 0, "stable", label="axis and kind by position")
    yield Sample(x, fkwargs={"axis": None, "stable": True}, label="flattened, by keyword")
    yield Sample([2.5, -1.0, 0.5], label="a list")


# ---- np.partition ---------------------------------------------------------------------------------------
def _partition_permutation(a: Any, kth: Any, axis: Any, kind: Any, order: Any = None) -> _Permutation:
    arr = np.asarray(a)
    source = arr.ravel() if axis is None else arr
    permutation = np.argpartition(source, kth, axis=-1 if axis is None else axis, kind=kind, order=order)
    return _Permutation(arr.shape, permutation, axis)


@rrule.register(np.partition, ARRAY_LIKE)
def partition_rrule(a: Any, kth: Any = REQUIRED, axis: Any = -1, kind: Any = "introselect",
                    order: Any = None) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.partition``: the cotangent scattered back through ``np.argpartition``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.partition, np.array([3.0, 1.0, 2.0]), 0)
    >>> y[0], unthunk(pb(np.array([1.0, 0.0, 0.0]))[1])
    (np.float64(1.0), array([0., 1., 0.]))
    """
    require("partition", kth=kth)
    perm = _partition_permutation(a, kth, axis, kind, order)
    y, cotangent_a = _sorted_rule("np.partition", a, perm)

    def partition_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy), NO, NO, NO, NO

    return y, partition_pullback


@frule.register(np.partition, ARRAY_LIKE)
def partition_frule(tangents: tuple[Any, ...], a: Any, kth: Any = REQUIRED, axis: Any = -1, kind: Any = "introselect",
                    order: Any = None) -> tuple[Any, Any]:
    """Forward rule of ``np.partition``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0]), NoTangent()), np.partition, np.array([5.0, 4.0]), 0)[1]
    array([2., 1.])
    """
    require("partition", kth=kth)
    perm = _partition_permutation(a, kth, axis, kind, order)
    y = perm.gather(np.asarray(a))
    return y, _sorted_tangent(tangents[1], a, y, perm)


@sample_inputs(np.partition)
def _partition_samples(rng: np.random.Generator) -> Iterator[Sample]:
    x = normal(rng, 3, 4)
    yield from with_dtypes(Sample(x, 1, label="one kth"))
    yield Sample(x, (0, 2), 0, label="two kth along axis 0")
    yield Sample(x, fkwargs={"kth": 5, "axis": None}, label="flattened, by keyword")


# ---- np.sort_complex ---------------------------------------------------------------------------------------
@rrule.register(np.sort_complex, ARRAY_LIKE)
def sort_complex_rrule(a: Any) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.sort_complex`` (sorted by real, then imaginary part; a complex output).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.sort_complex, np.array([2.0, 1.0]))
    >>> y, unthunk(pb(np.array([1.0 + 1j, 2.0]))[1])
    (array([1.+0.j, 2.+0.j]), array([2., 1.]))
    """
    y = np.sort_complex(a)
    _, cotangent_a = _sorted_rule("np.sort_complex", a, _sort_permutation(a, -1, None, None))

    def sort_complex_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_a(dy)

    return y, sort_complex_pullback


@frule.register(np.sort_complex, ARRAY_LIKE)
def sort_complex_frule(tangents: tuple[Any, ...], a: Any) -> tuple[Any, Any]:
    """Forward rule of ``np.sort_complex``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0])), np.sort_complex, np.array([2.0, 1.0]))[1]
    array([2.+0.j, 1.+0.j])
    """
    y = np.sort_complex(a)
    perm = _sort_permutation(a, -1, None, None)
    return y, _sorted_tangent(tangents[1], a, y, perm)


@sample_inputs(np.sort_complex)
def _sort_complex_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 5), label="real"), float32=True, complex128=False)
    yield Sample(normal(rng, 5, dtype=np.complex128), label="complex")


# ---- np.unique and the unique_* functions -------------------------------------------------------------------
def _first_occurrences(ar: Any, axis: Any, equal_nan: bool) -> _Permutation:
    """The entries (rows along ``axis``) of ``ar`` whose values ``np.unique`` returns."""
    arr = np.asarray(ar)
    _, index = np.unique(arr, return_index=True, axis=axis, equal_nan=equal_nan)
    if axis is None:
        return _Permutation(arr.shape, index, None)
    k = normalize_axis_index(axis, arr.ndim)
    shape = list(arr.shape)
    shape[k] = index.size
    order = np.broadcast_to(np.expand_dims(index, tuple(i for i in range(arr.ndim) if i != k)), shape)
    return _Permutation(arr.shape, order, k)


def _unique_positions(ar: Any, values: Any, axis: Any, equal_nan: bool, in_order: bool) -> _Permutation:
    """Where ``np.unique``'s values come from: sorted, or in the order NumPy returned them."""
    if in_order or axis is not None:
        return _first_occurrences(ar, axis, equal_nan)
    return _matching_first_occurrences(ar, np.asarray(values))


def _values_cotangent(dy: Any, y: Any, name: str) -> Any:
    """The cotangent of the ``values`` part of a tuple output (read part by part: the others are integers)."""
    parts = read_cotangents(dy, y, name)
    if not isinstance(parts, list):
        return parts
    return ZERO if parts[0] is None else parts[0]


def _unique_rrule(name: str, ar: Any, y: Any, values: Any, perm: _Permutation) -> Callable[[Any], Any]:
    _, cotangent_values = _sorted_rule(name, ar, perm)

    def unique_cotangent(dy: Any) -> Any:
        return cotangent_values(_values_cotangent(dy, y, name) if y is not values else dy)

    return unique_cotangent


def _unique_tangent(dx: Any, ar: Any, y: Any, values: Any, perm: _Permutation) -> Any:
    t = _sorted_tangent(dx, ar, values, perm)
    if y is values:
        return t
    rest = [NO] * (len(y) - 1)
    if hasattr(y, "_fields"):
        return Tangent(type(y), t, *rest)
    return Tangent(tuple, t, *rest)


@rrule.register(np.unique, ARRAY_LIKE)
def unique_rrule(ar: Any, return_index: Any = False, return_inverse: Any = False, return_counts: Any = False,
                 axis: Any = None, *, equal_nan: Any = True, sorted: Any = True) -> tuple[Any, Pullback]:
    """Reverse rule of ``np.unique``: each value's cotangent goes to its first occurrence.

    With ``return_index``/``return_inverse``/``return_counts`` the output is a tuple whose
    first part is the values; the other parts are integers (not differentiated).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, unthunk
    >>> y, pb = rrule(np.unique, np.array([2.0, 1.0, 2.0]))
    >>> y, unthunk(pb(np.array([10.0, 20.0]))[1])
    (array([1., 2.]), array([20., 10.,  0.]))
    """
    y = np.unique(ar, return_index, return_inverse, return_counts, axis, equal_nan=equal_nan, sorted=sorted)
    values = y[0] if isinstance(y, tuple) else y
    perm = _unique_positions(ar, values, axis, bool(equal_nan), bool(sorted))
    cotangent_ar = _unique_rrule("np.unique", ar, y, values, perm)

    def unique_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, cotangent_ar(dy), NO, NO, NO, NO

    return y, unique_pullback


@frule.register(np.unique, ARRAY_LIKE)
def unique_frule(tangents: tuple[Any, ...], ar: Any, return_index: Any = False, return_inverse: Any = False,
                 return_counts: Any = False, axis: Any = None, *, equal_nan: Any = True,
                 sorted: Any = True) -> tuple[Any, Any]:
    """Forward rule of ``np.unique``: the tangent at each value's first occurrence.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.array([1.0, 2.0, 3.0])), np.unique, np.array([2.0, 1.0, 2.0]))[1]
    array([2., 1.])
    """
    y = np.unique(ar, return_index, return_inverse, return_counts, axis, equal_nan=equal_nan, sorted=sorted)
    values = y[0] if isinstance(y, tuple) else y
    perm = _unique_positions(ar, values, axis, bool(equal_nan), bool(sorted))
    return y, _unique_tangent(tangents[1], ar, y, values, perm)


@sample_inputs(np.unique)
def _unique_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # Distinct values: a repeated value's copies cannot move apart without changing the output's length, so
    # finite differences check unique (a sort there); tests/.../test_sorting.py checks where repeats' cotangents go.
    x = normal(rng, 5)
    yield from with_dtypes(Sample(x, label="values"))
    yield Sample(x, True, True, True, label="with index, inverse and counts (a tuple)")
    yield Sample(normal(rng, 3, 2), False, False, False, 0, label="rows (axis 0)")
    yield Sample(x, fkwargs={"return_counts": True, "sorted": False}, label="by keyword, unsorted")


def _register_unique_variant(f: Any, name: str) -> None:
    """Rules of ``np.unique_values``/``unique_all``/``unique_counts``/``unique_inverse``."""

    def unique_variant_rrule(x: Any) -> tuple[Any, Pullback]:
        y = f(x)
        values = getattr(y, "values", y)
        # values in the order this function returns them, located by their first occurrence
        perm = _matching_first_occurrences(x, values)
        cotangent_x = _unique_rrule(name, x, y, values, perm)

        def unique_variant_pullback(dy: Any) -> tuple[Any, ...]:
            return NO, cotangent_x(dy)

        unique_variant_pullback.__name__ = unique_variant_pullback.__qualname__ = f"{f.__name__}_pullback"
        return y, unique_variant_pullback

    def unique_variant_frule(tangents: tuple[Any, ...], x: Any) -> tuple[Any, Any]:
        y = f(x)
        values = getattr(y, "values", y)
        perm = _matching_first_occurrences(x, values)
        return y, _unique_tangent(tangents[1], x, y, values, perm)

    unique_variant_rrule.__name__ = unique_variant_rrule.__qualname__ = f"{f.__name__}_rrule"
    unique_variant_frule.__name__ = unique_variant_frule.__qualname__ = f"{f.__name__}_frule"
    unique_variant_rrule.__doc__ = f"Reverse rule of ``np.{f.__name__}``: values to their first occurrence."
    unique_variant_frule.__doc__ = f"Forward rule of ``np.{f.__name__}``."
    rrule.register(f, ARRAY_LIKE)(unique_variant_rrule)
    frule.register(f, ARRAY_LIKE)(unique_variant_frule)


def _matching_first_occurrences(x: Any, values: np.ndarray) -> _Permutation:
    """The first occurrence in ``x`` of each of ``values``, in the order they come.

    These functions treat every NaN as a distinct value (``equal_nan=False``): the NaNs
    among ``values`` are matched to the NaN entries of ``x`` in order.
    """
    arr = np.asarray(x)
    sorted_values, first = np.unique(arr.ravel(), return_index=True, equal_nan=False)
    if values.dtype.kind in "fc":
        nan_values, nan_sorted = np.isnan(values), np.isnan(sorted_values)
    else:
        nan_values, nan_sorted = np.zeros(values.shape, bool), np.zeros(sorted_values.shape, bool)
    result = np.empty(values.shape, dtype=np.intp)
    numbers = ~nan_sorted
    result[~nan_values] = first[numbers][np.searchsorted(sorted_values[numbers], values[~nan_values])]
    result[nan_values] = first[nan_sorted][:int(nan_values.sum())]
    return _Permutation(arr.shape, result, None)


for _f in (np.unique_values, np.unique_all, np.unique_counts, np.unique_inverse):
    _register_unique_variant(_f, f"np.{_f.__name__}")


@sample_inputs(np.unique_values, np.unique_all, np.unique_counts, np.unique_inverse)
def _unique_variant_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield from with_dtypes(Sample(normal(rng, 5), label="distinct values"), complex128=False)
    yield Sample(normal(rng, 2, 3), label="a matrix")


@sample_inputs(np.unique_all, np.unique_counts, np.unique_inverse)
def _unique_complex_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # (np.unique_values returns complex values in hash order, which a perturbation may change)
    yield Sample(normal(rng, 4, dtype=np.complex128), label="complex")



# ---- set operations: union1d, intersect1d, setdiff1d, setxor1d ------------------------------------------------
def _joined(ar1: Any, ar2: Any) -> np.ndarray:
    return np.concatenate((np.ravel(ar1), np.ravel(ar2)))


def _set_rules(f: Any, name: str) -> None:
    """Rules of a set operation whose output values are entries of ``ar1`` or ``ar2``.

    Each output value gets its cotangent at its first occurrence in ``ar1`` then ``ar2``
    (the two inputs read as one flat array), as ``np.unique`` does.
    """

    def set_rrule(ar1: Any, ar2: Any, *args: Any, **kwargs: Any) -> tuple[Any, Pullback]:
        y = f(ar1, ar2, *args, **kwargs)
        values = y[0] if isinstance(y, tuple) else y
        both = _joined(ar1, ar2)
        perm = _matching_first_occurrences(both, np.asarray(values))
        cotangent_both = _sorted_rule(name, both, perm)[1] if differentiable(both) else None
        project_1, project_2 = cotangent_projector(ar1), cotangent_projector(ar2)
        n1 = int(np.size(ar1))

        def set_pullback(dy: Any) -> tuple[Any, ...]:
            rest = (NO,) * len(args)
            dy = _values_cotangent(dy, y, name) if y is not values else read_cotangent(dy, y, name)
            if cotangent_both is None:
                return (NO, NO, NO, *rest)
            d = unthunk(cotangent_both(dy))
            if isinstance(d, (AbstractZero, NotImplementedTangent)):
                return (NO, project_1(d), project_2(d), *rest)
            d1 = project_1(np.reshape(d[:n1], np.shape(ar1)))
            d2 = project_2(np.reshape(d[n1:], np.shape(ar2)))
            return (NO, d1, d2, *rest)

        set_pullback.__name__ = set_pullback.__qualname__ = f"{f.__name__}_pullback"
        return y, set_pullback

    def set_frule(tangents: tuple[Any, ...], ar1: Any, ar2: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y = f(ar1, ar2, *args, **kwargs)
        values = y[0] if isinstance(y, tuple) else y
        both = _joined(ar1, ar2)
        perm = _matching_first_occurrences(both, np.asarray(values))
        d1 = tangent_array(tangents[1], ar1) if differentiable(ar1) else None
        d2 = tangent_array(tangents[2], ar2) if differentiable(ar2) else None
        for d in (d1, d2):
            if isinstance(d, NotImplementedTangent):
                return y, d
        if d1 is None and d2 is None:
            return y, _unique_tangent(ZERO, both, y, values, perm)
        dtype = both.dtype
        d_both = _joined(np.zeros(np.shape(ar1), dtype) if d1 is None else d1,
                         np.zeros(np.shape(ar2), dtype) if d2 is None else d2)
        return y, _unique_tangent(d_both, both, y, values, perm)

    set_rrule.__name__ = set_rrule.__qualname__ = f"{f.__name__}_rrule"
    set_frule.__name__ = set_frule.__qualname__ = f"{f.__name__}_frule"
    set_rrule.__doc__ = f"Reverse rule of ``{name}``: each value's cotangent to its first occurrence."
    set_frule.__doc__ = f"Forward rule of ``{name}``."
    rrule.register(f, ARRAY_LIKE, ARRAY_LIKE, Varargs(object))(set_rrule)
    frule.register(f, ARRAY_LIKE, ARRAY_LIKE, Varargs(object))(set_frule)


for _set_function in (np.union1d, np.intersect1d, np.setdiff1d, np.setxor1d):
    _set_rules(_set_function, f"np.{_set_function.__name__}")


@sample_inputs(np.union1d, np.setdiff1d, np.setxor1d, np.intersect1d)
def _set_samples(rng: np.random.Generator) -> Iterator[Sample]:
    # Disjoint sets: a value common to both arrays cannot move in one without leaving (or entering) the
    # output, so finite differences check the rules only without common values (tests/.../test_sorting.py
    # checks where a common value's cotangent goes).
    a, b = np.array([3.0, 1.5, 2.25, 7.0]), np.array([2.0, 3.5, 9.5])
    yield Sample(a, b, label="disjoint")
    yield Sample(a.astype(np.float32), [2.0, 3.5], label="float32 and a list")


@sample_inputs(np.setdiff1d, np.setxor1d, np.intersect1d)
def _assume_unique_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(np.array([3.0, 1.5, 2.25]), np.array([2.0, 3.5]), True, label="assume_unique by position")


@sample_inputs(np.intersect1d)
def _intersect1d_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(np.array([3.0, 1.5]), np.array([2.0]), fkwargs={"return_indices": True}, label="with indices")
