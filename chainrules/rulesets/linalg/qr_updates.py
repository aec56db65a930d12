"""Products with and updates of QR factorizations: ``scipy.linalg.qr_multiply``, ``qr_update``, ``qr_insert``
and ``qr_delete``.

``qr_multiply(a, c, mode)``
---------------------------
``(op(Q) c or c op(Q), R[, P])`` with ``a[:, P] = Q R`` the economic Householder QR (``op`` is
the conjugate with ``conjugate=True``): the rules are those of ``scipy.linalg.qr`` (see
:mod:`~chainrules.rulesets.linalg.qr`: Seeger et al. 2017, "Auto-differentiating linear
algebra"; Liao et al. 2019, "Differentiable programming tensor networks") composed with the
product, ``Q_bar = CQ_bar c^H`` and ``c_bar = op(Q)^H CQ_bar`` (``mode='left'``), or
``Q_bar = c^H CQ_bar`` and ``c_bar = CQ_bar op(Q)^H`` (``mode='right'``), conjugated through
``op``. The factors are recomputed with ``scipy.linalg.qr(a, mode='economic')``, the same
LAPACK factorization, so they are the ones the product used. ``overwrite_c=True`` with
``mode='left'`` and a tall ``a`` multiplies by the *complete* ``Q`` (its last columns are a
basis LAPACK chooses freely): that combination raises ``UnsupportedKeywordError``.

``qr_update``, ``qr_insert``, ``qr_delete``: the maths
-------------------------------------------------------
Given a QR factorization ``A = Q R`` (full: ``Q`` square; or economic), SciPy returns a QR
factorization ``A1 = Q1 R1`` of the modified matrix: ``A1 = A + u v^H`` (``qr_update``;
``u v^T`` for real input), ``A`` with rows or columns ``u`` inserted before index ``k``
(``qr_insert``), or with ``p`` rows or columns removed from index ``k`` (``qr_delete``),
computed with Givens rotations (and, for economic factors, a reorthogonalization step)
after Golub & Van Loan, "Matrix Computations", section 6.5, and Daniel, Gragg, Kaufman &
Stewart 1976. The rules differentiate that: with ``dA = dQ R + Q dR``,

* forward: ``dA1`` is the modification applied to ``(dA, du, dv)`` (linear in ``dA`` and
  ``du``; ``du v^H + u dv^H`` for ``qr_update``), and ``(dQ1, dR1)`` is the QR pushforward of
  ``A1 = Q1 R1`` at the returned factors;
* reverse: ``A1_bar`` is the QR pullback at ``(Q1, R1)``, the modification's adjoint gives
  ``A_bar`` (and ``u_bar = A1_bar v``, ``v_bar = A1_bar^H u``, or the rows/columns of
  ``A1_bar`` at the inserted positions), and ``Q_bar = A_bar R^H``, ``R_bar = Q^H A_bar``.

The QR formulas hold for any pattern of signs on ``R1``'s diagonal (Givens rotations do not
make it positive, and it need not match a fresh ``qr``'s): in the real case the factors of a
full-rank ``A1`` are unique up to those signs, which are locally constant.

*The input factors are a QR factorization.* The rules treat ``(Q, R)`` as a point of the
manifold of QR factorizations (``Q`` with orthonormal columns, ``R`` upper triangular) and
give the derivative along it: for tangents ``(dQ, dR)`` of a factorization (those that the
``qr`` rules, or any other rule producing such factors, give) the result is exact, and the
cotangents ``Q_bar``, ``R_bar`` are exact for every such upstream rule (which only reads
their component tangent to the manifold). For a ``Q`` that is not unitary SciPy's routines
compute an algorithm-dependent result (``Q1 R1 != Q R + u v^H``) that nobody should want to
differentiate: finite differences of ``qr_update`` in such directions differ from these
rules, and tests compose the rules with ``qr``'s.

*Gauges.* Two freedoms of the output factors are not functions of ``A1``:

* complex factors: each column of ``Q1`` (with the row of ``R1``) carries a phase that the
  rotations fix their own way (``R1``'s diagonal is not real). The rules use the gauge
  ``Im diag(Q1^H dQ1) = 0`` (every diagonal phase of ``R1`` frozen): the pullback is exact
  for every loss invariant under ``Q1 -> Q1 D``, ``R1 -> D^H R1`` (``D`` diagonal unitary: the
  product ``Q1 R1``, ``|R1|``, projectors...), which is tested by
  ``Im diag(Q1_bar^H Q1 - R1 R1_bar^H) = 0``; for any other cotangent the cotangents are
  ``not_implemented``. The forward rule returns the gauge-fixed tangent;
* a complete ``Q1`` of a tall ``A1`` (``m1 > n1``): its last ``m1 - n1`` columns are a basis of
  the complement of ``range(A1)``, free up to ``Q2 -> Q2 W``; the pullback is exact when
  ``Q2^H Q2_bar`` is Hermitian (a loss depending on that basis only through its span) and
  ``not_implemented`` otherwise; the forward rule gives ``R1``'s tangent and
  ``not_implemented`` for ``Q1``'s, except for real input with ``m1 - n1 = 1`` (``Q2`` unique up
  to sign, ``dQ2 = -Q1_1 dQ1_1^T Q2``), as ``qr``'s rules do.

A rank-deficient ``A1`` (a zero on ``R1``'s diagonal) raises ``LinAlgError`` in the
pullback: the factorization has no derivative there. ``k``, ``p``, ``which``, ``rcond`` and
the flags get ``NoTangent()``; ``overwrite_*`` are ignored (the rules never overwrite their
inputs). Leading batch axes follow SciPy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import NO, conj, mH, not_implemented_in, tangent_value
from chainrules.rulesets.linalg.qr import qr_pullback_of, qr_pushforward_of
from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    rrule,
    sample_inputs,
    unbroadcast,
)

__all__ = ["factors_cotangent", "factors_tangent"]

_PHASE_REASON = ("{name}: the loss depends on the phases of the complex factors (Q1 -> Q1 D, R1 -> D^H R1 with D "
                 "diagonal unitary), which the Givens rotations fix their own way, not as a function of the "
                 "updated matrix. Use a loss invariant under that freedom (Q1 @ R1, |R1|, projectors, ...)")
_COMPLEMENT_REASON = ("{name}: the loss depends on the last m - n columns of the complete Q1 (an orthonormal basis "
                      "of the complement of range(A1), which the update leaves free up to a unitary W). Use "
                      "economic factors or a loss invariant under Q2 -> Q2 W")
_COMPLEMENT_FORWARD = ("{name}: the tangent of the last m - n columns of the complete Q1 (a basis of the complement "
                       "of range(A1) that the update leaves free; real input with m - n == 1 has one)")


# ---- the QR derivative at the returned factors ------------------------------------------------------------------
def _is_complete(q1: np.ndarray, r1: np.ndarray) -> bool:
    m1, n1 = q1.shape[-2], r1.shape[-1]
    return q1.shape[-1] == m1 and m1 > n1


def _tolerance(dtype: Any) -> float:
    return float(np.sqrt(np.finfo(np.dtype(dtype)).eps))


def _phase_free(q1: np.ndarray, r1: np.ndarray, q1_bar: Any, r1_bar: Any, k: int) -> bool:
    """Whether ``Im diag(Q1_bar^H Q1 - R1 R1_bar^H) = 0`` on the first ``k`` columns (up to rounding)."""
    t = np.zeros(q1.shape[:-2] + (k,))
    scale = 0.0
    if q1_bar is not None:
        t = t + np.imag(np.sum(conj(q1_bar[..., :, :k]) * q1[..., :, :k], axis=-2))
        scale += float(np.abs(q1_bar).max(initial=0.0))
    if r1_bar is not None:
        t = t - np.imag(np.sum(r1[..., :k, :] * conj(r1_bar[..., :k, :]), axis=-1))
        scale += float(np.abs(r1_bar).max(initial=0.0)) * float(np.abs(r1).max(initial=0.0))
    return bool(np.abs(t).max(initial=0.0) <= _tolerance(q1.dtype) * max(1, q1.shape[-2]) * scale)


def _complement_free(q2: np.ndarray, q2_bar: np.ndarray) -> bool:
    """Whether ``Q2^H Q2_bar`` is Hermitian up to rounding (the loss sees ``Q2`` only through its span)."""
    g = mH(q2) @ q2_bar
    skew = float(np.abs(g - mH(g)).max(initial=0.0))
    return skew <= _tolerance(q2.dtype) * float(np.abs(q2_bar).max(initial=0.0)) * max(1, q2.shape[-2])


def factors_cotangent(a1: np.ndarray, q1: np.ndarray, r1: np.ndarray, q1_bar: Any, r1_bar: Any, name: str) -> Any:
    """``A1_bar`` for cotangents of the factors ``A1 = Q1 R1`` (reduced or complete; ``None``: zero).

    ``not_implemented`` for a cotangent that depends on the factors' gauge (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.qr_updates import factors_cotangent
    >>> q1, r1 = np.array([[-1.0]]), np.array([[-2.0]])       # the Givens sign pattern of A1 = [[2]]
    >>> factors_cotangent(q1 @ r1, q1, r1, None, np.array([[1.0]]), "f")    # d r_11 / d a_11
    array([[-1.]])
    """
    if q1_bar is None and r1_bar is None:
        return ZeroTangent()
    m1, n1 = a1.shape[-2:]
    k = min(m1, n1)
    if np.iscomplexobj(q1) and not _phase_free(q1, r1, q1_bar, r1_bar, k):
        return not_implemented(_PHASE_REASON.format(name=name))
    if _is_complete(q1, r1):
        q1_1, q2 = q1[..., :, :n1], q1[..., :, n1:]
        dq1 = None
        if q1_bar is not None:
            if not _complement_free(q2, q1_bar[..., :, n1:]):
                return not_implemented(_COMPLEMENT_REASON.format(name=name))
            dq1 = q1_bar[..., :, :n1] - q2 @ (mH(q1_bar[..., :, n1:]) @ q1_1)
        dr1 = None if r1_bar is None else r1_bar[..., :n1, :]
        return qr_pullback_of(a1, q1_1, r1[..., :n1, :], dq1, dr1)
    return qr_pullback_of(a1, q1, r1, q1_bar, r1_bar)


def factors_tangent(a1: np.ndarray, q1: np.ndarray, r1: np.ndarray, da1: np.ndarray, name: str) -> tuple[Any, Any]:
    """``(dQ1, dR1)`` of ``A1 = Q1 R1`` for a tangent ``dA1`` (gauge-fixed; see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.qr_updates import factors_tangent
    >>> q1, r1 = np.array([[-1.0]]), np.array([[-2.0]])
    >>> factors_tangent(q1 @ r1, q1, r1, np.array([[1.0]]), "f")
    (array([[0.]]), array([[-1.]]))
    """
    m1, n1 = a1.shape[-2:]
    if _is_complete(q1, r1):
        q1_1, q2 = q1[..., :, :n1], q1[..., :, n1:]
        dq1_1, dr1_1 = qr_pushforward_of(a1, q1_1, r1[..., :n1, :], da1)
        dr1 = np.concatenate([dr1_1, np.zeros(dr1_1.shape[:-2] + (m1 - n1, n1), dtype=dr1_1.dtype)], axis=-2)
        if np.iscomplexobj(q1) or m1 - n1 > 1:
            return not_implemented(_COMPLEMENT_FORWARD.format(name=name)), dr1
        return np.concatenate([dq1_1, -q1_1 @ (mH(dq1_1) @ q2)], axis=-1), dr1
    return qr_pushforward_of(a1, q1, r1, da1)


# ---- the shared rule machinery ---------------------------------------------------------------------------------
class _Update:
    """A QR modification ``A1 = modify(Q R, extras...)`` and the derivative of its output factors.

    ``tangent(dA, d_extras)`` gives ``dA1``; ``adjoint(A1_bar)`` gives ``(A_bar, extras_bar)``.
    """

    def __init__(self, name: str, y: Any, q: np.ndarray, r: np.ndarray,
                 tangent: Callable[[Any, list[Any]], np.ndarray],
                 adjoint: Callable[[np.ndarray], tuple[Any, list[Any]]]) -> None:
        self.name, self.y = name, y
        self.q1, self.r1 = y[0], y[1]
        self.a1 = self.q1 @ self.r1
        self.q, self.r = q, r
        self.tangent_of, self.adjoint_of = tangent, adjoint

    def pullback(self, dy: Any, projectors: list[Callable[[Any], Any]], n_extras: int) -> tuple[Any, ...]:
        """``(Q_bar, R_bar, extras_bar...)``, each a thunk (or a zero, or not_implemented)."""
        q1_bar, r1_bar = typed_cotangent_parts(dy, self.y, f"scipy.linalg.{self.name}")
        missing = not_implemented_in(q1_bar, r1_bar)
        if missing is not None:
            return tuple(missing for _ in range(2 + n_extras))
        a1_bar = factors_cotangent(self.a1, self.q1, self.r1, q1_bar, r1_bar, self.name)
        if isinstance(a1_bar, (AbstractZero, NotImplementedTangent)):
            return tuple(a1_bar for _ in range(2 + n_extras))
        parts: dict[str, Any] = {}

        def adjoint() -> dict[str, Any]:
            if not parts:
                a_bar, extras = self.adjoint_of(a1_bar)
                parts["a"], parts["extras"] = a_bar, extras
            return parts

        q_bar = Thunk(lambda: projectors[0](unbroadcast(adjoint()["a"] @ mH(self.r), self.q.shape)))
        r_bar = Thunk(lambda: projectors[1](unbroadcast(mH(self.q) @ adjoint()["a"], self.r.shape)))
        extras = [Thunk(_ExtraCotangent(adjoint, i, projectors[2 + i])) for i in range(n_extras)]
        return (q_bar, r_bar, *extras)

    def pushforward(self, dq: Any, dr: Any, d_extras: list[Any]) -> Any:
        missing = not_implemented_in(dq, dr, *d_extras)
        if missing is not None:
            return missing
        if dq is None and dr is None and all(d is None for d in d_extras):
            return ZeroTangent()
        da: Any = 0
        if dq is not None:
            da = da + dq @ self.r
        if dr is not None:
            da = da + self.q @ dr
        da1 = self.tangent_of(None if isinstance(da, int) else da, d_extras)
        dq1, dr1 = factors_tangent(self.a1, self.q1, self.r1, da1.astype(np.result_type(da1, self.q1), copy=False),
                                   self.name)
        return tuple_tangent(self.y, [dq1, dr1])


class _ExtraCotangent:
    """The thunk body of the cotangent of an extra argument (``u``, ``v``)."""

    def __init__(self, adjoint: Callable[[], dict[str, Any]], i: int, project: Callable[[Any], Any]) -> None:
        self.adjoint, self.i, self.project = adjoint, i, project

    def __call__(self) -> Any:
        return self.project(self.adjoint()["extras"][self.i])


def _zeros_like_a(q: np.ndarray, r: np.ndarray, *others: Any) -> np.ndarray:
    shape = np.broadcast_shapes(q.shape[:-2], r.shape[:-2]) + (q.shape[-2], r.shape[-1])
    return np.zeros(shape, dtype=np.result_type(q, r, *[o for o in others if o is not None]))


# ---- qr_update ---------------------------------------------------------------------------------------------------
def _columns(x: np.ndarray) -> np.ndarray:
    """A vector as a one-column matrix."""
    return x[:, None] if x.ndim == 1 else x


def _qr_update_state(Q: Any, R: Any, u: Any, v: Any, check_finite: Any) -> _Update:
    y = scipy.linalg.qr_update(Q, R, u, v, False, check_finite)
    q, r, uu, vv = (np.asarray(x) for x in (Q, R, u, v))
    U, V = _columns(uu), _columns(vv)

    def tangent(da: Any, d_extras: list[Any]) -> np.ndarray:
        du, dv = d_extras
        out = _zeros_like_a(q, r, da, du, dv) if da is None else da
        if du is not None:
            out = out + _columns(du) @ mH(V)
        if dv is not None:
            out = out + U @ mH(_columns(dv))
        return out

    def adjoint(a1_bar: np.ndarray) -> tuple[Any, list[Any]]:
        u_bar = unbroadcast(a1_bar @ V, U.shape).reshape(uu.shape)
        v_bar = unbroadcast(mH(a1_bar) @ U, V.shape).reshape(vv.shape)
        return a1_bar, [u_bar, v_bar]

    return _Update("qr_update", y, q, r, tangent, adjoint)


@rrule.register(scipy.linalg.qr_update, np.ndarray, np.ndarray, np.ndarray, np.ndarray)
def qr_update_rrule(Q: np.ndarray, R: np.ndarray, u: np.ndarray, v: np.ndarray, overwrite_qruv: Any = False,
                    check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.qr_update``: the QR pullback of ``A1 = Q R + u v^H`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> q, r = np.eye(2), np.diag([2.0, 3.0])
    >>> (q1, r1), pullback = rrule(scipy.linalg.qr_update, q, r, np.array([1.0, 0.0]), np.array([1.0, 0.0]))
    >>> r1                                               # A1 = diag(3, 3)
    array([[3., 0.],
           [0., 3.]])
    >>> dq, dr, du, dv = map(unthunk, pullback((ZeroTangent(), np.diag([1.0, 0.0])))[1:])
    >>> du, dv                                            # d r1_00 = d(a_00 + u_0 v_0)
    (array([1., 0.]), array([1., 0.]))
    """
    state = _qr_update_state(Q, R, u, v, check_finite)
    projectors = [cotangent_projector(x) for x in (Q, R, u, v)]

    def qr_update_pullback(dy: Any) -> tuple[Any, ...]:
        return (NO, *state.pullback(dy, projectors, 2), NO, NO)

    return state.y, qr_update_pullback


@frule.register(scipy.linalg.qr_update, np.ndarray, np.ndarray, np.ndarray, np.ndarray)
def qr_update_frule(tangents: Any, Q: np.ndarray, R: np.ndarray, u: np.ndarray, v: np.ndarray,
                    overwrite_qruv: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.qr_update``: the QR pushforward of ``dA1 = dQ R + Q dR + du v^H + u dv^H``."""
    state = _qr_update_state(Q, R, u, v, check_finite)
    dq, dr, du, dv = (tangent_value(t) for t in tangents[1:5])
    return state.y, state.pushforward(dq, dr, [du, dv])


# ---- qr_insert ---------------------------------------------------------------------------------------------------
def _insert_index(k: Any, size: int) -> int:
    k = int(k)
    return k + size if k < 0 else k


def _qr_insert_state(Q: Any, R: Any, u: Any, k: Any, which: Any, rcond: Any, check_finite: Any) -> _Update:
    y = scipy.linalg.qr_insert(Q, R, u, k, which, rcond, False, check_finite)
    q, r, uu = (np.asarray(x) for x in (Q, R, u))
    rows = str(which).lower().startswith("r")
    axis = -2 if rows else -1
    size = q.shape[-2] if rows else r.shape[-1]
    at = _insert_index(k, size)
    if rows:
        block_of = (lambda x: x[None, :]) if uu.ndim == 1 else (lambda x: x)
    else:
        block_of = (lambda x: x[:, None]) if uu.ndim == 1 else (lambda x: x)
    width = block_of(uu).shape[axis]

    def tangent(da: Any, d_extras: list[Any]) -> np.ndarray:
        (du,) = d_extras
        a_part = _zeros_like_a(q, r, du) if da is None else da
        block = np.zeros(uu.shape, dtype=a_part.dtype) if du is None else du
        block = block_of(np.asarray(block))
        shape = list(a_part.shape)
        shape[axis] = block.shape[axis]
        block = np.broadcast_to(block, a_part.shape[:-2] + tuple(shape[-2:]))
        head = a_part[..., :at, :] if rows else a_part[..., :, :at]
        tail = a_part[..., at:, :] if rows else a_part[..., :, at:]
        return np.concatenate([head, block.astype(np.result_type(a_part, block), copy=False), tail], axis=axis)

    def adjoint(a1_bar: np.ndarray) -> tuple[Any, list[Any]]:
        if rows:
            block = a1_bar[..., at:at + width, :]
            a_bar = np.concatenate([a1_bar[..., :at, :], a1_bar[..., at + width:, :]], axis=-2)
        else:
            block = a1_bar[..., :, at:at + width]
            a_bar = np.concatenate([a1_bar[..., :, :at], a1_bar[..., :, at + width:]], axis=-1)
        return a_bar, [unbroadcast(block, block_of(uu).shape).reshape(uu.shape)]

    return _Update("qr_insert", y, q, r, tangent, adjoint)


@rrule.register(scipy.linalg.qr_insert, np.ndarray, np.ndarray, np.ndarray)
def qr_insert_rrule(Q: np.ndarray, R: np.ndarray, u: np.ndarray, k: Any, which: Any = "row", rcond: Any = None,
                    overwrite_qru: Any = False, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.qr_insert``: the QR pullback of ``A`` with ``u`` inserted (module docstring).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> (q1, r1), pullback = rrule(scipy.linalg.qr_insert, np.eye(1), np.array([[3.0]]), np.array([4.0]), 1)
    >>> r1                                              # A1 = [[3], [4]]: r1_00 = |A1| = 5
    array([[5.],
           [0.]])
    >>> du = unthunk(pullback((ZeroTangent(), np.array([[1.0], [0.0]])))[3])
    >>> du                                               # d r1_00 / d u = u / 5
    array([0.8])
    """
    state = _qr_insert_state(Q, R, u, k, which, rcond, check_finite)
    projectors = [cotangent_projector(x) for x in (Q, R, u)]

    def qr_insert_pullback(dy: Any) -> tuple[Any, ...]:
        return (NO, *state.pullback(dy, projectors, 1), NO, NO, NO, NO, NO)

    return state.y, qr_insert_pullback


@frule.register(scipy.linalg.qr_insert, np.ndarray, np.ndarray, np.ndarray)
def qr_insert_frule(tangents: Any, Q: np.ndarray, R: np.ndarray, u: np.ndarray, k: Any, which: Any = "row",
                    rcond: Any = None, overwrite_qru: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.qr_insert``: the QR pushforward of ``dA`` with ``du`` inserted."""
    state = _qr_insert_state(Q, R, u, k, which, rcond, check_finite)
    dq, dr, du = (tangent_value(t) for t in tangents[1:4])
    return state.y, state.pushforward(dq, dr, [du])


# ---- qr_delete ---------------------------------------------------------------------------------------------------
def _qr_delete_state(Q: Any, R: Any, k: Any, p: Any, which: Any, check_finite: Any) -> _Update:
    y = scipy.linalg.qr_delete(Q, R, k, p, which, False, check_finite)
    q, r = np.asarray(Q), np.asarray(R)
    rows = str(which).lower().startswith("r")
    size = q.shape[-2] if rows else r.shape[-1]
    at = _insert_index(k, size)
    count = int(p)

    def tangent(da: Any, d_extras: list[Any]) -> np.ndarray:
        if rows:
            return np.concatenate([da[..., :at, :], da[..., at + count:, :]], axis=-2)
        return np.concatenate([da[..., :, :at], da[..., :, at + count:]], axis=-1)

    def adjoint(a1_bar: np.ndarray) -> tuple[Any, list[Any]]:
        if rows:
            gap = np.zeros(a1_bar.shape[:-2] + (count, a1_bar.shape[-1]), dtype=a1_bar.dtype)
            return np.concatenate([a1_bar[..., :at, :], gap, a1_bar[..., at:, :]], axis=-2), []
        gap = np.zeros(a1_bar.shape[:-1] + (count,), dtype=a1_bar.dtype)
        return np.concatenate([a1_bar[..., :, :at], gap, a1_bar[..., :, at:]], axis=-1), []

    return _Update("qr_delete", y, q, r, tangent, adjoint)


@rrule.register(scipy.linalg.qr_delete, np.ndarray, np.ndarray)
def qr_delete_rrule(Q: np.ndarray, R: np.ndarray, k: Any, p: Any = 1, which: Any = "row", overwrite_qr: Any = False,
                    check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.qr_delete``: the QR pullback of ``A`` without the deleted rows or columns.

    The deleted rows (columns) of ``A`` get a zero cotangent.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> q, r = scipy.linalg.qr(np.array([[3.0], [4.0]]))
    >>> (q1, r1), pullback = rrule(scipy.linalg.qr_delete, q, r, 1)      # A1 = [[3]]
    >>> dr = unthunk(pullback((ZeroTangent(), np.sign(r1)))[2])
    >>> (q @ dr).round(12) + 0.0                # A_bar = Q R_bar for a unitary Q: d|a_00| / dA
    array([[1.],
           [0.]])
    """
    state = _qr_delete_state(Q, R, k, p, which, check_finite)
    projectors = [cotangent_projector(x) for x in (Q, R)]

    def qr_delete_pullback(dy: Any) -> tuple[Any, ...]:
        return (NO, *state.pullback(dy, projectors, 0), NO, NO, NO, NO, NO)

    return state.y, qr_delete_pullback


@frule.register(scipy.linalg.qr_delete, np.ndarray, np.ndarray)
def qr_delete_frule(tangents: Any, Q: np.ndarray, R: np.ndarray, k: Any, p: Any = 1, which: Any = "row",
                    overwrite_qr: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.qr_delete``: the QR pushforward of ``dA`` without the deleted rows or columns."""
    state = _qr_delete_state(Q, R, k, p, which, check_finite)
    dq, dr = (tangent_value(t) for t in tangents[1:3])
    return state.y, state.pushforward(dq, dr, [])


# ---- qr_multiply -------------------------------------------------------------------------------------------------
def _permute_columns(x: np.ndarray, perm: np.ndarray) -> np.ndarray:
    """``x[..., :, perm]`` with a permutation per matrix of the stack."""
    return np.take_along_axis(x, np.broadcast_to(perm[..., None, :], x.shape[:-1] + perm.shape[-1:]), axis=-1)


class _QRMultiply:
    """``qr_multiply``'s output and the economic factors ``a[:, P] = Q R`` behind it."""

    def __init__(self, a: np.ndarray, c: np.ndarray, mode: Any, pivoting: Any, conjugate: Any,
                 overwrite_c: Any) -> None:
        m, n = np.shape(a)[-2:]
        if overwrite_c and mode == "left" and m > n:
            raise UnsupportedKeywordError(
                "scipy.linalg.qr_multiply: overwrite_c=True with mode='left' and a tall a multiplies by the complete "
                "Q, whose last columns are a basis LAPACK chooses freely; call without overwrite_c")
        self.y = scipy.linalg.qr_multiply(a, c, mode, pivoting, conjugate, False, False)
        factors = scipy.linalg.qr(a, mode="economic", pivoting=pivoting)
        self.q, self.r = factors[0], factors[1]
        self.perm = np.asarray(factors[2], dtype=np.intp) if pivoting else None
        af = np.asarray(a).astype(self.r.dtype, copy=False)
        self.a = af if self.perm is None else _permute_columns(af, self.perm)
        self.left, self.conjugate = mode == "left", bool(conjugate)
        c = np.asarray(c)
        self.vector = c.ndim == 1
        self.c = (c[:, None] if self.left else c[None, :]) if self.vector else c

    def _matrix(self, g: np.ndarray) -> np.ndarray:
        """An output cotangent (or tangent) of ``CQ`` as a matrix (vectors as the column or row ``c`` was)."""
        if not self.vector:
            return g
        return g[..., :, None] if self.left else g[..., None, :]

    def _output(self, x: np.ndarray) -> np.ndarray:
        if not self.vector:
            return x
        return x[..., :, 0] if self.left else x[..., 0, :]

    def op(self, q: np.ndarray) -> np.ndarray:
        return np.conj(q) if self.conjugate else q

    def pullback(self, g_cq: Any, g_r: Any) -> tuple[Any, Any]:
        """``(a_bar, c_bar)`` in the shapes of ``a[:, P]`` and the matrix ``c`` (``None`` for zeros)."""
        q_bar, c_bar = None, None
        if g_cq is not None:
            g = self._matrix(g_cq)
            if self.left:               # CQ = op(Q) c
                op_bar, c_bar = g @ mH(self.c), mH(self.op(self.q)) @ g
            else:                       # CQ = c op(Q)
                op_bar, c_bar = mH(self.c) @ g, g @ mH(self.op(self.q))
            q_bar = np.conj(op_bar) if self.conjugate else op_bar
        a_bar = None
        if q_bar is not None or g_r is not None:
            a_bar = qr_pullback_of(self.a, self.q, self.r, q_bar, g_r)
            if self.perm is not None:
                a_bar = _permute_columns(a_bar, np.argsort(self.perm, axis=-1))
        return a_bar, c_bar

    def pushforward(self, da: Any, dc: Any) -> tuple[Any, Any]:
        """``(dCQ, dR)`` (``dR`` ``None`` when ``da`` is zero)."""
        total: Any = 0
        dr = None
        if da is not None:
            if self.perm is not None:
                da = _permute_columns(da, self.perm)
            dq, dr = qr_pushforward_of(self.a, self.q, self.r, da)
            total = total + (self.op(dq) @ self.c if self.left else self.c @ self.op(dq))
        if dc is not None:
            dcm = (dc[:, None] if self.left else dc[None, :]) if self.vector else dc
            total = total + (self.op(self.q) @ dcm if self.left else dcm @ self.op(self.q))
        return self._output(np.asarray(total)), dr


@rrule.register(scipy.linalg.qr_multiply, np.ndarray, np.ndarray)
def qr_multiply_rrule(a: np.ndarray, c: np.ndarray, mode: Any = "right", pivoting: Any = False, conjugate: Any = False,
                      overwrite_a: Any = False, overwrite_c: Any = False) -> Any:
    """Reverse rule of ``scipy.linalg.qr_multiply``: the QR pullback with ``Q_bar`` from the product.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk, ZeroTangent
    >>> a, c = np.array([[3.0], [4.0]]), np.array([1.0, 0.0])
    >>> (cq, r), pullback = rrule(scipy.linalg.qr_multiply, a, c)        # c @ Q, Q = -a / 5
    >>> cq
    array([-0.6])
    >>> da, dc = map(unthunk, pullback((np.array([1.0]), ZeroTangent()))[1:3])
    >>> da.round(12) + 0.0, dc
    (array([[-0.128],
           [ 0.096]]), array([-0.6, -0.8]))
    """
    state = _QRMultiply(a, c, mode, pivoting, conjugate, overwrite_c)
    project_a, project_c = cotangent_projector(a), cotangent_projector(c)

    def qr_multiply_pullback(dy: Any) -> tuple[Any, ...]:
        g_cq, g_r = typed_cotangent_parts(dy, state.y, "scipy.linalg.qr_multiply")[:2]   # the pivots are integers
        missing = not_implemented_in(g_cq, g_r)
        if missing is not None:
            return NO, missing, missing, NO, NO, NO, NO, NO
        if g_cq is None and g_r is None:
            return NO, project_a(ZeroTangent()), project_c(ZeroTangent()), NO, NO, NO, NO, NO
        cache: dict[str, Any] = {}

        def both() -> dict[str, Any]:
            if not cache:
                cache["a"], cache["c"] = state.pullback(g_cq, g_r)
            return cache

        da = Thunk(lambda: ZeroTangent() if both()["a"] is None else project_a(both()["a"]))
        dc = Thunk(lambda: ZeroTangent() if both()["c"] is None else
                   project_c(unbroadcast(both()["c"], state.c.shape).reshape(np.shape(c))))
        return NO, da, dc, NO, NO, NO, NO, NO

    return state.y, qr_multiply_pullback


@frule.register(scipy.linalg.qr_multiply, np.ndarray, np.ndarray)
def qr_multiply_frule(tangents: Any, a: np.ndarray, c: np.ndarray, mode: Any = "right", pivoting: Any = False,
                      conjugate: Any = False, overwrite_a: Any = False, overwrite_c: Any = False) -> Any:
    """Forward rule of ``scipy.linalg.qr_multiply``: ``op(dQ) c + op(Q) dc`` (or ``dc op(Q) + c op(dQ)``) and ``dR``."""
    state = _QRMultiply(a, c, mode, pivoting, conjugate, overwrite_c)
    da, dc = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(da, dc)
    if missing is not None:
        return state.y, missing
    if da is None and dc is None:
        return state.y, ZeroTangent()
    dcq, dr = state.pushforward(da, dc)
    cq = state.y[0]
    dcq = np.broadcast_to(dcq, cq.shape)
    parts: list[Any] = [dcq, dr]
    if pivoting:
        parts.append(NO)
    return state.y, tuple_tangent(state.y, parts)



# ---- sample inputs ----------------------------------------------------------------------------------------
# The input factors are points of the manifold of QR factorizations, and the rules differentiate along it
# (module docstring): finite differences of SciPy's update in other directions of Q and R measure its
# algorithm, not the mathematics. So the samples hold Q and R fixed (their cotangents, exact along the
# manifold, are checked composed with scipy.linalg.qr's rules in tests/chainrules/rulesets/linalg/
# test_qr_updates.py) and check every other argument against finite differences.
def _factors_held_fixed(f: Any, *args: Any, **kwargs: Any) -> Any:
    """The rrule of ``f``, its cotangents of ``Q`` and ``R`` (the first two arguments) replaced by ``NoTangent()``."""
    result = rrule(f, *args, **kwargs)
    if result is None:
        return None
    y, pullback = result

    def factors_held_fixed_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = pullback(dy)
        return (cotangents[0], NoTangent(), NoTangent(), *cotangents[3:])

    return y, factors_held_fixed_pullback


def _fixed(x: np.ndarray) -> Any:
    from chainrules.testing import PrimalAndTangent

    return PrimalAndTangent(x, NoTangent())


def _phase_invariants(result: Any) -> tuple[np.ndarray, np.ndarray]:
    """``Q1 R1`` and ``R1^H R1``: blind to the phases ``(Q1 D, D^H R1)`` the rotations choose for complex factors."""
    q1, r1 = result
    return q1 @ r1, np.conj(np.swapaxes(r1, -1, -2)) @ r1


def _update_samples(rng: np.random.Generator, shape: tuple[int, int], *rest: Any, **kwargs: Any) -> list[Sample]:
    a = rng.standard_normal(shape)
    q, r = scipy.linalg.qr(a, mode="economic")
    qc, rc = scipy.linalg.qr(a + 1j * rng.standard_normal(shape), mode="economic")
    fixed = {"rrule_f": _factors_held_fixed}
    return [
        Sample(_fixed(q), _fixed(r), *rest, fkwargs=kwargs, label="economic factors", **fixed),
        Sample(_fixed(qc), _fixed(rc), *(x + 0.5j if isinstance(x, np.ndarray) else x for x in rest), fkwargs=kwargs,
               gauge_invariant=_phase_invariants, label="complex (Q1 R1 and R1^H R1)", **fixed),
    ]


@sample_inputs(scipy.linalg.qr_update)
def _qr_update_samples(rng: np.random.Generator) -> list[Sample]:
    q, r = scipy.linalg.qr(rng.standard_normal((3, 3)))
    return [
        *_update_samples(rng, (4, 3), rng.standard_normal(4), rng.standard_normal(3)),
        Sample(_fixed(q), _fixed(r), rng.standard_normal(3), rng.standard_normal(3), False, False,
               rrule_f=_factors_held_fixed, label="square factors, options by position"),
        Sample(_fixed(q), _fixed(r), rng.standard_normal((3, 2)), rng.standard_normal((3, 2)),
               rrule_f=_factors_held_fixed, label="rank-2 update"),
    ]


@sample_inputs(scipy.linalg.qr_insert)
def _qr_insert_samples(rng: np.random.Generator) -> list[Sample]:
    q, r = scipy.linalg.qr(rng.standard_normal((3, 3)))
    return [
        *_update_samples(rng, (4, 3), rng.standard_normal(4), 1, "col"),
        Sample(_fixed(q), _fixed(r), rng.standard_normal(3), 1, rrule_f=_factors_held_fixed,
               gauge_invariant=_phase_invariants, label="a row (a complete Q1: Q1 R1, R1^H R1)"),
        Sample(_fixed(q), _fixed(r), rng.standard_normal(3), 2, fkwargs={"which": "col"},
               rrule_f=_factors_held_fixed, label="a column, which by keyword"),
    ]


@sample_inputs(scipy.linalg.qr_delete)
def _qr_delete_samples(rng: np.random.Generator) -> list[Sample]:
    q, r = scipy.linalg.qr(rng.standard_normal((4, 3)), mode="economic")
    qs, rs = scipy.linalg.qr(rng.standard_normal((3, 3)))
    return [
        Sample(_fixed(q), _fixed(r), 1, 1, "col", label="a column of economic factors", rrule_f=_factors_held_fixed),
        Sample(_fixed(qs), _fixed(rs), 0, fkwargs={"p": 2, "which": "row"}, rrule_f=_factors_held_fixed,
               gauge_invariant=_phase_invariants, label="two rows"),
    ]


@sample_inputs(scipy.linalg.qr_multiply)
def _qr_multiply_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((4, 3))
    return [
        Sample(a, rng.standard_normal(4), label="mode='right': c Q"),
        Sample(a, rng.standard_normal((2, 4)), label="two rows of c"),
        Sample(a, rng.standard_normal((3, 2)), "left", label="mode='left' by position: Q c"),
        Sample(a, rng.standard_normal(4), fkwargs={"pivoting": True}, label="pivoting"),
        Sample(a + 1j * rng.standard_normal((4, 3)), rng.standard_normal(4), fkwargs={"conjugate": True},
               label="complex, conjugate"),
        Sample(a.astype(np.float32), rng.standard_normal(4).astype(np.float32), label="float32"),
        Sample(a + 1j * rng.standard_normal((4, 3)), rng.standard_normal(4), label="complex"),
    ]
