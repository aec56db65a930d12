"""The singular value decomposition: ``np.linalg.svd`` (``full_matrices`` both ways,
``compute_uv=False``, ``hermitian=True``), ``np.linalg.svdvals``, ``scipy.linalg.svd`` and
``scipy.linalg.svdvals``.

The maths
---------
``A = U diag(s) V^H`` with ``A`` of shape ``(m, n)``, ``k = min(m, n)``, ``U`` (``m x k``) and
``V`` (``n x k``) with orthonormal columns. With ``dP = U^H dA V`` and the coupling matrices

* ``Fm_ij = 1 / (s_j - s_i)`` (``0`` on the diagonal) and ``Fp_ij = 1 / (s_i + s_j)``
  (``1 / (2 s_i)`` on the diagonal), ``S^+ = diag(1 / s_i)``:

forward::

    ds   = Re diag(dP)
    dU   = U (Fm o (dP + dP^H) + Fp o (dP - dP^H)) / 2  +  (I - U U^H) dA V S^+
    dV   = V (Fm o (dP + dP^H) - Fp o (dP - dP^H)) / 2  +  (I - V V^H) dA^H U S^+

reverse, with ``J = U^H U_bar``, ``K = V^H V_bar``, ``Js = J - J^H``, ``Ks = K - K^H``::

    dA = U (diag(s_bar) + Fm o (Js + Ks) / 2 + Fp o (Js - Ks) / 2) V^H
         + (I - U U^H) U_bar S^+ V^H + U S^+ V_bar^H (I - V V^H)

(the last two terms vanish for a square ``A``). Sources: Townsend 2016, "Differentiating the
singular value decomposition"; Seeger et al. 2017, "Auto-differentiating linear algebra";
Wan & Zhang 2019, "Automatic differentiation for complex valued SVD" (the complex case,
whose ``Fp`` diagonal carries the ``Im(diag(U^H U_bar))`` term); Giles 2008. The usual
``1 / (s_j^2 - s_i^2)`` is split as ``(Fm s_j ...)``: ``s_j / (s_j^2 - s_i^2) = (Fm + Fp) / 2``
and ``s_i / (s_j^2 - s_i^2) = (Fm - Fp) / 2``, which separates the two ways a singular
value can be degenerate (``s_i = s_j``, and ``s_i = -s_j``, i.e. both zero).

``full_matrices=True`` adds ``U_perp`` (``m - k`` columns spanning the orthogonal complement of
the column space, any orthonormal basis of it) and ``V_perp``. Only their span is a function
of ``A``; the rules use ``dU_perp = -U (dU^H U_perp)`` (no rotation inside the complement)
and, in reverse, fold ``U_bar_perp`` into ``U_bar -= U_perp U_bar_perp^H U``. This is the
exact derivative of every loss that depends on ``U_perp`` only through its span (that is
invariant under ``U_perp -> U_perp Q``, e.g. a function of the projector
``U_perp U_perp^H = I - U U^H``); a loss that depends on LAPACK's particular basis of the
complement has no derivative, and gets the one of the no-rotation convention.

``hermitian=True`` is NumPy's SVD through ``eigh`` of the lower triangle of ``a``: the rules
differentiate the SVD of that Hermitian matrix (``V = U sign(w)``) and return the cotangent
of the lower triangle read (see :mod:`~chainrules.rulesets.linalg.eigh`).

Degenerate singular values and gauge freedom
--------------------------------------------
The singular vectors of a repeated singular value ``s > 0`` are determined up to a common
rotation ``U_c -> U_c Q``, ``V_c -> V_c Q`` (``Q`` unitary; a common phase per pair for a
complex matrix); those of a zero singular value up to separate rotations of ``U_0`` and
``V_0`` (and, for a tall or wide matrix, rotation into the complement). These are the
degeneracies of the Hermitian dilation ``[[0, A], [A^H, 0]]``, whose eigenvalues are
``+-s_i`` (and ``0``): the gaps are ``s_j - s_i``, ``s_i + s_j`` and ``s_i``. Every one of
them is inverted with :func:`~chainrules.rulesets.linalg._spectral.inverse_gaps`: a gap at
or below ``tau = rtol * max(s)`` (``rtol = sqrt(eps)`` of the working precision, see
:func:`~chainrules.rulesets.linalg.degeneracy_tolerance`) gives ``0`` instead of its
reciprocal, so no ``inf`` or ``nan`` can appear.

*Exact for gauge-invariant losses.* A loss that depends on the singular vectors of each
cluster only through quantities invariant under the rotations above (the projectors
``U_c U_c^H``, ``V_c V_c^H``, the product ``U_c V_c^H``, the reconstruction
``U diag(f(s)) V^H`` for ``f(0) = 0``, ``|U|``...) and on the singular values of each
cluster symmetrically (``sum f(s_i)``) has cotangents for which ``Js + Ks`` vanishes on the
block of a cluster ``s_i = s_j > 0``, ``Js`` and ``Ks`` vanish on the zero block, and
``(I - U U^H) U_bar`` and ``(I - V V^H) V_bar`` vanish in the columns of zero singular
values. Those are exactly the entries the dropped coefficients multiply, so dropping them
changes nothing in exact arithmetic (and removes the ``roundoff / gap`` noise in floating
point): the rules give the derivative of such losses at exactly and nearly degenerate
singular values alike. Note that ``sum f(s_i)`` is differentiable at ``s = 0`` only if
``f'(0) = 0`` (``s_i^2`` is, the nuclear norm ``sum s_i`` is not).

*Otherwise* (a loss that depends on one singular vector of a repeated singular value, on
the phase of a complex singular vector, on ``U_perp``'s basis...), no derivative exists at an
exact degeneracy, and one of size ``1/gap`` at a near one; the rules return the finite value
of the formulas above with the dropped coefficients (vectors move only by their coupling to
other clusters, with no rotation inside a cluster and the phase convention
``Im(u_i^H du_i) = -Im(v_i^H dv_i)``). A real matrix with distinct nonzero singular values
has only a sign per pair, locally constant, so its derivatives are the ordinary ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from chainrules.rulesets.linalg._samples import hermitian, singular_projectors, unitary
from chainrules.rulesets.linalg._spectral import (
    add_to_diagonal,
    gap_threshold,
    hermitian_from_triangle,
    hermitian_triangle_cotangent,
    inverse_gaps,
    relative_tolerance,
)
from chainrules.rulesets.linalg._utils import cotangent_parts, mH, not_implemented_in, tangent_value
from chainrules.structured import Bidiagonal, StructuredMatrix
from chainrules_core import (
    NoTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

NO = NoTangent()
MATRIX_INPUTS = (np.ndarray, StructuredMatrix)
"""What the SVD rules accept: ndarrays and structured matrices (whose cotangents keep their structure)."""


# ---- the maths -----------------------------------------------------------------------------------------------
class _Couplings:
    """``Fm``, ``Fp`` and ``S^+`` of the module docstring, with degenerate gaps given 0."""

    __slots__ = ("Fm", "Fp", "s_inv")

    def __init__(self, s: np.ndarray, rtol: float | None = None) -> None:
        tau = gap_threshold(s, s.dtype, rtol)
        row, col = s[..., :, np.newaxis], s[..., np.newaxis, :]
        self.Fm = inverse_gaps(col - row, tau[..., np.newaxis])
        self.Fp = inverse_gaps(col + row, tau[..., np.newaxis])
        self.s_inv = inverse_gaps(s, tau)


def _thin(U: np.ndarray, s: np.ndarray, Vh: np.ndarray) -> tuple[np.ndarray, np.ndarray, Any, Any]:
    """``(U_k, V_k, U_perp, V_perp)``: the thin factors (``V`` not ``V^H``) and the full ones' extra columns."""
    k = s.shape[-1]
    V = mH(Vh)
    U_perp = U[..., :, k:] if U.shape[-1] > k else None
    V_perp = V[..., :, k:] if V.shape[-1] > k else None
    return U[..., :, :k], V[..., :, :k], U_perp, V_perp


def svd_cotangent(U: np.ndarray, s: np.ndarray, Vh: np.ndarray, U_bar: Any, s_bar: Any, Vh_bar: Any,
                  rtol: float | None = None) -> np.ndarray:
    """The cotangent of ``A`` for the output cotangents (``None``: zero; thin or full factors).

    Examples
    --------
    >>> A = np.array([[3.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> U, s, Vh = np.linalg.svd(A, full_matrices=False)
    >>> svd_cotangent(U, s, Vh, None, np.array([1.0, 0.0]), None)     # d s_max / dA
    array([[1., 0.],
           [0., 0.],
           [0., 0.]])
    """
    Uk, Vk, U_perp, V_perp = _thin(U, s, Vh)
    k = s.shape[-1]
    if U_bar is None and Vh_bar is None:
        return (Uk * np.real(s_bar)[..., np.newaxis, :]) @ mH(Vk)
    c = _Couplings(s, rtol)
    Ub = None
    if U_bar is not None:
        Ub = U_bar[..., :, :k]
        if U_perp is not None:  # the complement's basis enters only through its span
            Ub = Ub - U_perp @ (mH(U_bar[..., :, k:]) @ Uk)
    Vb = None
    if Vh_bar is not None:
        V_bar = mH(Vh_bar)
        Vb = V_bar[..., :, :k]
        if V_perp is not None:
            Vb = Vb - V_perp @ (mH(V_bar[..., :, k:]) @ Vk)
    dtype = np.result_type(Uk.dtype, *(x.dtype for x in (Ub, Vb) if x is not None))
    inner = np.zeros(s.shape + (k,), dtype=dtype)
    J = K = None
    if Ub is not None:
        J = mH(Uk) @ Ub
        Js = J - mH(J)
        inner += (c.Fm + c.Fp) * Js
    if Vb is not None:
        K = mH(Vk) @ Vb
        Ks = K - mH(K)
        inner += (c.Fm - c.Fp) * Ks
    inner /= 2
    if s_bar is not None:
        add_to_diagonal(inner, np.real(s_bar))
    left = Uk @ inner
    m, n = Uk.shape[-2], Vk.shape[-2]
    if Ub is not None and m > k:
        left += (Ub - Uk @ J) * c.s_inv[..., np.newaxis, :]
    dA = left @ mH(Vk)
    if Vb is not None and n > k:
        dA += (Uk * c.s_inv[..., np.newaxis, :]) @ mH(Vb - Vk @ K)
    return dA


def svd_pushforward(U: np.ndarray, s: np.ndarray, Vh: np.ndarray, dA: np.ndarray,
                    vectors: bool = True) -> tuple[Any, np.ndarray, Any]:
    """``(dU, ds, dVh)`` for a tangent ``dA`` (``dU``, ``dVh`` of the shapes of ``U``, ``Vh``; ``None``
    when ``vectors`` is false)."""
    Uk, Vk, U_perp, V_perp = _thin(U, s, Vh)
    k = s.shape[-1]
    dAV = dA @ Vk
    dP = mH(Uk) @ dAV
    ds = np.real(np.diagonal(dP, axis1=-2, axis2=-1))
    if not vectors:
        return None, ds, None
    c = _Couplings(s)
    sym, skew = dP + mH(dP), dP - mH(dP)
    dUk = Uk @ ((c.Fm * sym + c.Fp * skew) / 2)
    dVk = Vk @ ((c.Fm * sym - c.Fp * skew) / 2)
    m, n = Uk.shape[-2], Vk.shape[-2]
    if m > k:
        dUk = dUk + (dAV - Uk @ dP) * c.s_inv[..., np.newaxis, :]
    if n > k:
        dVk = dVk + (mH(dA) @ Uk - Vk @ mH(dP)) * c.s_inv[..., np.newaxis, :]
    dU = dUk if U_perp is None else np.concatenate([dUk, -Uk @ (mH(dUk) @ U_perp)], axis=-1)
    dV = dVk if V_perp is None else np.concatenate([dVk, -Vk @ (mH(dVk) @ V_perp)], axis=-1)
    return dU, ds, mH(dV)


# ---- helpers -------------------------------------------------------------------------------------------------
def _hermitian_svd_values(a: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(s, V, signed)``: NumPy's ``svd(a, compute_uv=False, hermitian=True)`` from ``eigh``, with
    the eigenvectors and ``sign(w)`` in the order of ``s``."""
    w, V = np.linalg.eigh(a)
    order = np.argsort(np.abs(w), axis=-1)[..., ::-1]
    w = np.take_along_axis(w, order, axis=-1)
    V = np.take_along_axis(V, order[..., np.newaxis, :], axis=-1)
    return np.abs(w), V, np.sign(w)


def _values_cotangent_hermitian(V: np.ndarray, signs: np.ndarray, s_bar: np.ndarray) -> np.ndarray:
    """The lower-triangle cotangent of ``svd(a, compute_uv=False, hermitian=True)``: ``V diag(sign s_bar) V^H``."""
    G = (V * (signs * np.real(s_bar))[..., np.newaxis, :]) @ mH(V)
    return hermitian_triangle_cotangent(G, lower=True)


# ---- np.linalg.svd ------------------------------------------------------------------------------------------
@rrule.register(np.linalg.svd, MATRIX_INPUTS)
def svd_rrule(a: Any, full_matrices: Any = True, compute_uv: Any = True, hermitian: Any = False) -> Any:
    """Reverse rule of ``np.linalg.svd``: every ``full_matrices``, ``compute_uv`` and ``hermitian``.

    The maths, ``full_matrices=True`` (exact for losses that depend on the extra columns only
    through their span), ``hermitian=True`` (the lower triangle of ``a``) and the degenerate
    treatment are in the module docstring. ``compute_uv=False`` computes the singular vectors
    too (the pullback needs them) and returns the singular values found with them.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> (U, s, Vh), pullback = rrule(np.linalg.svd, np.eye(2))    # a repeated singular value
    >>> pullback((np.zeros((2, 2)), np.ones(2), np.zeros((2, 2))))[1]    # d(nuclear norm): finite
    array([[1., 0.],
           [0., 1.]])
    """
    project_a = cotangent_projector(a)
    if not compute_uv:
        if hermitian:
            s, V, signs = _hermitian_svd_values(a)

            def svdvals_hermitian_pullback(dy: Any) -> tuple[Any, ...]:
                s_bar = read_cotangent(dy, s, np.linalg.svd)
                if passes_through(s_bar):
                    return NO, project_a(s_bar), NO, NO, NO
                return NO, project_a(_values_cotangent_hermitian(V, signs, s_bar)), NO, NO, NO

            return s, svdvals_hermitian_pullback
        U, s, Vh = np.linalg.svd(a, full_matrices=False)

        def svdvals_pullback(dy: Any) -> tuple[Any, ...]:
            s_bar = read_cotangent(dy, s, np.linalg.svd)
            if passes_through(s_bar):
                return NO, project_a(s_bar), NO, NO, NO
            return NO, project_a(svd_cotangent(U, s, Vh, None, s_bar, None)), NO, NO, NO

        return s, svdvals_pullback

    y = np.linalg.svd(a, full_matrices, True, hermitian)
    U, s, Vh = y
    rtol = relative_tolerance(s.dtype)

    def svd_pullback(dy: Any) -> tuple[Any, ...]:
        U_bar, s_bar, Vh_bar = cotangent_parts(dy, y, np.linalg.svd)
        missing = not_implemented_in(U_bar, s_bar, Vh_bar)
        if missing is not None:
            return NO, missing, NO, NO, NO
        if U_bar is None and s_bar is None and Vh_bar is None:
            return NO, project_a(ZeroTangent()), NO, NO, NO
        G = svd_cotangent(U, s, Vh, U_bar, s_bar, Vh_bar, rtol)
        return NO, project_a(hermitian_triangle_cotangent(G, lower=True) if hermitian else G), NO, NO, NO

    return y, svd_pullback


@frule.register(np.linalg.svd, MATRIX_INPUTS)
def svd_frule(tangents: Any, a: Any, full_matrices: Any = True, compute_uv: Any = True,
              hermitian: Any = False) -> Any:
    """Forward rule of ``np.linalg.svd`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import frule, NoTangent
    >>> y, dy = frule((NoTangent(), np.diag([1.0, 2.0])), np.linalg.svd, np.diag([3.0, 1.0]), compute_uv=False)
    >>> dy
    array([1., 2.])
    """
    dA = tangent_value(tangents[1])
    if not_implemented_in(dA):
        return np.linalg.svd(a, full_matrices, compute_uv, hermitian), dA
    if hermitian:
        if not compute_uv:
            s, V, signs = _hermitian_svd_values(a)
            if dA is None:
                return s, ZeroTangent()
            P = mH(V) @ hermitian_from_triangle(dA, lower=True) @ V
            return s, ProjectTo(s)(signs * np.real(np.diagonal(P, axis1=-2, axis2=-1)))
        y = np.linalg.svd(a, full_matrices, True, True)
        if dA is None:
            return y, ZeroTangent()
        dA = hermitian_from_triangle(dA, lower=True)
    elif not compute_uv:
        U, s, Vh = np.linalg.svd(a, full_matrices=False)
        if dA is None:
            return s, ZeroTangent()
        return s, ProjectTo(s)(svd_pushforward(U, s, Vh, dA, vectors=False)[1])
    else:
        y = np.linalg.svd(a, full_matrices, True, False)
        if dA is None:
            return y, ZeroTangent()
    U, s, Vh = y
    return y, ProjectTo(y)(svd_pushforward(U, s, Vh, dA))


@rrule.register(np.linalg.svdvals, MATRIX_INPUTS)
def svdvals_rrule(x: Any) -> Any:
    """Reverse rule of ``np.linalg.svdvals(x)``: ``dA = U diag(s_bar) V^H``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> s, pullback = rrule(np.linalg.svdvals, np.array([[0.0, 2.0], [1.0, 0.0]]))
    >>> pullback(np.array([1.0, 0.0]))[1]
    array([[0., 1.],
           [0., 0.]])
    """
    return _values_only_rrule(x, "numpy.linalg.svdvals", 0)


@frule.register(np.linalg.svdvals, MATRIX_INPUTS)
def svdvals_frule(tangents: Any, x: Any) -> Any:
    """Forward rule of ``np.linalg.svdvals(x)``: ``ds = Re diag(U^H dA V)``."""
    return _values_only_frule(tangents[1], x)


def _values_only_rrule(a: Any, name: str, n_rest: int) -> Any:
    """The rrule of the singular values alone (``n_rest``: how many non-differentiable parameters follow ``a``)."""
    U, s, Vh = np.linalg.svd(a, full_matrices=False)
    project_a = cotangent_projector(a)
    rest = (NO,) * n_rest

    def svdvals_pullback(dy: Any) -> tuple[Any, ...]:
        s_bar = read_cotangent(dy, s, name)
        if passes_through(s_bar):
            return (NO, project_a(s_bar), *rest)
        return (NO, project_a(svd_cotangent(U, s, Vh, None, s_bar, None)), *rest)

    return s, svdvals_pullback


def _values_only_frule(da: Any, a: Any) -> Any:
    U, s, Vh = np.linalg.svd(a, full_matrices=False)
    dA = tangent_value(da)
    if dA is None or not_implemented_in(dA):
        return s, ZeroTangent() if dA is None else dA
    return s, ProjectTo(s)(svd_pushforward(U, s, Vh, dA, vectors=False)[1])


# ---- scipy.linalg.svd, scipy.linalg.svdvals --------------------------------------------------------------------
@rrule.register(sla.svd, MATRIX_INPUTS)
def scipy_svd_rrule(a: Any, full_matrices: Any = True, compute_uv: Any = True, overwrite_a: Any = False,
                    check_finite: Any = True, lapack_driver: Any = "gesdd") -> Any:
    """Reverse rule of ``scipy.linalg.svd`` (both drivers; ``overwrite_a`` is ignored: the input is kept).

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> (U, s, Vh), pullback = rrule(scipy.linalg.svd, np.zeros((2, 3)))   # all singular values zero
    >>> pullback((np.zeros((2, 2)), np.zeros(2), np.ones((3, 3))))[1]       # finite, no nan
    array([[0., 0., 0.],
           [0., 0., 0.]])
    """
    if not compute_uv:
        return _values_only_rrule(a, "scipy.linalg.svd", 5)
    y = sla.svd(a, full_matrices, True, False, check_finite, lapack_driver)
    U, s, Vh = y
    rtol = relative_tolerance(s.dtype)
    project_a = cotangent_projector(a)
    rest = (NO,) * 5

    def scipy_svd_pullback(dy: Any) -> tuple[Any, ...]:
        U_bar, s_bar, Vh_bar = cotangent_parts(dy, y, "scipy.linalg.svd")
        missing = not_implemented_in(U_bar, s_bar, Vh_bar)
        if missing is not None:
            return (NO, missing, *rest)
        if U_bar is None and s_bar is None and Vh_bar is None:
            return (NO, project_a(ZeroTangent()), *rest)
        return (NO, project_a(svd_cotangent(U, s, Vh, U_bar, s_bar, Vh_bar, rtol)), *rest)

    return y, scipy_svd_pullback


@frule.register(sla.svd, MATRIX_INPUTS)
def scipy_svd_frule(tangents: Any, a: Any, full_matrices: Any = True, compute_uv: Any = True,
                    overwrite_a: Any = False, check_finite: Any = True, lapack_driver: Any = "gesdd") -> Any:
    """Forward rule of ``scipy.linalg.svd``."""
    if not compute_uv:
        return _values_only_frule(tangents[1], a)
    y = sla.svd(a, full_matrices, True, False, check_finite, lapack_driver)
    dA = tangent_value(tangents[1])
    if dA is None or not_implemented_in(dA):
        return y, ZeroTangent() if dA is None else dA
    U, s, Vh = y
    dU, ds, dVh = svd_pushforward(U, s, Vh, dA)
    return y, ProjectTo(y)([dU, ds, dVh] if isinstance(y, list) else (dU, ds, dVh))


@rrule.register(sla.svdvals, MATRIX_INPUTS)
def scipy_svdvals_rrule(a: Any, overwrite_a: Any = False, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.svdvals``: ``dA = U diag(s_bar) V^H``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> s, pullback = rrule(scipy.linalg.svdvals, np.eye(2))
    >>> pullback(np.ones(2))[1]
    array([[1., 0.],
           [0., 1.]])
    """
    return _values_only_rrule(a, "scipy.linalg.svdvals", 2)


@frule.register(sla.svdvals, MATRIX_INPUTS)
def scipy_svdvals_frule(tangents: Any, a: Any, overwrite_a: Any = False, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.svdvals``."""
    return _values_only_frule(tangents[1], a)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _separated(rng: np.random.Generator, m: int, n: int, dtype: Any = np.float64) -> np.ndarray:
    """An ``m x n`` matrix with singular values ``3, 2, 1, ...`` (well separated, nonzero)."""
    k = min(m, n)
    u, v = unitary(m, rng, dtype)[:, :k], unitary(n, rng, dtype)[:, :k]
    return ((u * (3.0 - np.arange(k) + 0.1 * rng.random(k))) @ np.conj(v.T)).astype(dtype)


def _thin_projectors(result: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``s``, ``u_k v_k^H`` and the projectors on the ranges of the full ``U`` and ``V`` beyond the singular vectors:
    blind to the joint phases of ``(u_k, v_k)`` and to the free bases of the complements (``full_matrices=True``)."""
    U, s, Vh = result[0], result[1], result[2]
    k = s.shape[-1]
    u2, v2 = U[..., :, k:], np.conj(np.swapaxes(Vh[..., k:, :], -1, -2))
    return (*singular_projectors(result), u2 @ np.conj(np.swapaxes(u2, -1, -2)),
            v2 @ np.conj(np.swapaxes(v2, -1, -2)))


def _repeated_singular_value(rng: np.random.Generator) -> np.ndarray:
    """A 3x3 matrix with singular values ``(2, 2, 1)``."""
    return (unitary(3, rng) * np.array([2.0, 2.0, 1.0])) @ unitary(3, rng).T


def _pair_invariants(result: Any) -> tuple[Any, ...]:
    """For singular values ``(2, 2, 1)``: ``s_0 + s_1``, ``s_2``, the pair's ``U_c V_c^H`` and ``u_2 v_2^H``."""
    U, s, Vh = result[0], result[1], result[2]
    return s[0] + s[1], s[2], U[:, :2] @ Vh[:2], np.outer(U[:, 2], Vh[2])


@sample_inputs(np.linalg.svd)
def _svd_samples(rng: np.random.Generator) -> list[Sample]:
    a = _separated(rng, 4, 3)
    g = _thin_projectors
    return [
        Sample(a, False, label="tall, reduced: real, the vectors themselves"),
        Sample(a, gauge_invariant=g, label="tall, full_matrices=True"),
        Sample(a.T, fkwargs={"full_matrices": False}, label="wide, reduced"),
        Sample(a.astype(np.float32), False, gauge_invariant=g, label="float32"),
        Sample(_separated(rng, 3, 3, np.complex128), False, gauge_invariant=g, label="complex (u_k v_k^H)"),
        Sample(a, fkwargs={"compute_uv": False}, label="compute_uv=False"),
        Sample(hermitian(rng), False, True, True, gauge_invariant=g, label="hermitian=True"),
        Sample(hermitian(rng), fkwargs={"compute_uv": False, "hermitian": True}, label="hermitian, values only"),
        Sample(np.stack([_separated(rng, 3, 2), _separated(rng, 3, 2)]), False, gauge_invariant=g, label="stack"),
        Sample(_repeated_singular_value(rng), gauge_invariant=_pair_invariants, label="a repeated singular value"),
        Sample(Bidiagonal(np.array([3.0, 2.0, 1.0]), np.array([0.5, -0.3])), False, gauge_invariant=g,
               label="Bidiagonal"),
    ]


@sample_inputs(np.linalg.svdvals, sla.svdvals)
def _svdvals_samples(rng: np.random.Generator) -> list[Sample]:
    a = _separated(rng, 4, 3)
    return [
        Sample(a, label="tall"),
        Sample(a.T.astype(np.float32), label="wide, float32"),
        Sample(_separated(rng, 3, 3, np.complex128), label="complex"),
        Sample(_repeated_singular_value(rng), gauge_invariant=lambda s: (s[0] + s[1], s[2]),
               label="a repeated singular value: symmetric functions"),
    ]


@sample_inputs(sla.svd)
def _scipy_svd_samples(rng: np.random.Generator) -> list[Sample]:
    a = _separated(rng, 4, 3)
    g = _thin_projectors
    return [
        Sample(a, False, label="tall, reduced"),
        Sample(a, gauge_invariant=g, label="full_matrices=True"),
        Sample(a.astype(np.float32), False, gauge_invariant=g, label="float32"),
        Sample(_separated(rng, 3, 4, np.complex128), False, gauge_invariant=g, label="complex"),
        Sample(a, fkwargs={"compute_uv": False}, label="compute_uv=False"),
        Sample(a, False, True, False, True, "gesvd", gauge_invariant=g, label="lapack_driver='gesvd' by position"),
    ]
