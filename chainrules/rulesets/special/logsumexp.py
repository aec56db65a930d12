"""Reductions of scipy.special: logsumexp (with ``axis``, ``b``, ``keepdims``, ``return_sign``), softmax,
log_softmax.

The maths
---------
``logsumexp(a, b=b) = log|S|`` with ``S = sum b e^a`` over the reduced axes, and with
``return_sign=True`` also ``sign(S)``. Writing ``S = s e^y``:

* ``dy/da_i = s b_i e^(a_i - y)`` (the softmax weights, computed with the max already
  removed by ``y``: nothing overflows), ``dy/db_i = s e^(a_i - y)``;
* the sign is piecewise constant: its tangent is 0 and its cotangent is ignored;
* without ``return_sign`` SciPy returns NaN where ``S < 0``, and so is the derivative;
  complex ``a`` (``y = log S``, principal branch) is holomorphic with the same weights
  (``s = 1``). Complex ``a`` with ``return_sign=True`` (a complex phase) is
  ``not_implemented``.

``softmax(x) = e^x / sum e^x`` has the Jacobian ``diag(s) - s s^T`` along the axis, so
``x_bar = s (y_bar - sum(s y_bar))``; ``log_softmax`` has ``delta_ij - s_j``, so
``x_bar = y_bar - s sum(y_bar)`` (``s = e^y``). For complex inputs the pullbacks use
``conj(s)`` (the adjoint of the holomorphic Jacobian).

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> a = np.array([[0.0, 1.0], [2.0, 3.0]])
>>> y, pullback = rrule(sc.logsumexp, a, axis=1)
>>> unthunk(pullback(np.ones(2))[1])  # each row's softmax
array([[0.26894142, 0.73105858],
       [0.26894142, 0.73105858]])
"""

from __future__ import annotations

import functools
import numbers
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.arrays._linear_maps import tangent_array
from chainrules.rulesets.reductions._axes import keepdims_shape, reduced_axes
from chainrules_core import (
    NoTangent,
    Sample,
    Tangent,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.broadcasting import unbroadcast
from chainrules_core.scalar_rules import conj_if_complex, fit_tangent
from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.zeros import AbstractZero

__all__: list[str] = []

_NO = NoTangent()
ARRAY_LIKE = (np.ndarray, numbers.Number, list, tuple)

_COMPLEX_SIGN = ("logsumexp of complex a with return_sign=True: the 'sign' is a complex phase and log|S| is not "
                 "holomorphic; call without return_sign (y = log S, principal branch) to differentiate")


def _is_zero(t: Any) -> bool:
    return t is None or isinstance(t, AbstractZero)


class _Weights:
    """The reduction's shapes and ``s e^(a - y)`` (broadcast over ``a`` and ``b``), computed once."""

    def __init__(self, a: Any, axis: Any, b: Any, y: Any, sign: Any) -> None:
        self.a = np.asarray(a)
        self.b = None if b is None else np.asarray(b)
        self.shape = self.a.shape if self.b is None else np.broadcast_shapes(self.a.shape, self.b.shape)
        self.axes = reduced_axes(axis, len(self.shape))
        self.kept = keepdims_shape(self.shape, self.axes)
        y_kept = np.reshape(y, self.kept)
        with np.errstate(invalid="ignore", over="ignore"):
            e = np.exp(self.a - y_kept)
            if sign is not None:
                e = e * np.reshape(sign, self.kept)
        self.e = e  # d y / d b (broadcast shape); d y / d a is b e

    def d_a(self) -> Any:
        return self.e if self.b is None else self.e * self.b

    def keep(self, dy: Any) -> Any:
        return np.reshape(dy, self.kept)


def _logsumexp_parts(a: Any, axis: Any, b: Any, keepdims: bool, return_sign: bool) -> tuple[Any, Any, Any]:
    out = sc.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign)
    y, sign = (out if return_sign else (out, None))
    return out, y, sign


def logsumexp_rrule(a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
                    return_sign: bool = False) -> Any:
    """Reverse rule of ``scipy.special.logsumexp`` (see the module docstring)."""
    out, y, sign = _logsumexp_parts(a, axis, b, keepdims, return_sign)
    complex_sign = return_sign and np.iscomplexobj(a)
    diff_a, diff_b = differentiable(a), b is not None and differentiable(b)
    project_a = cotangent_projector(a)
    project_b = cotangent_projector(b) if b is not None else None
    weights: list[_Weights] = []

    def get_weights() -> _Weights:
        if not weights:
            weights.append(_Weights(a, axis, b, y, None if complex_sign else sign))
        return weights[0]

    def cotangent(which: str, dy: Any) -> Any:
        if complex_sign:
            return not_implemented(_COMPLEX_SIGN)
        w = get_weights()
        partial = w.d_a() if which == "a" else w.e
        target = a if which == "a" else b
        g = conj_if_complex(partial) * w.keep(dy)
        g = unbroadcast(g, np.shape(target))
        return (project_a if which == "a" else project_b)(g)  # type: ignore[misc]

    def logsumexp_pullback(dout: Any) -> tuple[Any, ...]:
        if return_sign:
            parts = read_cotangents(dout, out, sc.logsumexp)
            dy = parts if isinstance(parts, (AbstractZero, NotImplementedTangent)) else parts[0]
            if isinstance(dy, NotImplementedTangent):
                return (_NO, dy if diff_a else _NO, _NO, dy if diff_b else _NO, _NO, _NO)
        else:
            dy = read_cotangent(dout, y, sc.logsumexp)
        if _is_zero(dy) or isinstance(dy, AbstractZero):
            return (_NO, ZeroTangent() if diff_a else _NO, _NO, ZeroTangent() if diff_b else _NO, _NO, _NO)
        if isinstance(dy, NotImplementedTangent):
            return (_NO, dy if diff_a else _NO, _NO, dy if diff_b else _NO, _NO, _NO)
        da = Thunk(functools.partial(cotangent, "a", dy)) if diff_a else _NO
        db = Thunk(functools.partial(cotangent, "b", dy)) if diff_b else _NO
        if diff_a and not diff_b:
            da = unthunk(da)
        return (_NO, da, _NO, db, _NO, _NO)

    return out, logsumexp_pullback


def logsumexp_frule(tangents: Any, a: Any, axis: Any = None, b: Any = None, keepdims: bool = False,
                    return_sign: bool = False) -> Any:
    """Forward rule of ``scipy.special.logsumexp`` (see the module docstring)."""
    out, y, sign = _logsumexp_parts(a, axis, b, keepdims, return_sign)
    da = tangent_array(tangents[1], a) if len(tangents) > 1 and differentiable(a) else None
    db = tangent_array(tangents[3], b) if len(tangents) > 3 and b is not None and differentiable(b) else None
    if isinstance(da, NotImplementedTangent) or isinstance(db, NotImplementedTangent):
        dy: Any = da if isinstance(da, NotImplementedTangent) else db
    elif da is None and db is None:
        dy = ZeroTangent()
    elif return_sign and np.iscomplexobj(a):
        dy = not_implemented(_COMPLEX_SIGN)
    else:
        w = _Weights(a, axis, b, y, sign)
        total = 0.0
        if da is not None:
            total = total + w.d_a() * da
        if db is not None:
            total = total + w.e * db
        dy = fit_tangent(np.sum(np.broadcast_to(total, w.shape), axis=w.axes, keepdims=keepdims), y)
    if return_sign:
        return out, Tangent(tuple, dy, np.zeros(np.shape(sign), dtype=np.result_type(sign, np.float64)))
    return out, dy


rrule.register(sc.logsumexp, ARRAY_LIKE)(logsumexp_rrule)
frule.register(sc.logsumexp, ARRAY_LIKE)(logsumexp_frule)


# ---- softmax, log_softmax -------------------------------------------------------------------------------
def _axis_sum(x: Any, axis: Any) -> Any:
    return np.sum(x, axis=axis, keepdims=True)


def softmax_rrule(x: Any, axis: Any = None) -> Any:
    """Reverse rule of ``scipy.special.softmax``: ``x_bar = s (y_bar - sum(s y_bar))``."""
    s = sc.softmax(x, axis=axis)
    project = cotangent_projector(x)

    def softmax_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, s, sc.softmax)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return (_NO, dy if differentiable(x) else _NO, _NO)
        sc_ = conj_if_complex(s)
        return (_NO, project(sc_ * (dy - _axis_sum(sc_ * dy, axis))), _NO)

    return s, softmax_pullback


def softmax_frule(tangents: Any, x: Any, axis: Any = None) -> Any:
    """Forward rule of ``scipy.special.softmax``: ``s (dx - sum(s dx))``."""
    s = sc.softmax(x, axis=axis)
    dx = tangent_array(tangents[1], x) if differentiable(x) else None
    if dx is None:
        return s, ZeroTangent()
    if isinstance(dx, NotImplementedTangent):
        return s, dx
    return s, fit_tangent(s * (dx - _axis_sum(s * dx, axis)), s)


def log_softmax_rrule(x: Any, axis: Any = None) -> Any:
    """Reverse rule of ``scipy.special.log_softmax``: ``x_bar = y_bar - s sum(y_bar)``."""
    y = sc.log_softmax(x, axis=axis)
    project = cotangent_projector(x)

    def log_softmax_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, sc.log_softmax)
        if isinstance(dy, (AbstractZero, NotImplementedTangent)):
            return (_NO, dy if differentiable(x) else _NO, _NO)
        s = conj_if_complex(np.exp(y))
        return (_NO, project(dy - s * _axis_sum(dy, axis)), _NO)

    return y, log_softmax_pullback


def log_softmax_frule(tangents: Any, x: Any, axis: Any = None) -> Any:
    """Forward rule of ``scipy.special.log_softmax``: ``dx - sum(s dx)``."""
    y = sc.log_softmax(x, axis=axis)
    dx = tangent_array(tangents[1], x) if differentiable(x) else None
    if dx is None:
        return y, ZeroTangent()
    if isinstance(dx, NotImplementedTangent):
        return y, dx
    return y, fit_tangent(dx - _axis_sum(np.exp(y) * dx, axis), y)


rrule.register(sc.softmax, ARRAY_LIKE)(softmax_rrule)
frule.register(sc.softmax, ARRAY_LIKE)(softmax_frule)
rrule.register(sc.log_softmax, ARRAY_LIKE)(log_softmax_rrule)
frule.register(sc.log_softmax, ARRAY_LIKE)(log_softmax_frule)


# ---- samples -------------------------------------------------------------------------------------------
@sample_inputs(sc.logsumexp)
def _logsumexp_samples(rng: np.random.Generator) -> Any:
    a = rng.standard_normal((3, 4))
    yield Sample(a, label="all axes")
    yield Sample(a, 1, label="axis by position")
    yield Sample(a + 800.0, fkwargs={"axis": 0, "keepdims": True}, label="large values (no overflow), keepdims")
    yield Sample(a, fkwargs={"axis": (0, 1), "b": rng.uniform(0.5, 2.0, (3, 4))}, label="weights b")
    yield Sample(a, -1, np.array([1.0, -2.0, 0.5, 3.0]), label="broadcast b of both signs, by position")
    yield Sample(a, fkwargs={"axis": 1, "b": np.array([1.0, -2.0, 0.5, 0.2]), "return_sign": True},
                 label="return_sign with negative sums")
    yield Sample(a.astype(np.float32), fkwargs={"axis": 0}, label="float32")
    yield Sample(a + 0.5j * rng.standard_normal((3, 4)), fkwargs={"axis": 1}, label="complex")
    yield Sample([0.5, 1.5, -2.0], label="list")


@sample_inputs(sc.softmax, sc.log_softmax)
def _softmax_samples(rng: np.random.Generator) -> Any:
    x = rng.standard_normal((3, 4))
    yield Sample(x, label="all axes")
    yield Sample(x, 1, label="axis by position")
    yield Sample(x + 800.0, fkwargs={"axis": 0}, label="large values")
    yield Sample(x.astype(np.float32), fkwargs={"axis": -1}, label="float32")
    yield Sample(x + 0.3j * rng.standard_normal((3, 4)), fkwargs={"axis": 1}, label="complex")
    yield Sample([0.5, 1.5, -2.0], label="list")
