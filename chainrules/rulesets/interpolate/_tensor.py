"""Tensor-product spline interpolation on a rectilinear grid, with its derivatives in the values, the
grid and the points (private; ``RegularGridInterpolator`` and ``interpn``).

The maths
---------
The interpolant of degree ``k`` (``k = 1``: multilinear) is ``f(xi) = sum_j C[j] prod_d B_d(xi_d)[j_d]``
with ``B_d`` the B-spline basis on the knots ``t_d`` made from the grid (the nodes with doubled
ends for ``k = 1``, not-a-knot otherwise, as ``make_interp_spline``) and ``C`` the coefficients
interpolating the values: ``C = S_1 ... S_D V``, ``S_d`` solving the 1-D collocation system
``M_d`` along axis ``d`` (the systems act on different axes and commute; Kronecker structure,
de Boor, *A Practical Guide to Splines*, ch. XVII). Hence

* ``d f / d xi_d`` replaces ``B_d`` by its derivative;
* the cotangent of ``V`` is ``S_1^T ... S_D^T Cbar`` with ``Cbar`` the scatter of
  ``ybar prod_d B_d`` (one transposed banded solve per axis);
* a grid's nodes move ``f`` through the knots of ``B_d`` (the forward-mode Cox-de Boor
  derivatives) and through ``M_d``: ``dC = -M_d^{-1} (dM_d C)`` along axis ``d``
  (:class:`._fitting.Interpolation`).

Only the ``(k + 1)^D`` coefficients around each point enter its value: everything here is
local except the solves. SciPy's ``slinear``/``cubic``/``quintic`` solve the same system with an
iterative method to its tolerance; these are the derivatives of the exact interpolant.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.interpolate._bspline import SplineEval
from chainrules.rulesets.interpolate._fitting import Interpolation, _solve, knot_map

__all__ = ["TensorSpline"]


class TensorSpline:
    """The exact tensor-product interpolant of degree ``k`` of ``values`` (shape ``(n_1, ..., n_D, T)``)
    on ``grid``, evaluated at ``xi`` (shape ``(P, D)``; ``orders``: a partial derivative), with its derivatives.

    Examples
    --------
    >>> grid = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0]))
    >>> values = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])[..., None]     # 2 x + y
    >>> ts = TensorSpline(grid, values, 1, np.array([[0.5, 0.5]]), extrapolate=True)
    >>> ts.values()[:, 0], ts.transpose(np.ones((1, 1)))[2]
    (array([1.5]), array([[2., 1.]]))
    """

    def __init__(self, grid: tuple[np.ndarray, ...], values: np.ndarray, k: int, xi: np.ndarray,
                 extrapolate: bool = True, orders: tuple[int, ...] | None = None) -> None:
        self.grid = tuple(np.asarray(g, dtype=np.float64) for g in grid)
        self.D, self.k = len(grid), int(k)
        self.V = values
        self.T = values.shape[-1]
        kind = "linear" if self.k == 1 else "not-a-knot"
        self.maps = [knot_map(g.size, self.k, kind) for g in self.grid]
        self.knots = [L @ g for L, g in zip(self.maps, self.grid)]
        solvers: list[Any] = []
        C = values
        for d, (g, t) in enumerate(zip(self.grid, self.knots)):
            terms = [(i, i, 0, 1.0) for i in range(g.size)]
            if self.k == 1:  # B_j(g_i) = delta_ij: the coefficients are the values
                solvers.append(None)
                continue
            solver = Interpolation(g, t, self.k, np.zeros((g.size, 1)), terms)._solver()
            fibers = np.moveaxis(C, d, 0)
            C = np.moveaxis(_solve(solver, fibers.reshape(g.size, -1)).reshape(fibers.shape), 0, d)
            solvers.append(solver)
        self.C = C
        # each axis' conditions linearised at the final coefficients (their fibers along that axis)
        self.problems: list[Any] = []
        for d, (g, t) in enumerate(zip(self.grid, self.knots) if self.k != 1 else []):
            problem = Interpolation(g, t, self.k, np.moveaxis(C, d, 0).reshape(g.size, -1),
                                    [(i, i, 0, 1.0) for i in range(g.size)])
            problem._lu = solvers[d]
            self.problems.append(problem)
        xi = np.asarray(xi, dtype=np.float64).reshape(-1, self.D)
        self.P = xi.shape[0]
        mode = "extrapolate" if extrapolate else "nan"
        orders = (0,) * self.D if orders is None else orders
        self.evals = [SplineEval(t, np.zeros((t.size - self.k - 1, 1)), self.k, xi[:, d], orders[d], mode)
                      for d, t in enumerate(self.knots)]
        self.valid = np.all([ev.valid for ev in self.evals], axis=0)
        self.B = [ev.basis() for ev in self.evals]                       # (P, k + 1) each
        self.index = [ev.index for ev in self.evals]                     # (P, k + 1) each
        self._dB: Any = None

    def _local(self, C: np.ndarray) -> np.ndarray:
        """``C`` around each point: shape ``(P, k + 1, ..., k + 1, T)``."""
        D = self.D
        picks = tuple(self.index[d].reshape((self.P,) + tuple(self.k + 1 if e == d else 1 for e in range(D)))
                      for d in range(D))
        return C[picks]

    def _contract(self, local: np.ndarray, factors: list[np.ndarray]) -> np.ndarray:
        """``sum_j local[p, j, T] prod_d factors[d][p, j_d]``: shape ``(P, T)``."""
        out = local
        for d in range(self.D):
            out = np.einsum("pj...,pj->p...", out, factors[d])
        return out

    def derivatives(self) -> list[np.ndarray]:
        """``dB_d``: shape ``(P, k + 1, 2k + 1)`` each (the local knots, then the point)."""
        if self._dB is None:
            self._dB = [ev.basis_jacobian() for ev in self.evals]
        return self._dB

    def values(self) -> np.ndarray:
        return self._contract(self._local(self.C), self.B) * self.valid[:, None]

    def tangent(self, dgrid: list[Any], dvalues: Any, dxi: Any) -> np.ndarray:
        """``df`` (shape ``(P, T)``) for tangents of the grid (a list, ``None`` entries for zeros), values, points."""
        total = np.zeros((self.P, self.T), dtype=np.result_type(self.C, *([] if dvalues is None else [dvalues])))
        dC: Any = None
        if dvalues is not None:
            dC = dvalues
            for d, problem in enumerate(self.problems if self.k != 1 else []):
                fibers = np.moveaxis(dC, d, 0)
                dC = np.moveaxis(_solve(problem._solver(), fibers.reshape(fibers.shape[0], -1)).reshape(fibers.shape),
                                 0, d)
        for d, dg in enumerate(dgrid):
            if dg is None or self.k == 1:
                continue
            part = self.problems[d].tangent(dg, self.maps[d] @ dg, None)
            moved = np.moveaxis(part.reshape(np.moveaxis(self.C, d, 0).shape), 0, d)
            dC = moved if dC is None else dC + moved
        if dC is not None:
            total = total + self._contract(self._local(dC), self.B)
        local = None
        dB = None
        for d in range(self.D):
            moves = np.zeros((self.P, 2 * self.k + 1))
            if dxi is not None:
                moves[:, -1] = dxi[:, d]
            if dgrid[d] is not None and self.k > 0:
                t_tangent = self.maps[d] @ dgrid[d]
                moves[:, :-1] = t_tangent[self.evals[d].l[:, None] + np.arange(-self.k + 1, self.k + 1)]
            if not np.any(moves):
                continue
            local = self._local(self.C) if local is None else local
            dB = self.derivatives() if dB is None else dB
            factors = list(self.B)
            factors[d] = np.einsum("pjd,pd->pj", dB[d], moves)
            total = total + self._contract(local, factors)
        return total * self.valid[:, None]

    def transpose(self, ybar: np.ndarray, want_grid: bool = True) -> tuple[list[Any], np.ndarray, np.ndarray]:
        """``(grid cotangents, values cotangent, xi cotangent)`` from ``ybar`` (shape ``(P, T)``)."""
        ybar = np.asarray(ybar).reshape(self.P, self.T) * self.valid[:, None]
        D, k = self.D, self.k
        # the coefficients' cotangent: ybar prod_d B_d scattered
        Cbar = np.zeros(self.C.shape, dtype=np.result_type(ybar, np.float64))
        picks = tuple(np.broadcast_to(self.index[d].reshape((self.P,) + tuple(k + 1 if e == d else 1
                                                                               for e in range(D))),
                                      (self.P,) + (k + 1,) * D) for d in range(D))
        flat = np.ravel_multi_index(tuple(p.ravel() for p in picks), self.C.shape[:D])
        weights = self._order_weights(ybar).reshape(-1, self.T)
        size = int(np.prod(self.C.shape[:D], dtype=int))
        columns = [np.bincount(flat, weights[:, t].real, size) for t in range(self.T)]
        if np.iscomplexobj(weights):
            columns = [c + 1j * np.bincount(flat, weights[:, t].imag, size) for t, c in enumerate(columns)]
        Cbar = np.stack(columns, axis=-1).reshape(self.C.shape)
        # the values: the transposed solves along every axis (none for k = 1: B_j(g_i) = delta_ij)
        Vbar = Cbar
        for d, problem in enumerate(self.problems if k != 1 else []):
            fibers: np.ndarray = np.moveaxis(Vbar, d, 0)
            Vbar = np.moveaxis(_solve(problem._solver(), fibers.reshape(len(fibers), -1), "T").reshape(
                fibers.shape), 0, d)
        # the points and the knots through the bases
        local = self._local(self.C)
        dB = self.derivatives()
        xibar = np.zeros((self.P, D))
        grid_bars: list[Any] = []
        for d in range(D):
            along = self._along(local, d)
            weight = np.real(np.einsum("pjT,pT->pj", np.conj(along), ybar))        # (P, k + 1)
            moves = np.einsum("pj,pjm->pm", weight, dB[d])                        # (P, 2k + 1)
            xibar[:, d] = moves[:, -1]
            if not want_grid:
                grid_bars.append(None)
                continue
            tbar = np.zeros(self.knots[d].size)
            if k > 0:
                places = self.evals[d].l[:, None] + np.arange(-k + 1, k + 1)
                tbar += np.bincount(places.ravel(), moves[:, :-1].ravel(), tbar.size)
            if k == 1:  # the collocation matrix is the identity for every grid: no term through it
                grid_bars.append(self.maps[d].T @ tbar)
                continue
            axis_fibers: np.ndarray = np.moveaxis(Cbar, d, 0)
            gbar, tb, _ = self.problems[d].transpose(axis_fibers.reshape(len(axis_fibers), -1))
            grid_bars.append(gbar + self.maps[d].T @ (tbar + tb))
        return grid_bars, Vbar, xibar

    def _order_weights(self, ybar: np.ndarray) -> np.ndarray:
        """``ybar[p, T] prod_d B_d[p, j_d]``: shape ``(P, k + 1, ..., k + 1, T)``."""
        D, k = self.D, self.k
        out = ybar.reshape((self.P,) + (1,) * D + (self.T,))
        for d in range(D):
            shape = (self.P,) + tuple(k + 1 if e == d else 1 for e in range(D)) + (1,)
            out = out * self.B[d].reshape(shape)
        return out

    def _along(self, local: np.ndarray, d: int) -> np.ndarray:
        """``local`` contracted with every basis but axis ``d``'s: shape ``(P, k + 1, T)``."""
        out = local
        # contract the other axes from the last to the first so that the positions stay valid
        for e in reversed(range(self.D)):
            if e == d:
                continue
            out = np.einsum(out, list(range(out.ndim)), self.B[e], [0, e + 1],
                            [i for i in range(out.ndim) if i != e + 1])
        return out
