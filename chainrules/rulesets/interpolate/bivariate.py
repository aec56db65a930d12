"""``scipy.interpolate.bisplev``: FITPACK's tensor-product splines, with respect to the points, the
knots and the coefficients of ``tck = [tx, ty, c, kx, ky]``.

A ``tck`` is differentiated as the list it is: its cotangent is ``Tangent(list, txbar, tybar,
cbar, NoTangent(), NoTangent())``.

The maths
---------
``z_ij = d^(dx+dy)/dx^dx dy^dy sum_ab C_ab B_a(x_i) B_b(y_j)`` with ``C = c[:ncx * ncy]``
reshaped ``(ncx, ncy)`` (Dierckx, *Curve and Surface Fitting with Splines*, 1993, ch. 2): two
univariate spline evaluations in a row, ``H = B_y^(dy) C^T`` (one spline in ``y`` per row of
``C``) then ``z = B_x^(dx) H^T`` (one spline in ``x`` per point ``y_j``). Each is the
:class:`._bspline.SplineEval` of :mod:`.bspline` (linear in its coefficients; the knots by the
Cox-de Boor recursion in forward mode; the point by the next derivative), and the pullback runs
them backwards. FITPACK clamps a point outside the base interval to its nearest end (values and
derivatives): there the derivative in the point is zero and the value moves with that end knot.
``bisplrep`` (which places its knots adaptively unless given them) has no rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.interpolate as si

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.contractions._multilinear import lazy_cotangent
from chainrules.rulesets.interpolate._bspline import SplineEval
from chainrules.rulesets.interpolate._spline_rules import MissingTangentError, part
from chainrules.rulesets.reductions._tangent_values import passed_on
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Tangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["Bisplev"]


class Bisplev:
    """``bisplev(x, y, tck, dx, dy)`` at one call: the two evaluations it is made of.

    Examples
    --------
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])                   # degree 1 in each variable: z = c00 (1-x)(1-y) + ...
    >>> call = Bisplev(np.array([0.25]), np.array([0.5]), [t, t, np.array([0.0, 0.0, 1.0, 1.0]), 1, 1], 0, 0)
    >>> call.z, call.cotangents(np.ones((1, 1)))[0]          # z = x: dz/dx = 1
    (array([[0.25]]), array([1.]))
    """

    def __init__(self, x: Any, y: Any, tck: Any, dx: int, dy: int) -> None:
        tx, ty, c, kx, ky = tck[:5]
        self.tx, self.ty = np.asarray(tx, dtype=np.float64), np.asarray(ty, dtype=np.float64)
        ncx, ncy = self.tx.size - int(kx) - 1, self.ty.size - int(ky) - 1
        self.c_size = np.size(c)
        self.C = np.asarray(c, dtype=np.float64)[:ncx * ncy].reshape(ncx, ncy)
        self.xs = np.atleast_1d(np.asarray(x, dtype=np.float64)).ravel()
        self.ys = np.atleast_1d(np.asarray(y, dtype=np.float64)).ravel()
        self.along_y = SplineEval(self.ty, self.C.T, int(ky), self.ys, int(dy), "clip")       # H: (my, ncx)
        self.along_x = SplineEval(self.tx, self.along_y.values().T, int(kx), self.xs, int(dx), "clip")
        self.z = self.along_x.values()                                                          # (mx, my)

    def cotangents(self, zbar: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(xbar, ybar, txbar, tybar, cbar)`` from the cotangent of ``z`` (any shape of its size)."""
        txbar, Hbar_T, xbar = self.along_x.transpose(np.asarray(zbar, dtype=np.float64).reshape(self.z.shape))
        tybar, Cbar_T, ybar = self.along_y.transpose(Hbar_T.T)
        cbar = np.zeros(self.c_size)
        cbar[:self.C.size] = Cbar_T.T.ravel()
        return xbar, ybar, txbar, tybar, cbar

    def tangent(self, dx: Any, dy: Any, dtx: Any, dty: Any, dc: Any) -> Any:
        """``dz`` of shape ``(mx, my)``, or ``None`` when every tangent is ``None``."""
        dC_T = None if dc is None else np.asarray(dc, dtype=np.float64)[:self.C.size].reshape(self.C.shape).T
        dH = self.along_y.tangent(dty, dC_T, dy)
        return self.along_x.tangent(dtx, None if dH is None else dH.T, dx)


def _shaped(value: np.ndarray, like: Any) -> Any:
    return value.reshape(np.shape(like)) if np.ndim(like) else value.reshape(()).item()


@rrule.register(si.bisplev)
def bisplev_rrule(x: Any, y: Any, tck: Any, dx: Any = 0, dy: Any = 0) -> Any:
    """Reverse rule of ``bisplev``: the points, and the knots and coefficients of ``tck``.

    Examples
    --------
    >>> from chainrules import unthunk
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])
    >>> tck = [t, t, np.array([0.0, 1.0, 2.0, 3.0]), 1, 1]       # z = 2 x + y
    >>> z, pullback = rrule(si.bisplev, 0.25, 0.5, tck)
    >>> float(z), unthunk(pullback(1.0)[1]), unthunk(pullback(1.0)[2])
    (1.0, 2.0, 1.0)
    """
    z = si.bisplev(x, y, tck, dx, dy)
    call = Bisplev(x, y, tck, int(dx), int(dy))
    projectors = [cotangent_projector(x), cotangent_projector(y), cotangent_projector(tck)]

    def bisplev_pullback(dz: Any) -> tuple[Any, ...]:
        dz = read_cotangent(dz, z, si.bisplev)
        if passes_through(dz):
            zero = passed_on(dz)
            return (NoTangent(), *(p(zero) for p in projectors), NoTangent(), NoTangent())
        memo: list[Any] = []

        def parts() -> list[Any]:
            if not memo:
                xbar, ybar, txbar, tybar, cbar = call.cotangents(dz)
                memo.extend([_shaped(xbar, x), _shaped(ybar, y),
                             Tangent(type(tck), txbar, tybar, cbar, *(NoTangent() for _ in tck[3:]))])
            return memo

        def pick(i: int) -> Any:
            def value() -> Any:
                return parts()[i]

            return value

        return (NoTangent(), *(lazy_cotangent(p, pick(i)) for i, p in enumerate(projectors)), NoTangent(),
                NoTangent())

    return z, bisplev_pullback


@frule.register(si.bisplev)
def bisplev_frule(tangents: Any, x: Any, y: Any, tck: Any, dx: Any = 0, dy: Any = 0) -> Any:
    """Forward rule of ``bisplev``.

    Examples
    --------
    >>> from chainrules import NoTangent, ZeroTangent
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])
    >>> tck = [t, t, np.array([0.0, 1.0, 2.0, 3.0]), 1, 1]       # z = 2 x + y
    >>> float(frule((NoTangent(), 1.0, 1.0, ZeroTangent()), si.bisplev, 0.25, 0.5, tck)[1])
    3.0
    """
    z = si.bisplev(x, y, tck, dx, dy)
    call = Bisplev(x, y, tck, int(dx), int(dy))
    dxs, dys = tangent_array(tangents[1], x), tangent_array(tangents[2], y)
    for d in (dxs, dys):
        if isinstance(d, NotImplementedTangent):
            return z, d
    try:
        dtck = tangents[3] if len(tangents) > 3 else None
        dtx, dty, dc = part(dtck, 0), part(dtck, 1), part(dtck, 2)
    except MissingTangentError as missing:
        return z, missing.tangent
    steps = [None if d is None or passes_through(d) else np.asarray(d, dtype=np.float64).ravel() for d in (dxs, dys)]
    knots = [None if d is None else np.asarray(d, dtype=np.float64) for d in (dtx, dty)]
    value = call.tangent(steps[0], steps[1], knots[0], knots[1], dc)
    return z, output_tangent(None if value is None else _shaped(np.asarray(value), z), z)


# ---- sample inputs ----------------------------------------------------------------------------------
def _tck(rng: np.random.Generator) -> list[Any]:
    """Bicubic on distinct knots (base interval [0, 1.7] x [0, 1.2]), so every knot can move."""
    tx = np.array([-0.9, -0.5, -0.2, 0.0, 0.8, 1.7, 2.2, 2.6, 3.0])
    ty = np.array([-1.0, -0.6, -0.3, 0.0, 0.5, 1.2, 1.5, 1.9])
    return [tx, ty, rng.standard_normal(20), 3, 3]


@sample_inputs(si.bisplev)
def _bisplev_samples(rng: np.random.Generator) -> list[Sample]:
    xs, ys = np.array([0.15, 0.55, 1.3]), np.array([0.2, 0.75, 1.05])
    return [Sample(xs, ys, _tck(rng), label="a grid of points"),
            Sample(xs, ys, _tck(rng), 1, label="d/dx by position"),
            Sample(xs, ys[:2], _tck(rng), fkwargs={"dx": 1, "dy": 2}, label="d^3/dx dy^2 by keyword"),
            Sample(0.55, ys, _tck(rng), label="a scalar x"),
            Sample(np.array([-0.4, 0.55, 2.1]), np.array([0.2, 1.6]), _tck(rng),
                   label="points outside, clamped to the base interval"),
            Sample(xs.astype(np.float32), ys.astype(np.float32), _tck(rng), label="float32 points")]
