"""Cubic Hermite interpolation and the slopes of ``CubicSpline``, ``PchipInterpolator`` and
``Akima1DInterpolator``, with their tangents and adjoints (private).

The maths
---------
With ``h_i = x_{i+1} - x_i`` and the secants ``m_i = (y_{i+1} - y_i) / h_i``, a cubic Hermite
piece with end slopes ``d_i, d_{i+1}`` has coefficients (``CubicHermiteSpline``)

    ``t = (d_i + d_{i+1} - 2 m_i) / h_i``,  ``c = (t / h_i, (m_i - d_i) / h_i - t, d_i, y_i)``,

explicit in ``(x, y, d)``: :func:`hermite_tangent` and :func:`hermite_transpose` are its
derivative and adjoint, term by term.

``CubicSpline`` finds the slopes ``s`` from conditions linear in ``s`` (de Boor, *A Practical
Guide to Splines*, 2001, ch. IV): the second derivative continuous at each interior node,
``h_i s_{i-1} + 2 (h_{i-1} + h_i) s_i + h_{i-1} s_{i+1} = 3 (h_i m_{i-1} + h_{i-1} m_i)``, and one
row per end: not-a-knot (the third derivative continuous at the second node,
``h_1^2 (s_0 + s_1 - 2 m_0) = h_0^2 (s_1 + s_2 - 2 m_1)``), a first derivative ``s_0 = v``, a
second derivative ``6 m_0 - 4 s_0 - 2 s_1 = v h_0``, or periodicity (``s_{n-1} = s_0`` and
continuity at the wrapped node). SciPy solves an equivalent system (rows combined); its
special cases follow the same conditions: two points take the secant as the slope, three
points with not-a-knot at both ends take the parabola through them. Writing the conditions
as ``R(s, h, m, v) = 0``, the implicit function theorem gives
``ds = -(dR/ds)^{-1} (dR/dh dh + dR/dm dm + dR/dv dv)`` and the adjoint
``lambda = -(dR/ds)^{-T} sbar``, ``(hbar, mbar, vbar) = (dR/dh, dR/dm, dR/dv)^T lambda``: one
sparse solve (banded, with periodic corners) for any number of right-hand sides.

``PchipInterpolator`` (Fritsch & Carlson, SIAM J. Numer. Anal. 17(2), 1980, with Moler's
end formula) takes at an interior node the weighted harmonic mean of the secants,
``d = (w1 + w2) m_{k-1} m_k / (w1 m_k + w2 m_{k-1})``, ``w1 = 2 h_k + h_{k-1}``, ``w2 = h_k + 2 h_{k-1}``,
or 0 where the secants change sign or vanish; at the ends a one-sided three-point estimate,
set to 0 or ``3 m_0`` where it would break monotonicity. ``Akima1DInterpolator`` (Akima, J. ACM
17(4), 1970; ``makima``: Moler 2019) takes ``d = m_{k-1} + f2 / (f1 + f2) (m_k - m_{k-1})`` with
``f1 = |m_{k+1} - m_k|``, ``f2 = |m_{k-1} - m_{k-2}|`` (plus ``|m_{k+1} + m_k| / 2`` and
``|m_{k-1} + m_{k-2}| / 2`` for ``makima``) on secants extended by two linear ghosts at each end,
and the mean of the outer two where ``f1 + f2`` is negligible. Both are explicit and smooth
between the switches of their branches, where the derivative is that of the branch SciPy
takes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CubicSplineSlopes", "LocalSlopes", "akima_slopes", "hermite_coefficients", "hermite_tangent",
           "hermite_transpose", "local_tangent", "local_transpose", "pchip_slopes", "secants"]


def secants(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``h`` (shape ``(n-1,)``) and ``m`` (shape ``(n-1, T)``) for ``y`` of shape ``(n, T)``.

    Examples
    --------
    >>> secants(np.array([0.0, 2.0]), np.array([[1.0], [5.0]]))
    (array([2.]), array([[2.]]))
    """
    h = np.diff(x)
    return h, np.diff(y, axis=0) / h[:, None]


def _d_secants(h: np.ndarray, m: np.ndarray, dx: Any, dy: Any) -> tuple[np.ndarray, np.ndarray]:
    """The tangents of ``h`` and ``m``."""
    dh = np.zeros_like(h) if dx is None else np.diff(dx)
    dm = -m * (dh / h)[:, None]
    if dy is not None:
        dm = dm + np.diff(dy, axis=0) / h[:, None]
    return dh, dm


def _secants_transpose(h: np.ndarray, m: np.ndarray, hbar: np.ndarray,
                       mbar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(xbar, ybar)`` from the cotangents of ``h`` and ``m``."""
    n = h.size + 1
    scaled = mbar / h[:, None]
    ybar = np.zeros((n,) + mbar.shape[1:], dtype=mbar.dtype)
    ybar[1:] += scaled
    ybar[:-1] -= scaled
    hbar_total = hbar - np.real(np.sum(np.conj(m) * scaled, axis=1))
    xbar = np.zeros(n)
    xbar[1:] += hbar_total
    xbar[:-1] -= hbar_total
    return xbar, ybar


# ---- Hermite coefficients ----------------------------------------------------------------------------
def hermite_coefficients(x: np.ndarray, y: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``CubicHermiteSpline``'s coefficients: shape ``(4, n-1, T)``.

    Examples
    --------
    >>> hermite_coefficients(np.array([0.0, 1.0]), np.array([[0.0], [1.0]]), np.array([[1.0], [1.0]]))[:, 0, 0]
    array([0., 0., 1., 0.])
    """
    h, m = secants(x, y)
    hr = h[:, None]
    t = (d[:-1] + d[1:] - 2 * m) / hr
    return np.stack((t / hr, (m - d[:-1]) / hr - t, d[:-1], y[:-1]))


def hermite_tangent(x: np.ndarray, y: np.ndarray, d: np.ndarray, dx: Any, dy: Any, dd: Any) -> np.ndarray:
    """The tangent of :func:`hermite_coefficients` (``None`` for zero tangents)."""
    h, m = secants(x, y)
    hr = h[:, None]
    dh, dm = _d_secants(h, m, dx, dy)
    dhr = dh[:, None]
    dd = np.zeros_like(d) if dd is None else dd
    t = (d[:-1] + d[1:] - 2 * m) / hr
    dt = (dd[:-1] + dd[1:] - 2 * dm) / hr - t * dhr / hr
    dc0 = dt / hr - t * dhr / hr ** 2
    dc1 = (dm - dd[:-1]) / hr - (m - d[:-1]) * dhr / hr ** 2 - dt
    dy_part = np.zeros_like(y[:-1]) if dy is None else dy[:-1]
    return np.stack((dc0, dc1, dd[:-1] + 0 * dc0, dy_part + 0 * dc0))


def hermite_transpose(x: np.ndarray, y: np.ndarray, d: np.ndarray, cbar: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(xbar, ybar, dbar)`` from the cotangent ``cbar`` of :func:`hermite_coefficients`."""
    h, m = secants(x, y)
    hr = h[:, None]
    t = (d[:-1] + d[1:] - 2 * m) / hr
    c0bar, c1bar, c2bar, c3bar = cbar[0], cbar[1], cbar[2], cbar[3]
    # c0 = t / h, c1 = (m - d_i) / h - t
    tbar = c0bar / hr - c1bar
    mbar = c1bar / hr
    dbar = np.zeros(d.shape, dtype=np.result_type(cbar, d))
    dbar[:-1] += c2bar - c1bar / hr
    hbar = -np.real(np.sum(np.conj(t / hr ** 2) * c0bar + np.conj((m - d[:-1]) / hr ** 2) * c1bar, axis=1))
    # t = (d_i + d_{i+1} - 2 m) / h
    dbar[:-1] += tbar / hr
    dbar[1:] += tbar / hr
    mbar = mbar - 2 * tbar / hr
    hbar = hbar - np.real(np.sum(np.conj(t / hr) * tbar, axis=1))
    ybar = np.zeros(y.shape, dtype=np.result_type(cbar, y))
    ybar[:-1] += c3bar
    xbar, ybar_m = _secants_transpose(h, m, hbar, mbar)
    return xbar, ybar + ybar_m, dbar


# ---- CubicSpline's slopes ------------------------------------------------------------------------------
class CubicSplineSlopes:
    """The slope conditions of ``CubicSpline`` as ``R(s, h, m, v) = 0``, with their derivatives.

    Parameters
    ----------
    x, y : ndarray
        The sites (increasing) and values, shape ``(n, T)``.
    s : ndarray
        The slopes SciPy found (shape ``(n, T)``): the conditions are linearised there.
    bc : tuple
        SciPy's validated conditions at each end: ``'not-a-knot'``, ``'periodic'`` or
        ``(order, value)``.

    Examples
    --------
    >>> import scipy.interpolate as si
    >>> x, y = np.array([0.0, 1.0, 2.5, 3.0]), np.array([[0.0], [1.0], [0.5], [2.0]])
    >>> s = si.CubicSpline(x, y[:, 0]).c[2][:, None]
    >>> s = np.vstack([s, [[si.CubicSpline(x, y[:, 0])(3.0, 1)]]])
    >>> bool(np.allclose(CubicSplineSlopes(x, y, s, ("not-a-knot", "not-a-knot")).residual(), 0))
    True
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, s: np.ndarray, bc: tuple[Any, Any]) -> None:
        self.x, self.y, self.s, self.bc = x, y, s, bc
        self.n = x.size
        self.h, self.m = secants(x, y)
        self.periodic = bc[0] == "periodic"
        n = self.n
        self.unknowns = n - 1 if self.periodic and n > 2 else n
        self._lu: Any = None
        self._cached: Any = None

    # Every row is a list of (kind, index, coefficient array or scalar) for the partials
    # dR/ds, dR/dh, dR/dm, dR/dv; its value is sum(ds-part * s) - rhs. Rows are built from the
    # current (h, m, s, v), so each "coefficient" is a partial derivative there.
    def _rows(self) -> list[dict[str, Any]]:
        n, h, m, s = self.n, self.h, self.m, self.s
        bc = list(self.bc)
        rows: list[dict[str, Any]] = []

        def c2(i: int, left: int, right: int, s_prev: int, s_mid: int, s_next: int) -> dict[str, Any]:
            # h_r s_prev + 2 (h_l + h_r) s_mid + h_l s_next - 3 (h_r m_l + h_l m_r) = 0, l/r the intervals
            hl, hr = h[left], h[right]
            s_part: dict[int, Any] = {}
            for j, coefficient in ((s_prev, hr), (s_mid, 2 * (hl + hr)), (s_next, hl)):
                s_part[j] = s_part.get(j, 0.0) + coefficient  # periodic with three points: s_prev is s_next
            return {"s": s_part,
                    "h": {left: 2 * s[s_mid] + s[s_next] - 3 * m[right], right: s[s_prev] + 2 * s[s_mid] - 3 * m[left]},
                    "m": {left: -3 * hr, right: -3 * hl}, "v": None}

        if n == 2:
            for end in (0, 1):
                if bc[end] in ("not-a-knot", "periodic"):
                    bc[end] = (1, None)  # the secant (SciPy's convention)
        if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
            # the parabola through the three points: third derivative zero on both intervals
            rows.append({"s": {0: 1.0, 1: 1.0}, "h": {}, "m": {0: -2.0}, "v": None})
            rows.append(c2(1, 0, 1, 0, 1, 2))
            rows.append({"s": {1: 1.0, 2: 1.0}, "h": {}, "m": {1: -2.0}, "v": None})
            return rows
        if self.periodic and n > 2:
            # unknowns s_0 .. s_{n-2}; s_{n-1} = s_0; continuity at every node, node 0 wrapping around
            last = n - 2
            rows.append(c2(0, last, 0, last, 0, 1 if n > 3 else 1 % (n - 1)))
            for i in range(1, n - 1):
                rows.append(c2(i, i - 1, i, i - 1, i, (i + 1) % (n - 1)))
            return rows
        rows.append(self._end_row(0, bc[0]))
        for i in range(1, n - 1):
            rows.append(c2(i, i - 1, i, i - 1, i, i + 1))
        rows.append(self._end_row(1, bc[1]))
        return rows

    def _end_row(self, end: int, condition: Any) -> dict[str, Any]:
        n, h, m, s = self.n, self.h, self.m, self.s
        if condition == "not-a-knot":
            # h_b^2 (s_a + s_b - 2 m_a) - h_a^2 (s_b + s_c - 2 m_b) = 0 on the first (or last) two intervals
            if end == 0:
                a, b, sa, sb, sc = 0, 1, 0, 1, 2
            else:
                a, b, sa, sb, sc = n - 3, n - 2, n - 3, n - 2, n - 1
            ha, hb = h[a], h[b]
            first, second = s[sa] + s[sb] - 2 * m[a], s[sb] + s[sc] - 2 * m[b]
            return {"s": {sa: hb ** 2, sb: hb ** 2 - ha ** 2, sc: -ha ** 2},
                    "h": {a: -2 * ha * second, b: 2 * hb * first}, "m": {a: -2 * hb ** 2, b: 2 * ha ** 2}, "v": None}
        order, value = condition
        if order == 1:
            if value is None:  # two points: the secant
                return {"s": {0 if end == 0 else n - 1: 1.0}, "h": {}, "m": {0: -1.0}, "v": None}
            return {"s": {0 if end == 0 else n - 1: 1.0}, "h": {}, "m": {}, "v": -1.0}
        v = np.asarray(value)
        if end == 0:  # 6 m_0 - 4 s_0 - 2 s_1 - v h_0 = 0
            return {"s": {0: -4.0, 1: -2.0}, "h": {0: -v + 0 * m[0]}, "m": {0: 6.0}, "v": -h[0]}
        # -6 m_{n-2} + 2 s_{n-2} + 4 s_{n-1} - v h_{n-2} = 0
        return {"s": {n - 2: 2.0, n - 1: 4.0}, "h": {n - 2: -v + 0 * m[n - 2]}, "m": {n - 2: -6.0}, "v": -h[n - 2]}

    # The rows as triplets, interior rows built at once (the end rows and the special cases of two
    # and three points from the row dictionaries above): dR/ds (values), dR/dh (values over T),
    # dR/dm (values) and dR/dv (row, value over T) for each end.
    def _triplets(self) -> dict[str, Any]:
        if self._cached is not None:
            return self._cached
        n, h, m, s = self.n, self.h, self.m, self.s
        parts: dict[str, list[Any]] = {k: [] for k in ("sr", "sc", "sv", "hr", "hc", "hv", "mr", "mc", "mv")}
        v_rows: list[tuple[int, int, Any]] = []
        special = n <= 3
        if special:
            rows = self._rows()
            dict_rows = list(enumerate(rows))
        else:
            if self.periodic:
                i = np.arange(n - 1)
                left, right = (i - 1) % (n - 1), i
                prev, mid, nxt, row = (i - 1) % (n - 1), i, (i + 1) % (n - 1), i
                dict_rows = []
            else:
                i = np.arange(1, n - 1)
                left, right, prev, mid, nxt, row = i - 1, i, i - 1, i, i + 1, i
                dict_rows = [(0, self._end_row(0, self.bc[0])), (n - 1, self._end_row(1, self.bc[1]))]
            hl, hr = h[left], h[right]
            # h_r s_prev + 2 (h_l + h_r) s_mid + h_l s_next - 3 (h_r m_l + h_l m_r) = 0
            parts["sr"] += [row, row, row]
            parts["sc"] += [prev, mid, nxt]
            parts["sv"] += [hr, 2 * (hl + hr), hl]
            parts["hr"] += [row, row]
            parts["hc"] += [left, right]
            parts["hv"] += [2 * s[mid] + s[nxt] - 3 * m[right], s[prev] + 2 * s[mid] - 3 * m[left]]
            parts["mr"] += [row, row]
            parts["mc"] += [left, right]
            parts["mv"] += [-3 * hr, -3 * hl]
        T = self.s.shape[1:]
        for r, entry in dict_rows:
            for j, c in entry["s"].items():
                parts["sr"].append(np.array([r]))
                parts["sc"].append(np.array([j]))
                parts["sv"].append(np.array([float(c)]))
            for j, c in entry["h"].items():
                parts["hr"].append(np.array([r]))
                parts["hc"].append(np.array([j]))
                parts["hv"].append(np.broadcast_to(np.asarray(c), T)[None])
            for j, c in entry["m"].items():
                parts["mr"].append(np.array([r]))
                parts["mc"].append(np.array([j]))
                parts["mv"].append(np.array([float(c)]))
            if entry["v"] is not None:
                v_rows.append((r, 0 if r == 0 else 1, entry["v"]))
        out: dict[str, Any] = {}
        for key in ("sr", "sc", "hr", "hc", "mr", "mc"):
            out[key] = np.concatenate(parts[key]).astype(np.intp) if parts[key] else np.zeros(0, dtype=np.intp)
        out["sv"] = np.concatenate(parts["sv"]) if parts["sv"] else np.zeros(0)
        out["hv"] = np.concatenate([np.reshape(v, (-1,) + T) for v in parts["hv"]]) if parts["hv"] else \
            np.zeros((0,) + T)
        out["mv"] = np.concatenate(parts["mv"]) if parts["mv"] else np.zeros(0)
        out["v"] = v_rows
        self._cached = out
        return out

    def _matrix(self) -> Any:
        import scipy.sparse as sparse

        t = self._triplets()
        return sparse.csc_matrix((t["sv"], (t["sr"], t["sc"] % self.unknowns)), shape=(self.unknowns, self.unknowns))

    def _m_matrix(self) -> Any:
        import scipy.sparse as sparse

        t = self._triplets()
        return sparse.csr_matrix((t["mv"], (t["mr"], t["mc"])), shape=(self.unknowns, self.n - 1))

    def _solver(self) -> Any:
        if self._lu is None:
            from scipy.sparse.linalg import splu

            self._lu = splu(self._matrix())
        return self._lu

    def residual(self) -> np.ndarray:
        """``R`` at SciPy's slopes (zero up to rounding): checks that the conditions are SciPy's."""
        s_used = self.s[:self.unknowns]
        total = np.asarray(self._matrix() @ s_used.reshape(self.unknowns, -1)).reshape(s_used.shape)
        total = total + np.asarray(self._m_matrix() @ self.m.reshape(self.n - 1, -1)).reshape(s_used.shape)
        for r, end, coefficient in self._triplets()["v"]:
            total[r] = total[r] + np.asarray(coefficient) * np.asarray(self.bc[end][1])
        return total

    def tangent(self, dx: Any, dy: Any, dvalues: tuple[Any, Any]) -> np.ndarray:
        """``ds`` (shape ``(n, T)``) for tangents of ``x``, ``y`` and the two end values."""
        dh, dm = _d_secants(self.h, self.m, dx, dy)
        t = self._triplets()
        shape = (self.unknowns,) + self.s.shape[1:]
        forcing = np.zeros(shape, dtype=np.result_type(self.s, dm, *(
            [np.asarray(v) for v in dvalues if v is not None])))
        flat = forcing.reshape(self.unknowns, -1)
        columns = int(np.prod(self.s.shape[1:], dtype=int))
        hv = t["hv"].reshape(t["hv"].shape[0], columns) * dh[t["hc"]][:, None]
        for column in range(flat.shape[1]):
            values = hv[:, column]
            flat[:, column] += np.bincount(t["hr"], values.real, self.unknowns)
            if np.iscomplexobj(values):
                flat[:, column] += 1j * np.bincount(t["hr"], values.imag, self.unknowns)
        flat += np.asarray(self._m_matrix() @ dm.reshape(self.n - 1, -1))
        for r, end, coefficient in t["v"]:
            dv = dvalues[end]
            if dv is not None:
                forcing[r] += np.asarray(coefficient) * np.asarray(dv)
        ds = -self._solve(forcing)
        return self._expand(ds)

    def transpose(self, sbar: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[Any, Any]]:
        """``(xbar, ybar, (vbar_start, vbar_end))`` for the cotangent ``sbar`` of the slopes."""
        if self.unknowns < self.n:  # periodic: s_{n-1} = s_0
            sbar = sbar[:-1] + np.concatenate((sbar[-1:], np.zeros_like(sbar[1:-1])))
        lam = -self._solve(sbar, transpose=True)
        t = self._triplets()
        lam_flat = lam.reshape(self.unknowns, -1)
        columns = lam_flat.shape[1]
        pairs = np.real(np.sum(np.conj(t["hv"].reshape(t["hv"].shape[0], columns)) * lam_flat[t["hr"]], axis=1))
        hbar = np.bincount(t["hc"], pairs, self.n - 1)
        mbar = np.asarray(self._m_matrix().T @ lam_flat).reshape(self.m.shape)
        vbars: list[Any] = [None, None]
        for r, end, coefficient in t["v"]:
            vbars[end] = np.asarray(coefficient) * lam[r]
        xbar, ybar = _secants_transpose(self.h, self.m, hbar, mbar)
        return xbar, ybar, (vbars[0], vbars[1])

    def _solve(self, rhs: np.ndarray, transpose: bool = False) -> np.ndarray:
        flat = rhs.reshape(rhs.shape[0], -1)
        solver = self._solver()
        trans = "T" if transpose else "N"
        if np.iscomplexobj(flat):
            out = solver.solve(np.ascontiguousarray(flat.real), trans) + 1j * solver.solve(
                np.ascontiguousarray(flat.imag), trans)
        else:
            out = solver.solve(np.ascontiguousarray(flat, dtype=np.float64), trans)
        return out.reshape(rhs.shape)

    def _expand(self, ds: np.ndarray) -> np.ndarray:
        if self.unknowns < self.n:
            return np.concatenate((ds, ds[:1]))
        return ds


# ---- PCHIP -------------------------------------------------------------------------------------------
class LocalSlopes:
    """Slopes that are explicit local functions of the secants and spacings.

    ``value`` has shape ``(n, T)``; ``by_m`` and ``by_h`` list the partial derivatives as
    triplets ``(node, secant, weight)`` of arrays (``weight`` of shape ``(len, T)``), repeated
    entries adding up: ``dd[node] += weight dm[secant]`` and ``dd[node] += weight dh[secant]``.
    """

    def __init__(self, h: np.ndarray, m: np.ndarray) -> None:
        self.h, self.m = h, m
        self.value = np.zeros((h.size + 1,) + m.shape[1:])
        self.by_m: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.by_h: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, table: str, nodes: Any, secant_index: Any, weight: np.ndarray) -> None:
        nodes, secant_index = np.atleast_1d(np.asarray(nodes)), np.atleast_1d(np.asarray(secant_index))
        weight = np.broadcast_to(weight, (nodes.size,) + self.m.shape[1:])
        (self.by_m if table == "m" else self.by_h).append((nodes, secant_index, weight))

    def tangent(self, dh: np.ndarray, dm: np.ndarray) -> np.ndarray:
        out = np.zeros(self.value.shape, dtype=np.result_type(self.value, dm))
        for nodes, j, w in self.by_m:
            np.add.at(out, nodes, w * dm[j])
        for nodes, j, w in self.by_h:
            np.add.at(out, nodes, w * dh[j][:, None])
        return out

    def transpose(self, dbar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hbar = np.zeros(self.h.size)
        mbar = np.zeros(self.m.shape, dtype=np.result_type(dbar, np.float64))
        for nodes, j, w in self.by_m:
            np.add.at(mbar, j, w * dbar[nodes])
        for nodes, j, w in self.by_h:
            np.add.at(hbar, j, np.real(np.sum(w * dbar[nodes], axis=1)))
        return hbar, mbar


def local_tangent(slopes: LocalSlopes, x: np.ndarray, y: np.ndarray, dx: Any, dy: Any) -> np.ndarray:
    """``dd`` for tangents of ``x`` and ``y`` (``None`` for zeros)."""
    dh, dm = _d_secants(slopes.h, slopes.m, dx, dy)
    return slopes.tangent(dh, dm)


def local_transpose(slopes: LocalSlopes, dbar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(xbar, ybar)`` for the cotangent ``dbar`` of the slopes."""
    hbar, mbar = slopes.transpose(dbar)
    return _secants_transpose(slopes.h, slopes.m, hbar, mbar)


def _two_points(out: LocalSlopes) -> LocalSlopes:
    """Two points: both slopes are the secant."""
    out.value[0], out.value[1] = out.m[0], out.m[0]
    out.add("m", [0, 1], [0, 0], np.ones_like(out.m[:1]))
    return out


# ---- PCHIP -------------------------------------------------------------------------------------------
def pchip_slopes(x: np.ndarray, y: np.ndarray) -> LocalSlopes:
    """PCHIP's slopes at ``(x, y)`` (shape ``(n, T)``) with their partials in the secants and spacings.

    Examples
    --------
    >>> pchip_slopes(np.array([0.0, 1.0, 2.0]), np.array([[0.0], [1.0], [3.0]])).value[:, 0]
    array([0.5       , 1.33333333, 2.5       ])
    """
    h, m = secants(x, y)
    out = LocalSlopes(h, m)
    n = x.size
    if n == 2:
        return _two_points(out)
    hc = h[:, None] + 0 * m
    m0, m1 = m[:-1], m[1:]
    h0, h1 = hc[:-1], hc[1:]
    w1, w2 = 2 * h1 + h0, h1 + 2 * h0
    flat = (np.sign(m1) != np.sign(m0)) | (m1 == 0) | (m0 == 0)
    q = np.where(flat, 1.0, w1 * m1 + w2 * m0)
    numerator = (w1 + w2) * m0 * m1
    out.value[1:-1] = np.where(flat, 0.0, numerator / q)
    # d = (w1 + w2) m0 m1 / (w1 m1 + w2 m0), w1 + w2 = 3 (h0 + h1)
    nodes = np.arange(1, n - 1)
    out.add("m", nodes, nodes - 1, np.where(flat, 0.0, (w1 + w2) * w1 * m1 ** 2 / q ** 2))
    out.add("m", nodes, nodes, np.where(flat, 0.0, (w1 + w2) * w2 * m0 ** 2 / q ** 2))
    out.add("h", nodes, nodes - 1, np.where(flat, 0.0, 3 * m0 * m1 / q - numerator * (m1 + 2 * m0) / q ** 2))
    out.add("h", nodes, nodes, np.where(flat, 0.0, 3 * m0 * m1 / q - numerator * (2 * m1 + m0) / q ** 2))
    for node, a, b in ((0, 0, 1), (n - 1, n - 2, n - 3)):
        value, (g_m0, g_m1, g_h0, g_h1) = _pchip_end(hc[a], hc[b], m[a], m[b])
        out.value[node] = value
        out.add("m", node, a, g_m0[None])
        out.add("m", node, b, g_m1[None])
        out.add("h", node, a, g_h0[None])
        out.add("h", node, b, g_h1[None])
    return out


def _pchip_end(h0: np.ndarray, h1: np.ndarray, m0: np.ndarray, m1: np.ndarray) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Moler's one-sided end slope, with its partials in ``m0, m1, h0, h1``."""
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    flip = np.sign(d) != np.sign(m0)
    clip = (np.sign(m0) != np.sign(m1)) & (np.abs(d) > 3.0 * np.abs(m0)) & ~flip
    value = np.where(flip, 0.0, np.where(clip, 3.0 * m0, d))
    total = h0 + h1
    keep = ~(flip | clip)
    zero = np.zeros_like(d)
    g_m0 = np.where(keep, (2 * h0 + h1) / total, np.where(clip, 3.0, 0.0))
    g_m1 = np.where(keep, -h0 / total, zero)
    g_h0 = np.where(keep, (2 * m0 - m1) / total - d / total, zero)
    g_h1 = np.where(keep, m0 / total - d / total, zero)
    return value, (g_m0, g_m1, g_h0, g_h1)


# ---- Akima ----------------------------------------------------------------------------------------------
def akima_slopes(x: np.ndarray, y: np.ndarray, method: str) -> LocalSlopes:
    """Akima's (or ``makima``'s) slopes at ``(x, y)`` with their partials in the secants.

    Examples
    --------
    >>> akima_slopes(np.arange(4.0), np.array([[0.0], [1.0], [2.0], [3.0]]), "akima").value[:, 0]
    array([1., 1., 1., 1.])
    """
    h, m = secants(x, y)
    out = LocalSlopes(h, m)
    n = x.size
    if n == 2:
        return _two_points(out)
    # extended secants e = E m (n + 3 of them): m in the middle, two linear ghosts at each end
    E = np.zeros((n + 3, n - 1))
    E[2:-2] = np.eye(n - 1)
    E[1] = 2 * E[2] - E[3]
    E[0] = 2 * E[1] - E[2]
    E[-2] = 2 * E[-3] - E[-4]
    E[-1] = 2 * E[-2] - E[-3]
    e = np.einsum("ij,j...->i...", E, m)
    # node k reads e[k .. k+3]: f1 = |e[k+3] - e[k+2]|, f2 = |e[k+1] - e[k]|
    a, b, c, d = e[:-3], e[1:-2], e[2:-1], e[3:]
    f1, f2 = np.abs(d - c), np.abs(b - a)
    df1_dc, df1_dd = -np.sign(d - c), np.sign(d - c)
    df2_da, df2_db = -np.sign(b - a), np.sign(b - a)
    if method == "makima":
        f1, f2 = f1 + 0.5 * np.abs(d + c), f2 + 0.5 * np.abs(b + a)
        df1_dc, df1_dd = df1_dc + 0.5 * np.sign(d + c), df1_dd + 0.5 * np.sign(d + c)
        df2_da, df2_db = df2_da + 0.5 * np.sign(b + a), df2_db + 0.5 * np.sign(b + a)
    f12 = f1 + f2
    defined = f12 > 1e-9 * (np.max(f12) if f12.size else -np.inf)
    safe = np.where(defined, f12, 1.0)
    ratio = f2 / safe
    out.value[:] = np.where(defined, b + ratio * (c - b), 0.5 * (d + a))
    # ratio = f2 / (f1 + f2): dratio/df2 = f1 / f12^2, dratio/df1 = -f2 / f12^2
    spread = np.where(defined, c - b, 0.0)
    by_e = [np.where(defined, spread * f1 / safe ** 2 * df2_da, 0.5),
            np.where(defined, (1 - ratio) + spread * f1 / safe ** 2 * df2_db, 0.0),
            np.where(defined, ratio - spread * f2 / safe ** 2 * df1_dc, 0.0),
            np.where(defined, -spread * f2 / safe ** 2 * df1_dd, 0.5)]
    nodes = np.arange(n)
    for j in range(4):
        rows = E[nodes + j]  # (n, n-1): how e[k + j] combines the secants
        k_index, i_index = np.nonzero(rows)
        out.add("m", k_index, i_index, by_e[j][k_index] * rows[k_index, i_index][:, None])
    return out
