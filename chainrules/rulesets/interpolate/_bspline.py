"""B-splines (``scipy.interpolate.BSpline``): evaluation, derivative, antiderivative and integral,
with their derivatives in the knots, the coefficients and the points (private).

The maths
---------
A spline of degree ``k`` with knots ``t`` and coefficients ``c`` is ``s(q) = sum_j c_j B_j(q)``
(de Boor, *A Practical Guide to Splines*, 2001, ch. IX). At a point in the knot interval
``t_l <= q < t_{l+1}`` only ``B_{l-k} .. B_l`` are non-zero; they and their ``nu``-th derivatives
come out of ``k`` steps of the Cox-de Boor recursion, ``k - nu`` value steps
``B_{j,r} = (q - t_j) / (t_{j+r} - t_j) B_{j,r-1} + (t_{j+r+1} - q) / (t_{j+r+1} - t_{j+1}) B_{j+1,r-1}``
then ``nu`` derivative steps ``B'_{j,r} = r (B_{j,r-1} / (t_{j+r} - t_j) - B_{j+1,r-1} / (t_{j+r+1} - t_{j+1}))``,
exactly as SciPy's ``_deBoor_D`` does (terms over a zero knot span are dropped). The
recursion reads the ``2k`` knots ``t_{l-k+1} .. t_{l+k}`` and the point; :func:`local_basis`
runs it in forward mode on all of them at once, which gives the derivatives of the
basis in each of those knots and in the point (the derivative in a knot is the classical
knot-insertion formula of Lyche & Morken, computed here without inserting anything).
Hence, with ``G = sum_j c_j dB_j``: ``ds = sum_j dc_j B_j + G_t . dt_local + s^(nu+1)(q) dq``.

``derivative`` maps ``(t, c, k)`` to ``(t[1:-1], k (c_{j+1} - c_j) / (t_{j+k+1} - t_{j+1}), k - 1)`` and
``antiderivative`` to ``([t_0, t, t_end], [0, cumsum(c_j (t_{j+k+1} - t_j)) / (k + 1), ...], k + 1)``
(SciPy's ``splder`` / ``splantider``, Schumaker, *Spline Functions*, ch. 5): explicit in
``t`` and ``c``. ``integrate(a, b)`` is a signed sum of antiderivative values at points that
are linear in ``a``, ``b`` and the ends ``t_k``, ``t_n`` of the base interval (clipped
without extrapolation, wrapped around periods with ``'periodic'``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["AntiderivativeStep", "BSplineIntegral", "DerivativeStep", "PadStep", "SplineEval", "locate", "local_basis"]


def locate(t: np.ndarray, k: int, q: np.ndarray, extrapolate: bool) -> np.ndarray:
    """The knot interval ``l`` of each point (``t_l <= q < t_{l+1}``, ``k <= l <= n - 1``; ``-1`` for NaN).

    As SciPy's ``_find_interval``: the last interval is closed; outside ``[t_k, t_n]`` the
    first or last interval when extrapolating, else ``-1``.

    Examples
    --------
    >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
    >>> locate(t, 1, np.array([-1.0, 0.0, 1.0, 2.0, 3.0]), False)
    array([-1,  1,  2,  2, -1])
    """
    n = t.size - k - 1
    l = np.clip(np.searchsorted(t, q, side="right") - 1, k, n - 1)
    bad = np.isnan(q)
    if not extrapolate:
        bad |= (q < t[k]) | (q > t[n])
    return np.where(bad, -1, l)


def local_basis(t: np.ndarray, k: int, q: np.ndarray, l: np.ndarray, nu: int,
                jacobian: bool = False) -> tuple[np.ndarray, Any]:
    """The ``nu``-th derivatives of ``B_{l-k} .. B_l`` at ``q`` (shape ``(P, k + 1)``), and with
    ``jacobian`` their derivatives (shape ``(P, k + 1, 2k + 1)``) in the knots ``t_{l-k+1} .. t_{l+k}``
    (the first ``2k``) and in the point (the last). ``l`` must be a valid interval.

    Examples
    --------
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])                     # k = 1: the hat functions 1 - q, q
    >>> B, dB = local_basis(t, 1, np.array([0.25]), np.array([1]), 0, jacobian=True)
    >>> B, dB[0, :, 2]                                          # and their slopes -1, 1
    (array([[0.75, 0.25]]), array([-1.,  1.]))
    """
    P = q.size
    D = 2 * k + 1
    h = np.zeros((P, k + 1))
    h[:, 0] = 1.0
    dh = np.zeros((P, k + 1, D)) if jacobian else None
    if k == 0 or nu > k:
        if nu > k:
            h[:] = 0.0
        return h, dh
    K = t[l[:, None] + np.arange(-k + 1, k + 1)]
    for j in range(1, k + 1):
        hh = h[:, :j].copy()
        dhh = dh[:, :j].copy() if dh is not None else None
        h[:, 0] = 0.0
        if dh is not None:
            dh[:, 0] = 0.0
        derivative_step = j > k - nu
        for m in range(1, j + 1):
            ib, ia = m + k - 1, m - j + k - 1
            xb, xa = K[:, ib], K[:, ia]
            span = xb - xa
            ok = span != 0
            safe = np.where(ok, span, 1.0)
            scale = j if derivative_step else 1.0
            w = np.where(ok, scale * hh[:, m - 1] / safe, 0.0)
            if derivative_step:
                h[:, m - 1] -= w
                h[:, m] = w
            else:
                h[:, m - 1] += w * (xb - q)
                h[:, m] = w * (q - xa)
            if dh is None or dhh is None:
                continue
            # dw = scale * dhh / span - w (d xb - d xa) / span
            dw = np.where(ok[:, None], scale * dhh[:, m - 1] / safe[:, None], 0.0)
            dw[:, ib] -= w / safe
            dw[:, ia] += w / safe
            if derivative_step:
                dh[:, m - 1] -= dw
                dh[:, m] = dw
            else:
                left = dw * (xb - q)[:, None]
                left[:, ib] += w
                left[:, D - 1] -= w
                dh[:, m - 1] += left
                right = dw * (q - xa)[:, None]
                right[:, D - 1] += w
                right[:, ia] -= w
                dh[:, m] = right
    return h, dh


class SplineEval:
    """``s^(nu)(q)`` for a spline ``(t, c, k)`` (``c`` of shape ``(ncoef, T)``), with its derivatives.

    ``mode`` says what happens outside the base interval ``[t_k, t_n]``: ``'extrapolate'``,
    ``'nan'`` (no value, no derivative), ``'zero'`` (``splev``'s ``ext=1``), ``'clip'`` (``ext=3``:
    the value at the nearest end, which moves with that knot) or ``'periodic'``.

    Examples
    --------
    >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])                # the hat on [0, 2] with c = (0, 1, 0)
    >>> ev = SplineEval(t, np.array([[0.0], [1.0], [0.0]]), 1, np.array([0.5, 1.5]), 0, "extrapolate")
    >>> ev.values()[:, 0], ev.transpose(np.ones((2, 1)))[2]    # slopes 1 and -1
    (array([0.5, 0.5]), array([ 1., -1.]))
    """

    def __init__(self, t: np.ndarray, c: np.ndarray, k: int, q: np.ndarray, nu: int, mode: str) -> None:
        self.t, self.c, self.k, self.nu = np.asarray(t, dtype=np.float64), c, int(k), int(nu)
        q = np.asarray(q, dtype=np.float64).reshape(-1)
        n = self.t.size - self.k - 1
        self.n = n
        tk, tn = self.t[self.k], self.t[n]
        self.coef_k = np.zeros(q.size)  # d q_eff / d t_k
        self.coef_n = np.zeros(q.size)  # d q_eff / d t_n
        self.coef_q = np.ones(q.size)   # d q_eff / d q
        if mode == "periodic":
            turns = np.floor((q - tk) / (tn - tk))
            q_eff = tk + (q - tk) % (tn - tk)
            self.coef_k, self.coef_n = turns.copy(), -turns
        elif mode == "clip":
            below, above = q < tk, q > tn
            q_eff = np.clip(q, tk, tn)
            self.coef_q = np.where(below | above, 0.0, 1.0)
            self.coef_k, self.coef_n = below * 1.0, above * 1.0
        else:
            q_eff = q
        self.q = q_eff
        located = locate(self.t, self.k, q_eff, mode in ("extrapolate", "periodic", "clip"))
        self.valid = located >= 0
        self.l = np.where(self.valid, located, self.k)
        self._basis: Any = None
        self._basis_jacobian: Any = None
        self._jacobian: Any = None

    @property
    def index(self) -> np.ndarray:
        """The coefficient index of each local basis function, shape ``(P, k + 1)``."""
        return self.l[:, None] + np.arange(-self.k, 1)

    def basis(self) -> np.ndarray:
        if self._basis is None:
            B, _ = local_basis(self.t, self.k, self.q, self.l, self.nu)
            self._basis = B * self.valid[:, None]
        return self._basis

    def basis_jacobian(self) -> np.ndarray:
        """``dB``: the basis' derivatives in the local knots and the point, shape ``(P, k + 1, 2k + 1)``."""
        if self._basis_jacobian is None:
            _, dB = local_basis(self.t, self.k, self.q, self.l, self.nu, jacobian=True)
            self._basis_jacobian = dB * self.valid[:, None, None]
        return self._basis_jacobian

    def jacobian(self) -> np.ndarray:
        """``G = sum_j c_j dB_j``: shape ``(P, 2k + 1, T)`` (the local knots, then the point)."""
        if self._jacobian is None:
            self._jacobian = np.einsum("pjd,pjT->pdT", self.basis_jacobian(), self.c[self.index])
        return self._jacobian

    def _local_moves(self, dt: Any, dq: Any) -> np.ndarray:
        """The tangent of each point's local knots and (mapped) point: shape ``(P, 2k + 1)``."""
        moves = np.zeros((self.q.size, 2 * self.k + 1))
        step = np.zeros(self.q.size)
        if dq is not None:
            step = step + self.coef_q * np.asarray(dq, dtype=np.float64).reshape(-1)
        if dt is not None:
            dt = np.asarray(dt, dtype=np.float64)
            step = step + self.coef_k * dt[self.k] + self.coef_n * dt[self.n]
            if self.k > 0:
                moves[:, :-1] = dt[self.l[:, None] + np.arange(-self.k + 1, self.k + 1)]
        moves[:, -1] = step
        return moves

    def basis_tangent_transpose(self, v: np.ndarray, dt: Any, dq: Any) -> np.ndarray:
        """``dA^T v``: the tangent of ``A^T v`` (``A`` the basis at the points) for tangents of the knots
        and the points, shape ``(ncoef, T)``."""
        dA = np.einsum("pjd,pd->pj", self.basis_jacobian(), self._local_moves(dt, dq))  # (P, k + 1)
        out = np.zeros(self.c.shape, dtype=np.result_type(v, np.float64))
        weights = dA[:, :, None] * np.asarray(v).reshape(self.q.size, -1)[:, None, :]
        index = np.broadcast_to(self.index[:, :, None], weights.shape)
        column = np.broadcast_to(np.arange(out.shape[1]), weights.shape)
        np.add.at(out, (index.ravel(), column.ravel()), weights.ravel())
        return out

    def values(self) -> np.ndarray:
        """``s^(nu)(q)`` (zero where there is no value), shape ``(P, T)``."""
        return np.einsum("pj,pjT->pT", self.basis(), self.c[self.index])

    def tangent(self, dt: Any, dc: Any, dq: Any) -> Any:
        """``ds`` (shape ``(P, T)``) for tangents of the knots, the coefficients and the points (``None``: zero)."""
        total: Any = None
        if dc is not None:
            total = np.einsum("pj,pjT->pT", self.basis(), np.asarray(dc).reshape(self.c.shape)[self.index])
        step = np.zeros(self.q.size)
        if dq is not None:
            step = step + self.coef_q * np.asarray(dq, dtype=np.float64).reshape(-1)
        if dt is not None:
            dt = np.asarray(dt, dtype=np.float64)
            step = step + self.coef_k * dt[self.k] + self.coef_n * dt[self.n]
        if dt is not None or dq is not None:
            G = self.jacobian()
            moved = G[:, -1] * step[:, None]
            if dt is not None and self.k > 0:
                local = dt[self.l[:, None] + np.arange(-self.k + 1, self.k + 1)]  # (P, 2k)
                moved = moved + np.einsum("pdT,pd->pT", G[:, :-1], local)
            total = moved if total is None else total + moved
        return total

    def transpose(self, ybar: np.ndarray, want_t: bool = True, want_c: bool = True,
                  want_q: bool = True) -> tuple[Any, Any, Any]:
        """``(tbar, cbar, qbar)`` from a cotangent ``ybar`` of shape ``(P, T)`` (``None`` for the unwanted)."""
        ybar = np.asarray(ybar).reshape(self.q.size, -1)
        cbar = qbar = tbar = None
        if want_c:
            cbar = np.zeros(self.c.shape, dtype=np.result_type(ybar, np.float64))
            weights = self.basis()[:, :, None] * ybar[:, None, :]  # (P, k + 1, T)
            index = np.broadcast_to(self.index[:, :, None], weights.shape)
            column = np.broadcast_to(np.arange(cbar.shape[1]), weights.shape)
            np.add.at(cbar, (index.ravel(), column.ravel()), weights.ravel())
        if want_t or want_q:
            G = self.jacobian()
            moves = np.real(np.einsum("pdT,pT->pd", np.conj(G), ybar))  # (P, 2k + 1)
            q_moves = moves[:, -1]
            if want_q:
                qbar = self.coef_q * q_moves
            if want_t:
                tbar = np.zeros(self.t.size)
                if self.k > 0:
                    local = self.l[:, None] + np.arange(-self.k + 1, self.k + 1)
                    tbar += np.bincount(local.ravel(), moves[:, :-1].ravel(), self.t.size)
                tbar[self.k] += np.sum(self.coef_k * q_moves)
                tbar[self.n] += np.sum(self.coef_n * q_moves)
        return tbar, cbar, qbar


def _padded(t: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``c`` padded with zeros to the length of ``t`` (FITPACK's convention, as SciPy's methods do)."""
    extra = t.size - c.shape[0]
    if extra > 0:
        return np.concatenate((c, np.zeros((extra,) + c.shape[1:], dtype=c.dtype)))
    return c


class PadStep:
    """``derivative(0)`` and ``antiderivative(0)``: the same knots, ``c`` padded to their length.

    Examples
    --------
    >>> PadStep(np.arange(4.0), np.ones((2, 1))).c[:, 0]
    array([1., 1., 0., 0.])
    """

    def __init__(self, t: np.ndarray, c: np.ndarray) -> None:
        self.t, self.ncoef_in = t, c.shape[0]
        self.c = _padded(t, c)

    def tangent(self, dt: Any, dc: Any) -> tuple[Any, Any]:
        return dt, None if dc is None else _padded(self.t, np.asarray(dc))

    def transpose(self, tbar: Any, cbar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (np.zeros(self.t.size) if tbar is None else tbar), cbar[:self.ncoef_in]


class DerivativeStep:
    """One step of ``splder``: ``(t, c, k) -> (t[1:-1], k (c_{j+1} - c_j) / (t_{j+k+1} - t_{j+1}) (padded), k - 1)``.

    ``c`` has shape ``(ncoef, T)``.

    Examples
    --------
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])                     # the line c0 (1 - q) + c1 q
    >>> step = DerivativeStep(t, np.array([[1.0], [3.0]]), 1)
    >>> step.c[:, 0], step.t                                    # the constant 2
    (array([2., 0.]), array([0., 1.]))
    """

    def __init__(self, t: np.ndarray, c: np.ndarray, k: int) -> None:
        self.t_in, self.k = t, k
        self.c_in = _padded(t, c)
        self.span = t[k + 1:-1] - t[1:-k - 1]
        m = self.span.size
        self.diff = self.c_in[1:m + 1] - self.c_in[:m]
        self.t = t[1:-1]
        padding = np.zeros((k,) + c.shape[1:], dtype=self.diff.dtype)
        self.c = np.concatenate((self.diff * k / self.span[:, None], padding))
        self.ncoef_in = c.shape[0]

    def tangent(self, dt: Any, dc: Any) -> tuple[Any, Any]:
        k, m = self.k, self.span.size
        out = np.zeros(self.c.shape, dtype=np.result_type(self.c, *([] if dc is None else [np.asarray(dc)])))
        if dc is not None:
            dcp = _padded(self.t_in, np.asarray(dc))
            out[:m] += (dcp[1:m + 1] - dcp[:m]) * k / self.span[:, None]
        if dt is not None:
            dspan = dt[k + 1:-1] - dt[1:-k - 1]
            out[:m] -= self.diff * (k * dspan / self.span ** 2)[:, None]
        return (None if dt is None else dt[1:-1]), out

    def transpose(self, tbar: Any, cbar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k, m = self.k, self.span.size
        tbar_in = np.zeros(self.t_in.size)
        if tbar is not None:
            tbar_in[1:-1] += tbar
        g = cbar[:m] * k / self.span[:, None]
        cbar_in = np.zeros(self.c_in.shape, dtype=np.result_type(cbar, np.float64))
        cbar_in[1:m + 1] += g
        cbar_in[:m] -= g
        spanbar = -np.real(np.sum(np.conj(self.diff) * cbar[:m], axis=1)) * k / self.span ** 2
        tbar_in[k + 1:-1] += spanbar
        tbar_in[1:-k - 1] -= spanbar
        return tbar_in, cbar_in[:self.ncoef_in]


class AntiderivativeStep:
    """One step of ``splantider``: ``c' = [0, cumsum(c_j (t_{j+k+1} - t_j)) / (k + 1), last x (k + 2)]``,
    ``t' = [t_0, t, t_end]``, degree ``k + 1``. ``c`` has shape ``(ncoef, T)``.

    Examples
    --------
    >>> t = np.array([0.0, 1.0])                                # the constant 2 on [0, 1] (k = 0)
    >>> step = AntiderivativeStep(t, np.array([[2.0]]), 0)
    >>> step.c[:, 0], step.t                                    # the line 2 q
    (array([0., 2., 2., 2.]), array([0., 0., 1., 1.]))
    """

    def __init__(self, t: np.ndarray, c: np.ndarray, k: int) -> None:
        self.t_in, self.k = t, k
        self.ncoef_in = c.shape[0]
        self.c_in = _padded(t, c)
        self.n = t.size - k - 1
        self.span = t[k + 1:] - t[:-k - 1]
        sums = np.cumsum(self.c_in[:self.n] * self.span[:, None], axis=0) / (k + 1)
        self.t = np.concatenate(([t[0]], t, [t[-1]]))
        self.c = np.concatenate((np.zeros((1,) + sums.shape[1:], dtype=sums.dtype), sums,
                                 np.repeat(sums[-1:], k + 2, axis=0)))

    def tangent(self, dt: Any, dc: Any) -> tuple[Any, Any]:
        k, n = self.k, self.n
        dtype = np.result_type(self.c_in, *([] if dc is None else [np.asarray(dc)]))
        inner = np.zeros(self.c_in[:n].shape, dtype=dtype)
        if dc is not None:
            inner += _padded(self.t_in, np.asarray(dc))[:n] * self.span[:, None]
        if dt is not None:
            inner += self.c_in[:n] * (dt[k + 1:] - dt[:-k - 1])[:, None]
        sums = np.cumsum(inner, axis=0) / (k + 1)
        first = np.zeros((1,) + sums.shape[1:], dtype=sums.dtype)
        out = np.concatenate((first, sums, np.repeat(sums[-1:], k + 2, axis=0)))
        t_out = None if dt is None else np.concatenate(([dt[0]], dt, [dt[-1]]))
        return t_out, out

    def transpose(self, tbar: Any, cbar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k, n = self.k, self.n
        sums_bar = cbar[1:n + 1].copy()
        sums_bar[-1] += np.sum(cbar[n + 1:], axis=0)
        inner_bar = np.cumsum(sums_bar[::-1], axis=0)[::-1] / (k + 1)
        cbar_in = np.zeros(self.c_in.shape, dtype=np.result_type(cbar, np.float64))
        cbar_in[:n] = inner_bar * self.span[:, None]
        spanbar = np.real(np.sum(np.conj(self.c_in[:n]) * inner_bar, axis=1))
        tbar_in = np.zeros(self.t_in.size)
        tbar_in[k + 1:] += spanbar
        tbar_in[:-k - 1] -= spanbar
        if tbar is not None:
            tbar_in += tbar[1:-1]
            tbar_in[0] += tbar[0]
            tbar_in[-1] += tbar[-1]
        return tbar_in, cbar_in[:self.ncoef_in]


class BSplineIntegral:
    """``BSpline.integrate(a, b, extrapolate)`` as ``sign * sum_i w_i A(p_i)`` with its derivatives.

    ``A`` is the antiderivative spline; each point ``p_i = alpha_i . (a, b, t_k, t_n)`` (after
    ordering the bounds), clipped to the base interval without extrapolation, wrapped around
    whole periods with ``'periodic'`` as SciPy splits the integral.

    Examples
    --------
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])                     # the line 1 + 2 q on [0, 1]
    >>> BSplineIntegral(t, np.array([[1.0], [3.0]]), 1, 0.0, 1.0, True).value()
    array([2.])
    """

    def __init__(self, t: np.ndarray, c: np.ndarray, k: int, a: float, b: float, extrapolate: Any) -> None:
        self.t, self.k = np.asarray(t, dtype=np.float64), int(k)
        n = self.t.size - self.k - 1
        self.n = n
        self.anti = AntiderivativeStep(self.t, c, self.k)
        a, b = float(a), float(b)
        unit = np.eye(4)
        va, vb = unit[0], unit[1]
        self.sign = 1.0
        if b < a:
            a, b, va, vb = b, a, vb, va
            self.sign = -1.0
        ts, te = self.t[self.k], self.t[n]
        vs, ve = unit[2], unit[3]
        terms: list[tuple[float, np.ndarray]] = []
        if extrapolate == "periodic":
            period = te - ts
            n_periods, left = divmod(b - a, period)
            if n_periods > 0:
                terms += [(n_periods, ve), (-n_periods, vs)]
            turns = np.floor((a - ts) / period)
            a_wrapped = ts + (a - ts) % period
            v_wrapped = va + turns * (vs - ve)
            v_left = vb - va - n_periods * (ve - vs)
            end = a_wrapped + left
            if end <= te:
                terms += [(1.0, v_wrapped + v_left), (-1.0, v_wrapped)]
            else:
                terms += [(1.0, ve), (-1.0, v_wrapped), (1.0, vs + v_wrapped + v_left - ve), (-1.0, vs)]
        elif not extrapolate:
            lo = va if a >= ts else vs  # on an end: the side inside the base interval
            hi = vb if b <= te else ve
            terms += [(1.0, hi), (-1.0, lo)]
        else:
            terms += [(1.0, vb), (-1.0, va)]
        self.weights = np.array([w for w, _ in terms])
        self.alpha = np.array([v for _, v in terms])  # (points, 4)
        # the alphas are over (a, b, t_k, t_n) as given: unit vectors were swapped with the bounds
        given = np.array([a, b, ts, te]) if self.sign > 0 else np.array([b, a, ts, te])
        self.points = self.alpha @ given
        self.eval = SplineEval(self.anti.t, self.anti.c, self.k + 1, self.points, 0, "extrapolate")

    def value(self) -> np.ndarray:
        return self.sign * np.einsum("p,pT->T", self.weights, self.eval.values())

    def tangent(self, dt: Any, dc: Any, da: Any, db: Any) -> np.ndarray:
        """``dI`` (shape ``(T,)``) for tangents of the knots, the coefficients and the bounds (``None``: zero)."""
        dta, dca = self.anti.tangent(dt, dc) if (dt is not None or dc is not None) else (None, None)
        moves = np.array([0.0 if da is None else float(da), 0.0 if db is None else float(db),
                          0.0 if dt is None else dt[self.k], 0.0 if dt is None else dt[self.n]])
        dq = self.alpha @ moves
        dA = self.eval.tangent(dta, dca, dq if np.any(dq) else None)
        if dA is None:
            return np.zeros(self.anti.c.shape[1:], dtype=self.anti.c.dtype)
        return self.sign * np.einsum("p,pT->T", self.weights, dA)

    def transpose(self, ibar: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
        """``(tbar, cbar, abar, bbar)`` from the cotangent ``ibar`` (shape ``(T,)``) of the integral."""
        ybar = self.sign * self.weights[:, None] * np.asarray(ibar).reshape(1, -1)
        tabar, cabar, qbar = self.eval.transpose(ybar)
        moves = self.alpha.T @ qbar  # (4,): over (a, b, t_k, t_n) as given
        tbar, cbar = self.anti.transpose(tabar, cabar)
        tbar[self.k] += moves[2]
        tbar[self.n] += moves[3]
        return tbar, cbar, float(moves[0]), float(moves[1])
