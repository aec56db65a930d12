"""Special matrices built from vectors and blocks: ``scipy.linalg.block_diag``, ``toeplitz``, ``circulant``,
``hankel`` and ``khatri_rao``; and ``scipy.linalg.orthogonal_procrustes``. (SciPy 1.17 no longer has
``scipy.linalg.kron``: ``numpy.kron`` has its rule in :mod:`chainrules.rulesets.contractions`.)

The maths:

* ``block_diag``, ``toeplitz``, ``circulant``, ``hankel`` place their inputs' entries in a
  matrix: they are linear, the frule builds the same matrix from the tangents, and the
  pullback gathers the output cotangent back: the diagonal blocks (``block_diag``), the sums
  along each diagonal (``toeplitz``: ``c_bar_k`` sums the ``k``-th subdiagonal, ``r_bar_k`` the
  ``k``-th superdiagonal; ``r[0]`` is not read and gets 0), along each wrapped diagonal
  (``circulant``) or each antidiagonal (``hankel``). ``toeplitz(c)`` without ``r`` is Hermitian
  Toeplitz (``r = conj(c)``): ``c`` then also collects the conjugate of the superdiagonal sums.
* ``khatri_rao(a, b)``, the column-wise Kronecker product ``Y[i J + j, k] = a[i, k] b[j, k]``, is
  bilinear: ``a_bar[i, k] = sum_j Y_bar[iJ + j, k] conj(b[j, k])`` and ``b_bar`` likewise.
* ``R, scale = orthogonal_procrustes(A, B)``: ``R`` is the unitary polar factor of ``M = A^H B =
  U diag(s) V^H`` (``R = U V^H``) and ``scale = sum(s)``. From ``M = R P`` with ``P`` Hermitian and
  ``R^H dR`` skew-Hermitian (Higham, "Functions of Matrices" 2008, section 8.1; Kenney & Laub
  1991; the SVD form as in Townsend 2016, "Differentiating the singular value decomposition")::

      dR = U (F ∘ (dK - dK^H)) V^H,   dK = U^H dM V,   F_ij = 1 / (s_i + s_j),
      d scale = Re tr(dK),

  and the pullback ``M_bar = U (F ∘ (G - G^H)) V^H + scale_bar R`` with ``G = U^H R_bar V``;
  then ``A_bar = B M_bar^H`` and ``B_bar = A M_bar``. At a singular ``M`` the polar factor is not
  unique (SciPy's choice follows its SVD's singular vectors): the derivative is
  ``not_implemented`` there.

Stacked inputs broadcast as SciPy broadcasts them, and cotangents are summed back to each
input's shape; ``hankel`` of multidimensional input ravels it (SciPy 1.17, with a
``FutureWarning``), and so do the rules. Cotangents keep their inputs' dtypes; ``None`` for
``r`` gets ``NoTangent()``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._utils import NO, conj, cotangent_parts, mH, not_implemented_in, tangent_value
from chainrules_core import (
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Thunk,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)

__all__ = ["diagonal_sums"]


def _no_tangent(dx: Any) -> Any:
    return NO


def diagonal_sums(g: np.ndarray) -> np.ndarray:
    """The sums of ``g``'s diagonals, ``(..., m, n) -> (..., m + n - 1)``, from the bottom-left corner up.

    Entry ``m - 1 + d`` holds the sum over ``j - i = d``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.special_matrices import diagonal_sums
    >>> diagonal_sums(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([3., 5., 2.])
    """
    m, n = g.shape[-2:]
    sums = [np.diagonal(g, offset=d, axis1=-2, axis2=-1).sum(axis=-1) for d in range(-(m - 1), n)]
    return np.stack(sums, axis=-1) if sums else np.zeros(g.shape[:-2] + (0,), dtype=g.dtype)


# ---- block_diag -------------------------------------------------------------------------------------------------
def _block_geometry(arrs: tuple[Any, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each input's row offset, column offset and 2-d shape in ``block_diag``'s output."""
    out, row, col = [], 0, 0
    for x in arrs:
        shape = np.shape(x)
        shape2 = (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else shape
        out.append((row, col, shape2))
        row, col = row + shape2[-2], col + shape2[-1]
    return out


@rrule.register(scipy.linalg.block_diag, Varargs(object))
def block_diag_rrule(*arrs: Any) -> Any:
    """Reverse rule of ``scipy.linalg.block_diag(*arrs)``: each input gets its diagonal block of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.block_diag, np.ones((1, 1)), np.ones(2))
    >>> pullback(np.arange(6.0).reshape(2, 3))[1:]
    (array([[0.]]), array([4., 5.]))
    """
    y = scipy.linalg.block_diag(*arrs)
    geometry = _block_geometry(arrs)
    projectors = [cotangent_projector(x) for x in arrs]

    def block_diag_pullback(dy: Any) -> tuple[Any, ...]:
        g = read_cotangent(dy, y, "scipy.linalg.block_diag")
        if passes_through(g):
            return (NO, *(p(g) for p in projectors))
        out = []
        for x, (row, col, shape2), project in zip(arrs, geometry, projectors):
            piece = g[..., row:row + shape2[-2], col:col + shape2[-1]]
            out.append(project(unbroadcast(piece, shape2).reshape(np.shape(x))))
        return (NO, *out)

    return y, block_diag_pullback


@frule.register(scipy.linalg.block_diag, Varargs(object))
def block_diag_frule(tangents: Any, *arrs: Any) -> Any:
    """Forward rule of ``scipy.linalg.block_diag``: the block-diagonal matrix of the tangents."""
    y = scipy.linalg.block_diag(*arrs)
    values = [tangent_value(t) for t in tangents[1:]]
    for v in values:
        if isinstance(v, NotImplementedTangent):
            return y, v
    if all(v is None for v in values):
        return y, ZeroTangent()
    filled = [np.zeros(np.shape(x)) if v is None else v for x, v in zip(arrs, values)]
    return y, ProjectTo(y)(scipy.linalg.block_diag(*filled))


# ---- toeplitz, circulant, hankel ---------------------------------------------------------------------------------
@rrule.register(scipy.linalg.toeplitz, np.ndarray)
def toeplitz_rrule(c: np.ndarray, r: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.toeplitz(c, r)``: sums along the diagonals of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.toeplitz, np.array([1.0, 2.0]), np.array([9.0, 3.0, 4.0]))
    >>> pullback(np.arange(6.0).reshape(2, 3))[1:]       # c: diagonal, subdiagonal; r: r[0] unused, superdiagonals
    (array([4., 3.]), array([0., 6., 2.]))
    """
    y = scipy.linalg.toeplitz(c, r)
    m = np.shape(y)[-2]
    project_c, project_r = cotangent_projector(c), (_no_tangent if r is None else cotangent_projector(r))
    c_shape = np.shape(np.atleast_1d(c))

    def toeplitz_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.toeplitz")
        if passes_through(g):
            return NO, project_c(g), (NO if r is None else project_r(g))
        sums = diagonal_sums(g)  # index m - 1 + (j - i)
        dc = sums[..., m - 1::-1]  # j - i = 0, -1, ..., -(m - 1)
        upper = np.concatenate([np.zeros_like(sums[..., :1]), sums[..., m:]], axis=-1)  # j - i = 0 (unread), 1, ...
        if r is None:
            dc = dc + conj(upper)
            return NO, project_c(unbroadcast(dc, c_shape).reshape(np.shape(c))), NO
        dr = unbroadcast(upper, np.shape(np.atleast_1d(r))).reshape(np.shape(r))
        return NO, project_c(unbroadcast(dc, c_shape).reshape(np.shape(c))), project_r(dr)

    return y, toeplitz_pullback


@frule.register(scipy.linalg.toeplitz, np.ndarray)
def toeplitz_frule(tangents: Any, c: np.ndarray, r: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.toeplitz``: the Toeplitz matrix of the tangents (``conj(dc)`` for ``r=None``)."""
    y = scipy.linalg.toeplitz(c, r)
    dc, dr = tangent_value(tangents[1]), (None if r is None else tangent_value(tangents[2]))
    for v in (dc, dr):
        if isinstance(v, NotImplementedTangent):
            return y, v
    if dc is None and dr is None:
        return y, ZeroTangent()
    dc = np.zeros(np.shape(c)) if dc is None else dc
    if r is None:
        return y, ProjectTo(y)(scipy.linalg.toeplitz(dc))
    return y, ProjectTo(y)(scipy.linalg.toeplitz(dc, np.zeros(np.shape(r)) if dr is None else dr))


@rrule.register(scipy.linalg.circulant, np.ndarray)
def circulant_rrule(c: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.circulant(c)``: ``c_bar_k`` sums the cotangent where ``(i - j) mod n = k``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.circulant, np.array([1.0, 2.0, 3.0]))
    >>> pullback(np.arange(9.0).reshape(3, 3))[1]      # 0+4+8, 3+7+2, 6+1+5
    array([12., 12., 12.])
    """
    y = scipy.linalg.circulant(c)
    project_c = cotangent_projector(c)
    n = np.shape(y)[-1]

    def circulant_pullback(dy: Any) -> tuple[Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.circulant")
        if passes_through(g):
            return NO, project_c(g)
        rows = (np.arange(n)[:, None] + np.arange(n)[None, :]) % n  # [k, j] -> i = (j + k) mod n
        dc = g[..., rows, np.arange(n)[None, :]].sum(axis=-1)
        return NO, project_c(dc.reshape(np.shape(c)))

    return y, circulant_pullback


@frule.register(scipy.linalg.circulant, np.ndarray)
def circulant_frule(tangents: Any, c: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.circulant``: the circulant matrix of the tangent."""
    y = scipy.linalg.circulant(c)
    dc = tangent_value(tangents[1])
    if dc is None or isinstance(dc, NotImplementedTangent):
        return y, ZeroTangent() if dc is None else dc
    return y, ProjectTo(y)(scipy.linalg.circulant(dc))


@rrule.register(scipy.linalg.hankel, np.ndarray)
def hankel_rrule(c: np.ndarray, r: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.hankel(c, r)``: sums along the antidiagonals of the cotangent.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.hankel, np.array([1.0, 2.0]), np.array([9.0, 3.0, 4.0]))
    >>> pullback(np.arange(6.0).reshape(2, 3))[1:]       # c: i + j = 0, 1; r: r[0] unused, i + j = 2, 3
    (array([0., 4.]), array([0., 6., 5.]))
    """
    y = scipy.linalg.hankel(c, r)
    m = np.shape(y)[-2]
    project_c, project_r = cotangent_projector(c), (_no_tangent if r is None else cotangent_projector(r))

    def hankel_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.hankel")
        if passes_through(g):
            return NO, project_c(g), (NO if r is None else project_r(g))
        sums = diagonal_sums(g[::-1, :])  # with the rows flipped, entry s sums the antidiagonal i + j = s
        dc = sums[:m].reshape(np.shape(c))
        if r is None:
            return NO, project_c(dc), NO
        dr = np.concatenate([np.zeros_like(sums[:1]), sums[m:]]).reshape(np.shape(r))
        return NO, project_c(dc), project_r(dr)

    return y, hankel_pullback


@frule.register(scipy.linalg.hankel, np.ndarray)
def hankel_frule(tangents: Any, c: np.ndarray, r: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.hankel``: the Hankel matrix of the tangents."""
    y = scipy.linalg.hankel(c, r)
    dc, dr = tangent_value(tangents[1]), (None if r is None else tangent_value(tangents[2]))
    for v in (dc, dr):
        if isinstance(v, NotImplementedTangent):
            return y, v
    if dc is None and dr is None:
        return y, ZeroTangent()
    dc = np.zeros(np.shape(c)) if dc is None else dc
    dr = np.zeros(np.shape(y)[-1]) if dr is None else dr
    return y, ProjectTo(y)(scipy.linalg.hankel(np.ravel(dc), np.ravel(dr)))


# ---- khatri_rao ------------------------------------------------------------------------------------------------
def _khatri_rao(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Y[..., i J + j, k] = a[..., i, k] b[..., j, k]`` (broadcasting batch axes)."""
    prod = a[..., :, None, :] * b[..., None, :, :]
    return prod.reshape(prod.shape[:-3] + (-1, prod.shape[-1]))


@rrule.register(scipy.linalg.khatri_rao, np.ndarray, np.ndarray)
def khatri_rao_rrule(a: np.ndarray, b: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.khatri_rao(a, b)``: ``a_bar = sum_j Y_bar[iJ + j] conj(b_j)``, ``b_bar`` likewise.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> y, pullback = rrule(scipy.linalg.khatri_rao, np.array([[1.0], [2.0]]), np.array([[3.0], [4.0]]))
    >>> tuple(unthunk(c) for c in pullback(np.ones((4, 1)))[1:])
    (array([[7.],
           [7.]]), array([[3.],
           [3.]]))
    """
    y = scipy.linalg.khatri_rao(a, b)
    project_a, project_b = cotangent_projector(a), cotangent_projector(b)
    i_rows, j_rows = np.shape(a)[-2], np.shape(b)[-2]

    def khatri_rao_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.khatri_rao")
        if passes_through(g):
            return NO, project_a(g), project_b(g)
        g3 = g.reshape(g.shape[:-2] + (i_rows, j_rows, g.shape[-1]))
        da = Thunk(lambda: project_a(unbroadcast(np.einsum("...ijk,...jk->...ik", g3, conj(b)), np.shape(a))))
        db = Thunk(lambda: project_b(unbroadcast(np.einsum("...ijk,...ik->...jk", g3, conj(a)), np.shape(b))))
        return NO, da, db

    return y, khatri_rao_pullback


@frule.register(scipy.linalg.khatri_rao, np.ndarray, np.ndarray)
def khatri_rao_frule(tangents: Any, a: np.ndarray, b: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.khatri_rao``: ``khatri_rao(da, b) + khatri_rao(a, db)``."""
    y = scipy.linalg.khatri_rao(a, b)
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    if isinstance(da, NotImplementedTangent):
        return y, da
    if isinstance(db, NotImplementedTangent):
        return y, db
    if da is None and db is None:
        return y, ZeroTangent()
    dy: Any = 0
    if da is not None:
        dy = dy + _khatri_rao(da, b)
    if db is not None:
        dy = dy + _khatri_rao(a, db)
    return y, ProjectTo(y)(np.broadcast_to(dy, y.shape))


# ---- orthogonal_procrustes ---------------------------------------------------------------------------------------
class _Polar:
    """``M = A^H B = U diag(s) V^H``, with ``F_ij = 1 / (s_i + s_j)`` (``None`` if ``M`` is singular)."""

    def __init__(self, a: np.ndarray, b: np.ndarray) -> None:
        m = mH(a) @ b
        self.u, s, vh = np.linalg.svd(m)
        self.v = mH(vh)
        pair = s[..., :, None] + s[..., None, :]
        eps = np.finfo(s.dtype).eps
        tiny = pair <= m.shape[-1] * eps * np.max(s, axis=-1, keepdims=True)[..., None]
        self.f = None if np.any(tiny) else 1 / pair

    def tangent(self, dm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(dR, d scale)`` for ``dM``."""
        dk = mH(self.u) @ dm @ self.v
        assert self.f is not None
        dr = self.u @ (self.f * (dk - mH(dk))) @ mH(self.v)
        return dr, np.real(np.trace(dk, axis1=-2, axis2=-1))

    def cotangent(self, gr: np.ndarray | None, gs: Any) -> np.ndarray:
        """``M_bar`` for the cotangents ``R_bar`` (``None``: zero) and ``scale_bar`` (``None``: zero)."""
        assert self.f is not None
        out = np.zeros(self.u.shape, dtype=self.u.dtype)
        if gr is not None:
            g = mH(self.u) @ gr @ self.v
            out = out + self.u @ (self.f * (g - mH(g))) @ mH(self.v)
        if gs is not None:
            out = out + np.asarray(np.real(gs))[..., None, None] * (self.u @ mH(self.v))
        return out


_SINGULAR = "orthogonal_procrustes: A^H B is singular, so its orthogonal polar factor is not unique"


@rrule.register(scipy.linalg.orthogonal_procrustes, np.ndarray, np.ndarray)
def orthogonal_procrustes_rrule(A: np.ndarray, B: np.ndarray, check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.orthogonal_procrustes``: the polar factor of ``A^H B`` and its nuclear norm.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk, Tangent, ZeroTangent
    >>> a, b = np.eye(2), np.array([[2.0, 0.0], [0.0, 3.0]])
    >>> (r, scale), pullback = rrule(scipy.linalg.orthogonal_procrustes, a, b)
    >>> unthunk(pullback(Tangent(tuple, ZeroTangent(), 1.0))[2])      # d scale / dB = A R
    array([[1., 0.],
           [0., 1.]])
    """
    out = scipy.linalg.orthogonal_procrustes(A, B, check_finite)
    project_a, project_b = cotangent_projector(A), cotangent_projector(B)
    a, b = np.asarray(A), np.asarray(B)

    def orthogonal_procrustes_pullback(dy: Any) -> tuple[Any, ...]:
        gr, gs = cotangent_parts(dy, out, "scipy.linalg.orthogonal_procrustes")
        missing = not_implemented_in(gr, gs)
        if missing is not None:
            return NO, missing, missing, NO
        if gr is None and gs is None:
            return NO, project_a(ZeroTangent()), project_b(ZeroTangent()), NO
        polar = _Polar(a, b)
        if polar.f is None:
            return NO, not_implemented(_SINGULAR), not_implemented(_SINGULAR), NO
        m_bar = polar.cotangent(gr, gs)
        da = Thunk(lambda: project_a(unbroadcast(b @ mH(m_bar), a.shape)))
        db = Thunk(lambda: project_b(unbroadcast(a @ m_bar, b.shape)))
        return NO, da, db, NO

    return out, orthogonal_procrustes_pullback


@frule.register(scipy.linalg.orthogonal_procrustes, np.ndarray, np.ndarray)
def orthogonal_procrustes_frule(tangents: Any, A: np.ndarray, B: np.ndarray, check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.orthogonal_procrustes``: ``dR = U (F ∘ (dK - dK^H)) V^H``, ``Re tr dK``."""
    out = scipy.linalg.orthogonal_procrustes(A, B, check_finite)
    da, db = tangent_value(tangents[1]), tangent_value(tangents[2])
    if isinstance(da, NotImplementedTangent):
        return out, da
    if isinstance(db, NotImplementedTangent):
        return out, db
    if da is None and db is None:
        return out, ZeroTangent()
    a, b = np.asarray(A), np.asarray(B)
    polar = _Polar(a, b)
    if polar.f is None:
        return out, not_implemented(_SINGULAR)
    dm = (0 if da is None else mH(da) @ b) + (0 if db is None else mH(a) @ db)
    dr, ds = polar.tangent(np.asarray(dm))
    return out, ProjectTo(out)((dr, ds))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.block_diag)
def _block_diag_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 2)), rng.standard_normal((1, 3)), label="two matrices"),
        Sample(rng.standard_normal((2, 2)), rng.standard_normal(2), 1.5, label="a matrix, a row and a number"),
        Sample(rng.standard_normal((2, 2)).astype(np.float32), rng.standard_normal((1, 1)), label="float32, float64"),
        Sample(rng.standard_normal((2, 2)) + 1j, rng.standard_normal((2, 1)), label="complex"),
        Sample([[1.0, 2.0], [3.0, 4.0]], rng.standard_normal((1, 2)), label="a list of lists"),
    ]


@sample_inputs(scipy.linalg.toeplitz, scipy.linalg.hankel)
def _toeplitz_samples(rng: np.random.Generator) -> list[Sample]:
    c, r = rng.standard_normal(3), rng.standard_normal(4)
    return [
        Sample(c, label="c only"),
        Sample(c, r, label="c and r"),
        Sample(c.astype(np.float32), r.astype(np.float32), label="float32"),
        Sample(c + 1j * rng.standard_normal(3), label="complex c only"),
        Sample(c, fkwargs={"r": r + 0.5j}, label="complex r by keyword"),
    ]


@sample_inputs(scipy.linalg.circulant)
def _circulant_samples(rng: np.random.Generator) -> list[Sample]:
    c = rng.standard_normal(4)
    return [
        Sample(c, label="real"),
        Sample(c.astype(np.float32), label="float32"),
        Sample(c + 1j * rng.standard_normal(4), label="complex"),
        Sample(np.stack([c, -c]), label="stack"),
    ]


@sample_inputs(scipy.linalg.khatri_rao)
def _khatri_rao_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(rng.standard_normal((2, 3)), rng.standard_normal((4, 3)), label="real"),
        Sample(rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((1, 3)).astype(np.float32),
               label="float32"),
        Sample(rng.standard_normal((2, 2)) + 1j, rng.standard_normal((3, 2)), label="complex"),
    ]


@sample_inputs(scipy.linalg.orthogonal_procrustes)
def _orthogonal_procrustes_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal((4, 3))
    return [
        Sample(a, rng.standard_normal((4, 3)), label="4x3"),
        Sample(a.astype(np.float32), rng.standard_normal((4, 3)).astype(np.float32), label="float32"),
        Sample(a + 1j * rng.standard_normal((4, 3)), rng.standard_normal((4, 3)), label="complex"),
        Sample(a, rng.standard_normal((4, 3)), False, label="check_finite by position"),
    ]
