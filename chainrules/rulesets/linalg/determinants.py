"""Determinants: ``np.linalg.det``, ``np.linalg.slogdet`` and ``scipy.linalg.det``, for stacks of
real or complex matrices.

The maths (Giles 2008, "An extended collection of matrix derivative results for forward and
reverse mode algorithmic differentiation", section 2.2.3; ChainRules.jl's ``det`` and
``logabsdet`` rules):

* ``y = det(A)``: ``dy = tr(adj(A) dA)`` and ``dA = dy * adj(A)^H``, with the adjugate
  ``adj(A) = det(A) inv(A)``. The primal is computed from the pivoted LU factorization
  ``A = P L U`` (LAPACK ``?getrf``, as NumPy does) and the pullback reuses it: ``inv(A)``
  comes from the factors (``?getri``, ``4/3 n^3`` flops) without a second factorization.
  At a singular ``A`` (an exactly zero pivot, or a determinant that underflows to zero)
  the adjugate is still defined, and is computed from the SVD ``A = U S V^H``:
  ``adj(A) = det(U) det(V^H) V diag(prod_{j != i} s_j) U^H`` (no division). So the
  derivative of ``det`` at a rank-deficient matrix is exact, not ``0 * inf``.
* ``(sign, logabsdet) = slogdet(A)``, NumPy's order (Julia's ``logabsdet`` returns
  ``(logabsdet, sign)``): with ``t = tr(inv(A) dA)``, ``d logabsdet = Re(t)`` and
  ``d sign = 1j * sign * Im(t)`` (zero for real ``A``, whose sign is locally constant). The
  pullback is ``dA = g * inv(A)^H`` with ``g = d_logabsdet - 1j * Im(conj(d_sign) * sign)``.
  At a singular ``A`` (``logabsdet = -inf``) the derivative does not exist: the pullback
  raises ``LinAlgError`` for a nonzero cotangent rather than returning infinities.

Stacks of many small matrices (order ``<= 16``) go through NumPy's batched routines instead
(``slogdet`` forwards, ``inv`` in the pullback, so a second factorization, in C): a Python
loop over LAPACK calls would cost far more than the arithmetic. So does ``np.linalg.det`` of
one float64 matrix of order ``<= 16`` with a nonzero determinant (NumPy's ``det``, then
``inv`` in the pullback of a float cotangent): at that size the second factorization costs
less than keeping the first from Python.

Results equal NumPy's and SciPy's within rounding (both are ``sign * exp(logabsdet)`` from
the pivots, as NumPy computes ``det``; SciPy multiplies the pivots); float32 is computed in
float32 (``scipy.linalg.det`` returns float64, as SciPy does) and the cotangent has the
input's dtype. Integer input is computed as float64 and gets ``NoTangent()``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import well_conditioned
from chainrules.rulesets.linalg._utils import (
    LU,
    NO,
    SMALL,
    SmallStack,
    factorize,
    linalg_dtype,
    mH,
    mT,
    primal_error,
    tangent_value,
)
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
)

SlogdetResult = type(np.linalg.slogdet(np.eye(1)))


# ---- helpers ------------------------------------------------------------------------------------------
def _square_lu(f: Any, a: np.ndarray, *, check_finite: bool = False) -> LU | SmallStack | None:
    """The LU factorization of ``a`` at ``numpy.linalg``'s precision; for input ``f`` rejects, ``f``'s error."""
    dtype = linalg_dtype(a)
    if (dtype is None or a.ndim < 2 or a.shape[-1] != a.shape[-2]
            or (check_finite and not np.isfinite(a).all())):
        return primal_error(f, a)
    return factorize(a.astype(dtype, copy=False))


def _slogdet_from(lu: LU | SmallStack) -> tuple[np.ndarray, np.ndarray]:
    """``(sign, logabsdet)``: the permutation's sign times the pivots' phases, the sum of their logs."""
    return lu.slogdet()


def _scalar(x: np.ndarray) -> Any:
    """A 0-d array as a NumPy scalar (what NumPy returns for one matrix); other arrays unchanged."""
    return x[()] if x.ndim == 0 else x


def products_except_each(s: np.ndarray) -> np.ndarray:
    """``prod_{j != i} s_j`` along the last axis, without division (exact when some ``s_j`` are zero).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.determinants import products_except_each
    >>> products_except_each(np.array([2.0, 0.0, 3.0]))
    array([0., 6., 0.])
    """
    ones = np.ones(s.shape[:-1] + (1,), dtype=s.dtype)
    before = np.cumprod(np.concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
    after = np.cumprod(np.concatenate([ones, s[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    return before * after


def adjugate_by_svd(a: np.ndarray) -> np.ndarray:
    """``adj(A) = det(U) det(V^H) V diag(prod_{j != i} s_j) U^H`` for a stack, from the SVD ``A = U S V^H``.

    Exact for singular matrices (where ``det(A) inv(A)`` is ``0 * inf``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.determinants import adjugate_by_svd
    >>> np.round(adjugate_by_svd(np.array([[1.0, 2.0], [2.0, 4.0]])), 12) + 0.0
    array([[ 4., -2.],
           [-2.,  1.]])
    """
    u, s, vh = np.linalg.svd(a)
    unit = (np.linalg.det(u) * np.linalg.det(vh))[..., None, None]
    return unit * ((mH(vh) * products_except_each(s).astype(a.dtype)[..., None, :]) @ mH(u))


def adjugate(a: np.ndarray, lu: LU | SmallStack, det: np.ndarray) -> np.ndarray:
    """``adj(A)`` of a stack: ``det(A) inv(A)`` from the LU factors, by the SVD where ``det(A) == 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._utils import LU
    >>> from chainrules.rulesets.linalg.determinants import adjugate
    >>> a = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> adjugate(a, LU(a), np.array(np.linalg.det(a)))
    array([[ 4., -2.],
           [-3.,  1.]])
    """
    adj = det[..., None, None] * lu.inverse()
    return _with_degenerate_adjugates(adj, a, lu, det, lambda m: m)


def _scaled_adjugate_adjoint(a: np.ndarray, lu: LU | SmallStack, det: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``scale * adj(A)^H`` of a stack, in one pass over ``inv(A)`` (the pullback of ``det``)."""
    out = (scale * np.conj(det))[..., None, None] * mH(lu.inverse())
    degenerate = _degenerate_of(lu, det)
    return _with_degenerate_adjugates(out, a, lu, det, lambda m: scale[..., None, None][degenerate] * mH(m))


def _degenerate_of(lu: LU | SmallStack, det: np.ndarray) -> np.ndarray:
    """Where ``det(A) inv(A)`` cannot give the adjugate: an exactly zero pivot or an underflowing determinant."""
    return lu.singular | (det == 0)


def _with_degenerate_adjugates(out: np.ndarray, a: np.ndarray, lu: LU | SmallStack, det: np.ndarray,
                               finish: Any) -> np.ndarray:
    degenerate = _degenerate_of(lu, det)
    if np.any(degenerate):
        out = np.array(out, dtype=np.result_type(out, a.dtype), copy=True)
        out[degenerate] = finish(adjugate_by_svd(a.astype(out.dtype, copy=False)[degenerate]))
    return out


def _trace_product(m: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``tr(m @ d)`` for stacks, in ``O(n^2)``."""
    return np.sum(mT(m) * d, axis=(-2, -1))


# ---- np.linalg.det ------------------------------------------------------------------------------------------
def _numpy_det(lu: LU | SmallStack) -> np.ndarray:
    sign, logabsdet = _slogdet_from(lu)
    return sign * np.exp(logabsdet)


_F64 = np.dtype(np.float64)


def _small_det_rrule(a: np.ndarray) -> Any:
    """The rrule of ``np.linalg.det`` for one small float64 matrix (order ``<= SMALL``), or ``None``.

    At that size refactorizing costs less than keeping factors from Python: the output is
    NumPy's own ``det(A)`` and the pullback of a float cotangent ``dy * det(A) * inv(A)^T``
    (NumPy's ``inv``, as the general rule computes it from its LU factors when the
    determinant is nonzero). ``None`` (the general rule) for a zero or non-finite
    determinant; the pullback hands every cotangent that is not a float, and a matrix NumPy
    finds singular, to the general rule's pullback. Tested against the general rule
    (``tests/chainrules/rulesets/linalg/test_fast_paths.py``).
    """
    det = np.linalg.det(a)
    if not (det != 0.0 and math.isfinite(det)):
        return None

    def det_pullback(dy: Any) -> tuple[Any, Any]:
        t = type(dy)
        if t is float or t is np.float64:
            try:
                inverse = np.linalg.inv(a)
            except np.linalg.LinAlgError:  # pragma: no cover  (a zero pivot gives det == 0, handled above)
                return _general_det_rrule(a)[1](dy)
            return NO, (dy * det) * inverse.T
        return _general_det_rrule(a)[1](dy)

    return det, det_pullback


@rrule.register(np.linalg.det, np.ndarray)
def det_rrule(a: np.ndarray) -> Any:
    """Reverse rule of ``np.linalg.det(A)``: ``dA = dy * adj(A)^H``, from the primal's LU factors.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.det, np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> y, pullback(1.0)[1]
    (np.float64(-2.0...), array([[ 4., -3.],
           [-2.,  1.]]))
    """
    if a.dtype is _F64 and a.ndim == 2 and 0 < a.shape[0] == a.shape[1] <= SMALL and type(a) is np.ndarray:
        fast = _small_det_rrule(a)
        if fast is not None:
            return fast
    return _general_det_rrule(a)


def _general_det_rrule(a: np.ndarray) -> Any:
    """:func:`det_rrule` without its small-matrix fast path: the specification the fast path is tested against."""
    lu = _square_lu(np.linalg.det, a)
    if lu is None:
        return None
    det = _numpy_det(lu)
    project_a = cotangent_projector(a)

    def det_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, det, np.linalg.det)
        if passes_through(dy):
            return NO, project_a(dy)
        return NO, project_a(_scaled_adjugate_adjoint(a, lu, det, np.asarray(dy)))

    return _scalar(det), det_pullback


@frule.register(np.linalg.det, np.ndarray)
def det_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of ``np.linalg.det(A)``: ``dy = tr(adj(A) dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.linalg.det, np.array([[2.0, 0.0], [0.0, 3.0]]))
    (np.float64(6.0), np.float64(5.0))
    """
    lu = _square_lu(np.linalg.det, a)
    if lu is None:
        return None
    det = _numpy_det(lu)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return _scalar(det), ZeroTangent() if da is None else da
    return _scalar(det), _scalar(np.asarray(_trace_product(adjugate(a, lu, det), da)))


# ---- np.linalg.slogdet -------------------------------------------------------------------------------------
def _check_nonsingular(logabsdet: np.ndarray, coefficient: np.ndarray, where: str) -> None:
    if np.any((logabsdet == -np.inf) & (coefficient != 0)):
        raise np.linalg.LinAlgError(f"{where}: the matrix is singular (logabsdet = -inf); log|det| has no "
                                    "derivative there")


@rrule.register(np.linalg.slogdet, np.ndarray)
def slogdet_rrule(a: np.ndarray) -> Any:
    """Reverse rule of ``np.linalg.slogdet(A)``: ``dA = g inv(A)^H``, ``g = d_logabsdet - 1j Im(conj(d_sign) sign)``.

    The output is NumPy's ``(sign, logabsdet)``; its cotangent may be a ``Tangent`` of
    ``SlogdetResult`` or a plain ``(d_sign, d_logabsdet)`` tuple.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.slogdet, np.array([[2.0, 0.0], [0.0, -4.0]]))
    >>> y
    SlogdetResult(sign=np.float64(-1.0), logabsdet=np.float64(2.0794415416798357))
    >>> pullback((0.0, 1.0))[1]
    array([[ 0.5 ,  0.  ],
           [ 0.  , -0.25]])
    """
    lu = _square_lu(np.linalg.slogdet, a)
    if lu is None:
        return None
    sign, logabsdet = _slogdet_from(lu)
    y = SlogdetResult(_scalar(sign), _scalar(logabsdet))
    project_a = cotangent_projector(a)

    def slogdet_pullback(dy: Any) -> tuple[Any, Any]:
        parts = read_cotangents(dy, y, np.linalg.slogdet)
        if passes_through(parts):
            return NO, project_a(parts)
        d_sign, d_logabsdet = parts
        for part in parts:
            if passes_through(part):
                return NO, project_a(part)
        g = np.zeros(logabsdet.shape, dtype=sign.dtype)
        if d_logabsdet is not None:
            g = g + np.real(d_logabsdet)
        if d_sign is not None and sign.dtype.kind == "c":
            g = g - 1j * np.imag(np.conj(d_sign) * sign)
        if not np.any(g):
            return NO, project_a(ZeroTangent())
        _check_nonsingular(logabsdet, g, "slogdet pullback")
        inverse = lu.inverse()
        inverse[lu.singular] = 0  # their g is zero (checked above)
        return NO, project_a(g[..., None, None] * mH(inverse))

    return y, slogdet_pullback


@frule.register(np.linalg.slogdet, np.ndarray)
def slogdet_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of ``np.linalg.slogdet(A)``: ``(1j * sign * Im(t), Re(t))`` with ``t = tr(inv(A) dA)``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), np.linalg.slogdet, np.array([[2.0, 0.0], [0.0, 4.0]]))[1]
    Tangent(SlogdetResult, sign=0.0, logabsdet=0.75)
    """
    lu = _square_lu(np.linalg.slogdet, a)
    if lu is None:
        return None
    sign, logabsdet = _slogdet_from(lu)
    y = SlogdetResult(_scalar(sign), _scalar(logabsdet))
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return y, ZeroTangent() if da is None else da
    _check_nonsingular(logabsdet, np.any(da != 0, axis=(-2, -1)), "slogdet frule")
    inverse = lu.inverse()
    inverse[lu.singular] = 0
    t = _trace_product(inverse, da)
    d_sign = 1j * sign * np.imag(t) if sign.dtype.kind == "c" else np.zeros_like(sign)
    return y, ProjectTo(y)(Tangent(SlogdetResult, sign=_scalar(d_sign), logabsdet=_scalar(np.real(t))))


# ---- scipy.linalg.det ---------------------------------------------------------------------------------------
def _scipy_det(lu: LU | SmallStack) -> np.ndarray:
    """SciPy's determinant, in double precision (SciPy multiplies the pivots; ``sign exp(logabsdet)`` here)."""
    sign, logabsdet = lu.slogdet()
    return sign.astype(np.complex128 if sign.dtype.kind == "c" else np.float64) * np.exp(logabsdet.astype(np.float64))


@rrule.register(scipy.linalg.det, np.ndarray)
def scipy_det_rrule(a: np.ndarray, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.det(a)``: ``da = dy * adj(a)^H`` (``a`` is never overwritten).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.det, np.array([[1.0, 2.0], [2.0, 4.0]], dtype=np.float32))
    >>> y, pullback(1.0)[1]
    (np.float64(0.0), array([[ 4., -2.],
           [-2.,  1.]], dtype=float32))
    """
    lu = _square_lu(scipy.linalg.det, a, check_finite=check_finite)
    if lu is None:
        return None
    det = _scipy_det(lu)
    project_a = cotangent_projector(a)

    def scipy_det_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        dy = read_cotangent(dy, det, "scipy.linalg.det")
        if passes_through(dy):
            return NO, project_a(dy), NO, NO
        return NO, project_a(_scaled_adjugate_adjoint(a, lu, det.astype(lu.dtype), np.asarray(dy))), NO, NO

    return _scalar(det), scipy_det_pullback


@frule.register(scipy.linalg.det, np.ndarray)
def scipy_det_frule(tangents: Any, a: np.ndarray, overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.det(a)``: ``dy = tr(adj(a) da)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent
    >>> frule((NoTangent(), np.eye(2)), scipy.linalg.det, np.array([[2.0, 0.0], [0.0, 3.0]]))
    (np.float64(6.0), np.float64(5.0))
    """
    lu = _square_lu(scipy.linalg.det, a, check_finite=check_finite)
    if lu is None:
        return None
    det = _scipy_det(lu)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return _scalar(det), ZeroTangent() if da is None else da
    dy = _trace_product(adjugate(a, lu, det.astype(lu.dtype)), da).astype(det.dtype)
    return _scalar(det), _scalar(np.asarray(dy))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.det, np.linalg.slogdet, scipy.linalg.det)
def _determinant_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(3, rng)
    return [
        Sample(a, label="3x3"),
        Sample(a.astype(np.float32), label="3x3 float32"),
        Sample(well_conditioned(3, rng, np.complex128), label="3x3 complex"),
        Sample(np.stack([well_conditioned(2, rng), -well_conditioned(2, rng)]), label="stack of 2x2"),
    ]


@sample_inputs(np.linalg.det, scipy.linalg.det)
def _singular_determinant_samples(rng: np.random.Generator) -> list[Sample]:
    u, v = rng.standard_normal((3, 2)), rng.standard_normal((2, 3))
    return [Sample(u @ v, label="rank 2 of 3 (the adjugate by the SVD)")]


@sample_inputs(scipy.linalg.det)
def _scipy_det_samples(rng: np.random.Generator) -> list[Sample]:
    a = well_conditioned(3, rng)
    return [Sample(a, False, False, label="overwrite_a, check_finite by position"),
            Sample(a, fkwargs={"overwrite_a": True, "check_finite": False}, label="by keyword")]
