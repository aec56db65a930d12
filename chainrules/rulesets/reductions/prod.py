"""Products: ``np.prod``, ``np.nanprod`` and the method ``ndarray.prod``.

The maths
---------
``y = prod(x over axes)`` has ``dy/dx_i = prod_{j != i} x_j`` (the product of the others
in ``x_i``'s slice). It is computed without dividing by zero, slice by slice: with no zero
entry it is ``p / x_i`` (``p`` the slice's product); with exactly one zero it is ``p'`` (the
product of the non-zero entries) at the zero and ``0`` elsewhere; with two or more zeros it
is ``0`` everywhere. (Without zeros the division is the one the anchors use, ChainRules.jl's
``prod`` rule included; it inherits ``p``'s overflow or underflow when the slice's product
does not fit in the dtype.) Complex inputs get the conjugate partials in the pullback.

``initial=`` multiplies the product (``y = initial * prod(x)``): the partials are scaled by
it, and ``initial`` passed by position gets ``prod(x)`` summed against the cotangent.
``where=`` and the NaN-skipping ``nanprod`` treat the excluded entries as ones (zero
cotangent). ``dtype=`` is honoured; the cotangent keeps the input's precision. ``out=``
raises :class:`~chainrules_core.UnsupportedKeywordError`.

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule, frule, NoTangent
>>> y, pb = rrule(np.prod, np.array([2.0, 0.0, 4.0]))
>>> pb(1.0)[1]
array([0., 8., 0.])
>>> y, pb = rrule(np.nanprod, np.array([2.0, np.nan, 4.0]))
>>> pb(1.0)[1]
array([4., 0., 2.])
>>> frule((NoTangent(), np.array([1.0, 0.0])), np.prod, np.array([0.0, 3.0]))
(np.float64(0.0), np.float64(3.0))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.reductions._axes import keepdims_shape, reduced_axes
from chainrules.rulesets.reductions._reduction_samples import axis_samples, sample_array
from chainrules.rulesets.reductions._registration import (
    NOVALUE,
    given,
    name_pullback,
    register_method,
    register_rules,
    reject_out,
)
from chainrules.rulesets.reductions._tangent_values import as_computed, output_tangent, passed_on, tangent_value
from chainrules.rulesets.reductions.sums import summation_mask
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    cotangent_projector,
    differentiable,
    passes_through,
    read_cotangent,
    sample_inputs,
)

_NO = NoTangent()


def product_of_others(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """``prod_{j != i} x_j`` over each slice along ``axes``, exact when the slice holds zeros.

    Parameters
    ----------
    x : ndarray
        Floating or complex.
    axes : tuple of int
        The reduced axes (non-negative).

    Returns
    -------
    ndarray
        The partial derivatives of ``np.prod(x, axis=axes)``, of ``x``'s shape.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.prod import product_of_others
    >>> product_of_others(np.array([2.0, 3.0, 4.0]), (0,))
    array([12.,  8.,  6.])
    >>> product_of_others(np.array([2.0, 0.0, 4.0]), (0,))
    array([0., 8., 0.])
    >>> product_of_others(np.array([0.0, 0.0, 4.0]), (0,))
    array([0., 0., 0.])
    """
    if np.count_nonzero(x) == x.size:  # no zero (counting allocates nothing)
        return np.prod(x, axis=axes, keepdims=True) / x
    zero = x == 0
    safe = np.where(zero, np.ones((), x.dtype), x)
    nonzero_product = np.prod(safe, axis=axes, keepdims=True)
    zeros = np.sum(zero, axis=axes, keepdims=True)
    at_single_zero = zero & (zeros == 1)
    return np.where(zeros == 0, nonzero_product / safe,
                    np.where(at_single_zero, nonzero_product, np.zeros((), x.dtype)))


class _Product:
    """A (masked) product of ``a`` over ``axes``, scaled by ``initial``: its partials."""

    __slots__ = ("a", "axes", "initial", "mask", "shape")

    def __init__(self, a: Any, axis: Any, mask: np.ndarray | None, initial: Any, dtype: Any) -> None:
        self.a = as_computed(a, dtype)
        self.shape = self.a.shape
        self.axes = reduced_axes(axis, self.a.ndim)
        self.mask = mask
        self.initial = initial

    def effective(self) -> np.ndarray:
        """The input with the excluded entries replaced by ones."""
        if self.mask is None:
            return self.a
        return np.where(self.mask, self.a, np.ones((), self.a.dtype))

    def partials(self) -> np.ndarray:
        """``dy/da``, of ``a``'s shape (zero at excluded entries)."""
        g = product_of_others(self.effective(), self.axes)
        if self.initial is not NOVALUE:
            g = g * self.initial
        if self.mask is not None:
            g = np.where(self.mask, g, np.zeros((), g.dtype))
        return g

    def unscaled(self) -> np.ndarray:
        """``prod(a)`` without ``initial`` (the partial derivative with respect to ``initial``)."""
        return np.prod(self.effective(), axis=self.axes, keepdims=True)


def _product_rrule(f: Callable[..., Any], a: Any, axis: Any, dtype: Any, keepdims: Any, initial: Any,
                   where: Any, *, skip_nan: bool) -> tuple[Any, Callable[[Any], tuple[Any, Any]]]:
    y = f(a, axis, dtype, **given(keepdims=keepdims, initial=initial, where=where))
    project_a = cotangent_projector(a)
    project_initial = cotangent_projector(initial) if initial is not NOVALUE else None

    def product_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return project_a(zero), project_initial(zero) if project_initial else _NO
        product = _Product(a, axis, summation_mask(a, where, skip_nan), initial, dtype)
        dy_k = np.reshape(dy, keepdims_shape(product.shape, product.axes))
        da: Any = _NO
        if differentiable(a):
            partials = np.asarray(product.partials())  # a fresh array: conjugate and scale it in place
            if partials.dtype.kind == "c":
                np.conj(partials, out=partials)
            if np.result_type(partials, dy_k) == partials.dtype:
                partials *= dy_k
            else:
                partials = partials * dy_k
            da = project_a(partials)
        dinitial: Any = _NO
        if project_initial is not None:
            dinitial = Thunk(lambda: project_initial(np.sum(np.conj(product.unscaled()) * dy_k)))
        return da, dinitial

    return y, product_pullback


def _product_frule(f: Callable[..., Any], tangents: tuple[Any, ...], a: Any, axis: Any, dtype: Any, keepdims: Any,
                   initial: Any, where: Any, initial_slot: int, *, skip_nan: bool) -> tuple[Any, Any]:
    y = f(a, axis, dtype, **given(keepdims=keepdims, initial=initial, where=where))
    da = tangent_value(tangents[1]) if differentiable(a) else None
    dinitial = tangent_value(tangents[initial_slot]) if initial is not NOVALUE else None
    for t in (da, dinitial):
        if isinstance(t, NotImplementedTangent):
            return y, t
    if da is None and dinitial is None:
        return y, output_tangent(None, y)
    product = _Product(a, axis, summation_mask(a, where, skip_nan), initial, dtype)
    total: Any = 0
    if da is not None:
        total = np.sum(product.partials() * da, axis=product.axes, keepdims=True)
    if dinitial is not None:
        total = total + product.unscaled() * dinitial
    return y, output_tangent(np.reshape(total, np.shape(y)), y)


def _register_product(f: Callable[..., Any], short: str, *,
                      skip_nan: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Register the rules of ``f(a, axis, dtype, out, keepdims, initial, where)``."""
    def product_rrule(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = NOVALUE,
                      initial: Any = NOVALUE,
                      where: Any = NOVALUE) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangents = _product_rrule(f, a, axis, dtype, keepdims, initial, where, skip_nan=skip_nan)

        def product_pullback(dy: Any) -> tuple[Any, ...]:
            da, dinitial = cotangents(dy)
            return _NO, da, _NO, _NO, _NO, _NO, dinitial, _NO

        return y, name_pullback(product_pullback, short)

    def product_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
                      keepdims: Any = NOVALUE, initial: Any = NOVALUE, where: Any = NOVALUE) -> tuple[Any, Any]:
        reject_out(f, out)
        return _product_frule(f, tangents, a, axis, dtype, keepdims, initial, where, 6, skip_nan=skip_nan)

    return register_rules(f, short, product_rrule, product_frule)


prod_rrule, prod_frule = _register_product(np.prod, "prod", skip_nan=False)
nanprod_rrule, nanprod_frule = _register_product(np.nanprod, "nanprod", skip_nan=True)


register_method(np.ndarray.prod, np.prod, ("axis", "dtype", "out"), ("keepdims", "initial", "where"))


# ---- sample inputs ----------------------------------------------------------------------------------
_ZEROS = np.array([[2.0, 0.0, -1.5, 0.5], [0.0, 1.5, 0.0, -2.0], [1.2, -0.7, 2.5, 0.8]])
"""Rows with one zero, two zeros and none: the three regimes of the product of the others."""


@sample_inputs(np.prod, np.nanprod)
def _prod_samples(rng: np.random.Generator) -> list[Sample]:
    y = sample_array((2, 3), rng)
    return [*axis_samples(sample_array((2, 3, 2), rng), before_keepdims=(None, None), rng=rng),
            Sample(_ZEROS, 1, label="one, two and no zeros in a slice"),
            Sample(_ZEROS + 0.5j * _ZEROS[::-1], 1, label="complex, with zeros"),
            Sample(_ZEROS, label="zeros, all axes"),
            Sample(y, 1, None, None, False, 1.5, label="initial by position (differentiated)"),
            Sample(y, fkwargs={"initial": 1.5}, label="initial by keyword"),
            Sample(y, fkwargs={"where": y > 0, "axis": 0}, label="where= mask"),
            Sample(y.astype(np.float32), None, np.float64, label="dtype by position (float32 input)")]


@sample_inputs(np.nanprod)
def _nanprod_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([[1.5, np.nan, 0.5], [-0.5, 2.0, np.nan]]), 1, label="NaN entries are skipped")]


@sample_inputs(np.ndarray.prod)
def _method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_ZEROS), Sample(_ZEROS, 1, label="axis by position"),
            Sample(_ZEROS.astype(np.float32), fkwargs={"axis": 0, "keepdims": True}, label="float32, keywords")]
