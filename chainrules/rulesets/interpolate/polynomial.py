"""``scipy.interpolate.barycentric_interpolate`` and ``krogh_interpolate``: the polynomial through
``(xi, yi)`` (and its derivatives ``der``) at ``x``, with respect to the nodes ``xi``, the values
``yi`` and the points ``x``.

The maths
---------
The interpolating polynomial is ``p(x) = sum_j yi_j l_j(x)`` with the Lagrange basis ``l_j``
(Berrut & Trefethen, "Barycentric Lagrange interpolation", SIAM Review 46, 2004): linear in
``yi`` (its derivative is the matrix ``l_j^(d)(x)``, obtained by interpolating the unit vectors
at once, ``O(len(x) n)`` memory), ``d/dx p^(d)(x) = p^(d+1)(x)``, and moving node ``j`` (its
value fixed) changes ``p`` by ``-p'(xi_j) l_j``: differentiating ``p(xi_k; xi) = yi_k`` in
``xi_j`` gives ``p'(xi_j) + dp/dxi_j (xi_j) = 0`` and ``dp/dxi_j (xi_k) = 0`` for ``k != j``, and
``dp/dxi_j`` has degree below ``n``. So ``d p^(d)(x) / d xi_j = -p'(xi_j) l_j^(d)(x)``.
``krogh_interpolate`` with repeated nodes (Hermite data: derivatives given at a node) is the
same linear map in ``yi`` and ``x``; its derivative in ``xi`` is not implemented there. A
list of orders ``der`` stacks the orders along a new first axis, as SciPy does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["PolynomialCall"]

_HERMITE = ("krogh_interpolate with repeated nodes (derivative data) is differentiated in yi and x only; its "
            "derivative in the nodes xi is not implemented")


class PolynomialCall:
    """``f(xi, yi, x, der=der, axis=axis)`` for ``f`` one of the two interpolation functions.

    Examples
    --------
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> call = PolynomialCall(si.barycentric_interpolate, xi, xi ** 2, np.array([0.5]), 0, 0)
    >>> dxi, dyi, dx = call.cotangents(np.ones(1))          # p = x^2
    >>> dyi, dx                                             # l_j(0.5); p'(0.5) = 1
    (array([ 0.375,  0.75 , -0.125]), array([1.]))
    >>> dxi + 0.0                                           # -p'(xi_j) l_j(0.5), p'(xi_j) = 2 xi_j
    array([ 0. , -1.5,  0.5])
    """

    def __init__(self, f: Any, xi: Any, yi: Any, x: Any, der: Any, axis: int) -> None:
        self.f, self.y = f, _call(f, xi, yi, x, der, axis)
        self.xi = np.asarray(xi, dtype=np.float64).ravel()
        n = self.xi.size
        yi = np.asarray(yi)
        self.axis = axis % yi.ndim
        self.yi_shape = yi.shape
        self.Y = np.moveaxis(yi, self.axis, 0).reshape(n, -1)                            # (n, T)
        self.x_shape = np.shape(x)
        self.x = np.asarray(x, dtype=np.float64).ravel()
        self.ders = [int(d) for d in der] if isinstance(der, (list, tuple, np.ndarray)) else [int(der)]
        self.stacked = isinstance(der, (list, tuple, np.ndarray))
        eye = np.eye(n)
        # l_j^(d)(x) and p^(d+1)(x), per order; p'(xi_j)
        self.L = [np.asarray(_call(f, self.xi, eye, self.x, d, 0)).reshape(self.x.size, n) for d in self.ders]
        self.slope_x = [np.asarray(_call(f, self.xi, self.Y, self.x, d + 1, 0)).reshape(self.x.size, -1)
                        for d in self.ders]
        self.slope_nodes = np.asarray(_call(f, self.xi, self.Y, self.xi, 1, 0)).reshape(n, -1)
        self.hermite = np.unique(self.xi).size < n

    def _standard(self, g: Any) -> list[np.ndarray]:
        """The output cotangent (or tangent) as one ``(len(x), T)`` array per order."""
        g = np.asarray(g)
        pre = self.yi_shape[:self.axis]
        parts = list(g) if self.stacked else [g]
        k = len(self.x_shape)
        front = list(range(len(pre), len(pre) + k))
        return [np.moveaxis(part.reshape(pre + self.x_shape + self.yi_shape[self.axis + 1:]), front,
                            list(range(k))).reshape(self.x.size, -1) for part in parts]

    def _output(self, parts: list[np.ndarray]) -> np.ndarray:
        pre, post = self.yi_shape[:self.axis], self.yi_shape[self.axis + 1:]
        k = len(self.x_shape)
        shaped = [np.moveaxis(p.reshape(self.x_shape + pre + post), list(range(k)),
                              list(range(len(pre), len(pre) + k))) for p in parts]
        return np.stack(shaped) if self.stacked else shaped[0]

    def cotangents(self, dy: Any) -> tuple[Any, Any, Any]:
        """Cotangents of ``xi``, ``yi`` and ``x`` (a ``NotImplementedTangent`` for ``xi`` with repeated nodes)."""
        Ybar = np.zeros(self.Y.shape, dtype=np.result_type(np.asarray(dy), self.Y, np.float64))
        xbar = np.zeros(self.x.size)
        for g, L, slope in zip(self._standard(dy), self.L, self.slope_x):
            Ybar = Ybar + L.T @ g
            xbar = xbar + np.real(np.sum(np.conj(slope) * g, axis=1))
        xibar: Any = (not_implemented(_HERMITE) if self.hermite else
                      -np.real(np.sum(np.conj(self.slope_nodes) * Ybar, axis=1)))
        pre, post = self.yi_shape[:self.axis], self.yi_shape[self.axis + 1:]
        yibar = np.moveaxis(Ybar.reshape((self.xi.size,) + pre + post), 0, self.axis)
        return xibar, yibar, xbar.reshape(self.x_shape)

    def tangent(self, dxi: Any, dyi: Any, dx: Any) -> Any:
        """The output tangent (``None`` when every tangent is ``None``)."""
        if dxi is not None and self.hermite:
            return not_implemented(_HERMITE)
        if dxi is None and dyi is None and dx is None:
            return None
        dY = None if dyi is None else np.moveaxis(np.asarray(dyi), self.axis, 0).reshape(self.Y.shape)
        if dxi is not None:  # a node moving with its value fixed: -p'(xi_j) dxi_j along l_j
            moved = -self.slope_nodes * np.asarray(dxi, dtype=np.float64).reshape(-1, 1)
            dY = moved if dY is None else dY + moved
        parts = []
        for L, slope in zip(self.L, self.slope_x):
            total = np.zeros((self.x.size, self.Y.shape[1]), dtype=np.result_type(self.Y, np.float64))
            if dY is not None:
                total = total + L @ dY
            if dx is not None:
                total = total + slope * np.asarray(dx, dtype=np.float64).reshape(-1, 1)
            parts.append(total)
        return self._output(parts)


def _call(f: Any, xi: Any, yi: Any, x: Any, der: Any, axis: int) -> Any:
    if f is si.barycentric_interpolate:
        return si.barycentric_interpolate(xi, yi, x, axis, der=der)
    return si.krogh_interpolate(xi, yi, x, der, axis)


def _rrule(f: Any, xi: Any, yi: Any, x: Any, der: Any, axis: Any) -> Any:
    call = PolynomialCall(f, xi, yi, x, der, int(axis))
    projectors = [cotangent_projector(v) for v in (xi, yi, x)]

    def polynomial_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, call.y, f)
        if passes_through(dy):
            zero = passed_on(dy)
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent())
        memo: list[Any] = []

        def pick(i: int) -> Any:
            def value() -> Any:
                if not memo:
                    memo.extend(call.cotangents(dy))
                return memo[i]

            return value

        return (NoTangent(), *(lazy_cotangent(p, pick(i)) for i, p in enumerate(projectors)), NoTangent())

    return call.y, polynomial_pullback


def _frule(tangents: Any, f: Any, xi: Any, yi: Any, x: Any, der: Any, axis: Any) -> Any:
    call = PolynomialCall(f, xi, yi, x, der, int(axis))
    given = [tangent_array(tangents[i + 1], v) if len(tangents) > i + 1 else None for i, v in enumerate((xi, yi, x))]
    for d in given:
        if isinstance(d, NotImplementedTangent):
            return call.y, d
    dxi, dyi, dx = (None if d is None or passes_through(d) else d for d in given)
    value = call.tangent(dxi, dyi, dx)
    return call.y, value if isinstance(value, NotImplementedTangent) else output_tangent(value, call.y)


@rrule.register(si.barycentric_interpolate)
def barycentric_interpolate_rrule(xi: Any, yi: Any, x: Any, axis: Any = 0, *, der: Any = 0, rng: Any = None) -> Any:
    """Reverse rule of ``barycentric_interpolate``: the nodes, the values and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> y, pullback = rrule(si.barycentric_interpolate, xi, xi ** 2, np.array([0.5, 1.5]))
    >>> y, unthunk(pullback(np.ones(2))[3])                 # p' = 2 x
    (array([0.25, 2.25]), array([1., 3.]))
    """
    return _rrule(si.barycentric_interpolate, xi, yi, x, der, axis)


@frule.register(si.barycentric_interpolate)
def barycentric_interpolate_frule(tangents: Any, xi: Any, yi: Any, x: Any, axis: Any = 0, *, der: Any = 0,
                                  rng: Any = None) -> Any:
    """Forward rule of ``barycentric_interpolate``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> frule((NoTangent(), ZeroTangent(), np.ones(3), ZeroTangent()), si.barycentric_interpolate, xi, xi ** 2,
    ...       np.array([0.5]))[1]
    array([1.])
    """
    return _frule(tangents, si.barycentric_interpolate, xi, yi, x, der, axis)


@rrule.register(si.krogh_interpolate)
def krogh_interpolate_rrule(xi: Any, yi: Any, x: Any, der: Any = 0, axis: Any = 0) -> Any:
    """Reverse rule of ``krogh_interpolate``: the nodes (distinct), the values and the points.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> y, pullback = rrule(si.krogh_interpolate, xi, xi ** 2, np.array([0.5]), 1)   # p' = 2 x, p'' = 2
    >>> y, unthunk(pullback(np.ones(1))[3])
    (array([1.]), array([2.]))
    """
    return _rrule(si.krogh_interpolate, xi, yi, x, der, axis)


@frule.register(si.krogh_interpolate)
def krogh_interpolate_frule(tangents: Any, xi: Any, yi: Any, x: Any, der: Any = 0, axis: Any = 0) -> Any:
    """Forward rule of ``krogh_interpolate``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> xi = np.array([0.0, 1.0, 2.0])
    >>> frule((NoTangent(), ZeroTangent(), ZeroTangent(), np.ones(1)), si.krogh_interpolate, xi, xi ** 2,
    ...       np.array([0.5]))[1]
    array([1.])
    """
    return _frule(tangents, si.krogh_interpolate, xi, yi, x, der, axis)


# ---- sample inputs ----------------------------------------------------------------------------------
_XI = np.array([0.0, 0.7, 1.5, 2.2, 3.0])
_X = np.array([0.3, 1.1, 2.6, 3.4])


@sample_inputs(si.barycentric_interpolate)
def _barycentric_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_XI, rng.standard_normal(5), _X, label="values and a point outside"),
            Sample(_XI, rng.standard_normal((2, 5)), _X.reshape(2, 2), 1, label="axis=1 by position, 2-d points"),
            Sample(_XI, rng.standard_normal(5), _X, fkwargs={"der": 2}, label="second derivative by keyword"),
            Sample(_XI, rng.standard_normal(5) + 1j * rng.standard_normal(5), _X, label="complex values"),
            Sample(_XI.astype(np.float32), rng.standard_normal(5).astype(np.float32), _X.astype(np.float32),
                   label="float32"),
            Sample(_XI, rng.standard_normal(5), 1.1, fkwargs={"der": [0, 1]}, label="a scalar point, der=[0, 1]")]


@sample_inputs(si.krogh_interpolate)
def _krogh_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.testing import PrimalAndTangent

    hermite = np.array([0.0, 0.0, 1.5, 3.0])                    # a value and a slope at 0
    return [Sample(_XI, rng.standard_normal(5), _X, label="values and a point outside"),
            Sample(_XI, rng.standard_normal((5, 2)), _X, 1, label="first derivative by position, vector values"),
            Sample(_XI, rng.standard_normal((2, 5)), _X, fkwargs={"axis": 1}, label="axis=1 by keyword"),
            Sample(PrimalAndTangent(hermite, NoTangent()), rng.standard_normal(4), _X,
                   label="repeated nodes (Hermite data): the values and the points")]
