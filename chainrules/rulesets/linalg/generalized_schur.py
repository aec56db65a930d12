"""The generalized Schur (QZ) decomposition: ``scipy.linalg.qz`` and ``scipy.linalg.ordqz``.

``A = Q S Z^H`` and ``B = Q T Z^H`` with ``Q``, ``Z`` unitary and ``S``, ``T`` upper triangular
(complex form, or the real form when every generalized eigenvalue is real); LAPACK
(``?gges``, ``?tgsen``) makes ``T``'s diagonal real and non-negative. ``ordqz`` also returns
``alpha = diag(S)`` and ``beta = diag(T)``.

The maths
---------
Differentiating, with ``C = Q^H dA Z``, ``E = Q^H dB Z`` and the skew-Hermitian
``Omega_q = Q^H dQ``, ``Omega_z = Z^H dZ``::

    dS = C - Omega_q S + S Omega_z,    dT = E - Omega_q T + T Omega_z

(as for the Schur form, Kressner, "Numerical Methods for General and Structured Eigenvalue
Problems", 2005, section 2.1, and the perturbation theory of Stewart & Sun, "Matrix
Perturbation Theory", 1990, chapter VI). ``dS`` and ``dT`` are upper triangular, so the
strictly lower parts ``X`` of ``Omega_q`` and ``Y`` of ``Omega_z`` solve the triangular
generalized Sylvester system ``sl(X S - S Y) = sl(C)``, ``sl(X T - T Y) = sl(E)`` (``sl``: the
strictly lower part). Entry ``(i, j)`` couples only to entries further from the diagonal,
so the rules solve it one subdiagonal at a time (from the corner in), each entry a
``2 x 2`` system with determinant ``S_ii T_jj - S_jj T_ii``: it needs distinct generalized
eigenvalues (the rules raise ``LinAlgError`` at a repeated one, where the deflating
subspaces are not differentiable). The pullback is the adjoint: the cotangents of
``Omega_q``, ``Omega_z``, ``W_q = Q^H Q_bar - S_bar S^H - T_bar T^H`` and
``W_z = Z^H Z_bar + S^H S_bar + T^H T_bar``, give ``X_bar = sl(W_q - W_q^H)`` and
``Y_bar = sl(W_z - W_z^H)``; the adjoint system ``sl(P S^H + R T^H) = X_bar``,
``sl(-S^H P - T^H R) = Y_bar`` is solved one subdiagonal at a time from the diagonal out;
``C_bar = S_bar + P``, ``E_bar = T_bar + R`` and ``A_bar = Q C_bar Z^H``, ``B_bar = Q E_bar Z^H``.

Gauges
------
* Complex form: ``(Q, Z, S, T) -> (Q D, Z D', D^H S D', D^H T D')`` with ``D``, ``D'`` diagonal
  unitary leaves the decomposition valid; LAPACK's real ``diag(T)`` fixes ``D' = D``, and
  with it ``Im dT_jj = 0``, which fixes ``Im(Omega_q - Omega_z)_jj``. The common phase ``D``
  stays free, and LAPACK's choice is not a function of the mathematics: the rules fix the
  gauge ``(Omega_q + Omega_z)_jj = 0``. The pullback is exact for every loss invariant under
  ``D`` (the generalized eigenvalues ``diag(S) / diag(T)``, ``|S|``, ``|T|``, projectors onto
  deflating subspaces ``Q_k Q_k^H``...): invariance is ``Im diag(W_q + W_z) = 0``, tested up
  to rounding; for any other cotangent the cotangents are ``not_implemented``. The forward
  rule's tangent is the gauge-fixed one.
* Real form: ``D = D'`` are signs (locally constant): the derivative is unique where every
  generalized eigenvalue is real (``S`` triangular). Complex conjugate pairs make ``2 x 2``
  blocks in ``S`` standardized by LAPACK's ``?lagv2`` (diagonal blocks of ``T``), whose
  derivative is not written: those give ``not_implemented`` (use ``output='complex'``).
* An infinite eigenvalue (``T_jj = 0``): the normalization of ``T``'s diagonal (real,
  non-negative) is not differentiable there; ``not_implemented``.

``ordqz``'s ``sort`` (a selection that is locally constant: an eigenvalue crossing its
boundary is a jump; ``qz``'s ``sort`` is disabled in SciPy, which raises) and the flags get
``NoTangent()``; ``overwrite_*`` are ignored (the rules never
overwrite their inputs). Stacks are handled one pencil at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import well_conditioned
from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    rrule,
    sample_inputs,
)

__all__ = ["GeneralizedSchur"]

_BLOCKS = ("{name}: the real form has 2 x 2 blocks for complex conjugate eigenvalue pairs, standardized by LAPACK's "
           "?lagv2, whose derivative is not implemented; use output='complex'")
_INFINITE = ("{name}: an infinite generalized eigenvalue (a zero on T's diagonal), where LAPACK's normalization of T's "
             "diagonal (real and non-negative) is not differentiable")
_PHASE = ("{name}: the loss depends on the common phases of the complex generalized Schur vectors (Q -> Q D, Z -> Z D, "
          "S -> D^H S D, T -> D^H T D with D diagonal unitary), which the decomposition leaves free; LAPACK's choice "
          "is not a differentiable function of the mathematics. Use a loss invariant under that freedom (the "
          "eigenvalues diag(S) / diag(T), |S|, |T|, projectors onto deflating subspaces, ...)")


def _lower(x: np.ndarray) -> np.ndarray:
    return np.tril(x, -1)


class GeneralizedSchur:
    """The derivative of one generalized Schur decomposition ``(S, T, Q, Z)`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules.rulesets.linalg.generalized_schur import GeneralizedSchur
    >>> s, t, q, z = scipy.linalg.qz(np.diag([2.0, 3.0]), np.diag([1.0, 4.0]))
    >>> ds, dt, dq, dz = GeneralizedSchur(s, t, q, z, "qz").tangent(np.eye(2), np.zeros((2, 2)))
    >>> ds
    array([[1., 0.],
           [0., 1.]])
    """

    def __init__(self, s: np.ndarray, t: np.ndarray, q: np.ndarray, z: np.ndarray, name: str) -> None:
        self.s, self.t, self.q, self.z, self.name = s, t, q, z, name
        self.complex = np.iscomplexobj(s) or np.iscomplexobj(t)
        n = s.shape[-1]
        self.problem: str | None = None
        if not self.complex and n > 1 and np.any(np.diagonal(s, -1) != 0):
            self.problem = _BLOCKS.format(name=name)
        elif np.any(np.abs(np.diagonal(t)) <= np.finfo(np.asarray(t).real.dtype).tiny):
            self.problem = _INFINITE.format(name=name)
        self.ds, self.dt = np.diagonal(s).copy(), np.diagonal(t).copy()
        det = self.ds[:, None] * self.dt[None, :] - self.dt[:, None] * self.ds[None, :]   # S_ii T_jj - S_jj T_ii
        size_s, size_t = np.abs(self.ds), np.abs(self.dt)
        scale = size_s[:, None] * size_t[None, :] + size_t[:, None] * size_s[None, :]
        eps = np.finfo(np.asarray(s).real.dtype).eps
        self.repeated = bool(np.any(np.tril(np.abs(det) <= n * eps * scale, -1)))
        self.det = det

    # ---- the triangular generalized Sylvester system and its adjoint ----------------------------------------
    def _check_distinct(self) -> None:
        if self.repeated:
            raise np.linalg.LinAlgError(f"{self.name}: repeated generalized eigenvalues; the deflating subspaces "
                                        "are not differentiable there")

    def solve(self, c: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Strictly lower ``(X, Y)`` with ``sl(X S - S Y) = sl(C)``, ``sl(X T - T Y) = sl(E)``."""
        self._check_distinct()
        s, t = self.s, self.t
        n = s.shape[-1]
        dtype = np.result_type(s, t, c, e)
        x, y = np.zeros((n, n), dtype=dtype), np.zeros((n, n), dtype=dtype)
        for d in range(n - 1, 0, -1):       # entries further from the diagonal first
            i = np.arange(d, n)
            j = i - d
            cs = c[i, j] - np.sum(x[i, :] * s[:, j].T, axis=-1) + np.sum(s[i, :] * y[:, j].T, axis=-1)
            es = e[i, j] - np.sum(x[i, :] * t[:, j].T, axis=-1) + np.sum(t[i, :] * y[:, j].T, axis=-1)
            det = self.det[i, j]
            x[i, j] = (self.ds[i] * es - self.dt[i] * cs) / det
            y[i, j] = (self.ds[j] * es - self.dt[j] * cs) / det
        return x, y

    def solve_adjoint(self, xb: np.ndarray, yb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Strictly lower ``(P, R)`` with ``sl(P S^H + R T^H) = X_bar``, ``sl(-S^H P - T^H R) = Y_bar``."""
        self._check_distinct()
        sh, th = mH(self.s), mH(self.t)
        n = self.s.shape[-1]
        dtype = np.result_type(self.s, self.t, xb, yb)
        p, r = np.zeros((n, n), dtype=dtype), np.zeros((n, n), dtype=dtype)
        cs_, ct_ = np.conj(self.ds), np.conj(self.dt)
        for d in range(1, n):               # entries nearer the diagonal first
            i = np.arange(d, n)
            j = i - d
            pp = xb[i, j] - np.sum(p[i, :] * sh[:, j].T, axis=-1) - np.sum(r[i, :] * th[:, j].T, axis=-1)
            qq = yb[i, j] + np.sum(sh[i, :] * p[:, j].T, axis=-1) + np.sum(th[i, :] * r[:, j].T, axis=-1)
            det = np.conj(self.det[i, j])
            p[i, j] = (-ct_[i] * pp - ct_[j] * qq) / det
            r[i, j] = (cs_[j] * qq + cs_[i] * pp) / det
        return p, r

    # ---- forward and reverse ------------------------------------------------------------------------------------
    def tangent(self, da: Any, db: Any) -> tuple[Any, Any, Any, Any]:
        """``(dS, dT, dQ, dZ)`` for tangents ``dA``, ``dB`` (``None``: zero); gauge-fixed."""
        if self.problem is not None:
            missing = not_implemented(self.problem)
            return missing, missing, missing, missing
        n = self.s.shape[-1]
        dtype = np.result_type(self.s, self.t)
        c = np.zeros((n, n), dtype=dtype) if da is None else mH(self.q) @ da @ self.z
        e = np.zeros((n, n), dtype=dtype) if db is None else mH(self.q) @ db @ self.z
        x, y = self.solve(c, e)
        oq, oz = x - mH(x), y - mH(y)
        if self.complex:
            delta = np.imag(np.diagonal(e) - np.diagonal(x @ self.t) + np.diagonal(self.t @ y)) / np.real(self.dt)
            oq = oq + np.diag(0.5j * delta)
            oz = oz - np.diag(0.5j * delta)
        ds = np.triu(c - oq @ self.s + self.s @ oz)
        dt = np.triu(e - oq @ self.t + self.t @ oz)
        if self.complex:
            dt[np.diag_indices(n)] = np.real(np.diagonal(dt))
        return ds, dt, self.q @ oq, self.z @ oz

    def cotangent(self, sb: Any, tb: Any, qb: Any, zb: Any) -> Any:
        """``(A_bar, B_bar)`` for the output cotangents (``None``: zero), or a not-implemented tangent."""
        if self.problem is not None:
            return not_implemented(self.problem)
        n = self.s.shape[-1]
        dtype = np.result_type(self.s, self.t, *(v for v in (sb, tb, qb, zb) if v is not None))
        zero = np.zeros((n, n), dtype=dtype)
        sb = zero if sb is None else np.triu(sb)
        tb = zero if tb is None else np.triu(tb)
        wq = -sb @ mH(self.s) - tb @ mH(self.t)
        wz = mH(self.s) @ sb + mH(self.t) @ tb
        if qb is not None:
            wq = wq + mH(self.q) @ qb
        if zb is not None:
            wz = wz + mH(self.z) @ zb
        if self.complex and not self._phase_free(wq + wz, sb, tb, qb, zb):
            return not_implemented(_PHASE.format(name=self.name))
        xb, yb = _lower(wq - mH(wq)), _lower(wz - mH(wz))
        cb, eb = sb.astype(dtype), tb.astype(dtype)
        if self.complex:
            g = 0.5 * (np.imag(np.diagonal(wq)) - np.imag(np.diagonal(wz))) / np.real(self.dt)
            eb = eb + np.diag(1j * g)
            xb = xb + _lower(-1j * g[:, None] * mH(self.t))
            yb = yb + _lower(1j * mH(self.t) * g[None, :])
        p, r = self.solve_adjoint(xb, yb)
        cb, eb = cb + p, eb + r
        return self.q @ cb @ mH(self.z), self.q @ eb @ mH(self.z)

    def _phase_free(self, w: np.ndarray, *bars: Any) -> bool:
        scale = sum(float(np.abs(b).max(initial=0.0)) for b in bars if b is not None)
        scale *= 1.0 + float(np.abs(self.s).max(initial=0.0)) + float(np.abs(self.t).max(initial=0.0))
        tol = np.sqrt(np.finfo(np.asarray(self.s).real.dtype).eps) * max(1, self.s.shape[-1]) * scale
        return bool(np.abs(np.imag(np.diagonal(w))).max(initial=0.0) <= tol)


# ---- the rules ------------------------------------------------------------------------------------------------
def _decompositions(s: Any, t: Any, q: Any, z: Any, name: str) -> tuple[tuple[int, ...], list[GeneralizedSchur]]:
    s, t, q, z = (np.asarray(v) for v in (s, t, q, z))
    batch = s.shape[:-2]
    return batch, [GeneralizedSchur(s[i], t[i], q[i], z[i], name) for i in np.ndindex(batch)]


def _part(x: Any, i: tuple[int, ...]) -> Any:
    return None if x is None else x[i]


def _pull(name: str, batch: tuple[int, ...], decs: list[GeneralizedSchur], shapes: tuple[Any, Any],
          parts: list[Any]) -> tuple[Any, Any]:
    """``(A_bar, B_bar)`` stacked, or a not-implemented tangent for both."""
    sb, tb, qb, zb = parts
    a_bars, b_bars = [], []
    for i, dec in zip(np.ndindex(batch), decs):
        out = dec.cotangent(_part(sb, i), _part(tb, i), _part(qb, i), _part(zb, i))
        if isinstance(out, NotImplementedTangent):
            return out, out
        a_bars.append(out[0])
        b_bars.append(out[1])
    return np.stack(a_bars).reshape(shapes[0]), np.stack(b_bars).reshape(shapes[1])


def _push(batch: tuple[int, ...], decs: list[GeneralizedSchur], da: Any, db: Any) -> list[Any]:
    """``[dS, dT, dQ, dZ]`` stacked (a not-implemented tangent in place of a part that has none)."""
    results = [dec.tangent(_part(da, i), _part(db, i)) for i, dec in zip(np.ndindex(batch), decs)]
    parts = []
    for k in range(4):
        pieces = [r[k] for r in results]
        missing = not_implemented_in(*pieces)
        parts.append(missing if missing is not None else np.stack(pieces).reshape(batch + pieces[0].shape))
    return parts


def _inputs(tangents: Any, A: Any, B: Any) -> tuple[Any, Any, Any]:
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(da, db)
    batch = np.shape(A)[:-2]
    if da is not None and not isinstance(da, NotImplementedTangent):
        da = np.broadcast_to(da, batch + np.shape(A)[-2:])
    if db is not None and not isinstance(db, NotImplementedTangent):
        db = np.broadcast_to(db, batch + np.shape(B)[-2:])
    return da, db, missing


def _cotangent_thunks(name: str, batch: tuple[int, ...], decs: list[GeneralizedSchur], A: Any, B: Any,
                      parts: list[Any]) -> tuple[Any, Any]:
    project_a, project_b = cotangent_projector(A), cotangent_projector(B)
    if all(p is None for p in parts):
        return ZeroTangent(), ZeroTangent()
    cache: dict[str, Any] = {}

    def both() -> dict[str, Any]:
        if not cache:
            cache["a"], cache["b"] = _pull(name, batch, decs, (np.shape(A), np.shape(B)), parts)
        return cache

    def one(key: str, project: Any) -> Any:
        value = both()[key]
        return value if isinstance(value, (NotImplementedTangent, AbstractZero)) else project(value)

    return Thunk(lambda: one("a", project_a)), Thunk(lambda: one("b", project_b))


@rrule.register(scipy.linalg.qz, np.ndarray, np.ndarray)
def qz_rrule(A: np.ndarray, B: np.ndarray, output: Any = "real", lwork: Any = None, sort: Any = None,
             overwrite_a: Any = False, overwrite_b: Any = False, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.qz``: the adjoint of the triangular generalized Sylvester system.

    See the module docstring for the maths, the gauges and what is not implemented.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> (s, t, q, z), pullback = rrule(scipy.linalg.qz, np.diag([2.0, 3.0]), np.diag([1.0, 4.0]))
    >>> da, db = map(unthunk, pullback((np.diag([1.0, 0.0]), ZeroTangent(), ZeroTangent(), ZeroTangent()))[1:3])
    >>> da                                  # d S_00 / dA: the top-left entry
    array([[1., 0.],
           [0., 0.]])
    """
    y = scipy.linalg.qz(A, B, output, lwork, sort, False, False, check_finite)
    batch, decs = _decompositions(y[0], y[1], y[2], y[3], name="qz")

    def qz_pullback(dy: Any) -> tuple[Any, ...]:
        parts = typed_cotangent_parts(dy, y, "scipy.linalg.qz")
        missing = not_implemented_in(*parts)
        if missing is not None:
            return (NO, missing, missing, NO, NO, NO, NO, NO, NO)
        da, db = _cotangent_thunks("qz", batch, decs, A, B, parts)
        return (NO, da, db, NO, NO, NO, NO, NO, NO)

    return y, qz_pullback


@frule.register(scipy.linalg.qz, np.ndarray, np.ndarray)
def qz_frule(tangents: Any, A: np.ndarray, B: np.ndarray, output: Any = "real", lwork: Any = None, sort: Any = None,
             overwrite_a: Any = False, overwrite_b: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.qz``: ``dS = C - Omega_q S + S Omega_z`` and alike (gauge-fixed)."""
    y = scipy.linalg.qz(A, B, output, lwork, sort, False, False, check_finite)
    da, db, missing = _inputs(tangents, A, B)
    if missing is not None:
        return y, missing
    if da is None and db is None:
        return y, ZeroTangent()
    batch, decs = _decompositions(y[0], y[1], y[2], y[3], name="qz")
    return y, tuple_tangent(y, _push(batch, decs, da, db))


def _ordqz_parts(y: Any, dy: Any) -> list[Any]:
    """``[S_bar, T_bar, Q_bar, Z_bar]`` with the cotangents of ``alpha = diag(S)`` and ``beta = diag(T)`` folded in."""
    raw = typed_cotangent_parts(dy, y, "scipy.linalg.ordqz")
    missing = not_implemented_in(*raw)
    if missing is not None:
        return [missing]
    sb, tb, ab, bb, qb, zb = raw
    s, t = y[0], y[1]
    idx = np.arange(s.shape[-1])
    if ab is not None:
        sb = np.zeros(s.shape, dtype=s.dtype) if sb is None else sb.copy()
        sb[..., idx, idx] += ab if np.iscomplexobj(s) else np.real(ab)
    if bb is not None:
        tb = np.zeros(t.shape, dtype=t.dtype) if tb is None else tb.copy()
        tb[..., idx, idx] += bb if np.iscomplexobj(t) else np.real(bb)
    return [sb, tb, qb, zb]


@rrule.register(scipy.linalg.ordqz, np.ndarray, np.ndarray)
def ordqz_rrule(A: np.ndarray, B: np.ndarray, sort: Any = "lhp", output: Any = "real", overwrite_a: Any = False,
                overwrite_b: Any = False, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.ordqz``: ``qz``'s, with ``alpha = diag(S)`` and ``beta = diag(T)``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> y, pullback = rrule(scipy.linalg.ordqz, np.diag([2.0, -3.0]), np.diag([1.0, 4.0]))
    >>> y[2], y[3]                          # the left half-plane eigenvalue -3/4 first
    (array([-3.+0.j,  2.+0.j]), array([4., 1.]))
    >>> zero = ZeroTangent()
    >>> da, db = map(unthunk, pullback((zero, zero, np.array([1.0, 0.0]), zero, zero, zero))[1:3])
    >>> da                                  # d alpha_0 / dA
    array([[0., 0.],
           [0., 1.]])
    """
    y = scipy.linalg.ordqz(A, B, sort, output, False, False, check_finite)
    s, t, _, _, q, z = y
    batch, decs = _decompositions(s, t, q, z, name="ordqz")

    def ordqz_pullback(dy: Any) -> tuple[Any, ...]:
        parts = _ordqz_parts(y, dy)
        if len(parts) == 1:
            return (NO, parts[0], parts[0], NO, NO, NO, NO, NO)
        da, db = _cotangent_thunks("ordqz", batch, decs, A, B, parts)
        return (NO, da, db, NO, NO, NO, NO, NO)

    return y, ordqz_pullback


@frule.register(scipy.linalg.ordqz, np.ndarray, np.ndarray)
def ordqz_frule(tangents: Any, A: np.ndarray, B: np.ndarray, sort: Any = "lhp", output: Any = "real",
                overwrite_a: Any = False, overwrite_b: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.ordqz``: ``qz``'s, with ``d alpha = diag(dS)`` and ``d beta = diag(dT)``."""
    y = scipy.linalg.ordqz(A, B, sort, output, False, False, check_finite)
    da, db, missing = _inputs(tangents, A, B)
    if missing is not None:
        return y, missing
    if da is None and db is None:
        return y, ZeroTangent()
    s, t, alpha, beta, q, z = y
    batch, decs = _decompositions(s, t, q, z, name="ordqz")
    ds, dt, dq, dz = _push(batch, decs, da, db)
    d_alpha = ds if isinstance(ds, NotImplementedTangent) else np.diagonal(ds, axis1=-2, axis2=-1).astype(alpha.dtype)
    d_beta = dt if isinstance(dt, NotImplementedTangent) else np.real_if_close(
        np.diagonal(dt, axis1=-2, axis2=-1)).astype(beta.dtype)
    return y, tuple_tangent(y, [ds, dt, d_alpha, d_beta, dq, dz])


# ---- sample inputs ----------------------------------------------------------------------------------------
def _pencil(rng: np.random.Generator, dtype: Any = np.float64) -> tuple[np.ndarray, np.ndarray]:
    """``(A, B)`` with the distinct real generalized eigenvalues ``-1.5, 0.5, 2`` (``B`` well conditioned)."""
    b = well_conditioned(3, rng, dtype)
    x = well_conditioned(3, rng, dtype)
    return b @ (x * np.array([-1.5, 0.5, 2.0])) @ np.linalg.inv(x), b


def _phase_invariants(result: Any) -> tuple[Any, ...]:
    """``|S|^2``, ``|T|^2``, the projectors on the columns of ``Q`` and ``Z`` (and ``ordqz``'s ``alpha``, ``beta``):
    blind to the common phase ``D``."""
    s, t, q, z = result[0], result[1], result[-2], result[-1]

    def columns(m: np.ndarray) -> np.ndarray:
        return np.einsum("ik,jk->kij", m, np.conj(m))

    return (np.abs(s) ** 2, np.abs(t) ** 2, columns(q), columns(z), *result[2:-2])


@sample_inputs(scipy.linalg.qz)
def _qz_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _pencil(rng)
    ac, bc = _pencil(rng, np.complex128)
    return [
        Sample(a, b, label="real form, real eigenvalues"),
        Sample(a.astype(np.float32), b.astype(np.float32), label="float32"),
        Sample(a, b, "complex", gauge_invariant=_phase_invariants, label="output='complex' by position"),
        Sample(ac, bc, gauge_invariant=_phase_invariants, label="complex"),
        Sample(a, b, fkwargs={"check_finite": False}, label="check_finite by keyword"),
    ]


@sample_inputs(scipy.linalg.ordqz)
def _ordqz_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _pencil(rng)
    ac, bc = _pencil(rng, np.complex128)
    return [
        Sample(a, b, label="sort='lhp', real form"),
        Sample(a, b, "iuc", label="sort='iuc' by position"),
        Sample(a, b, fkwargs={"sort": "ouc", "output": "complex"}, gauge_invariant=_phase_invariants,
               label="sort='ouc', output='complex'"),
        Sample(ac, bc, gauge_invariant=_phase_invariants, label="complex"),
    ]
