"""Scans: ``np.cumsum``, ``np.cumprod``, NumPy 2's ``np.cumulative_sum``/``np.cumulative_prod``,
``np.nancumsum``, ``np.nancumprod``, and the methods ``ndarray.cumsum``/``ndarray.cumprod``.

The maths
---------
``cumsum`` is linear: its pullback is the reversed cumulative sum of the output cotangent
(``dx_j = sum_{i >= j} dy_i``) and its pushforward the cumulative sum of the tangent.

``y_i = cumprod(x)_i = prod_{k <= i} x_k`` has ``dy_i/dx_j = prod_{k <= i, k != j} x_k`` for
``j <= i``. The rules use it without dividing by zero. Before the first zero of a slice
(index ``z``) ``dy_i/dx_j = y_i / x_j``, so the pullback there is
``sum_{i >= j} dy_i conj(y_i) / conj(x_j)`` (one reversed cumulative sum); at the first zero
it is ``sum_{i >= z} dy_i conj(y'_i)`` with ``y'`` the cumulative product that skips ``x_z``
(later zeros are then handled by ``y'`` itself); after it every partial contains ``x_z = 0``
and vanishes. The pushforward is the same split: ``y_i sum_{j <= i} dx_j / x_j`` before the
first zero and ``y'_i dx_z`` from it on. (ChainRules.jl's ``cumprod`` rule also treats the
first zero explicitly.) Complex inputs get conjugated partials in the pullback.

``axis=None`` scans the flattened input (the cotangent is reshaped back); ``dtype=`` is
honoured and the cotangent keeps the input's precision; ``include_initial=True`` (the
``cumulative_*`` functions) prepends the identity, whose cotangent is dropped. The NaN
variants treat NaN entries as the identity (0 for sums, 1 for products) and give them a
zero cotangent. ``out=`` raises :class:`~chainrules_core.UnsupportedKeywordError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.reductions._reduction_samples import sample_array
from chainrules.rulesets.reductions._registration import name_pullback, register_method, register_rules, reject_out
from chainrules.rulesets.reductions._tangent_values import (
    as_computed,
    output_tangent,
    passed_on,
    tangent_value,
    to_tangent_dtype,
)
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    cotangent_projector,
    differentiable,
    passes_through,
    read_cotangent,
    sample_inputs,
)

_NO = NoTangent()


def reversed_cumsum(v: np.ndarray, axis: int) -> np.ndarray:
    """``sum_{i >= j} v_i`` along ``axis``: the adjoint of ``np.cumsum``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.scans import reversed_cumsum
    >>> reversed_cumsum(np.array([1.0, 2.0, 3.0]), 0)
    array([6., 5., 3.])
    """
    return np.flip(np.cumsum(np.flip(v, axis), axis), axis)


def _zero_layout(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(before, first)``: entries strictly before each slice's first zero, and that zero.

    ``None`` when ``x`` has no zero.
    """
    zero = x == 0
    if not zero.any():
        return None
    zeros_so_far = np.cumsum(zero, axis)
    return zeros_so_far == 0, zero & (zeros_so_far == 1)


def cumprod_pullback_values(x: np.ndarray, dy: np.ndarray, axis: int) -> np.ndarray:
    """``dx_j = sum_{i >= j} conj(dy_i/dx_j) dy_i`` for ``y = np.cumprod(x, axis)``, exact with zeros.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.scans import cumprod_pullback_values
    >>> cumprod_pullback_values(np.array([2.0, 0.0, 3.0]), np.ones(3), 0)
    array([1., 8., 0.])
    """
    y = np.cumprod(x, axis)
    layout = _zero_layout(x, axis)
    if layout is None:
        return reversed_cumsum(dy * np.conj(y), axis) / np.conj(x)
    before, first = layout
    safe = np.where(before, x, np.ones((), x.dtype))
    head = reversed_cumsum(dy * np.conj(y), axis) / np.conj(safe)
    skipping_first_zero = np.cumprod(np.where(first, np.ones((), x.dtype), x), axis)
    at_first = reversed_cumsum(dy * np.conj(skipping_first_zero), axis)
    return np.where(before, head, np.where(first, at_first, np.zeros((), head.dtype)))


def cumprod_pushforward_values(x: np.ndarray, dx: np.ndarray, axis: int) -> np.ndarray:
    """``dy_i = sum_{j <= i} (dy_i/dx_j) dx_j`` for ``y = np.cumprod(x, axis)``, exact with zeros.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.scans import cumprod_pushforward_values
    >>> cumprod_pushforward_values(np.array([2.0, 0.0, 3.0]), np.ones(3), 0)
    array([1., 2., 6.])
    """
    y = np.cumprod(x, axis)
    layout = _zero_layout(x, axis)
    if layout is None:
        return y * np.cumsum(dx / x, axis)
    before, first = layout
    safe = np.where(before, x, np.ones((), x.dtype))
    head = y * np.cumsum(np.where(before, dx / safe, 0), axis)
    skipping_first_zero = np.cumprod(np.where(first, np.ones((), x.dtype), x), axis)
    tail = skipping_first_zero * np.cumsum(np.where(first, dx, 0), axis)
    return np.where(before, head, tail)


class _Scan:
    """A cumulative sum or product of ``a`` along ``axis`` (``None``: flattened), as NumPy lays it out."""

    __slots__ = ("axis", "include_initial", "nan", "shape", "values")

    def __init__(self, a: Any, axis: Any, dtype: Any, skip_nan: bool, identity: float, include_initial: bool) -> None:
        values = as_computed(a, dtype)
        self.shape = values.shape
        if axis is None:
            values = values.reshape(-1)
            axis = 0
        self.axis = axis if axis >= 0 else axis + values.ndim
        self.nan: np.ndarray | None = None
        if skip_nan and values.dtype.kind in "fc":
            nan = np.isnan(values)
            if nan.any():
                self.nan = nan
                values = np.where(nan, np.asarray(identity, values.dtype), values)
        self.values = values
        self.include_initial = include_initial

    def output_cotangent(self, dy: np.ndarray) -> np.ndarray:
        """``dy`` laid out like the scanned values (the initial entry's cotangent dropped)."""
        if self.include_initial:
            dy = np.take(dy, np.arange(1, dy.shape[self.axis]), axis=self.axis)
        return np.reshape(dy, self.values.shape)

    def input_cotangent(self, dx: np.ndarray) -> np.ndarray:
        """A cotangent of the scanned values, back in the input's shape (zero at skipped NaNs)."""
        if self.nan is not None:
            dx = np.where(self.nan, np.zeros((), dx.dtype), dx)
        return np.reshape(dx, self.shape)

    def input_tangent(self, da: Any) -> np.ndarray:
        """A tangent of the input laid out like the scanned values (zero at skipped NaNs)."""
        dx = np.reshape(np.asarray(da), self.values.shape)
        if self.nan is not None:
            dx = np.where(self.nan, np.zeros((), dx.dtype), dx)
        return dx

    def output_tangent(self, dy: np.ndarray) -> np.ndarray:
        """A tangent of the scanned values in the output's layout (a zero initial entry prepended)."""
        if self.include_initial:
            pad = [(0, 0)] * dy.ndim
            pad[self.axis] = (1, 0)
            dy = np.pad(dy, pad)
        return dy


def _scan_rrule(f: Callable[..., Any], a: Any, axis: Any, dtype: Any, *, product: bool, skip_nan: bool,
                include_initial: bool, call: Callable[[], Any]) -> tuple[Any, Callable[[Any], Any]]:
    y = call()
    project_a = cotangent_projector(a)

    def scan_pullback(dy: Any) -> Any:
        dy = read_cotangent(dy, y, f)
        if passes_through(dy) or not differentiable(a):
            return project_a(passed_on(dy))
        scan = _Scan(a, axis, dtype, skip_nan, 1.0 if product else 0.0, include_initial)
        dy_values = to_tangent_dtype(scan.output_cotangent(dy), scan.values)
        if product:
            dx = cumprod_pullback_values(scan.values, dy_values, scan.axis)
        else:
            dx = reversed_cumsum(dy_values, scan.axis)
        return project_a(scan.input_cotangent(dx))

    return y, scan_pullback


def _scan_frule(tangent: Any, a: Any, axis: Any, dtype: Any, *, product: bool, skip_nan: bool,
                include_initial: bool, call: Callable[[], Any]) -> tuple[Any, Any]:
    y = call()
    da = tangent_value(tangent) if differentiable(a) else None
    if da is None or isinstance(da, NotImplementedTangent):
        return y, da if da is not None else output_tangent(None, y)
    scan = _Scan(a, axis, dtype, skip_nan, 1.0 if product else 0.0, include_initial)
    dx = scan.input_tangent(da)
    if product:
        dy = cumprod_pushforward_values(scan.values, dx, scan.axis)
    else:
        dy = np.cumsum(dx, scan.axis)
    return y, output_tangent(scan.output_tangent(dy), y)


def _register_scan(f: Callable[..., Any], method: Any, short: str, *, product: bool, skip_nan: bool) -> None:
    """Register ``f(a, axis=None, dtype=None, out=None)`` and, if given, the ndarray method."""
    def scan_rrule(a: Any, axis: Any = None, dtype: Any = None,
                   out: Any = None) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangent = _scan_rrule(f, a, axis, dtype, product=product, skip_nan=skip_nan,
                                   include_initial=False, call=lambda: f(a, axis, dtype))

        def scan_pullback(dy: Any) -> tuple[Any, ...]:
            return _NO, cotangent(dy), _NO, _NO, _NO

        return y, name_pullback(scan_pullback, short)

    def scan_frule(tangents: tuple[Any, ...], a: Any, axis: Any = None, dtype: Any = None,
                   out: Any = None) -> tuple[Any, Any]:
        reject_out(f, out)
        return _scan_frule(tangents[1], a, axis, dtype, product=product, skip_nan=skip_nan, include_initial=False,
                           call=lambda: f(a, axis, dtype))

    register_rules(f, short, scan_rrule, scan_frule)
    if method is not None:
        register_method(method, f, ("axis", "dtype", "out"), ())


_register_scan(np.cumsum, np.ndarray.cumsum, "cumsum", product=False, skip_nan=False)
_register_scan(np.cumprod, np.ndarray.cumprod, "cumprod", product=True, skip_nan=False)
_register_scan(np.nancumsum, None, "nancumsum", product=False, skip_nan=True)
_register_scan(np.nancumprod, None, "nancumprod", product=True, skip_nan=True)


def _register_cumulative(f: Callable[..., Any], short: str, *, product: bool) -> None:
    """Register NumPy 2's ``f(x, /, *, axis=None, dtype=None, out=None, include_initial=False)``."""
    def cumulative_rrule(x: Any, *, axis: Any = None, dtype: Any = None, out: Any = None,
                         include_initial: bool = False) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
        reject_out(f, out)
        y, cotangent = _scan_rrule(f, x, axis, dtype, product=product, skip_nan=False,
                                   include_initial=include_initial,
                                   call=lambda: f(x, axis=axis, dtype=dtype, include_initial=include_initial))

        def cumulative_pullback(dy: Any) -> tuple[Any, ...]:
            return _NO, cotangent(dy)

        return y, name_pullback(cumulative_pullback, short)

    def cumulative_frule(tangents: tuple[Any, ...], x: Any, *, axis: Any = None, dtype: Any = None, out: Any = None,
                         include_initial: bool = False) -> tuple[Any, Any]:
        reject_out(f, out)
        return _scan_frule(tangents[1], x, axis, dtype, product=product, skip_nan=False,
                           include_initial=include_initial,
                           call=lambda: f(x, axis=axis, dtype=dtype, include_initial=include_initial))

    register_rules(f, short, cumulative_rrule, cumulative_frule)


if hasattr(np, "cumulative_sum"):  # NumPy >= 2.1
    _register_cumulative(np.cumulative_sum, "cumulative_sum", product=False)
    _register_cumulative(np.cumulative_prod, "cumulative_prod", product=True)


# ---- sample inputs ----------------------------------------------------------------------------------
_ZEROS = np.array([[2.0, 0.0, -1.5, 0.5], [0.0, 1.5, 0.0, -2.0], [1.2, -0.7, 2.5, 0.8]])
"""Rows with one zero, two zeros and none: the regimes of cumprod's partials (before, at and after the first zero)."""


def _scan_samples(rng: np.random.Generator, *, product: bool, nan: bool) -> list[Sample]:
    x = sample_array((2, 3, 2), rng)
    out = [Sample(x, label="flattened (axis=None)"), Sample(x, 1, label="axis by position"),
           Sample(x, fkwargs={"axis": -1}, label="negative axis by keyword"),
           Sample(x.astype(np.float32), 0, np.float64, label="float32 input, dtype by position"),
           Sample(x + 0.5j * x[::-1], 2, label="complex"), Sample(np.array(1.5), label="0-d array"),
           Sample(np.zeros((0, 3)), 0, label="empty")]
    if product:
        out += [Sample(_ZEROS, 1, label="one, two and no zeros in a row"), Sample(_ZEROS, label="zeros, flattened")]
    if nan:
        out.append(Sample(np.array([[1.5, np.nan, 0.5], [np.nan, 2.0, -0.7]]), 1, label="NaN entries are skipped"))
    return out


@sample_inputs(np.cumsum)
def _cumsum_samples(rng: np.random.Generator) -> list[Sample]:
    return _scan_samples(rng, product=False, nan=False)


@sample_inputs(np.cumprod)
def _cumprod_samples(rng: np.random.Generator) -> list[Sample]:
    return _scan_samples(rng, product=True, nan=False)


@sample_inputs(np.nancumsum)
def _nancumsum_samples(rng: np.random.Generator) -> list[Sample]:
    return _scan_samples(rng, product=False, nan=True)


@sample_inputs(np.nancumprod)
def _nancumprod_samples(rng: np.random.Generator) -> list[Sample]:
    return _scan_samples(rng, product=True, nan=True)


@sample_inputs(np.ndarray.cumsum, np.ndarray.cumprod)
def _method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_ZEROS), Sample(_ZEROS, 1, label="axis by position"),
            Sample(_ZEROS.astype(np.float32), fkwargs={"axis": 0}, label="float32, axis by keyword")]


if hasattr(np, "cumulative_sum"):

    @sample_inputs(np.cumulative_sum, np.cumulative_prod)
    def _cumulative_samples(rng: np.random.Generator) -> list[Sample]:
        x = sample_array((3, 4), rng)
        return [Sample(x[0], label="1-d"), Sample(x, fkwargs={"axis": 1}, label="axis= (keyword-only)"),
                Sample(_ZEROS, fkwargs={"axis": 1, "include_initial": True}, label="include_initial, zeros"),
                Sample(x.astype(np.float32), fkwargs={"axis": 0, "dtype": np.float64}, label="float32, dtype="),
                Sample(x + 1j * x[::-1], fkwargs={"axis": 0}, label="complex")]
