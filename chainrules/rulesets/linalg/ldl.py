"""The LDL^T / LDL^H factorization ``scipy.linalg.ldl`` (Bunch-Kaufman pivoting, 1x1 and 2x2 blocks).

``lu, d, perm = ldl(A)`` gives ``A = lu d lu^H`` (``lu d lu^T`` for ``hermitian=False``)
with ``L = lu[perm]`` unit lower triangular (upper for ``lower=False``) whose diagonal
blocks are identities, and ``D = d`` block diagonal with 1x1 and 2x2 blocks.

The maths: implicit differentiation of ``P^T A P = L D L^H`` with the pivoting (the
permutation and the block sizes chosen by LAPACK's ``?sytrf``/``?hetrf``) locally constant
and ``L``'s structure fixed. With ``X = L^{-1} (P^T dA P) L^{-H}`` (Hermitian),
``L^{-1} dL`` is strictly block lower and so is ``L^{-1} dL D``, while ``D dL^H L^{-H}`` is
strictly block upper; hence

* ``dD = blockdiag(X)`` (the 1x1 and 2x2 blocks of ``X``),
* ``dL = L sbl(X) D^{-1}``, ``sbl`` the strictly block lower part,

the same formula for 1x1 and 2x2 blocks (it is the block form of the Cholesky derivative,
Murray 2016, "Differentiation of the Cholesky decomposition", with ``Phi`` replaced by the
block splitting). The adjoint: with ``G = sbl(L^H Lbar D^{-H}) + blockdiag(Dbar)``,
``Abar = P herm(L^{-H} G L^{-1}) P^T`` folded onto the triangle ``?sytrf`` reads (``lower``).
For complex symmetric input (``hermitian=False``) ``^H`` becomes ``^T`` in the
factorization and the adjoint ends with ``L^{-H} G conj(L)^{-1}``, symmetrized. The
upper form (``lower=False``) is the lower one with both axes reversed.

``D^{-1}`` is applied block by block (a division for 1x1 blocks, Cramer's rule for 2x2
ones); the triangular solves with ``L`` use its unit diagonal. A singular ``D`` (a
singular ``A``) raises ``LinAlgError`` in the pullback and pushforward. The 2x2 blocks are
read off ``d``'s nonzero off-diagonal entries (a 2x2 pivot has a nonzero off-diagonal by
construction). ``perm`` gets ``NoTangent()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets._samples import spd
from chainrules.rulesets.linalg._factorizations import solve_triangular, tuple_tangent, typed_cotangent_parts
from chainrules.rulesets.linalg._utils import (
    NO,
    from_triangle,
    mH,
    mT,
    not_implemented_in,
    tangent_value,
    triangle_cotangent,
)
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    rrule,
    sample_inputs,
)


class _Blocks:
    """The block structure of ``D`` (lower form): which ``i`` start a 2x2 block ``(i, i + 1)``."""

    def __init__(self, D: np.ndarray) -> None:
        n = D.shape[-1]
        self.n = n
        self.starts = np.nonzero(np.diagonal(D, -1))[0] if n > 1 else np.zeros(0, dtype=int)
        in_pair = np.zeros(n, dtype=bool)
        in_pair[self.starts] = True
        in_pair[self.starts + 1] = True
        self.singles = np.nonzero(~in_pair)[0]
        self.block_diagonal = np.eye(n, dtype=bool)
        self.block_diagonal[self.starts + 1, self.starts] = True
        self.block_diagonal[self.starts, self.starts + 1] = True
        self.strict_lower = np.tri(n, n, -1, dtype=bool) & ~self.block_diagonal

    def right_solve(self, x: np.ndarray, D: np.ndarray, where: str) -> np.ndarray:
        """``x D^{-1}`` block by block (``D`` block diagonal)."""
        out = np.empty(x.shape, dtype=np.result_type(x, D))
        d1 = D[self.singles, self.singles]
        i, j = self.starts, self.starts + 1
        a, b, c, e = D[i, i], D[i, j], D[j, i], D[j, j]
        det = a * e - b * c
        if np.any(d1 == 0) or np.any(det == 0):
            raise np.linalg.LinAlgError(f"{where}: D is singular (a singular matrix); the LDL factorization has no "
                                        "derivative there")
        out[:, self.singles] = x[:, self.singles] / d1
        # [x_i, x_j] [[a, b], [c, e]]^{-1} by Cramer's rule
        out[:, i] = (x[:, i] * e - x[:, j] * c) / det
        out[:, j] = (x[:, j] * a - x[:, i] * b) / det
        return out


class _LDL:
    """The factors of one matrix in lower form: ``A[order][:, order] = L D L^*``."""

    def __init__(self, lu: np.ndarray, d: np.ndarray, perm: np.ndarray, lower: bool, symmetric: bool) -> None:
        self.lower, self.symmetric = lower, symmetric
        self.order = np.asarray(perm if lower else perm[::-1], dtype=np.intp)
        self.L = lu[self.order] if lower else lu[self.order][:, ::-1]
        self.D = d if lower else d[::-1, ::-1]
        self.blocks = _Blocks(self.D)

    def star(self, x: np.ndarray) -> np.ndarray:
        return mT(x) if self.symmetric else mH(x)

    def pushforward(self, dS: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(d lu, d d)`` for the tangent ``dS`` of the (full, symmetric or Hermitian) matrix."""
        L, D, blocks = self.L, self.D, self.blocks
        dA = dS[np.ix_(self.order, self.order)]
        y = solve_triangular(L, dA, lower=True, unit=True)
        x = solve_triangular(L, y, lower=True, trans="T" if self.symmetric else "C", side="R", unit=True)
        dD = np.where(blocks.block_diagonal, x, 0)
        dL = L @ blocks.right_solve(np.where(blocks.strict_lower, x, 0), D, "ldl pushforward")
        d_lu = np.empty_like(dL)
        d_lu[self.order] = dL if self.lower else dL[:, ::-1]
        return d_lu, (dD if self.lower else dD[::-1, ::-1])

    def pullback(self, d_lu: np.ndarray | None, d_d: np.ndarray | None) -> np.ndarray:
        """The cotangent of the full (symmetric or Hermitian) matrix, in the original order."""
        L, D, blocks = self.L, self.D, self.blocks
        n = blocks.n
        g = np.zeros((n, n), dtype=np.result_type(L, D))
        if d_lu is not None:
            dL = d_lu[self.order] if self.lower else d_lu[self.order][:, ::-1]
            dL = np.where(blocks.strict_lower, dL, 0)
            b = blocks.right_solve(mH(L) @ dL, mH(D), "ldl pullback")
            g = g + np.where(blocks.strict_lower, b, 0)
        if d_d is not None:
            dD = d_d if self.lower else d_d[::-1, ::-1]
            g = g + np.where(blocks.block_diagonal, dD, 0)
        y = solve_triangular(L, g, lower=True, trans="C", unit=True)
        if self.symmetric:  # L^{-H} G conj(L)^{-1}, then the symmetric part
            z = np.conj(solve_triangular(L, np.conj(y), lower=True, side="R", unit=True))
            z = (z + mT(z)) / 2
        else:  # L^{-H} G L^{-1}, then the Hermitian part
            z = solve_triangular(L, y, lower=True, side="R", unit=True)
            z = (z + mH(z)) / 2
        out = np.empty_like(z)
        out[np.ix_(self.order, self.order)] = z
        return out


def _each(y: Any, a: np.ndarray) -> Any:
    """The factors of each matrix of a stack, as lists ``[(lu, d, perm), ...]`` (one entry for one matrix)."""
    lu, d, perm = y
    if lu.ndim == 2:
        return [(lu, d, perm)], ()
    batch = lu.shape[:-2]
    return [(lu[i], d[i], perm[i]) for i in np.ndindex(*batch)], batch


@rrule.register(scipy.linalg.ldl, np.ndarray)
def ldl_rrule(A: np.ndarray, lower: bool = True, hermitian: bool = True, overwrite_a: bool = False,
              check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.ldl`` (1x1 and 2x2 pivots; see the module docstring).

    The cotangent lives on the triangle LAPACK reads (the lower one for ``lower=True``).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, ZeroTangent
    >>> (lu, d, perm), pullback = rrule(scipy.linalg.ldl, np.array([[0.0, 2.0], [2.0, 0.0]]))
    >>> d                                             # one 2x2 pivot
    array([[0., 2.],
           [2., 0.]])
    >>> pullback((ZeroTangent(), np.array([[0.0, 0.0], [1.0, 0.0]]), ZeroTangent()))[1]
    array([[0., 0.],
           [1., 0.]])
    """
    y = scipy.linalg.ldl(A, lower, hermitian, False, check_finite)
    project_a = cotangent_projector(A)
    symmetric = not hermitian and y[0].dtype.kind == "c"
    parts, batch = _each(y, A)
    factors = [_LDL(lu, d, perm, lower, symmetric) for lu, d, perm in parts]

    def ldl_pullback(dy: Any) -> tuple[Any, ...]:
        d_lu, d_d, _ = typed_cotangent_parts(dy, y, "scipy.linalg.ldl")     # perm is an integer array
        missing = not_implemented_in(d_lu, d_d)
        if missing is not None:
            return NO, missing, NO, NO, NO, NO
        if d_lu is None and d_d is None:
            return NO, project_a(ZeroTangent()), NO, NO, NO, NO
        full = np.empty(y[0].shape, dtype=y[0].dtype)
        for index, f in zip(np.ndindex(*batch), factors):
            full[index] = f.pullback(None if d_lu is None else d_lu[index], None if d_d is None else d_d[index])
        return NO, project_a(triangle_cotangent(full, lower, hermitian=not symmetric)), NO, NO, NO, NO

    return y, ldl_pullback


@frule.register(scipy.linalg.ldl, np.ndarray)
def ldl_frule(tangents: Any, A: np.ndarray, lower: bool = True, hermitian: bool = True, overwrite_a: bool = False,
              check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.ldl``: ``dD = blockdiag(X)``, ``dL = L sbl(X) D^{-1}``, ``X = L^{-1} dA L^{-H}``.
    """
    y = scipy.linalg.ldl(A, lower, hermitian, False, check_finite)
    dA = tangent_value(tangents[1])
    if dA is None or isinstance(dA, NotImplementedTangent):
        return y, ZeroTangent() if dA is None else dA
    symmetric = not hermitian and y[0].dtype.kind == "c"
    dS = from_triangle(dA.astype(y[0].dtype, copy=False), lower, hermitian=not symmetric)
    parts, batch = _each(y, A)
    d_lu = np.empty(y[0].shape, dtype=y[0].dtype)
    d_d = np.empty(y[1].shape, dtype=y[1].dtype)
    for index, (lu, d, perm) in zip(np.ndindex(*batch), parts):
        d_lu[index], d_d[index] = _LDL(lu, d, perm, lower, symmetric).pushforward(dS[index])
    return y, tuple_tangent(y, [d_lu, d_d, NO])


# ---- sample inputs ----------------------------------------------------------------------------------------
def _exactly_hermitian(a: np.ndarray) -> np.ndarray:
    """``(a + a^H) / 2`` with an exactly real diagonal (SciPy warns about any imaginary part there)."""
    h = (a + a.conj().T) / 2
    return h - 1j * np.diag(np.diag(h).imag)


@sample_inputs(scipy.linalg.ldl)
def _ldl_samples(rng: np.random.Generator) -> list[Sample]:
    indefinite = np.array([[0.1, 2.0, 0.3, 0.4], [2.0, 0.2, 0.5, 0.1], [0.3, 0.5, 3.0, 0.7], [0.4, 0.1, 0.7, -2.5]])
    complex_symmetric = indefinite + 0.3j * np.array([[1.0, 0.2, 0.0, 0.1], [0.2, -1.0, 0.3, 0.0],
                                                       [0.0, 0.3, 0.5, 0.2], [0.1, 0.0, 0.2, 0.4]])
    return [
        Sample(indefinite, label="indefinite: a 2x2 pivot"),
        Sample(spd(4, rng), label="positive definite: 1x1 pivots"),
        Sample(indefinite, False, label="lower=False by position"),
        Sample(indefinite.astype(np.float32), fkwargs={"lower": False}, label="float32, lower by keyword"),
        Sample(_exactly_hermitian(spd(4, rng, np.complex128) - 1.5 * np.eye(4)), label="complex Hermitian"),
        Sample(complex_symmetric, fkwargs={"hermitian": False}, label="complex symmetric (hermitian=False)"),
        Sample(_exactly_hermitian(complex_symmetric), True, True, False, False,
               label="complex Hermitian, every option by position"),
    ]
