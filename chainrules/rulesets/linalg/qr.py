"""QR and RQ factorizations: ``np.linalg.qr`` (every ``mode``), ``scipy.linalg.qr`` (every ``mode``,
``pivoting=``) and ``scipy.linalg.rq``, for stacks of real or complex matrices.

The maths. LAPACK's Householder QR (``?geqrf``) gives ``A = Q R`` with ``R`` upper triangular
and a real diagonal (complex inputs too); the signs of that diagonal are locally constant,
so ``Q`` and ``R`` are differentiable functions of a full-rank ``A``.

* **Square and tall** ``A`` (``m >= n``, the reduced factors ``Q`` ``m x n``, ``R`` ``n x n``):
  with ``D = dA R^{-1}`` and ``B = Q^H D``, ``Q^H dQ`` is the skew-Hermitian
  ``Omega = tril(B, -1) - tril(B, -1)^H + i Im(diag(B))``, so that
  ``dR = (B - Omega) R`` is upper triangular with a real diagonal and ``dQ = D - Q (B - Omega)``.
  The adjoint (Seeger et al. 2017, "Auto-differentiating linear algebra"; Walter & Lehmann
  2018, "On evaluating higher-order derivatives of the QR decomposition of tall matrices
  with full column rank in forward and reverse mode algorithmic differentiation"; Liao et
  al. 2019, "Differentiable programming tensor networks", eq. 7):
  ``M = R Rbar^H - Qbar^H Q`` and ``Abar = (Qbar + Q copyltu(M)) R^{-H}`` with
  ``copyltu(M) = tril(M, -1) + tril(M, -1)^H + Re(diag(M))``.
* **Wide** ``A = [X | Y]`` (``m < n``): ``X = Q U`` is the square case and ``V = Q^H Y``, so
  ``dV = dQ^H Y + Q^H dY``; the adjoint is ``Ybar = Q Vbar`` and the square pullback with
  ``Qbar + Y Vbar^H`` (Liao et al. 2019, section 3.2).
* **Complete** ``Q`` of a tall ``A`` (``mode='complete'``/``'full'``, ``m > n``): the last
  ``m - n`` columns ``Q2`` are an orthonormal basis of the complement of ``range(A)``,
  which the mathematics leaves free up to ``Q2 W`` (``W`` unitary); LAPACK's choice follows
  its Householder reflectors. Only losses invariant under that freedom have a derivative
  here: the cotangent of ``Q2`` enters through ``Q1bar - Q2 Q2bar^H Q1``, and it must satisfy
  ``Q2^H Q2bar`` Hermitian (up to rounding); otherwise the cotangent of ``a`` is
  ``not_implemented``. Forward mode gives ``not_implemented`` for the tangent of ``Q``
  (``R``'s is exact), except for real input with ``m - n == 1``, where ``Q2`` is unique up
  to its sign and ``dQ2 = -Q1 dQ1^T Q2``.
* **Raw** modes (``'raw'``: LAPACK's Householder vectors and scalars): only the entries
  holding ``R`` have a derivative here; a cotangent on the reflectors gives
  ``not_implemented`` (their derivative is LAPACK's Householder construction, not written
  yet), and so does forward mode, for the whole output (``R``'s tangent included: one
  ``not_implemented`` tangent rather than a tuple that is partly not implemented).
* **Pivoting** (``scipy.linalg.qr(pivoting=True)``, ``A[:, p] = Q R``): the column
  permutation is locally constant; the rules above apply to ``A[:, p]`` and ``p`` gets
  ``NoTangent()``.
* **RQ** (``scipy.linalg.rq``, ``A = R Q``): with ``J`` the exchange matrices,
  ``J A^H J = (J Q^H J)(J R^H J)`` is a QR factorization (``J R^H J`` upper triangular with
  the same real diagonal), so the QR rules apply to it; ``mode='full'`` of a wide ``A``
  is the complete case (its first ``n - m`` rows of ``Q`` are the free basis).

Rank-deficient ``A`` (a zero on ``R``'s diagonal) raises ``LinAlgError`` in the pullback and
pushforward: the factorization has no derivative there. Pullbacks use triangular solves
with ``R`` (BLAS ``?trsm``), never its inverse; the primal is NumPy's or SciPy's own call
(modes that do not return ``Q`` also compute the reduced factors for the derivative).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._factorizations import (
    copyltu,
    multiply_triangular,
    solve_triangular,
    tuple_tangent,
    typed_cotangent,
    typed_cotangent_parts,
)
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    rrule,
    sample_inputs,
)

__all__ = ["qr_pullback_of", "qr_pushforward_of"]

_Q2_REASON = ("qr: the loss depends on the last m - n columns of the complete Q (an orthonormal basis of the "
              "complement of range(A) that the factorization leaves free up to a unitary W; LAPACK's choice "
              "follows its Householder reflectors, whose derivative is not implemented). Use mode='reduced' "
              "or a loss invariant under Q2 -> Q2 W")
_Q2_FORWARD_REASON = ("qr: the tangent of the complete Q of a tall matrix (its last m - n columns follow LAPACK's "
                      "Householder reflectors, whose derivative is not implemented; the tangent of R is exact; "
                      "real input with m - n == 1 has one)")
_RAW_REASON = ("qr mode='raw': the derivative of LAPACK's Householder vectors and scalars is not implemented "
               "(only the entries holding R have one here)")


# ---- the maths, on stacks ------------------------------------------------------------------------------------
def _square_pushforward(q: np.ndarray, r: np.ndarray, da: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(dQ, dR)`` of the reduced QR of a tall ``A`` (``r`` square)."""
    d = solve_triangular(r, da, lower=False, side="R", where="qr pushforward")
    b = mH(q) @ d
    x = np.triu(b, 1) + mH(np.tril(b, -1))
    idx = np.arange(b.shape[-1])
    x[..., idx, idx] = b[..., idx, idx].real
    dr = multiply_triangular(r, x, lower=False, side="R")
    return d - q @ x, dr


def _square_pullback(q: np.ndarray, r: np.ndarray, dq: np.ndarray | None, dr: np.ndarray | None) -> np.ndarray:
    """``Abar = (Qbar + Q copyltu(M)) R^{-H}``, ``M = R Rbar^H - Qbar^H Q``, for a tall ``A`` (``r`` square)."""
    dtype = np.result_type(q, r)
    m = np.zeros(r.shape, dtype=dtype)
    if dr is not None:
        m = m + multiply_triangular(r, mH(np.triu(dr)), lower=False)
    if dq is not None:
        m = m - mH(dq) @ q
    g = q @ copyltu(m)
    if dq is not None:
        g = g + dq
    return solve_triangular(r, g, lower=False, trans="C", side="R", where="qr pullback")


def qr_pushforward_of(a: np.ndarray, q: np.ndarray, r: np.ndarray, da: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(dQ, dR)`` of the reduced QR ``A = Q R`` (``Q`` ``m x k``, ``R`` ``k x n``) for a tangent ``dA``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.qr import qr_pushforward_of
    >>> a = np.array([[3.0], [4.0]])
    >>> q, r = np.linalg.qr(a)
    >>> dq, dr = qr_pushforward_of(a, q, r, np.array([[3.0], [4.0]]))   # scaling A scales R only
    >>> np.round(dq, 12) + 0.0, dr
    (array([[0.],
           [0.]]), array([[-5.]]))
    """
    m, n = a.shape[-2:]
    da = da.astype(np.result_type(q, da), copy=False)
    if m >= n:
        return _square_pushforward(q, r, da)
    dq, du = _square_pushforward(q, r[..., :, :m], da[..., :, :m])
    dv = mH(dq) @ a[..., :, m:] + mH(q) @ da[..., :, m:]
    return dq, np.concatenate([du, dv], axis=-1)


def qr_pullback_of(a: np.ndarray, q: np.ndarray, r: np.ndarray, dq: np.ndarray | None,
                   dr: np.ndarray | None) -> np.ndarray:
    """``Abar`` of the reduced QR ``A = Q R`` for cotangents ``Qbar``, ``Rbar`` (``None``: zero).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.qr import qr_pullback_of
    >>> a = np.array([[3.0], [4.0]])
    >>> q, r = np.linalg.qr(a)
    >>> qr_pullback_of(a, q, r, None, np.array([[1.0]]))   # R = -|a| here
    array([[-0.6],
           [-0.8]])
    """
    m, n = a.shape[-2:]
    if m >= n:
        return _square_pullback(q, r, dq, dr)
    y = a[..., :, m:].astype(q.dtype, copy=False)
    du = None if dr is None else dr[..., :, :m]
    dv = None if dr is None else dr[..., :, m:]
    dq_square = dq
    if dv is not None:
        extra = y @ mH(dv)
        dq_square = extra if dq is None else dq + extra
    dx = _square_pullback(q, r[..., :, :m], dq_square, du)
    dy = np.zeros(y.shape, dtype=dx.dtype) if dv is None else q @ dv
    return np.concatenate([dx, dy], axis=-1)


def _gauge_free(q2: np.ndarray, dq2: np.ndarray) -> bool:
    """Whether ``Q2^H Q2bar`` is Hermitian up to rounding: the loss is invariant under ``Q2 -> Q2 W``."""
    g = mH(q2) @ dq2
    skew = np.abs(g - mH(g)).max(initial=0.0)
    scale = np.abs(dq2).max(initial=0.0) * max(1, q2.shape[-2])
    return bool(skew <= np.sqrt(np.finfo(q2.dtype).eps) * scale)


def _complete_pullback(a: np.ndarray, q: np.ndarray, r: np.ndarray, dq: np.ndarray | None,
                       dr: np.ndarray | None) -> Any:
    """``Abar`` for the complete factors of a tall ``A`` (``Q`` ``m x m``, ``R`` ``m x n``), or not_implemented."""
    n = a.shape[-1]
    q1 = q[..., :, :n]
    r1 = r[..., :n, :]
    dr1 = None if dr is None else dr[..., :n, :]
    dq1 = None
    if dq is not None:
        q2, dq2 = q[..., :, n:], dq[..., :, n:]
        if not _gauge_free(q2, dq2):
            return not_implemented(_Q2_REASON)
        dq1 = dq[..., :, :n] - q2 @ (mH(dq2) @ q1)
    return qr_pullback_of(a, q1, r1, dq1, dr1)


def _factors_pullback(a: np.ndarray, q: np.ndarray, r: np.ndarray, dq: np.ndarray | None,
                      dr: np.ndarray | None) -> Any:
    """``Abar`` for reduced or complete factors (told apart by their shapes)."""
    m, n = a.shape[-2:]
    if dq is None and dr is None:
        return ZeroTangent()
    if m > n and q.shape[-1] == m:
        return _complete_pullback(a, q, r, dq, dr)
    return qr_pullback_of(a, q, r, dq, dr)


def _factors_pushforward(a: np.ndarray, q: np.ndarray, r: np.ndarray, da: np.ndarray) -> tuple[Any, np.ndarray]:
    """``(dQ, dR)`` for reduced or complete factors.

    The complete ``Q`` of a tall ``A`` has a tangent only where ``Q2`` is unique up to
    sign (real input with ``m - n == 1``): ``dQ2 = -Q1 dQ1^T Q2``; otherwise not_implemented.
    """
    m, n = a.shape[-2:]
    if m > n and q.shape[-1] == m:
        q1, q2 = q[..., :, :n], q[..., :, n:]
        dq1, dr1 = qr_pushforward_of(a, q1, r[..., :n, :], da)
        dr = np.concatenate([dr1, np.zeros(dr1.shape[:-2] + (m - n, n), dtype=dr1.dtype)], axis=-2)
        if q.dtype.kind == "c" or m - n > 1:
            return not_implemented(_Q2_FORWARD_REASON), dr
        return np.concatenate([dq1, -q1 @ (mH(dq1) @ q2)], axis=-1), dr
    return qr_pushforward_of(a, q, r, da)


def _as_float(a: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``a`` in the dtype the factorization computed in."""
    return a.astype(like.dtype, copy=False)


def _input(tangents: Any) -> Any:
    return tangent_value(tangents[1])


def _raw_r_cotangent(d_qr: np.ndarray | None, d_tau: np.ndarray | None, k: int) -> Any:
    """The cotangent of ``R`` from those of LAPACK's raw ``(m, n)`` array and scalars, or not_implemented.

    ``R`` is the upper triangle of the array's first ``k`` rows; a nonzero cotangent on the
    Householder vectors (below the diagonal) or scalars has no derivative here.
    """
    if (d_tau is not None and np.any(d_tau)) or (d_qr is not None and np.any(np.tril(d_qr, -1))):
        return not_implemented(_RAW_REASON)
    return None if d_qr is None else np.triu(d_qr)[..., :k, :]


def _sum_or_missing(*terms: Any) -> Any:
    """The sum of the terms that are arrays; a not_implemented term wins; ``None`` if none is given."""
    total = None
    for t in terms:
        if isinstance(t, NotImplementedTangent):
            return t
        if t is not None:
            total = t if total is None else total + t
    return total


# ---- np.linalg.qr ---------------------------------------------------------------------------------------------
class _NumpyQR:
    """NumPy's output for ``mode`` and the reduced (or complete) factors the derivative uses."""

    def __init__(self, a: np.ndarray, mode: Any) -> None:
        self.y: Any = np.linalg.qr(a, mode=mode)
        self.mode = mode
        if mode in ("reduced", "complete"):
            self.q, self.r = self.y
        else:
            self.q, self.r = np.linalg.qr(a, mode="reduced")
        self.a = _as_float(a, self.r)

    def pullback(self, dy: Any) -> Any:
        f = "numpy.linalg.qr"
        if self.mode in ("reduced", "complete"):
            dq, dr = typed_cotangent_parts(dy, self.y, f)
            missing = not_implemented_in(dq, dr)
            return missing if missing is not None else _factors_pullback(self.a, self.q, self.r, dq, dr)
        if self.mode == "r":
            dr = typed_cotangent(dy, self.y, f)
            return dr if isinstance(dr, NotImplementedTangent) else _factors_pullback(self.a, self.q, self.r, None, dr)
        d_h, d_tau = typed_cotangent_parts(dy, self.y, f)  # 'raw': h is the transpose of LAPACK's (m, n) array
        missing = not_implemented_in(d_h, d_tau)
        if missing is not None:
            return missing
        dr = _raw_r_cotangent(None if d_h is None else np.swapaxes(d_h, -1, -2), d_tau, self.r.shape[-2])
        if isinstance(dr, NotImplementedTangent):
            return dr
        return _factors_pullback(self.a, self.q, self.r, None, dr)

    def pushforward(self, da: Any) -> Any:
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        if self.mode == "raw":
            return not_implemented(_RAW_REASON)
        dq, dr = _factors_pushforward(self.a, self.q, self.r, da)
        if self.mode == "r":
            return ProjectTo(self.y)(dr)
        return tuple_tangent(self.y, [dq, dr])


@rrule.register(np.linalg.qr, np.ndarray)
def qr_rrule(a: np.ndarray, mode: str = "reduced") -> Any:
    """Reverse rule of ``np.linalg.qr(a, mode)`` (Seeger et al. 2017; Liao et al. 2019; see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule, Tangent, ZeroTangent
    >>> a = np.array([[3.0, 1.0], [4.0, 2.0]])
    >>> y, pullback = rrule(np.linalg.qr, a)
    >>> y.R
    array([[-5. , -2.2],
           [ 0. ,  0.4]])
    >>> pullback(Tangent(type(y), Q=ZeroTangent(), R=np.array([[1.0, 0.0], [0.0, 0.0]])))[1]
    array([[-0.6,  0. ],
           [-0.8,  0. ]])
    """
    state = _NumpyQR(a, mode)
    project_a = cotangent_projector(a)

    def qr_pullback(dy: Any) -> tuple[Any, Any, Any]:
        return NO, project_a(state.pullback(dy)), NO

    return state.y, qr_pullback


@frule.register(np.linalg.qr, np.ndarray)
def qr_frule(tangents: Any, a: np.ndarray, mode: str = "reduced") -> Any:
    """Forward rule of ``np.linalg.qr(a, mode)``: ``dR = (B - Omega) R``, ``dQ = dA R^{-1} - Q (B - Omega)``."""
    state = _NumpyQR(a, mode)
    return state.y, state.pushforward(_input(tangents))


# ---- scipy.linalg.qr ------------------------------------------------------------------------------------------
def _columns(x: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``x[..., :, perm]`` with a permutation per matrix of the stack."""
    return np.take_along_axis(x, np.broadcast_to(perm[..., None, :], x.shape[:-1] + perm.shape[-1:]), axis=-1)


class _ScipyQR:
    """SciPy's output for ``mode``/``pivoting`` and the factors of ``A[:, p] = Q R`` the derivative uses."""

    def __init__(self, a: np.ndarray, lwork: Any, mode: str, pivoting: bool, check_finite: bool) -> None:
        self.y = y = scipy.linalg.qr(a, False, lwork, mode, pivoting, check_finite)
        self.mode, self.pivoting = mode, pivoting
        self.single = isinstance(y, np.ndarray)  # mode='r' on a stack, without pivoting: R alone
        if mode in ("full", "economic"):
            self.q, self.r = y[0], y[1]
        else:
            factors = scipy.linalg.qr(a, False, lwork, "economic", pivoting, check_finite)
            self.q, self.r = factors[0], factors[1]
        self.perm = np.asarray(y[-1], dtype=np.intp) if pivoting else None
        a = _as_float(a, self.r)
        self.a = a if self.perm is None else _columns(a, self.perm)

    def pullback(self, dy: Any) -> Any:
        f = "scipy.linalg.qr"
        if self.single:
            dq, dr = None, typed_cotangent(dy, self.y, f)
            if isinstance(dr, NotImplementedTangent):
                return dr
        else:
            parts = typed_cotangent_parts(dy, self.y, f)   # the pivots (last) are integers
            missing = not_implemented_in(*parts)
            if missing is not None:
                return missing
            if self.mode in ("full", "economic"):
                dq, dr = parts[0], parts[1]
            elif self.mode == "r":
                dq, dr = None, parts[0]
            else:  # ((qr, tau), R)
                d_qr, d_tau = (None, None) if parts[0] is None else parts[0]
                in_raw = _raw_r_cotangent(d_qr, d_tau, self.r.shape[-2])
                dq, dr = None, _sum_or_missing(in_raw, parts[1])
                if isinstance(dr, NotImplementedTangent):
                    return dr
        if self.mode == "r" and dr is not None:
            dr = dr[..., : self.r.shape[-2], :]  # mode='r' returns all m rows of R (those below n are zeros)
        da = _factors_pullback(self.a, self.q, self.r, dq, dr)
        if self.perm is None or isinstance(da, (AbstractZero, NotImplementedTangent)):
            return da
        return _columns(da, np.argsort(self.perm, axis=-1))

    def pushforward(self, da: Any) -> Any:
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        if self.perm is not None:
            da = _columns(da, self.perm)
        dq, dr = _factors_pushforward(self.a, self.q, self.r, da)
        tail = [NO] if self.pivoting else []
        if self.mode == "r":  # R with all m rows
            r_out = self.y if self.single else self.y[0]
            extra = r_out.shape[-2] - dr.shape[-2]
            dr = np.concatenate([dr, np.zeros(dr.shape[:-2] + (extra, dr.shape[-1]), dtype=dr.dtype)], axis=-2)
        if self.single:
            return ProjectTo(self.y)(dr)
        if self.mode in ("full", "economic"):
            return tuple_tangent(self.y, [dq, dr, *tail])
        if self.mode == "r":
            return tuple_tangent(self.y, [dr, *tail])
        return not_implemented(_RAW_REASON + " (in forward mode for the whole output, R's tangent included)")


@rrule.register(scipy.linalg.qr, np.ndarray)
def scipy_qr_rrule(a: np.ndarray, overwrite_a: bool = False, lwork: Any = None, mode: str = "full",
                   pivoting: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.qr`` (every ``mode``; ``pivoting``: the rule of ``A[:, p] = Q R``).

    ``mode='full'`` of a tall matrix is the complete factorization (see the module
    docstring for the losses it differentiates). ``a`` is never overwritten.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> (q, r, p), pullback = rrule(scipy.linalg.qr, np.array([[1.0, 3.0], [2.0, 4.0]]), pivoting=True)
    >>> p
    array([1, 0], dtype=int32)
    >>> pullback((ZeroTangent(), np.array([[1.0, 0.0], [0.0, 0.0]]), ZeroTangent()))[1]
    array([[ 0. , -0.6],
           [ 0. , -0.8]])
    """
    state = _ScipyQR(a, lwork, mode, pivoting, check_finite)
    project_a = cotangent_projector(a)

    def scipy_qr_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, project_a(state.pullback(dy)), NO, NO, NO, NO, NO

    return state.y, scipy_qr_pullback


@frule.register(scipy.linalg.qr, np.ndarray)
def scipy_qr_frule(tangents: Any, a: np.ndarray, overwrite_a: bool = False, lwork: Any = None, mode: str = "full",
                   pivoting: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.qr``: the QR pushforward of ``A[:, p]`` (the permutation is locally constant)."""
    state = _ScipyQR(a, lwork, mode, pivoting, check_finite)
    return state.y, state.pushforward(_input(tangents))


# ---- scipy.linalg.rq ------------------------------------------------------------------------------------------
def _flip_h(x: np.ndarray) -> np.ndarray:
    """``J x^H J``: the conjugate transpose with both axes reversed (maps RQ factors to QR factors and back)."""
    return mH(x)[..., ::-1, ::-1]


class _ScipyRQ:
    """SciPy's ``A = R Q`` and the QR factorization ``J A^H J = (J Q^H J)(J R^H J)`` the derivative uses."""

    def __init__(self, a: np.ndarray, lwork: Any, mode: str, check_finite: bool) -> None:
        self.y = scipy.linalg.rq(a, False, lwork, mode, check_finite)
        self.mode = mode
        r, q = self.y if mode != "r" else scipy.linalg.rq(a, False, lwork, "economic", check_finite)
        self.q, self.r = _flip_h(q), _flip_h(r)
        self.a = _flip_h(_as_float(a, r))

    def pullback(self, dy: Any) -> Any:
        if self.mode == "r":
            dr, dq = typed_cotangent(dy, self.y, "scipy.linalg.rq"), None
            if isinstance(dr, NotImplementedTangent):
                return dr
            if dr is not None:  # mode='r' returns all n columns of R (those left of the triangle are zeros)
                dr = dr[..., :, dr.shape[-1] - self.r.shape[-2]:]
        else:
            dr, dq = typed_cotangent_parts(dy, self.y, "scipy.linalg.rq")
            missing = not_implemented_in(dr, dq)
            if missing is not None:
                return missing
        da = _factors_pullback(self.a, self.q, self.r, None if dq is None else _flip_h(dq),
                               None if dr is None else _flip_h(dr))
        return da if isinstance(da, (AbstractZero, NotImplementedTangent)) else _flip_h(da)

    def pushforward(self, da: Any) -> Any:
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        dq, dr = _factors_pushforward(self.a, self.q, self.r, _flip_h(da))
        dr = _flip_h(dr)
        if self.mode == "r":
            extra = self.y.shape[-1] - dr.shape[-1]
            dr = np.concatenate([np.zeros(dr.shape[:-1] + (extra,), dtype=dr.dtype), dr], axis=-1)
            return ProjectTo(self.y)(dr)
        return tuple_tangent(self.y, [dr, dq if isinstance(dq, NotImplementedTangent) else _flip_h(dq)])


@rrule.register(scipy.linalg.rq, np.ndarray)
def rq_rrule(a: np.ndarray, overwrite_a: bool = False, lwork: Any = None, mode: str = "full",
             check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.rq``: the QR rule of ``J A^H J`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> (r, q), pullback = rrule(scipy.linalg.rq, np.array([[3.0, 4.0]]))
    >>> r
    array([[ 0., -5.]])
    >>> pullback((np.array([[0.0, 1.0]]), ZeroTangent()))[1]
    array([[-0.6, -0.8]])
    """
    state = _ScipyRQ(a, lwork, mode, check_finite)
    project_a = cotangent_projector(a)

    def rq_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, project_a(state.pullback(dy)), NO, NO, NO, NO

    return state.y, rq_pullback


@frule.register(scipy.linalg.rq, np.ndarray)
def rq_frule(tangents: Any, a: np.ndarray, overwrite_a: bool = False, lwork: Any = None, mode: str = "full",
             check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.rq``: the QR pushforward of ``J A^H J``."""
    state = _ScipyRQ(a, lwork, mode, check_finite)
    return state.y, state.pushforward(_input(tangents))


# ---- sample inputs ----------------------------------------------------------------------------------------
def _complement_free(result: Any) -> tuple[Any, ...]:
    """``Q``'s first ``k`` columns, ``R`` and the projector on the rest of ``Q``: blind to the free basis ``Q2 W``
    of the complete factorization (``k`` the number of ``R``'s rows that hold the triangle)."""
    q, r = result[0], result[1]
    k = min(r.shape[-2:])
    q2 = q[..., :, k:]
    return q[..., :, :k], r, q2 @ np.conj(np.swapaxes(q2, -1, -2))


def _rq_complement_free(result: Any) -> tuple[Any, ...]:
    """``scipy.linalg.rq``'s counterpart of :func:`_complement_free` (the free rows are ``Q``'s first ones)."""
    r, q = result[0], result[1]
    k = min(r.shape[-2:])
    q2 = q[..., : q.shape[-2] - k, :]
    return q[..., q.shape[-2] - k:, :], r, np.conj(np.swapaxes(q2, -1, -2)) @ q2


@sample_inputs(np.linalg.qr)
def _qr_samples(rng: np.random.Generator) -> list[Sample]:
    tall = rng.standard_normal((4, 3))
    return [
        Sample(tall, label="tall, reduced"),
        Sample(tall[:3], label="square"),
        Sample(tall.T, label="wide"),
        Sample(tall.astype(np.float32), label="float32"),
        Sample(tall + 1j * rng.standard_normal((4, 3)), label="complex"),
        Sample(tall, "r", label="mode='r' by position"),
        Sample(tall, fkwargs={"mode": "complete"}, gauge_invariant=_complement_free,
               label="mode='complete' (Q's complement up to a rotation)"),
        Sample(tall, fkwargs={"mode": "raw"}, label="mode='raw' (the reflectors not differentiated)"),
        Sample(rng.standard_normal((2, 3, 2)), label="stack"),
    ]


@sample_inputs(scipy.linalg.qr)
def _scipy_qr_samples(rng: np.random.Generator) -> list[Sample]:
    tall = rng.standard_normal((4, 3))
    return [
        Sample(tall[:3], label="square, mode='full'"),
        Sample(tall, gauge_invariant=_complement_free, label="tall, mode='full' (complete)"),
        Sample(tall, fkwargs={"mode": "economic"}, label="economic"),
        Sample(tall.T, fkwargs={"mode": "economic"}, label="wide"),
        Sample(tall.astype(np.float32), fkwargs={"mode": "economic"}, label="float32"),
        Sample(tall + 1j * rng.standard_normal((4, 3)), fkwargs={"mode": "economic"}, label="complex"),
        Sample(tall, False, None, "r", label="mode='r' by position"),
        Sample(tall, fkwargs={"mode": "economic", "pivoting": True}, label="pivoting"),
        Sample(tall, fkwargs={"mode": "raw"}, label="mode='raw' (the reflectors not differentiated)"),
    ]


@sample_inputs(scipy.linalg.rq)
def _rq_samples(rng: np.random.Generator) -> list[Sample]:
    wide = rng.standard_normal((3, 4))
    return [
        Sample(wide[:, :3], label="square"),
        Sample(wide, gauge_invariant=_rq_complement_free, label="wide, mode='full' (complete)"),
        Sample(wide, fkwargs={"mode": "economic"}, label="economic"),
        Sample(wide.T, fkwargs={"mode": "economic"}, label="tall"),
        Sample(wide.astype(np.float32), fkwargs={"mode": "economic"}, label="float32"),
        Sample(wide + 1j * rng.standard_normal((3, 4)), fkwargs={"mode": "economic"}, label="complex"),
        Sample(wide, False, None, "r", label="mode='r' by position"),
    ]
