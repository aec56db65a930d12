"""Splines fitted to data: interpolation, least squares and smoothing, with the derivatives of the
coefficients in the data sites, the values, the weights and the knots (private).

The maths
---------
*Interpolation* (``make_interp_spline``, ``splrep`` with ``s=0``, ``InterpolatedUnivariateSpline``):
the coefficients solve ``M(x, t) c = r``, one row per condition ``s^(nu)(p) = r`` (values at the
sites, derivatives at the ends) or, for a periodic spline, ``s^(j)(x_end) - s^(j)(x_0) = 0``
(``j < k``) with the values at all sites but the last (de Boor, *A Practical Guide to
Splines*, ch. XIII). Differentiating, ``M dc = dr - dM c`` where ``dM c`` is the tangent of the
conditions' left-hand sides with ``c`` held: each is a spline value, whose derivatives in the
point and the knots :class:`._bspline.SplineEval` gives. The adjoint is one transposed solve,
``lambda = M^{-T} cbar``: ``rbar = lambda`` and ``(xbar, tbar) = -(dM c)^T lambda``.

*Least squares* (``make_lsq_spline``, ``splrep(task=-1)``, ``LSQUnivariateSpline``):
``c = argmin sum_i w_i^2 |s(x_i) - y_i|^2``, i.e. ``G c = A^T W^2 y`` with ``A`` the basis at the
sites and ``G = A^T W^2 A``; with the residual ``r = y - A c``,
``G dc = dA^T W^2 r + A^T dW^2 r + A^T W^2 (dy - dA c)`` (the normal equations differentiated),
and with ``lambda = G^{-1} cbar``: ``ybar = W^2 A lambda``,
``(xbar, tbar) = (dA lambda)^T W^2 r - (dA c)^T W^2 A lambda``, ``wbar = 2 w Re(conj(A lambda) r)``.

*Smoothing* (``make_smoothing_spline`` at a given ``lam``): the minimiser of
``sum_i w_i (y_i - f(x_i))^2 + lam int f''^2`` is the natural cubic spline through the smoothed
values ``g = (W + lam K)^{-1} W y``, ``K = Q R^{-1} Q^T`` (Reinsch 1967; Green & Silverman,
*Nonparametric Regression and Generalized Linear Models*, 1994, sec. 2.1-2.3): ``Q`` (``n x (n-2)``)
has ``1/h_{j-1}, -1/h_{j-1} - 1/h_j, 1/h_j`` down column ``j``, ``R`` is tridiagonal with
``(h_{j-1} + h_j) / 3`` and ``h_j / 6``. Then ``(W + lam K) dg = dW (y - g) + W dy - lam dK g``,
``dK g = dQ gamma - Q R^{-1} dR gamma + Q R^{-1} dQ^T g`` with ``gamma = R^{-1} Q^T g``.

The knot vectors SciPy builds from the sites (not-a-knot, the repeated ends, the periodic
extension) are linear in the sites: :func:`knot_map` gives their matrix.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets.interpolate._bspline import SplineEval

__all__ = ["Interpolation", "LeastSquares", "Smoother", "knot_map", "knots_from_sites"]


# ---- knot vectors made from the sites -----------------------------------------------------------------
def knots_from_sites(x: np.ndarray, k: int, kind: str, ends: tuple[Any, Any] | None = None) -> np.ndarray:
    """SciPy's knot vector for sites ``x`` (shape ``(n, ...)``: linear, so it maps columns too).

    ``kind``: ``'not-a-knot'`` (interior knots at the sites, or at midpoints for even ``k``,
    leaving out ``(k+1)//2`` at each end; the ends repeated ``k + 1`` times, or ``ends``),
    ``'augmented'`` (every site, the ends repeated ``k`` more times), ``'periodic'`` (the
    sites, extended by ``k`` knots each side with the wrapped spacings; midpoints for even
    ``k``), ``'linear'`` (``[x_0, x, x_end]``), ``'constant'`` (``[x, x_end]``).

    Examples
    --------
    >>> knots_from_sites(np.array([0.0, 1.0, 2.0, 3.0, 4.0]), 3, "not-a-knot")
    array([0., 0., 0., 0., 2., 4., 4., 4., 4.])
    """
    first, last = (x[:1], x[-1:]) if ends is None else ends
    if kind == "constant":
        return np.concatenate((x, x[-1:]))
    if kind == "linear":
        return np.concatenate((x[:1], x, x[-1:]))
    if kind == "augmented":
        return np.concatenate([x[:1]] * k + [x] + [x[-1:]] * k)
    if kind == "not-a-knot":
        if k % 2 == 1:
            half, inner = (k + 1) // 2, x
        else:
            half, inner = k // 2, (x[1:] + x[:-1]) / 2
        inner = inner[half:inner.shape[0] - half]
        return np.concatenate([first] * (k + 1) + [inner] + [last] * (k + 1))
    if kind == "periodic":
        sites = x.copy()
        if k % 2 == 0:
            sites[1:-1] = sites[1:-1] - np.diff(x, axis=0)[:-1] / 2
        step = np.diff(sites, axis=0)
        n = x.shape[0]
        t = np.zeros((n + 2 * k,) + x.shape[1:], dtype=np.result_type(x, np.float64))
        t[k:n + k] = sites
        for i in range(k):
            t[k - i - 1] = t[k - i] - step[-(i % (n - 1)) - 1]
            t[n + k + i] = t[n + k + i - 1] + step[i % (n - 1)]
        return t
    raise ValueError(f"unknown knot vector kind {kind!r}")


def knot_map(n: int, k: int, kind: str, ends: bool = False) -> np.ndarray:
    """The matrix ``L`` with ``t = L x`` (and, with ``ends``, two more columns for ``xb``, ``xe``).

    Examples
    --------
    >>> knot_map(3, 1, "linear")
    array([[1., 0., 0.],
           [1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.],
           [0., 0., 1.]])
    """
    if not ends:
        return knots_from_sites(np.eye(n), k, kind)
    eye = np.eye(n + 2)
    return knots_from_sites(eye[:n], k, kind, (eye[n:n + 1], eye[n + 1:]))


# ---- the conditions of an interpolating spline -------------------------------------------------------------
def _solve(lu: Any, rhs: np.ndarray, trans: str = "N") -> np.ndarray:
    flat = rhs.reshape(rhs.shape[0], -1)
    if np.iscomplexobj(flat):
        out = lu.solve(np.ascontiguousarray(flat.real), trans) + 1j * lu.solve(np.ascontiguousarray(flat.imag), trans)
    else:
        out = lu.solve(np.ascontiguousarray(flat, dtype=np.float64), trans)
    return out.reshape(rhs.shape)


class Interpolation:
    """The conditions ``M(x, t) c = r`` of an interpolating spline, at SciPy's solution ``c``.

    Parameters
    ----------
    x : ndarray, shape (n,)
        The sites.
    t : ndarray
        The knots; ``k`` the degree; ``c`` the coefficients SciPy found, shape ``(nt, T)``.
    terms : list of (row, site, order, sign)
        Condition ``row`` adds ``sign * s^(order)(x[site])``.

    Examples
    --------
    >>> import scipy.interpolate as si
    >>> x = np.arange(5.0); y = x ** 2
    >>> b = si.make_interp_spline(x, y)
    >>> problem = Interpolation(x, b.t, 3, b.c[:, None], [(i, i, 0, 1.0) for i in range(5)])
    >>> bool(np.allclose(problem.residual(), y[:, None]))
    True
    """

    def __init__(self, x: np.ndarray, t: np.ndarray, k: int, c: np.ndarray,
                 terms: list[tuple[int, int, int, float]]) -> None:
        self.x, self.t, self.k, self.c = np.asarray(x, dtype=np.float64), np.asarray(t, dtype=np.float64), k, c
        self.nt = c.shape[0]
        rows = np.array([term[0] for term in terms])
        sites = np.array([term[1] for term in terms])
        orders = np.array([term[2] for term in terms])
        signs = np.array([term[3] for term in terms], dtype=np.float64)
        self.groups = []
        for order in np.unique(orders):
            pick = orders == order
            evaluation = SplineEval(self.t, c, k, self.x[sites[pick]], int(order), "extrapolate")
            self.groups.append((rows[pick], sites[pick], signs[pick], evaluation))
        self._lu: Any = None

    def matrix(self) -> Any:
        import scipy.sparse as sparse

        r_all, c_all, v_all = [], [], []
        for rows, _, signs, evaluation in self.groups:
            B = evaluation.basis() * signs[:, None]
            r_all.append(np.repeat(rows, self.k + 1))
            c_all.append(evaluation.index.ravel())
            v_all.append(B.ravel())
        return sparse.csc_matrix((np.concatenate(v_all), (np.concatenate(r_all), np.concatenate(c_all))),
                                 shape=(self.nt, self.nt))

    def _solver(self) -> Any:
        if self._lu is None:
            from scipy.sparse.linalg import splu

            self._lu = splu(self.matrix())
        return self._lu

    def residual(self) -> np.ndarray:
        """``M c`` (the right-hand side SciPy solved for, up to rounding)."""
        return np.asarray(self.matrix() @ self.c)

    def tangent(self, dx: Any, dt: Any, dr: Any) -> Any:
        """``dc`` for tangents of the sites, the knots and the right-hand side (``None``: zero)."""
        forcing = np.zeros(self.c.shape, dtype=np.result_type(self.c, *([] if dr is None else [dr])))
        if dr is not None:
            forcing += dr
        if dx is not None or dt is not None:
            for rows, sites, signs, evaluation in self.groups:
                moved = evaluation.tangent(dt, None, None if dx is None else np.asarray(dx)[sites])
                np.add.at(forcing, rows, -signs[:, None] * moved)
        if dr is None and dx is None and dt is None:
            return None
        return _solve(self._solver(), forcing)

    def transpose(self, cbar: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(xbar, tbar, rbar)`` from a cotangent of the coefficients (shape ``(nt, T)``)."""
        lam = _solve(self._solver(), np.asarray(cbar), "T")
        xbar = np.zeros(self.x.size)
        tbar = np.zeros(self.t.size)
        for rows, sites, signs, evaluation in self.groups:
            tb, _, qb = evaluation.transpose(-signs[:, None] * lam[rows], want_c=False)
            tbar += tb
            np.add.at(xbar, sites, qb)
        return xbar, tbar, lam


# ---- least squares -------------------------------------------------------------------------------------------
class LeastSquares:
    """``c = argmin sum_i w_i^2 |s(x_i) - y_i|^2`` at SciPy's solution, with its derivatives.

    Examples
    --------
    >>> import scipy.interpolate as si
    >>> x = np.linspace(0.0, 1.0, 7); t = np.array([0.0, 0.0, 0.5, 1.0, 1.0])
    >>> b = si.make_lsq_spline(x, x, t, k=1)
    >>> problem = LeastSquares(x, x[:, None], np.ones(7), t, 1, b.c[:, None])
    >>> bool(np.allclose(problem.transpose(np.array([[0.0], [1.0], [0.0]]))[1].sum(), 1.0))
    True
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, w: np.ndarray, t: np.ndarray, k: int, c: np.ndarray) -> None:
        self.x, self.y, self.w = np.asarray(x, dtype=np.float64), y, np.asarray(w, dtype=np.float64)
        self.t, self.k, self.c = np.asarray(t, dtype=np.float64), k, c
        self.at_c = SplineEval(self.t, c, k, self.x, 0, "extrapolate")
        self.r = y - self.at_c.values()
        self._lu: Any = None

    def _design(self) -> Any:
        import scipy.sparse as sparse

        ev = self.at_c
        return sparse.csr_matrix((ev.basis().ravel(), (np.repeat(np.arange(self.x.size), self.k + 1),
                                                      ev.index.ravel())), shape=(self.x.size, self.c.shape[0]))

    def _solver(self) -> Any:
        if self._lu is None:
            from scipy.sparse.linalg import splu

            A = self._design()
            self._lu = splu((A.T @ A.multiply((self.w ** 2)[:, None])).tocsc())
        return self._lu

    def _apply_design(self, c: np.ndarray) -> np.ndarray:
        return np.asarray(self._design() @ c)

    def _design_transpose(self, v: np.ndarray) -> np.ndarray:
        return np.asarray(self._design().T @ v)

    def tangent(self, dx: Any, dy: Any, dw: Any, dt: Any) -> Any:
        if dx is None and dy is None and dw is None and dt is None:
            return None
        w2 = (self.w ** 2)[:, None]
        forcing = np.zeros(self.c.shape, dtype=np.result_type(self.c, *([] if dy is None else [dy])))
        data = np.zeros(self.r.shape, dtype=forcing.dtype)
        if dy is not None:
            data += dy
        if dx is not None or dt is not None:
            data -= self.at_c.tangent(dt, None, dx)  # dA c
            forcing += self.at_c.basis_tangent_transpose(w2 * self.r, dt, dx)  # dA^T W^2 r
        if dw is not None:
            data += (2 * dw / self.w)[:, None] * self.r  # A^T dW^2 r = A^T W^2 (2 dw / w) r
        forcing += self._design_transpose(w2 * data)
        return _solve(self._solver(), forcing)

    def transpose(self, cbar: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(xbar, ybar, wbar, tbar)`` from a cotangent of the coefficients."""
        lam = _solve(self._solver(), np.asarray(cbar), "T")
        a_lam = self._apply_design(lam)
        w2 = (self.w ** 2)[:, None]
        ybar = w2 * a_lam
        wbar = 2 * self.w * np.real(np.sum(np.conj(a_lam) * self.r, axis=1))
        at_lam = SplineEval(self.t, lam, self.k, self.x, 0, "extrapolate")
        tb1, _, xb1 = at_lam.transpose(w2 * self.r, want_c=False)
        tb2, _, xb2 = self.at_c.transpose(-ybar, want_c=False)
        return xb1 + xb2, ybar, wbar, tb1 + tb2


# ---- smoothing ------------------------------------------------------------------------------------------------
class Smoother:
    """Reinsch's smoothed values ``g = (W + lam K(x))^{-1} W y`` with their derivatives.

    Examples
    --------
    >>> x = np.array([0.0, 1.0, 2.0, 3.0]); y = np.array([[0.0], [1.0], [0.0], [1.0]])
    >>> Smoother(x, y, np.ones(4), 0.0).g[:, 0]                 # lam = 0: interpolation
    array([0., 1., 0., 1.])
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, w: np.ndarray, lam: float) -> None:
        import scipy.sparse as sparse
        from scipy.sparse.linalg import splu

        self.x, self.y, self.w, self.lam = x, y, np.asarray(w, dtype=np.float64), float(lam)
        self.h = np.diff(x)
        self.Q, self.R = self._qr(self.h)
        self.R_lu = splu(self.R.tocsc())
        K = self.Q @ sparse.csc_matrix(self._r_solve_matrix(self.Q.T.toarray()))
        self.system = splu((sparse.diags(self.w) + self.lam * K).tocsc())
        self.g = _solve(self.system, self.w[:, None] * y)
        self.gamma = _solve(self.R_lu, np.asarray(self.Q.T @ self.g))

    @staticmethod
    def _qr(h: np.ndarray) -> tuple[Any, Any]:
        import scipy.sparse as sparse

        n = h.size + 1
        j = np.arange(1, n - 1)  # the interior sites; column j - 1
        inv = 1.0 / h
        Q = sparse.csr_matrix((np.concatenate((inv[j - 1], -inv[j - 1] - inv[j], inv[j])),
                               (np.concatenate((j - 1, j, j + 1)), np.tile(j - 1, 3))), shape=(n, n - 2))
        main = (h[:-1] + h[1:]) / 3
        off = h[1:-1] / 6
        R = sparse.diags([off, main, off], [-1, 0, 1], shape=(n - 2, n - 2), format="csr")
        return Q, R

    def _r_solve_matrix(self, b: np.ndarray) -> np.ndarray:
        return self.R_lu.solve(np.ascontiguousarray(b))

    def _tangent_q_r(self, dh: np.ndarray) -> tuple[Any, Any]:
        import scipy.sparse as sparse

        h = self.h
        n = h.size + 1
        j = np.arange(1, n - 1)
        dinv = -dh / h ** 2
        dQ = sparse.csr_matrix((np.concatenate((dinv[j - 1], -dinv[j - 1] - dinv[j], dinv[j])),
                                (np.concatenate((j - 1, j, j + 1)), np.tile(j - 1, 3))), shape=(n, n - 2))
        main = (dh[:-1] + dh[1:]) / 3
        off = dh[1:-1] / 6
        dR = sparse.diags([off, main, off], [-1, 0, 1], shape=(n - 2, n - 2), format="csr")
        return dQ, dR

    def tangent(self, dx: Any, dy: Any, dw: Any, dlam: Any = None) -> Any:
        """``dg`` (shape ``(n, T)``) for tangents of the sites, the values, the weights and ``lam`` (``None``: zero)."""
        if dx is None and dy is None and dw is None and dlam is None:
            return None
        forcing = np.zeros(self.g.shape, dtype=np.result_type(self.g, *([] if dy is None else [dy])))
        if dlam is not None:
            forcing -= float(dlam) * np.asarray(self.Q @ self.gamma)  # -dlam K g
        if dy is not None:
            forcing += self.w[:, None] * dy
        if dw is not None:
            forcing += dw[:, None] * (self.y - self.g)
        if dx is not None:
            dQ, dR = self._tangent_q_r(np.diff(dx))
            dK_g = np.asarray(dQ @ self.gamma) - np.asarray(self.Q @ _solve(self.R_lu, np.asarray(dR @ self.gamma))) \
                + np.asarray(self.Q @ _solve(self.R_lu, np.asarray(dQ.T @ self.g)))
            forcing -= self.lam * dK_g
        return _solve(self.system, forcing)

    def transpose(self, gbar: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """``(xbar, ybar, wbar, lambar)`` from a cotangent of the smoothed values (``K`` is symmetric)."""
        mu = _solve(self.system, np.asarray(gbar), "T")
        lambar = -float(np.real(np.sum(np.conj(mu) * np.asarray(self.Q @ self.gamma))))
        ybar = self.w[:, None] * mu
        wbar = np.real(np.sum(np.conj(mu) * (self.y - self.g), axis=1))
        # -lam <mu, dK g>: dK g = dQ gamma - Q R^-1 dR gamma + Q R^-1 dQ^T g; with nu = R^-1 Q^T mu (R symmetric)
        nu = _solve(self.R_lu, np.asarray(self.Q.T @ mu))
        hbar = -self.lam * (self._q_transpose(mu, self.gamma) - self._r_transpose(nu, self.gamma)
                            + self._q_transpose(self.g, nu))
        xbar = np.zeros(self.x.size)
        xbar[1:] += hbar
        xbar[:-1] -= hbar
        return xbar, ybar, wbar, lambar

    def _q_transpose(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """``d/dh Re sum conj(left) . Q(h) right`` (``left`` ``(n, T)``, ``right`` ``(n - 2, T)``)."""
        h = self.h
        n = h.size + 1
        j = np.arange(1, n - 1)
        out = np.zeros(h.size)
        # column j-1 of Q: rows j-1, j, j+1 with 1/h_{j-1}, -1/h_{j-1} - 1/h_j, 1/h_j
        pair_prev = np.real(np.sum(np.conj(left[j - 1] - left[j]) * right, axis=1))  # times d(1/h_{j-1})
        pair_next = np.real(np.sum(np.conj(left[j + 1] - left[j]) * right, axis=1))  # times d(1/h_j)
        np.add.at(out, j - 1, -pair_prev / h[j - 1] ** 2)
        np.add.at(out, j, -pair_next / h[j] ** 2)
        return out

    def _r_transpose(self, left: np.ndarray, right: np.ndarray) -> np.ndarray:
        """``d/dh Re sum conj(left) . R(h) right`` (both ``(n - 2, T)``)."""
        h = self.h
        out = np.zeros(h.size)
        diag = np.real(np.sum(np.conj(left) * right, axis=1)) / 3  # R_jj = (h_{j-1} + h_j) / 3
        out[:-1] += diag
        out[1:] += diag
        cross = np.real(np.sum(np.conj(left[1:]) * right[:-1] + np.conj(left[:-1]) * right[1:], axis=1)) / 6
        out[1:-1] += cross  # R_{j, j+1} = R_{j+1, j} = h_j / 6
        return out
