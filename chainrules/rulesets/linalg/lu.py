"""The LU factorization ``scipy.linalg.lu`` (``permute_l=``, ``p_indices=``), for stacks of square,
tall and wide matrices.

The maths (de Hoog, Anderssen & Lukas 2011, "Differentiation of matrix functionals using
triangular factorization", Math. Comp. 80, 1585-1600): with the row pivoting of LAPACK's
``?getrf`` locally constant, ``P^T A = L U`` (``L`` unit lower trapezoidal ``m x k``, ``U``
upper trapezoidal ``k x n``, ``k = min(m, n)``) and ``F = L^{-1} P^T dA U^{-1}`` on the
square block,

* ``dL = L tril(F, -1)``, ``dU = triu(F) U``; the rows of a tall matrix below the square
  block add ``dL2 = (dB2 - L2 dU) U^{-1}``, the columns of a wide one beyond it
  ``dU2 = L^{-1} (dB2 - dL U2)``;
* the pullback is the adjoint: ``dA = P L^{-H} (tril(L^H dL, -1) + triu(dU U^H)) U^{-H}`` on the
  square block, plus the tall or wide parts; triangular solves, never an inverse.

These are the derivatives of ``scipy.linalg.lu_factor``'s packed factors, whose rules (in
:mod:`chainrules.rulesets.linalg.solves`) do the work: the cotangents of ``L`` and ``U``
are packed as ``lu_factor`` packs the factors (``L``'s strict lower part, ``U``'s upper
part) and pulled back through them. The permutation (``P``, or ``p`` with
``p_indices=True``) is locally constant: its tangent is zero (``NoTangent()`` for the
integer ``p``). With ``permute_l=True`` the output ``P L`` has the tangent ``P dL``. A zero
pivot (a singular leading block) makes the triangular solves raise ``LinAlgError``: the
derivative does not exist there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._factorizations import tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import NO, not_implemented_in, tangent_value
from chainrules.rulesets.linalg.solves import lu_factor_pullback_of, lu_factor_pushforward_of
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)


def _factors(a: np.ndarray, permute_l: bool, check_finite: bool, p_indices: bool) -> tuple[Any, np.ndarray,
                                                                                             np.ndarray]:
    """SciPy's output, and the packed factors ``lu`` and the permutation ``perm`` with ``A[perm] = L U``.

    With ``permute_l=True`` the output ``P L`` is ``L``'s rows permuted (no arithmetic), so it
    is built from the factors SciPy returns with ``p_indices=True``.
    """
    if permute_l:
        p, low, u = scipy.linalg.lu(a, False, False, check_finite, True)
        y: Any = (np.take_along_axis(low, p[..., :, None].astype(np.intp), axis=-2), u)
        perm = np.argsort(p, axis=-1)
    else:
        y = scipy.linalg.lu(a, False, False, check_finite, p_indices)
        p, low, u = y
        perm = np.argsort(p, axis=-1) if p_indices else np.argmax(p, axis=-2)
    return y, _pack(low, u), perm


def _pack(low: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``lu_factor``'s packed factors: ``L``'s strict lower part and ``U``'s upper part in one ``m x n`` array."""
    m, k = low.shape[-2:]
    n = u.shape[-1]
    out = np.zeros(low.shape[:-2] + (m, n), dtype=np.result_type(low, u))
    out[..., :, :k] += np.tril(low, -1)
    out[..., :k, :] += np.triu(u)
    return out


def _unpack(dlu: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The tangents of ``L`` (``m x k``) and ``U`` (``k x n``) from that of the packed factors."""
    return np.tril(dlu[..., :, :k], -1), np.triu(dlu[..., :k, :])


@rrule.register(scipy.linalg.lu, np.ndarray)
def lu_rrule(a: np.ndarray, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True,
             p_indices: bool = False) -> Any:
    """Reverse rule of ``scipy.linalg.lu`` (de Hoog et al. 2011): the cotangents of ``L`` and ``U`` pulled back.

    The output cotangent is a tuple (or ``Tangent``) with one part per output; the part of
    the permutation is ignored (its tangent is zero).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> (p, l, u), pullback = rrule(scipy.linalg.lu, np.array([[4.0, 2.0], [2.0, 3.0]]))
    >>> l
    array([[1. , 0. ],
           [0.5, 1. ]])
    >>> pullback((ZeroTangent(), np.array([[0.0, 0.0], [1.0, 0.0]]), ZeroTangent()))[1]
    array([[-0.125,  0.   ],
           [ 0.25 ,  0.   ]])
    """
    y, lu, perm = _factors(a, permute_l, check_finite, p_indices)
    project_a = cotangent_projector(a)
    k = min(lu.shape[-2:])

    def lu_pullback(dy: Any) -> tuple[Any, ...]:
        parts = typed_cotangent_parts(dy, y, "scipy.linalg.lu")   # the permutation's part: locally constant
        d_low, d_u = parts[-2:]
        missing = not_implemented_in(d_low, d_u)
        if missing is not None:
            return NO, missing, NO, NO, NO, NO
        if d_low is None and d_u is None:
            return NO, project_a(ZeroTangent()), NO, NO, NO, NO
        if d_low is not None and permute_l:
            d_low = np.take_along_axis(d_low, perm[..., :, None], axis=-2)  # (P L)bar -> Lbar = P^T (P L)bar
        dlu = np.zeros(lu.shape, dtype=lu.dtype)
        if d_low is not None:
            dlu[..., :, :k] += np.tril(d_low, -1)
        if d_u is not None:
            dlu[..., :k, :] += np.triu(d_u)
        return NO, project_a(lu_factor_pullback_of(lu, perm, dlu)), NO, NO, NO, NO

    return y, lu_pullback


@frule.register(scipy.linalg.lu, np.ndarray)
def lu_frule(tangents: Any, a: np.ndarray, permute_l: bool = False, overwrite_a: bool = False,
             check_finite: bool = True, p_indices: bool = False) -> Any:
    """Forward rule of ``scipy.linalg.lu``: ``dL = L tril(F, -1)``, ``dU = triu(F) U``, ``F = L^{-1} P^T dA U^{-1}``."""
    y, lu, perm = _factors(a, permute_l, check_finite, p_indices)
    da = tangent_value(tangents[1])
    if da is None or isinstance(da, NotImplementedTangent):
        return y, ZeroTangent() if da is None else da
    k = min(lu.shape[-2:])
    d_low, d_u = _unpack(lu_factor_pushforward_of(lu, perm, da.astype(np.result_type(lu, da), copy=False)), k)
    if permute_l:
        d_pl = np.take_along_axis(d_low, np.argsort(perm, axis=-1)[..., :, None], axis=-2)
        return y, tuple_tangent(y, [d_pl, d_u])
    return y, tuple_tangent(y, [None, d_low, d_u])


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.lu)
def _lu_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((3, 3))
    return [
        Sample(a, label="3x3: (P, L, U)"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 1j * rng.standard_normal((3, 3)), label="complex"),
        Sample(rng.standard_normal((4, 2)), label="tall"),
        Sample(rng.standard_normal((2, 4)), label="wide"),
        Sample(a, True, label="permute_l=True by position: (PL, U)"),
        Sample(a, fkwargs={"p_indices": True}, label="p_indices=True"),
        Sample(np.stack([a, rng.standard_normal((3, 3))]), label="stack"),
    ]
