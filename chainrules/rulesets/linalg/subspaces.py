"""Subspaces of a matrix: ``scipy.linalg.orth`` (an orthonormal basis of the range), ``scipy.linalg.null_space``
(of the null space) and ``scipy.linalg.subspace_angles`` (the principal angles between two ranges).

The maths
---------
SciPy computes both bases from an SVD ``A = U diag(s) V^H`` at the numerical rank ``r`` (the
number of singular values above ``rcond * max(s)``): ``orth(A) = U[:, :r]`` (thin SVD) and
``null_space(A) = V[:, r:]`` (full SVD). The rules compute the same SVD (the same SciPy call,
so the same vectors) and apply the SVD rules of :mod:`~chainrules.rulesets.linalg.svd` with
a cotangent on those columns only (``U_bar = [Q_bar, 0]``, ``Vh_bar = [0; Q_bar^H]``); forward,
they keep those columns of the SVD's tangent.

Gauge freedom. A basis of a subspace is defined up to a unitary ``Q -> Q W``: only the
subspace (its projector ``Q Q^H``) is a function of ``A``, and SciPy's basis is LAPACK's
choice of singular vectors. The rules are exact for every loss invariant under that
freedom (the projector ``Q Q^H``, ``|Q^H x|``, the angles between subspaces...), at
distinct and repeated singular values alike. A loss that depends on the basis itself has
a derivative only where LAPACK's vectors are smooth: real matrices with distinct nonzero
singular values (each vector is then unique up to a sign, which LAPACK keeps locally), for
``orth``; there the rules give it. Otherwise (a complex phase, a rotation inside a repeated
singular value, the basis of the null space when its dimension exceeds one) the rules
return the derivative of the convention documented in ``svd``'s module docstring (no
rotation inside a cluster or inside the complement, the phase convention
``Im(u_i^H du_i) = -Im(v_i^H dv_i)``), exactly as ``svd``'s rules do. The same holds for the
sign of a one-dimensional real null space: LAPACK's sign is kept.

The rank. The output's shape is the numerical rank, which is locally constant at a
full-rank matrix (``orth`` of a matrix with ``min(m, n)`` independent columns, ``null_space``
of a wide matrix of full row rank). At a rank-deficient matrix a generic perturbation
raises the numerical rank and changes the output's shape: no derivative exists in those
directions. The rules give the derivative along the perturbations that keep the rank (such
as ``A -> X A Y``, which is how a rank-deficient matrix usually varies): it is the SVD rule
with the couplings to the zero singular values that such perturbations do not excite
dropped (see ``svd``'s module docstring, which drops every coupling below the degeneracy
tolerance).

``subspace_angles(A, B)``. With ``Q_A = orth(A)``, ``Q_B = orth(B)`` and the SVD
``Q_A^H Q_B = U_m diag(cos theta) V_m^H``, the principal vectors are ``x_i = Q_A u_i`` and
``y_i = Q_B v_i``, and (Golub & Van Loan, "Matrix Computations", 4th ed., section 6.4.3, for
the angles; the perturbation of the projector ``dP_A = (I - P_A) dA A^+ + h.c.`` as in Golub &
Pereyra 1973)::

    d theta_i = -Re(w_i^H dA A^+ x_i) - Re(w'_i^H dB B^+ y_i),
    w_i = (y_i - cos(theta_i) x_i) / sin(theta_i),   w'_i = (x_i - cos(theta_i) y_i) / sin(theta_i),

so ``A_bar = -sum_i theta_bar_i w_i (A^+ x_i)^H`` and ``B_bar = -sum_i theta_bar_i w'_i (B^+ y_i)^H``
(``w_i`` is the unit vector orthogonal to ``range(A)`` towards ``y_i``). The value does not
depend on the principal vectors' gauge for functions symmetric in repeated angles. An angle
of ``0`` (the subspaces share a direction) is a kink of ``theta`` unless the dimensions force
it (``rank A + rank B > m``: the angle then stays ``0``): below the degeneracy tolerance
(``sqrt(eps)``, see :func:`~chainrules.rulesets.linalg.degeneracy_tolerance`) the rules give
it the derivative ``0``, exact for forced zeros and an element of the subdifferential at a
kink; an angle of ``pi/2`` is a kink of ``cos theta = 0`` as a singular value, where the rules
give the one-sided derivative for LAPACK's principal vectors.

Leading batch axes are handled as SciPy handles them (one matrix at a time).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from chainrules.rulesets.linalg._samples import unitary
from chainrules.rulesets.linalg._spectral import relative_tolerance
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules.rulesets.linalg.svd import svd_cotangent, svd_pushforward
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)

__all__ = ["numerical_rank"]


def numerical_rank(s: np.ndarray, shape: tuple[int, ...], rcond: Any) -> np.ndarray:
    """The number of singular values above ``rcond * max(s)`` (SciPy's default ``rcond = eps * max(m, n)``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.subspaces import numerical_rank
    >>> int(numerical_rank(np.array([2.0, 1.0, 1e-20]), (3, 3), None))
    2
    """
    if rcond is None:
        rcond = np.finfo(s.dtype).eps * max(shape[-2], shape[-1])
    tol = np.amax(s, axis=-1, initial=0.0) * rcond
    return np.sum(s > tol[..., None], axis=-1, dtype=int)


def _common_rank(ranks: np.ndarray) -> int | None:
    """The rank shared by every matrix of a stack, ``None`` if they differ (SciPy then raises)."""
    values = np.unique(ranks)
    return int(values[0]) if values.size == 1 else None


# ---- orth ------------------------------------------------------------------------------------------------------
class _Orth:
    """``orth(A) = U[:, :r]`` from SciPy's thin SVD."""

    def __init__(self, A: Any, rcond: Any) -> None:
        a = np.asarray(A)
        U, s, Vh = sla.svd(a, full_matrices=False)
        rank = _common_rank(numerical_rank(s, a.shape, rcond)) if s.size else 0
        if rank is None:
            sla.orth(A, rcond)  # raises SciPy's own error
            raise AssertionError("unreachable: SciPy stacked bases of different ranks")
        self.U, self.s, self.Vh, self.rank = U, s, Vh, rank
        self.y = U[..., :rank]
        self.rtol = relative_tolerance(s.dtype)

    def cotangent(self, g: np.ndarray) -> np.ndarray:
        U_bar = np.zeros(self.U.shape, dtype=np.result_type(self.U, g))
        U_bar[..., : self.rank] = g
        return svd_cotangent(self.U, self.s, self.Vh, U_bar, None, None, self.rtol)

    def tangent(self, da: np.ndarray) -> np.ndarray:
        dU, _, _ = svd_pushforward(self.U, self.s, self.Vh, da)
        return dU[..., : self.rank]


@rrule.register(sla.orth, np.ndarray)
def orth_rrule(A: np.ndarray, rcond: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.orth``: the SVD rule with the cotangent on ``U[:, :r]``.

    Exact for losses invariant under ``Q -> Q W`` (see the module docstring for the gauge
    and the rank).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> Q, pullback = rrule(scipy.linalg.orth, np.array([[2.0], [0.0]]))
    >>> Q.ravel(), pullback(np.array([[0.0], [1.0]]))[1]       # the range turns towards e_1 / |a|
    (array([1., 0.]), array([[0. ],
           [0.5]]))
    """
    state = _Orth(A, rcond)
    project_a = cotangent_projector(A)

    def orth_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, state.y, "scipy.linalg.orth")
        if passes_through(g):
            return NO, project_a(g), NO
        return NO, project_a(state.cotangent(g)), NO

    return state.y, orth_pullback


@frule.register(sla.orth, np.ndarray)
def orth_frule(tangents: Any, A: np.ndarray, rcond: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.orth``: the first ``r`` columns of the SVD's ``dU``."""
    state = _Orth(A, rcond)
    da = tangent_value(tangents[1])
    if da is None or not_implemented_in(da):
        return state.y, ZeroTangent() if da is None else da
    return state.y, ProjectTo(state.y)(state.tangent(da))


# ---- null_space ------------------------------------------------------------------------------------------------
class _NullSpace:
    """``null_space(A) = V[:, r:]`` from SciPy's full SVD."""

    def __init__(self, A: Any, rcond: Any, check_finite: Any, lapack_driver: Any) -> None:
        a = np.asarray(A)
        U, s, Vh = sla.svd(a, full_matrices=True, check_finite=check_finite, lapack_driver=lapack_driver)
        rank = _common_rank(numerical_rank(s, a.shape, rcond)) if s.size else 0
        if rank is None:
            sla.null_space(A, rcond, check_finite=check_finite, lapack_driver=lapack_driver)
            raise AssertionError("unreachable: SciPy stacked bases of different dimensions")
        self.U, self.s, self.Vh, self.rank = U, s, Vh, rank
        self.y = mH(Vh[..., rank:, :])
        self.rtol = relative_tolerance(s.dtype)

    def cotangent(self, g: np.ndarray) -> np.ndarray:
        Vh_bar = np.zeros(self.Vh.shape, dtype=np.result_type(self.Vh, g))
        Vh_bar[..., self.rank:, :] = mH(g)
        return svd_cotangent(self.U, self.s, self.Vh, None, None, Vh_bar, self.rtol)

    def tangent(self, da: np.ndarray) -> np.ndarray:
        _, _, dVh = svd_pushforward(self.U, self.s, self.Vh, da)
        return mH(dVh[..., self.rank:, :])


@rrule.register(sla.null_space, np.ndarray)
def null_space_rrule(A: np.ndarray, rcond: Any = None, *, overwrite_a: Any = False, check_finite: Any = True,
                     lapack_driver: Any = "gesdd") -> Any:
    """Reverse rule of ``scipy.linalg.null_space``: the SVD rule with the cotangent on ``V[:, r:]``.

    Exact for losses invariant under ``N -> N W`` (the projector ``N N^H``...); see the module
    docstring. ``overwrite_a`` is ignored: the rule never overwrites its input.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> N, pullback = rrule(scipy.linalg.null_space, np.array([[1.0, 0.0]]))
    >>> N.ravel(), pullback(np.array([[1.0], [0.0]]))[1]      # the null space turns away from a
    (array([0., 1.]), array([[ 0., -1.]]))
    """
    state = _NullSpace(A, rcond, check_finite, lapack_driver)
    project_a = cotangent_projector(A)

    def null_space_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, state.y, "scipy.linalg.null_space")
        if passes_through(g):
            return NO, project_a(g), NO
        return NO, project_a(state.cotangent(g)), NO

    return state.y, null_space_pullback


@frule.register(sla.null_space, np.ndarray)
def null_space_frule(tangents: Any, A: np.ndarray, rcond: Any = None, *, overwrite_a: Any = False,
                     check_finite: Any = True, lapack_driver: Any = "gesdd") -> Any:
    """Forward rule of ``scipy.linalg.null_space``: the last ``n - r`` columns of the SVD's ``dV``."""
    state = _NullSpace(A, rcond, check_finite, lapack_driver)
    da = tangent_value(tangents[1])
    if da is None or not_implemented_in(da):
        return state.y, ZeroTangent() if da is None else da
    return state.y, ProjectTo(state.y)(state.tangent(da))


# ---- subspace_angles -------------------------------------------------------------------------------------------
class _Range:
    """``orth(A)`` and the pseudo-inverse ``A^+ = V_r S_r^{-1} U_r^H`` at that rank."""

    def __init__(self, a: np.ndarray) -> None:
        U, s, Vh = sla.svd(a, full_matrices=False)
        rank = int(numerical_rank(s, a.shape, None)) if s.size else 0
        self.Q = U[:, :rank]
        self.pinv_factor = mH(Vh[:rank, :]) / s[:rank]   # A^+ = pinv_factor @ Q^H


class _Angles:
    """The principal angles of one pair of matrices, their vectors and the directions ``w``, ``w'``."""

    def __init__(self, a: np.ndarray, b: np.ndarray, theta: np.ndarray) -> None:
        ra, rb = _Range(a), _Range(b)
        Um, sigma, Vmh = np.linalg.svd(mH(ra.Q) @ rb.Q, full_matrices=False)
        k = theta.shape[-1]
        x, y = ra.Q @ Um[:, :k], rb.Q @ mH(Vmh)[:, :k]      # principal vectors, angles ascending
        cos = sigma[:k]
        r, r2 = y - x * cos, x - y * cos                    # (I - P_A) y_i and (I - P_B) x_i: length sin(theta_i)
        sin = np.linalg.norm(r, axis=0)
        inv_sin = np.zeros_like(sin)
        np.divide(1.0, sin, out=inv_sin, where=sin > relative_tolerance(theta.dtype))
        self.w = r * inv_sin                                 # unit vectors orthogonal to range(A), towards y_i
        self.w2 = r2 * inv_sin
        self.za = ra.pinv_factor @ (mH(ra.Q) @ x)           # A^+ x_i
        self.zb = rb.pinv_factor @ (mH(rb.Q) @ y)           # B^+ y_i

    def cotangents(self, theta_bar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        g = np.real(theta_bar)[::-1]
        return -(self.w * g) @ mH(self.za), -(self.w2 * g) @ mH(self.zb)

    def tangent(self, da: Any, db: Any) -> np.ndarray:
        out = 0.0
        if da is not None:
            out = out - np.real(np.sum(np.conj(self.w) * (da @ self.za), axis=-2))
        if db is not None:
            out = out - np.real(np.sum(np.conj(self.w2) * (db @ self.zb), axis=-2))
        return np.asarray(out)[::-1]


def _angle_states(A: np.ndarray, B: np.ndarray, theta: np.ndarray) -> tuple[tuple[int, ...], list[_Angles]]:
    """One :class:`_Angles` per matrix pair of the (broadcast) batch."""
    a, b = np.asarray(A), np.asarray(B)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    return batch, [_Angles(a[i], b[i], theta[i]) for i in np.ndindex(batch)]


@rrule.register(sla.subspace_angles, np.ndarray, np.ndarray)
def subspace_angles_rrule(A: np.ndarray, B: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.subspace_angles``: ``A_bar = -sum_i theta_bar_i w_i (A^+ x_i)^H``, ``B_bar`` too.

    See the module docstring for the maths and for angles of ``0`` and ``pi/2``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> a, b = np.array([[1.0], [0.0]]), np.array([[1.0], [1.0]])
    >>> theta, pullback = rrule(scipy.linalg.subspace_angles, a, b)       # pi / 4
    >>> da, db = map(unthunk, pullback(np.array([1.0]))[1:])
    >>> da.round(12), db.round(12)                   # turning a towards b, or b towards a, shrinks the angle
    (array([[ 0.],
           [-1.]]), array([[-0.5],
           [ 0.5]]))
    """
    theta = sla.subspace_angles(A, B)
    project_a, project_b = cotangent_projector(A), cotangent_projector(B)
    a_shape, b_shape = np.shape(A), np.shape(B)

    def subspace_angles_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, theta, "scipy.linalg.subspace_angles")
        if passes_through(g):
            return NO, project_a(g), project_b(g)
        batch, states = _angle_states(A, B, theta)
        parts = [state.cotangents(g[i]) for i, state in zip(np.ndindex(batch), states)]

        def gather(which: int, shape: tuple[int, ...]) -> np.ndarray:
            stacked = np.stack([p[which] for p in parts]).reshape(batch + shape[-2:])
            return unbroadcast(stacked, shape)

        return NO, Thunk(lambda: project_a(gather(0, a_shape))), Thunk(lambda: project_b(gather(1, b_shape)))

    return theta, subspace_angles_pullback


@frule.register(sla.subspace_angles, np.ndarray, np.ndarray)
def subspace_angles_frule(tangents: Any, A: np.ndarray, B: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.subspace_angles``: ``-Re(w_i^H dA A^+ x_i) - Re(w'_i^H dB B^+ y_i)``."""
    theta = sla.subspace_angles(A, B)
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    missing = not_implemented_in(da, db)
    if missing is not None:
        return theta, missing
    if da is None and db is None:
        return theta, ZeroTangent()
    batch, states = _angle_states(A, B, theta)
    a_full = None if da is None else np.broadcast_to(da, batch + np.shape(A)[-2:])
    b_full = None if db is None else np.broadcast_to(db, batch + np.shape(B)[-2:])
    out = np.zeros(theta.shape)
    for i, state in zip(np.ndindex(batch), states):
        out[i] = state.tangent(None if a_full is None else a_full[i], None if b_full is None else b_full[i])
    return theta, ProjectTo(theta)(out)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _rank_two_tall(rng: np.random.Generator) -> np.ndarray:
    """A 4x3 matrix with singular values ``(3, 1.5, 0)``: with ``rcond=0.2`` the steps of the finite differences
    keep the numerical rank (and the output's shape) at two."""
    u, v = unitary(4, rng)[:, :3], unitary(3, rng)
    return (u * np.array([3.0, 1.5, 0.0])) @ v.T


def _projector(q: np.ndarray) -> np.ndarray:
    """``Q Q^H``: the subspace, blind to the basis ``Q W`` chosen for it."""
    return q @ np.conj(np.swapaxes(q, -1, -2))


@sample_inputs(sla.orth)
def _orth_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((4, 2))
    return [
        Sample(a, label="real, distinct singular values (the basis itself)"),
        Sample(a.astype(np.float32), gauge_invariant=_projector, label="float32"),
        Sample(a + 1j * rng.standard_normal((4, 2)), gauge_invariant=_projector, label="complex (the projector)"),
        Sample(_rank_two_tall(rng), 0.2, gauge_invariant=_projector,
               label="rank 2 of 3 columns, rcond=0.2 by position (the rank locally constant)"),
    ]


@sample_inputs(sla.null_space)
def _null_space_samples(rng: np.random.Generator) -> list[Sample]:
    wide = rng.standard_normal((2, 4))
    return [
        Sample(wide, gauge_invariant=_projector, label="wide, full row rank"),
        Sample(rng.standard_normal((2, 3)), label="a one-dimensional null space (its sign kept)"),
        Sample(wide + 1j * rng.standard_normal((2, 4)), gauge_invariant=_projector, label="complex"),
        Sample(wide.astype(np.float32), fkwargs={"rcond": 1e-6}, gauge_invariant=_projector, label="float32, rcond"),
    ]


@sample_inputs(sla.subspace_angles)
def _subspace_angles_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((4, 2)), rng.standard_normal((4, 2)), label="two planes in R^4"),
        Sample(rng.standard_normal((4, 1)), rng.standard_normal((4, 3)), label="a line and a hyperplane"),
        Sample(rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2)), rng.standard_normal((3, 1)),
               label="complex"),
        Sample(rng.standard_normal((4, 2)).astype(np.float32), rng.standard_normal((4, 2)).astype(np.float32),
               label="float32"),
    ]
