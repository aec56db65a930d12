"""Cholesky factorizations: ``np.linalg.cholesky`` (``upper=``), ``scipy.linalg.cholesky`` (``lower=``),
``scipy.linalg.cholesky_banded``, and both dense functions on ``Symmetric``, ``Hermitian`` and
``Diagonal`` matrices.

The maths (Murray 2016, "Differentiation of the Cholesky decomposition", arXiv:1602.07527,
eqs. 9-10; Seeger et al. 2017, "Auto-differentiating linear algebra"). With ``S = L L^H``
Hermitian positive definite and ``L`` lower triangular with a real positive diagonal:

* forward: ``dL = L Phi(L^{-1} dS L^{-H})``, where ``Phi(X) = tril(X, -1) + diag(X) / 2``;
* reverse: with ``M = L^H Lbar`` (``Lbar`` the cotangent of ``L``, its lower triangle)
  and ``copyltu(M) = tril(M, -1) + tril(M, -1)^H + Re(diag(M))``, the cotangent of ``S`` in
  the space of Hermitian matrices is ``Sbar = L^{-H} copyltu(M) L^{-1} / 2``.

**Which entries are read.** LAPACK's ``?potrf`` reads one triangle of its argument (and the
real part of the diagonal): ``np.linalg.cholesky`` the lower one (the upper one with
``upper=True``), ``scipy.linalg.cholesky`` the upper one (the lower one with
``lower=True``). The function of the whole array that these compute depends on that
triangle alone, so the cotangent of ``a`` is ``Sbar`` folded onto it: ``2 Sbar`` on the
strict triangle read, ``Re(diag(Sbar))`` on the diagonal, zero on the other triangle. This
is the exact derivative of what NumPy and SciPy compute, for every input array (symmetric
or not); for a loss of a symmetrized argument, ``cholesky((A + A^H) / 2)``, the chain rule
through the symmetrization gives back ``Sbar``. The ``Symmetric`` and ``Hermitian`` rules
project onto their type instead: their cotangent is ``Sbar`` itself (``ProjectTo``).

The pullback reuses the primal's factor: one matrix product and the two triangular solves
``L^{-H} S L^{-1}`` done together by LAPACK's ``?sygst``/``?hegst`` (which exploits the
symmetry of ``S``: ``n^3`` flops instead of ``2 n^3`` for two ``?trsm``); the pushforward
likewise (``L^{-1} dS L^{-H}``, then one product). Never an inverse. ``Diagonal`` inputs cost
``O(n)``: ``L = diag(sqrt(d))``. Stacks of matrices, float32 (computed in float32) and
complex inputs are supported; integer input gets ``NoTangent()``. A matrix that is not
positive definite raises NumPy's or SciPy's own ``LinAlgError``.

``scipy.linalg.cholesky_banded`` works in LAPACK's band storage (``?pbtrf``); its rules run
the left-looking Cholesky algorithm and its adjoint column by column on the band
(Murray 2016, section 3, the unblocked algorithms), in ``O(n k^2)`` for ``k``
superdiagonals, never forming the dense matrix. The entries of the storage outside the
matrix (a corner of ``k (k + 1) / 2`` entries) are passed through unchanged by LAPACK,
and so are their tangents.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import spd
from chainrules.rulesets.linalg._factorizations import copyltu, phi, solve_triangular, typed_cotangent
from chainrules.rulesets.linalg._utils import NO, lapack_functions, mH, tangent_value
from chainrules.structured import Diagonal, Hermitian, Symmetric
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)

__all__ = ["cholesky_pullback_of", "cholesky_pushforward_of"]


# ---- the maths, on stacks of lower factors ----------------------------------------------------------------
_SANDWICH_BY_GST = 96
"""The order from which ``?sygst`` (blocked, ``n^3`` flops) beats two ``?trsm`` (``2 n^3``)."""


def _sandwich(a: np.ndarray, L: np.ndarray, inverse_first: bool) -> np.ndarray:
    """``L^{-1} A L^{-H}`` (``inverse_first``) or ``L^{-H} A L^{-1}``, ``A`` Hermitian from ``a``'s lower triangle.

    Two triangular solves. From order 96 on they are done together by LAPACK's
    ``?sygst``/``?hegst`` (the reduction of ``A x = lambda L L^H x`` to standard form, which
    uses the symmetry of ``A``: ``n^3`` flops instead of ``2 n^3``; ``L^{-H} A L^{-1}`` is the
    same reduction with both axes reversed, ``J L J`` being upper triangular); below, by two
    BLAS ``?trsm``. Only the lower triangle of the result is meaningful.
    """
    dtype = np.result_type(a.dtype, L.dtype)
    n = a.shape[-1]
    idx = np.arange(n)
    if n < _SANDWICH_BY_GST or (a.ndim > 2 and n < 2 * _SANDWICH_BY_GST):
        full = copyltu(a).astype(dtype, copy=False)
        if inverse_first:
            y = solve_triangular(L, full, lower=True, check=False)
            return solve_triangular(L, y, lower=True, trans="C", side="R", check=False)
        y = solve_triangular(L, full, lower=True, trans="C", check=False)
        return solve_triangular(L, y, lower=True, side="R", check=False)
    (gst,) = lapack_functions(("hegst",) if dtype.kind == "c" else ("sygst",), dtype)

    def one(a2: np.ndarray, l2: np.ndarray) -> np.ndarray:
        if inverse_first:
            x = np.array(a2, dtype=dtype, order="F")
            x[idx, idx] = x[idx, idx].real
            out, _ = gst(x, np.asfortranarray(l2, dtype=dtype), itype=1, lower=1, overwrite_a=1)
            return out
        x = np.array(a2[::-1, ::-1], dtype=dtype, order="F")
        x[idx, idx] = x[idx, idx].real
        out, _ = gst(x, np.array(l2[::-1, ::-1], dtype=dtype, order="F"), itype=1, lower=0, overwrite_a=1)
        return out[::-1, ::-1]

    if a.ndim == 2:
        return one(a, L)
    out = np.empty(a.shape, dtype=dtype)
    for index in np.ndindex(*a.shape[:-2]):
        out[index] = one(a[index], L[index])
    return out


@functools.lru_cache(maxsize=32)
def _lower_mask(n: int) -> np.ndarray:
    mask = np.tri(n, dtype=bool)
    mask.flags.writeable = False
    return mask


def _phi_real(x: np.ndarray) -> np.ndarray:
    """``tril(x, -1) + Re(diag(x)) / 2``."""
    p = phi(x)
    if p.dtype.kind == "c":
        idx = np.arange(p.shape[-1])
        p[..., idx, idx] = p[..., idx, idx].real
    return p


def cholesky_pushforward_of(L: np.ndarray, dS: np.ndarray) -> np.ndarray:
    """``dL = L Phi(L^{-1} dS L^{-H})`` for the lower Cholesky factor ``L`` of ``S``.

    ``dS`` is the Hermitian tangent read from the lower triangle of ``dS`` (and the real
    part of its diagonal), as LAPACK reads ``S``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.cholesky import cholesky_pushforward_of
    >>> cholesky_pushforward_of(np.array([[2.0]]), np.array([[4.0]]))   # d sqrt(s) = ds / (2 sqrt(s))
    array([[1.]])
    """
    return L @ _phi_real(_sandwich(dS, L, inverse_first=True))


def cholesky_pullback_of(L: np.ndarray, dL: np.ndarray) -> np.ndarray:
    """The cotangent of the lower triangle read: ``Phi(L^{-H} copyltu(L^H tril(dL)) L^{-1})`` (real diagonal).

    It is the Hermitian cotangent ``Sbar = L^{-H} copyltu(L^H tril(dL)) L^{-1} / 2`` of
    ``S = L L^H`` folded onto the lower triangle (twice the strict lower part, the real
    diagonal).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.cholesky import cholesky_pullback_of
    >>> cholesky_pullback_of(np.array([[2.0]]), np.array([[1.0]]))   # d sqrt(s) / ds = 1 / (2 sqrt(s))
    array([[0.25]])
    """
    n = dL.shape[-1]
    if n >= _BLOCKED_FROM:
        if L.ndim == 2:
            return _blocked_pullback(L, dL)
        Ls, dLs = np.broadcast_arrays(L, dL)
        out = np.empty(Ls.shape, dtype=np.result_type(L.dtype, dL.dtype))
        for index in np.ndindex(*out.shape[:-2]):
            out[index] = _blocked_pullback(Ls[index], dLs[index])
        return out
    return _closed_form_pullback(L, dL)


def _closed_form_pullback(L: np.ndarray, dL: np.ndarray) -> np.ndarray:
    """``Phi(L^{-H} copyltu(L^H tril(dL)) L^{-1})``: the closed form, also the blocked pullback's diagonal step."""
    # only the strict lower triangle and the real diagonal of m are read: copyltu(m)
    m = mH(L) @ np.where(_lower_mask(dL.shape[-1]), dL, 0)
    return _phi_real(_sandwich(m, L, inverse_first=False))


_BLOCKED_FROM = 128
"""The order from which the blocked pullback beats the closed form (measured: 3.1x against
7.7x the primal at n = 500, 2.1x against 7.4x at n = 1000)."""
_BLOCK = 64


def _blocked_pullback(L: np.ndarray, dL: np.ndarray) -> np.ndarray:
    """The reverse mode of the blocked (left-looking) Cholesky algorithm, for one matrix.

    The closed form needs a product and two triangular solves with ``n x n`` operands
    (``3 n^3`` flops against ``n^3 / 3`` for the factorization). Differentiating LAPACK's
    blocked ``?potrf`` instead (Murray 2016, "Differentiation of the Cholesky
    decomposition", arXiv:1602.07527, sec. 4.3: ``chol_rev_blocked``) costs about
    ``2 n^3 / 3`` flops in matrix-matrix products. The forward algorithm computes, for each
    block of columns ``J`` (rows ``T`` below it, columns ``P`` left of it),
    ``D = chol(A_JJ - R R^H)`` and ``C = (A_TJ - B R^H) D^{-H}`` with ``R = L_JP``,
    ``B = L_TP``. Going through the blocks in reverse, with ``Abar`` holding the cotangents
    of ``L`` and turning them into those of ``A``'s lower triangle:

    * ``Cbar <- Cbar D^{-1}`` (the cotangent of ``A_TJ``), ``Bbar -= Cbar R``;
    * ``Dbar -= tril(Cbar^H C)``, then ``Dbar <-`` the closed-form pullback of the block;
    * ``Rbar -= Cbar^H B + (Dbar + Dbar^H) R``.

    The result is the cotangent of the lower triangle read (as :func:`cholesky_pullback_of`).
    """
    n = L.shape[-1]
    abar = np.where(_lower_mask(n), dL, 0).astype(np.result_type(L.dtype, dL.dtype), copy=False)
    for j in reversed(range(0, n, _BLOCK)):
        k = min(j + _BLOCK, n)
        D, R = L[j:k, j:k], L[j:k, :j]
        cbar = None
        if k < n:
            cbar = solve_triangular(D, abar[k:, j:k], lower=True, side="R", check=False)
            abar[k:, j:k] = cbar
            if j:
                abar[k:, :j] -= cbar @ R
            dbar = abar[j:k, j:k] - np.tril(mH(cbar) @ L[k:, j:k])
        else:
            dbar = abar[j:k, j:k]
        g = _closed_form_pullback(D, dbar)
        abar[j:k, j:k] = g
        if j:
            update = (g + mH(g)) @ R
            if cbar is not None:
                update += mH(cbar) @ L[k:, :j]
            abar[j:k, :j] -= update
    return abar


def _lower_factor(y: np.ndarray, upper: bool) -> np.ndarray:
    return mH(y) if upper else y


def _make_rules(f: Any, name: str, a: Any, upper: bool, project_a: Any) -> Any:
    """The primal, its pullback and its pushforward for a dense-array argument ``a`` (``upper``: output ``L^H``)."""
    y = f()
    L = _lower_factor(y, upper)
    lower = not upper

    def pullback(dy: Any) -> Any:
        dY = typed_cotangent(dy, y, name)
        if dY is None or isinstance(dY, NotImplementedTangent):
            return project_a(ZeroTangent() if dY is None else dY)
        da = cholesky_pullback_of(L, _lower_factor(dY, upper))
        return project_a(da if lower else mH(da))

    def pushforward(da: Any) -> Any:
        da = tangent_value(da)
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        dL = cholesky_pushforward_of(L, da if lower else mH(da))
        return ProjectTo(y)(_lower_factor(dL, upper))

    return y, pullback, pushforward


# ---- np.linalg.cholesky ---------------------------------------------------------------------------------------
@rrule.register(np.linalg.cholesky, np.ndarray)
def cholesky_rrule(a: np.ndarray, *, upper: bool = False) -> Any:
    """Reverse rule of ``np.linalg.cholesky(a, upper=...)`` (Murray 2016; see the module docstring).

    The cotangent lives on the triangle LAPACK reads: the lower one (the upper one with
    ``upper=True``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> y, pullback = rrule(np.linalg.cholesky, np.array([[4.0, 2.0], [2.0, 5.0]]))
    >>> y
    array([[2., 0.],
           [1., 2.]])
    >>> pullback(np.array([[1.0, 0.0], [0.0, 0.0]]))[1]
    array([[0.25, 0.  ],
           [0.  , 0.  ]])
    """
    y, pullback, _ = _make_rules(lambda: np.linalg.cholesky(a, upper=upper), "numpy.linalg.cholesky", a, upper,
                                 cotangent_projector(a))

    def cholesky_pullback(dy: Any) -> tuple[Any, Any]:
        return NO, pullback(dy)

    return y, cholesky_pullback


@frule.register(np.linalg.cholesky, np.ndarray)
def cholesky_frule(tangents: Any, a: np.ndarray, *, upper: bool = False) -> Any:
    """Forward rule of ``np.linalg.cholesky(a, upper=...)``: ``dL = L Phi(L^{-1} dS L^{-H})``."""
    y, _, pushforward = _make_rules(lambda: np.linalg.cholesky(a, upper=upper), "numpy.linalg.cholesky", a, upper,
                                    cotangent_projector(a))
    return y, pushforward(tangents[1])


# ---- scipy.linalg.cholesky --------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.cholesky, np.ndarray)
def scipy_cholesky_rrule(a: np.ndarray, lower: bool = False, overwrite_a: bool = False,
                         check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.cholesky(a, lower=...)`` (upper factor by default; Murray 2016).

    The cotangent lives on the triangle LAPACK reads: the upper one (the lower one with
    ``lower=True``). ``a`` is never overwritten.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.cholesky, np.array([[4.0, 2.0], [2.0, 5.0]]))
    >>> y
    array([[2., 1.],
           [0., 2.]])
    >>> pullback(np.array([[0.0, 1.0], [0.0, 0.0]]))[1]
    array([[-0.125,  0.5  ],
           [ 0.   ,  0.   ]])
    """
    y, pullback, _ = _make_rules(lambda: scipy.linalg.cholesky(a, lower, False, check_finite),
                                 "scipy.linalg.cholesky", a, not lower, cotangent_projector(a))

    def scipy_cholesky_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, pullback(dy), NO, NO, NO

    return y, scipy_cholesky_pullback


@frule.register(scipy.linalg.cholesky, np.ndarray)
def scipy_cholesky_frule(tangents: Any, a: np.ndarray, lower: bool = False, overwrite_a: bool = False,
                         check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.cholesky(a, lower=...)``: ``dL = L Phi(L^{-1} dS L^{-H})``."""
    y, _, pushforward = _make_rules(lambda: scipy.linalg.cholesky(a, lower, False, check_finite),
                                    "scipy.linalg.cholesky", a, not lower, cotangent_projector(a))
    return y, pushforward(tangents[1])


# ---- Symmetric and Hermitian matrices ----------------------------------------------------------------------------
def _structured_rules(f: Any, name: str, a: Symmetric | Hermitian, upper: bool) -> Any:
    """Rules for a ``Symmetric``/``Hermitian`` argument: the dense rules, the cotangent projected onto the type."""
    project_a = ProjectTo(a)
    y, pullback, pushforward = _make_rules(f, name, a, upper, project_a)

    def structured_pushforward(da: Any) -> Any:
        da = tangent_value(da)
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        return pushforward(np.asarray(project_a(da)))

    return y, pullback, structured_pushforward


@rrule.register(np.linalg.cholesky, (Symmetric, Hermitian))
def self_adjoint_cholesky_rrule(a: Symmetric | Hermitian, *, upper: bool = False) -> Any:
    """Reverse rule of ``np.linalg.cholesky`` on a ``Symmetric``/``Hermitian`` matrix: the cotangent has its type.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Symmetric
    >>> y, pullback = rrule(np.linalg.cholesky, Symmetric(np.array([[4.0, 2.0], [0.0, 5.0]])))
    >>> np.asarray(pullback(np.array([[0.0, 0.0], [1.0, 0.0]]))[1])
    array([[-0.125,  0.25 ],
           [ 0.25 ,  0.   ]])
    """
    y, pullback, _ = _structured_rules(lambda: np.linalg.cholesky(a, upper=upper), "numpy.linalg.cholesky", a, upper)

    def self_adjoint_cholesky_pullback(dy: Any) -> tuple[Any, Any]:
        return NO, pullback(dy)

    return y, self_adjoint_cholesky_pullback


@frule.register(np.linalg.cholesky, (Symmetric, Hermitian))
def self_adjoint_cholesky_frule(tangents: Any, a: Symmetric | Hermitian, *, upper: bool = False) -> Any:
    """Forward rule of ``np.linalg.cholesky`` on a ``Symmetric``/``Hermitian`` matrix."""
    y, _, pushforward = _structured_rules(lambda: np.linalg.cholesky(a, upper=upper), "numpy.linalg.cholesky", a, upper)
    return y, pushforward(tangents[1])


@rrule.register(scipy.linalg.cholesky, (Symmetric, Hermitian))
def scipy_self_adjoint_cholesky_rrule(a: Symmetric | Hermitian, lower: bool = False, overwrite_a: bool = False,
                                      check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.cholesky`` on a ``Symmetric``/``Hermitian`` matrix: the cotangent has its type.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> from chainrules.structured import Hermitian
    >>> y, pullback = rrule(scipy.linalg.cholesky, Hermitian(np.array([[4.0, 2.0], [0.0, 5.0]])))
    >>> pullback(np.array([[1.0, 0.0], [0.0, 0.0]]))[1]
    Hermitian(array([[0.25, 0.  ],
                     [0.  , 0.  ]]))
    """
    y, pullback, _ = _structured_rules(lambda: scipy.linalg.cholesky(a, lower, False, check_finite),
                                       "scipy.linalg.cholesky", a, not lower)

    def scipy_self_adjoint_cholesky_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, pullback(dy), NO, NO, NO

    return y, scipy_self_adjoint_cholesky_pullback


@frule.register(scipy.linalg.cholesky, (Symmetric, Hermitian))
def scipy_self_adjoint_cholesky_frule(tangents: Any, a: Symmetric | Hermitian, lower: bool = False,
                                      overwrite_a: bool = False, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.cholesky`` on a ``Symmetric``/``Hermitian`` matrix."""
    y, _, pushforward = _structured_rules(lambda: scipy.linalg.cholesky(a, lower, False, check_finite),
                                          "scipy.linalg.cholesky", a, not lower)
    return y, pushforward(tangents[1])


# ---- Diagonal matrices ---------------------------------------------------------------------------------------------
def _diagonal_rules(f: Any, name: str, a: Diagonal) -> Any:
    """``L = diag(sqrt(Re d))`` in ``O(n)``: ``dL_ii = Re(dd_i) / (2 L_ii)``, and its adjoint."""
    y = f()  # NumPy's or SciPy's own call: a dense array, or their LinAlgError
    root = np.diagonal(y).real
    project_a = ProjectTo(a)

    def pullback(dy: Any) -> Any:
        dY = typed_cotangent(dy, y, name)
        if dY is None or isinstance(dY, NotImplementedTangent):
            return project_a(ZeroTangent() if dY is None else dY)
        return project_a(Diagonal((np.diagonal(dY).real / (2 * root)).astype(a.dtype)))

    def pushforward(da: Any) -> Any:
        da = tangent_value(da)
        if da is None or isinstance(da, NotImplementedTangent):
            return ZeroTangent() if da is None else da
        dd = project_a(da).d
        return ProjectTo(y)(np.diag((dd.real / (2 * root)).astype(y.dtype)))

    return y, pullback, pushforward


@rrule.register(np.linalg.cholesky, Diagonal)
def diagonal_cholesky_rrule(a: Diagonal, *, upper: bool = False) -> Any:
    """Reverse rule of ``np.linalg.cholesky`` on a ``Diagonal``: ``dd_i = Re(dL_ii) / (2 sqrt(d_i))``, a ``Diagonal``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(np.linalg.cholesky, Diagonal(np.array([4.0, 9.0])))
    >>> pullback(np.ones((2, 2)))[1]
    Diagonal(array([0.25      , 0.16666667]))
    """
    y, pullback, _ = _diagonal_rules(lambda: np.linalg.cholesky(a, upper=upper), "numpy.linalg.cholesky", a)

    def diagonal_cholesky_pullback(dy: Any) -> tuple[Any, Any]:
        return NO, pullback(dy)

    return y, diagonal_cholesky_pullback


@frule.register(np.linalg.cholesky, Diagonal)
def diagonal_cholesky_frule(tangents: Any, a: Diagonal, *, upper: bool = False) -> Any:
    """Forward rule of ``np.linalg.cholesky`` on a ``Diagonal``: ``dL = diag(Re(dd) / (2 sqrt(d)))``."""
    y, _, pushforward = _diagonal_rules(lambda: np.linalg.cholesky(a, upper=upper), "numpy.linalg.cholesky", a)
    return y, pushforward(tangents[1])


@rrule.register(scipy.linalg.cholesky, Diagonal)
def scipy_diagonal_cholesky_rrule(a: Diagonal, lower: bool = False, overwrite_a: bool = False,
                                  check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.cholesky`` on a ``Diagonal``: a ``Diagonal`` cotangent, in ``O(n)``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> from chainrules.structured import Diagonal
    >>> y, pullback = rrule(scipy.linalg.cholesky, Diagonal(np.array([4.0, 9.0])))
    >>> pullback(np.eye(2))[1]
    Diagonal(array([0.25      , 0.16666667]))
    """
    y, pullback, _ = _diagonal_rules(lambda: scipy.linalg.cholesky(a, lower, False, check_finite),
                                     "scipy.linalg.cholesky", a)

    def scipy_diagonal_cholesky_pullback(dy: Any) -> tuple[Any, ...]:
        return NO, pullback(dy), NO, NO, NO

    return y, scipy_diagonal_cholesky_pullback


@frule.register(scipy.linalg.cholesky, Diagonal)
def scipy_diagonal_cholesky_frule(tangents: Any, a: Diagonal, lower: bool = False, overwrite_a: bool = False,
                                  check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.cholesky`` on a ``Diagonal``."""
    y, _, pushforward = _diagonal_rules(lambda: scipy.linalg.cholesky(a, lower, False, check_finite),
                                        "scipy.linalg.cholesky", a)
    return y, pushforward(tangents[1])


# ---- scipy.linalg.cholesky_banded ------------------------------------------------------------------------------
class _Band:
    """Index maps of the left-looking banded Cholesky step ``j`` (lower band storage, ``k`` subdiagonals).

    Lower band storage holds ``L[j + t, j]`` at ``[t, j]``. It is kept padded with ``k``
    zero columns on the left, so that step ``j`` reads the columns ``j - k .. j - 1`` as the
    padded columns ``j .. j + k - 1``: entry ``(s, q)`` of the step's window is
    ``L[j + s, j - k + q]``, stored at ``[s + k - q, j + q]`` when ``q >= s``.
    """

    def __init__(self, k: int, n: int) -> None:
        self.k, self.n = k, n
        s = np.arange(k + 1)[:, None]
        q = np.arange(k)[None, :]
        self.valid = q >= s
        self.t = np.where(self.valid, s + k - q, 0)
        self.q = np.broadcast_to(q, self.t.shape)

    def window(self, padded: np.ndarray, j: int) -> np.ndarray:
        """``L[j:j+k+1, j-k:j]`` (zeros outside the band, the matrix or the rows below ``n``)."""
        w = np.where(self.valid, padded[self.t, j + self.q], 0)
        rows = self.n - j
        if rows < self.k + 1:
            w[rows:] = 0
        return w

    def scatter(self, padded: np.ndarray, j: int, w: np.ndarray) -> None:
        """Add a window's cotangent back into the padded band storage."""
        rows = min(self.k + 1, self.n - j)
        valid = self.valid.copy()
        valid[rows:] = False
        np.add.at(padded, (self.t[valid], j + self.q[valid]), w[valid])


def _band_unused(k: int, n: int, lower: bool) -> np.ndarray:
    """The mask of the band storage entries outside the matrix (never read or written by ``?pbtrf``)."""
    t = np.arange(k + 1)[:, None]
    j = np.arange(n)[None, :]
    return (j + t >= n) if lower else (j < k - t)


def _to_lower_band(ab: np.ndarray, lower: bool) -> np.ndarray:
    """Upper band storage ``ab[k + i - j, j] = U[i, j]`` as the lower storage of ``L = U^H``."""
    if lower:
        return ab
    k, n = ab.shape
    k -= 1
    out = np.zeros_like(ab)
    for t in range(k + 1):
        out[t, : n - t] = np.conj(ab[k - t, t:])
    return out


def _from_lower_band(lb: np.ndarray, lower: bool) -> np.ndarray:
    """The inverse of :func:`_to_lower_band` (entries outside the matrix are zero)."""
    if lower:
        return lb
    k, n = lb.shape
    k -= 1
    out = np.zeros_like(lb)
    for t in range(k + 1):
        out[k - t, t:] = np.conj(lb[t, : n - t])
    return out


def _banded_pushforward(lb: np.ndarray, dab: np.ndarray) -> np.ndarray:
    """The tangent of the lower band factor ``lb`` for a tangent ``dab`` of the lower band of the matrix."""
    k1, n = lb.shape
    k = k1 - 1
    band = _Band(k, n)
    dtype = np.result_type(lb.dtype, dab.dtype)
    L = np.concatenate([np.zeros((k1, k), dtype=lb.dtype), lb], axis=1)
    dL = np.zeros((k1, n + k), dtype=dtype)
    for j in range(n):
        rows = min(k1, n - j)
        w, dw = band.window(L, j), band.window(dL, j)
        r, dr = w[0], dw[0]
        d = L[0, j + k].real
        ds = dab[0, j].real - 2 * np.real(np.vdot(r, dr))
        dd = ds / (2 * d)
        dv = dab[1:rows, j] - (dw[1:rows] @ np.conj(r) + w[1:rows] @ np.conj(dr))
        dL[0, j + k] = dd
        dL[1:rows, j + k] = (dv - L[1:rows, j + k] * dd) / d
    return dL[:, k:]


def _banded_pullback(lb: np.ndarray, dlb: np.ndarray) -> np.ndarray:
    """The cotangent of the lower band of the matrix for a cotangent ``dlb`` of the lower band factor ``lb``."""
    k1, n = lb.shape
    k = k1 - 1
    band = _Band(k, n)
    dtype = np.result_type(lb.dtype, dlb.dtype)
    L = np.concatenate([np.zeros((k1, k), dtype=lb.dtype), lb], axis=1)
    dL = np.concatenate([np.zeros((k1, k), dtype=dtype), dlb.astype(dtype)], axis=1)
    dA = np.zeros((k1, n), dtype=dtype)
    for j in range(n - 1, -1, -1):
        rows = min(k1, n - j)
        w = band.window(L, j)
        r = w[0]
        d = L[0, j + k].real
        col, dcol = L[1:rows, j + k], dL[1:rows, j + k]
        dv = dcol / d
        dd = dL[0, j + k].real - np.real(np.vdot(dcol, col)) / d
        dA[1:rows, j] = dv
        dw = np.zeros_like(w, dtype=dtype)
        dw[1:rows] = -np.outer(dv, r)
        ds = dd / (2 * d)
        dA[0, j] = ds
        dw[0] = -(np.conj(dv) @ w[1:rows]) - 2 * ds * r
        band.scatter(dL, j, dw)
    return dA


def _banded_map(fn: Any, ab: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Apply ``fn(ab2d, other2d)`` to each matrix of a stack of band storages."""
    if ab.ndim == 2:
        return fn(ab, other)
    batch = ab.shape[:-2]
    out = None
    for index in itertools.product(*(range(b) for b in batch)):
        res = fn(ab[index], other[index])
        if out is None:
            out = np.empty(batch + res.shape, dtype=res.dtype)
        out[index] = res
    return out if out is not None else np.zeros(ab.shape, dtype=np.result_type(ab, other))


@rrule.register(scipy.linalg.cholesky_banded, np.ndarray)
def cholesky_banded_rrule(ab: np.ndarray, overwrite_ab: bool = False, lower: bool = False,
                          check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.cholesky_banded``: the adjoint of the banded Cholesky algorithm, on the band.

    The cotangent is in band storage too (the shape of ``ab``); ``O(n k^2)`` for ``k``
    off-diagonals (Murray 2016, the unblocked reverse-mode algorithm).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> ab = np.array([[0.0, 2.0, 2.0], [4.0, 5.0, 5.0]])   # [[4, 2, 0], [2, 5, 2], [0, 2, 5]], upper band
    >>> c, pullback = rrule(scipy.linalg.cholesky_banded, ab)
    >>> c
    array([[0., 1., 1.],
           [2., 2., 2.]])
    >>> pullback(np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))[1]
    array([[ 0.      , -0.0625  , -0.25    ],
           [ 0.015625,  0.0625  ,  0.25    ]])
    """
    c = scipy.linalg.cholesky_banded(ab, False, lower, check_finite)
    project_ab = cotangent_projector(ab)
    k1, n = c.shape[-2:]
    unused = _band_unused(k1 - 1, n, lower)
    lb = _to_lower_band_stack(c, lower)

    def cholesky_banded_pullback(dy: Any) -> tuple[Any, ...]:
        dc = typed_cotangent(dy, c, "scipy.linalg.cholesky_banded")
        if dc is None or isinstance(dc, NotImplementedTangent):
            return NO, project_ab(ZeroTangent() if dc is None else dc), NO, NO, NO
        dlb = _to_lower_band_stack(np.where(unused, 0, dc), lower)
        dA = _banded_map(_banded_pullback, lb, dlb)
        dab = _from_lower_band_stack(dA, lower)
        dab = np.where(unused, dc, dab)
        return NO, project_ab(dab), NO, NO, NO

    return c, cholesky_banded_pullback


@frule.register(scipy.linalg.cholesky_banded, np.ndarray)
def cholesky_banded_frule(tangents: Any, ab: np.ndarray, overwrite_ab: bool = False, lower: bool = False,
                          check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.cholesky_banded``: the banded Cholesky algorithm's tangent, on the band."""
    c = scipy.linalg.cholesky_banded(ab, False, lower, check_finite)
    dab = tangent_value(tangents[1])
    if dab is None or isinstance(dab, NotImplementedTangent):
        return c, ZeroTangent() if dab is None else dab
    k1, n = c.shape[-2:]
    unused = _band_unused(k1 - 1, n, lower)
    lb = _to_lower_band_stack(c, lower)
    dA = _to_lower_band_stack(np.where(unused, 0, dab), lower)
    dlb = _banded_map(_banded_pushforward, lb, dA)
    dc = np.where(unused, dab, _from_lower_band_stack(dlb, lower))
    return c, ProjectTo(c)(dc)


def _to_lower_band_stack(x: np.ndarray, lower: bool) -> np.ndarray:
    return _banded_map(lambda a, _: _to_lower_band(a, lower), x, x)


def _from_lower_band_stack(x: np.ndarray, lower: bool) -> np.ndarray:
    return _banded_map(lambda a, _: _from_lower_band(a, lower), x, x)


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(np.linalg.cholesky)
def _cholesky_samples(rng: np.random.Generator) -> list[Sample]:
    s = spd(3, rng)
    return [
        Sample(s, label="3x3"),
        Sample(s.astype(np.float32), label="float32"),
        Sample(spd(3, rng, np.complex128), label="complex Hermitian"),
        Sample(np.tril(s) + 4 * np.triu(s, 1), label="the upper triangle not read"),
        Sample(s, fkwargs={"upper": True}, label="upper=True"),
        Sample(np.stack([spd(2, rng), spd(2, rng)]), label="stack"),
        Sample(Symmetric(s), label="Symmetric"),
        Sample(Hermitian(spd(3, rng, np.complex128), lower=True), fkwargs={"upper": True}, label="Hermitian, upper"),
        Sample(Diagonal(np.array([1.5, 2.0, 0.7])), label="Diagonal"),
    ]


@sample_inputs(scipy.linalg.cholesky)
def _scipy_cholesky_samples(rng: np.random.Generator) -> list[Sample]:
    s = spd(3, rng)
    return [
        Sample(s, label="upper factor"),
        Sample(s.astype(np.float32), label="float32"),
        Sample(spd(3, rng, np.complex128), label="complex Hermitian"),
        Sample(s, True, label="lower=True by position"),
        Sample(s, fkwargs={"lower": True, "check_finite": False}, label="lower, check_finite by keyword"),
        Sample(Hermitian(spd(3, rng, np.complex128)), label="Hermitian"),
        Sample(Symmetric(s, lower=True), True, label="Symmetric (lower), lower=True"),
        Sample(Diagonal(np.array([1.5, 2.0, 0.7])), label="Diagonal"),
    ]


@sample_inputs(scipy.linalg.cholesky_banded)
def _cholesky_banded_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.triu(np.tril(spd(4, rng), 1), -1) + np.eye(4)
    upper = np.stack([np.r_[0.0, np.diagonal(a, 1)], np.diagonal(a)])
    lower = np.stack([np.diagonal(a), np.r_[np.diagonal(a, -1), 0.0]])
    h = spd(4, rng, np.complex128)
    return [
        Sample(upper, label="upper band, one superdiagonal"),
        Sample(upper.astype(np.float32), label="float32"),
        Sample(lower, False, True, label="lower band, lower by position"),
        Sample(lower, fkwargs={"lower": True}, label="lower band, lower by keyword"),
        Sample(np.stack([np.r_[0.0, 0.0, np.diagonal(h, 2)], np.r_[0.0, np.diagonal(h, 1)], np.diagonal(h)]),
               label="complex, two superdiagonals"),
    ]
