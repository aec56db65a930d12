"""Matrices built from coefficient vectors: ``scipy.linalg.companion``, ``fiedler_companion``, ``leslie``,
``convolution_matrix``, ``diagsvd`` and ``fiedler``.

The maths
---------
* ``leslie(f, s)`` (``f`` in the first row, ``s`` on the subdiagonal), ``convolution_matrix(a,
  n, mode)`` (``Y[i, j] = a[i - j + t]`` where that index exists, ``t`` the offset of the
  ``mode``: ``0`` for ``'full'``, ``(min(n, len(a)) - 1) // 2`` for ``'same'``,
  ``min(n, len(a)) - 1`` for ``'valid'``) and ``diagsvd(s, M, N)`` (``s`` on the diagonal of an
  ``M x N`` zero matrix) place their inputs' entries in a matrix: they are linear, the frule
  is the function applied to the tangents, and the pullback gathers the output cotangent
  back (the first row and the subdiagonal; the sums along the diagonals; the diagonal).
* ``companion(a)`` and ``fiedler_companion(a)`` place the normalised coefficients
  ``c_k = -a_k / a_0`` (``k = 1, ..., n - 1``) in a matrix whose other entries are constants
  (ones and zeros): ``dc_k = -(da_k - (a_k / a_0) da_0) / a_0``. ``companion`` puts ``c_k`` in
  its first row; ``fiedler_companion`` (Fiedler 2003, "A note on companion matrices", the
  pentadiagonal form) puts ``c_1`` at ``(0, 0)``, ``c_{2m}`` at ``(2m - 2, 2m - 1)`` and
  ``c_{2m+1}`` at ``(2m, 2m - 1)``. Both are holomorphic in ``a``: the pullback multiplies by
  the conjugate derivative.
* ``fiedler(a)``, ``Y[i, j] = |a_i - a_j|``: ``dY_ij = Re(conj(sgn(a_i - a_j)) (da_i - da_j))``
  with ``sgn(z) = z / |z|``, and ``a_bar_i = sum_j (Y_bar_ij + Y_bar_ji) sgn(a_i - a_j)``.

Ties of ``fiedler``
-------------------
``|a_i - a_j|`` has a kink where ``a_i = a_j`` (always on the diagonal, and wherever two
entries of ``a`` are equal): there the rules use ``sgn(0) = 0``, which is the element of
the subdifferential ``[-1, 1]`` of ``|x|`` at ``0`` that NumPy's ``sign`` gives, the
derivative of the symmetric (central) difference, and the exact derivative of every loss
that is symmetric under exchanging the tied entries. A one-sided derivative at a tie is
``|da_i - da_j|`` (not linear in ``da``), so no linear rule can give more.

Stacks follow SciPy: a leading batch shape of the coefficient vectors gives a stack of
matrices (``leslie``'s ``f`` and ``s`` broadcast; their cotangents are summed back).
Integer inputs have no tangent space (``NoTangent()``; SciPy returns integer matrices for
``leslie``, ``convolution_matrix``, ``diagsvd`` and ``fiedler`` of integers, float matrices
for ``companion`` and ``fiedler_companion``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._utils import NO, conj, tangent_value
from chainrules.rulesets.linalg.special_matrices import diagonal_sums
from chainrules_core import (
    NotImplementedTangent,
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

__all__ = ["convolution_offset", "fiedler_companion_positions"]


def _inexact(x: Any) -> bool:
    """Whether ``x`` has a tangent space (floating or complex)."""
    return np.asarray(x).dtype.kind in "fc"


def _output_tangent(y: Any, value: Any) -> Any:
    """An frule's output tangent: ``value`` in ``y``'s dtype; ``NoTangent()`` for an integer output."""
    y = np.asarray(y)
    if y.dtype.kind not in "fc":
        return NO
    value = np.asarray(value)
    if y.dtype.kind == "f" and value.dtype.kind == "c":
        value = value.real
    return value.astype(y.dtype, copy=False)


def _pass(*tangents: Any) -> Any:
    """The first not-implemented tangent among ``tangents``, ``ZeroTangent()`` if all are zeros, else ``None``."""
    for t in tangents:
        if isinstance(t, NotImplementedTangent):
            return t
    if all(t is None for t in tangents):
        return ZeroTangent()
    return None


# ---- companion, fiedler_companion -----------------------------------------------------------------------------
def _coefficient_tangent(a: np.ndarray, da: np.ndarray) -> np.ndarray:
    """``d(-a_k / a_0)`` for ``k = 1, ..., n - 1`` along the last axis."""
    a0 = a[..., :1]
    return -(da[..., 1:] - (a[..., 1:] / a0) * da[..., :1]) / a0


def _coefficient_cotangent(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    """The adjoint of :func:`_coefficient_tangent`: the cotangent of ``a`` from those ``g`` of ``-a_k / a_0``."""
    a0 = a[..., :1]
    head = np.sum(conj(a[..., 1:] / (a0 * a0)) * g, axis=-1, keepdims=True)
    return np.concatenate([head, -g / conj(a0)], axis=-1)


def _as_inexact(a: np.ndarray, like: np.ndarray) -> np.ndarray:
    """``a`` in the floating dtype the output was computed in (integers as the output's float dtype)."""
    if a.dtype.kind in "fc":
        return a
    return a.astype(np.result_type(like.dtype, np.float64) if like.dtype.kind in "fc" else np.float64)


@rrule.register(scipy.linalg.companion, np.ndarray)
def companion_rrule(a: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.companion(a)``: the first row is ``-a[1:] / a[0]``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.companion, np.array([2.0, 4.0, 6.0]))
    >>> y
    array([[-2., -3.],
           [ 1.,  0.]])
    >>> pullback(np.array([[1.0, 0.0], [5.0, 5.0]]))[1]        # d(-a_1/a_0): (a_1/a_0^2, -1/a_0)
    array([ 1. , -0.5,  0. ])
    """
    y = scipy.linalg.companion(a)
    project_a = cotangent_projector(a)
    af = _as_inexact(np.atleast_1d(a), y)

    def companion_pullback(dy: Any) -> tuple[Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.companion")
        if passes_through(g):
            return NO, project_a(g)
        da = _coefficient_cotangent(af, g[..., 0, :])
        return NO, project_a(da.reshape(np.shape(a)))

    return y, companion_pullback


@frule.register(scipy.linalg.companion, np.ndarray)
def companion_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.companion``: ``d(-a_k / a_0)`` in the first row, zeros elsewhere."""
    y = scipy.linalg.companion(a)
    da = tangent_value(tangents[1])
    early = _pass(da)
    if early is not None:
        return y, early
    af = _as_inexact(np.atleast_1d(a), y)
    dy = np.zeros(y.shape, dtype=np.result_type(y, da))
    dy[..., 0, :] = _coefficient_tangent(af, np.atleast_1d(da))
    return y, _output_tangent(y, dy)


def fiedler_companion_positions(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of ``fiedler_companion``'s ``(n - 1) x (n - 1)`` output holding ``-a_k / a_0``, ``k = 1..n-1``.

    Examples
    --------
    >>> from chainrules.rulesets.linalg.matrix_constructors import fiedler_companion_positions
    >>> rows, cols = fiedler_companion_positions(5)
    >>> rows.tolist(), cols.tolist()
    ([0, 0, 2, 2], [0, 1, 1, 3])
    """
    k = np.arange(1, n)
    rows = np.where(k == 1, 0, np.where(k % 2 == 0, k - 2, k - 1))
    cols = np.where(k == 1, 0, np.where(k % 2 == 0, k - 1, k - 2))
    return rows, cols


def _fiedler_companion_tangent(af: np.ndarray, da: np.ndarray, y: np.ndarray) -> np.ndarray:
    n = af.shape[-1]
    rows, cols = fiedler_companion_positions(n)
    dy = np.zeros(y.shape, dtype=np.result_type(y, da))
    dy[..., rows, cols] = _coefficient_tangent(af, da)
    return dy


@rrule.register(scipy.linalg.fiedler_companion, np.ndarray)
def fiedler_companion_rrule(a: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.fiedler_companion(a)``: ``-a_k / a_0`` at Fiedler's positions.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.fiedler_companion, np.array([1.0, 2.0, 3.0]))
    >>> y
    array([[-2., -3.],
           [ 1.,  0.]])
    >>> pullback(np.array([[0.0, 1.0], [0.0, 0.0]]))[1]          # d(-a_2/a_0)
    array([ 3.,  0., -1.])
    """
    y = scipy.linalg.fiedler_companion(a)
    project_a = cotangent_projector(a)
    af = np.atleast_1d(a)
    n = af.shape[-1]

    def fiedler_companion_pullback(dy: Any) -> tuple[Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.fiedler_companion")
        if passes_through(g) or n < 2:
            return NO, project_a(g if passes_through(g) else np.zeros(np.shape(a)))
        rows, cols = fiedler_companion_positions(n)
        da = _coefficient_cotangent(_as_inexact(af, y), g[..., rows, cols])
        return NO, project_a(da.reshape(np.shape(a)))

    return y, fiedler_companion_pullback


@frule.register(scipy.linalg.fiedler_companion, np.ndarray)
def fiedler_companion_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.fiedler_companion``: ``d(-a_k / a_0)`` at Fiedler's positions."""
    y = scipy.linalg.fiedler_companion(a)
    da = tangent_value(tangents[1])
    early = _pass(da)
    if early is not None:
        return y, early
    af = np.atleast_1d(a)
    if af.shape[-1] < 2:
        return y, ZeroTangent()
    return y, _output_tangent(y, _fiedler_companion_tangent(_as_inexact(af, y), np.atleast_1d(da), y))


# ---- leslie ------------------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.leslie, np.ndarray, np.ndarray)
def leslie_rrule(f: np.ndarray, s: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.leslie(f, s)``: ``f_bar`` is the first row, ``s_bar`` the subdiagonal.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> y, pullback = rrule(scipy.linalg.leslie, np.array([0.1, 2.0, 1.0]), np.array([0.5, 0.8]))
    >>> tuple(unthunk(c) for c in pullback(np.arange(9.0).reshape(3, 3))[1:])
    (array([0., 1., 2.]), array([3., 7.]))
    """
    y = scipy.linalg.leslie(f, s)
    project_f, project_s = cotangent_projector(f), cotangent_projector(s)
    f_shape, s_shape = np.shape(np.atleast_1d(f)), np.shape(np.atleast_1d(s))

    def leslie_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.leslie")
        if passes_through(g):
            return NO, project_f(g), project_s(g)
        df = NO if not _inexact(f) else Thunk(
            lambda: project_f(unbroadcast(g[..., 0, :], f_shape).reshape(np.shape(f))))
        ds = NO if not _inexact(s) else Thunk(
            lambda: project_s(unbroadcast(np.diagonal(g, offset=-1, axis1=-2, axis2=-1), s_shape).reshape(np.shape(s))))
        return NO, df, ds

    return y, leslie_pullback


@frule.register(scipy.linalg.leslie, np.ndarray, np.ndarray)
def leslie_frule(tangents: Any, f: np.ndarray, s: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.leslie``: the Leslie matrix of the tangents (linear)."""
    y = scipy.linalg.leslie(f, s)
    df, ds = tangent_value(tangents[1]), tangent_value(tangents[2])
    early = _pass(df, ds)
    if early is not None:
        return y, early
    df = np.zeros(np.shape(f)) if df is None else df
    ds = np.zeros(np.shape(s)) if ds is None else ds
    dy = np.broadcast_to(scipy.linalg.leslie(df, ds), y.shape)
    return y, _output_tangent(y, dy)


# ---- convolution_matrix ------------------------------------------------------------------------------------------
def convolution_offset(m: int, n: int, mode: str) -> int:
    """The offset ``t`` of ``convolution_matrix(a, n, mode)[i, j] = a[i - j + t]`` for ``len(a) == m``.

    Examples
    --------
    >>> from chainrules.rulesets.linalg.matrix_constructors import convolution_offset
    >>> convolution_offset(5, 3, "full"), convolution_offset(5, 3, "same"), convolution_offset(5, 3, "valid")
    (0, 1, 2)
    """
    trim = min(n, m) - 1
    return {"full": 0, "same": trim // 2, "valid": trim}[mode]


@rrule.register(scipy.linalg.convolution_matrix, np.ndarray)
def convolution_matrix_rrule(a: np.ndarray, n: Any, mode: Any = "full") -> Any:
    """Reverse rule of ``scipy.linalg.convolution_matrix(a, n, mode)``: ``a_bar_k`` sums a diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.convolution_matrix, np.array([1.0, 2.0]), 2)
    >>> y
    array([[1., 0.],
           [2., 1.],
           [0., 2.]])
    >>> pullback(np.arange(6.0).reshape(3, 2))[1]           # main diagonal 0+3, subdiagonal 2+5
    array([3., 7.])
    """
    y = scipy.linalg.convolution_matrix(a, n, mode)
    project_a = cotangent_projector(a)
    m = np.shape(a)[-1]
    rows = np.shape(y)[-2]
    offset = convolution_offset(m, n, mode) if mode in ("full", "same", "valid") else 0

    def convolution_matrix_pullback(dy: Any) -> tuple[Any, ...]:
        g = read_cotangent(dy, y, "scipy.linalg.convolution_matrix")
        if passes_through(g):
            return NO, project_a(g), NO, NO
        sums = diagonal_sums(g)  # index rows - 1 + (j - i); a[k] sits where j - i = offset - k
        index = rows - 1 + offset - np.arange(m)
        inside = (index >= 0) & (index < sums.shape[-1])
        da = np.zeros(g.shape[:-2] + (m,), dtype=g.dtype)
        da[..., inside] = sums[..., index[inside]]
        return NO, project_a(da.reshape(np.shape(a))), NO, NO

    return y, convolution_matrix_pullback


@frule.register(scipy.linalg.convolution_matrix, np.ndarray)
def convolution_matrix_frule(tangents: Any, a: np.ndarray, n: Any, mode: Any = "full") -> Any:
    """Forward rule of ``scipy.linalg.convolution_matrix``: the convolution matrix of the tangent (linear)."""
    y = scipy.linalg.convolution_matrix(a, n, mode)
    da = tangent_value(tangents[1])
    early = _pass(da)
    if early is not None:
        return y, early
    return y, _output_tangent(y, scipy.linalg.convolution_matrix(da, n, mode))


# ---- diagsvd -----------------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.diagsvd, np.ndarray)
def diagsvd_rrule(s: np.ndarray, M: Any = None, N: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.diagsvd(s, M, N)``: ``s_bar`` is the diagonal of the cotangent.

    ``M`` and ``N`` are declared with defaults only so that the spellings ``diagsvd(s, M=2, N=3)``
    find the rule (SciPy's own error answers a call without them).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.diagsvd, np.array([3.0, 1.0]), 2, 3)
    >>> pullback(np.arange(6.0).reshape(2, 3))[1:]
    (array([0., 4.]), NoTangent(), NoTangent())
    """
    y = scipy.linalg.diagsvd(s, M, N)
    project_s = cotangent_projector(s)
    k = np.shape(s)[-1]

    def diagsvd_pullback(dy: Any) -> tuple[Any, ...]:
        g = read_cotangent(dy, y, "scipy.linalg.diagsvd")
        if passes_through(g):
            return NO, project_s(g), NO, NO
        ds = np.diagonal(g, axis1=-2, axis2=-1)[..., :k]
        return NO, project_s(np.array(ds).reshape(np.shape(s))), NO, NO

    return y, diagsvd_pullback


@frule.register(scipy.linalg.diagsvd, np.ndarray)
def diagsvd_frule(tangents: Any, s: np.ndarray, M: Any = None, N: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.diagsvd``: ``diagsvd(ds, M, N)`` (linear)."""
    y = scipy.linalg.diagsvd(s, M, N)
    ds = tangent_value(tangents[1])
    early = _pass(ds)
    if early is not None:
        return y, early
    return y, _output_tangent(y, scipy.linalg.diagsvd(ds, M, N))


# ---- fiedler -----------------------------------------------------------------------------------------------------
def _signs(a: np.ndarray) -> np.ndarray:
    """``sgn(a_i - a_j) = (a_i - a_j) / |a_i - a_j|`` (``0`` at ties) over the last axis."""
    d = a[..., :, None] - a[..., None, :]
    if np.iscomplexobj(d):
        size = np.abs(d)
        out = np.zeros_like(d)
        np.divide(d, size, out=out, where=size > 0)
        return out
    return np.sign(d)


@rrule.register(scipy.linalg.fiedler, np.ndarray)
def fiedler_rrule(a: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.fiedler(a)``: ``a_bar_i = sum_j (Y_bar_ij + Y_bar_ji) sgn(a_i - a_j)``.

    At ties (``a_i = a_j``, and on the diagonal) ``sgn(0) = 0``: see the module docstring.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.fiedler, np.array([1.0, 4.0, 4.0]))
    >>> pullback(np.ones((3, 3)))[1]        # d sum|a_i - a_j|; a_1 and a_2 tie: subgradient 0 between them
    array([-4.,  2.,  2.])
    """
    y = scipy.linalg.fiedler(a)
    project_a = cotangent_projector(a)
    af = np.asarray(a)

    def fiedler_pullback(dy: Any) -> tuple[Any, Any]:
        g = read_cotangent(dy, y, "scipy.linalg.fiedler")
        if passes_through(g):
            return NO, project_a(g)
        if af.size <= 1:
            return NO, project_a(np.zeros(af.shape, dtype=g.dtype))
        g = np.real(g)
        da = np.sum((g + np.swapaxes(g, -1, -2)) * _signs(af), axis=-1)
        return NO, project_a(da)

    return y, fiedler_pullback


@frule.register(scipy.linalg.fiedler, np.ndarray)
def fiedler_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.fiedler``: ``dY_ij = Re(conj(sgn(a_i - a_j)) (da_i - da_j))``."""
    y = scipy.linalg.fiedler(a)
    da = tangent_value(tangents[1])
    early = _pass(da)
    if early is not None:
        return y, early
    af = np.asarray(a)
    if af.size <= 1:
        return y, ZeroTangent()
    dd = da[..., :, None] - da[..., None, :]
    return y, _output_tangent(y, np.real(conj(_signs(af)) * dd))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.companion, scipy.linalg.fiedler_companion)
def _companion_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.array([2.0, -1.0, 0.5, 3.0, 1.5])
    return [
        Sample(a, label="degree 4"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 0.3j * rng.standard_normal(5), label="complex"),
        Sample(np.stack([a, a[::-1]]), label="stack"),
    ]


@sample_inputs(scipy.linalg.leslie)
def _leslie_samples(rng: np.random.Generator) -> list[Sample]:
    f, s = rng.random(4), rng.random(3)
    return [
        Sample(f, s, label="4x4"),
        Sample(f.astype(np.float32), s.astype(np.float32), label="float32"),
        Sample(f + 0.2j, s, label="complex f"),
        Sample(np.stack([f, 2 * f]), s, label="stack of f, one s (broadcast)"),
    ]


@sample_inputs(scipy.linalg.convolution_matrix)
def _convolution_matrix_samples(rng: np.random.Generator) -> list[Sample]:
    a = rng.standard_normal(3)
    return [
        Sample(a, 4, label="mode='full'"),
        Sample(a, 4, "same", label="mode='same' by position"),
        Sample(a, 2, fkwargs={"mode": "valid"}, label="mode='valid' by keyword"),
        Sample(a + 1j * rng.standard_normal(3), 3, label="complex"),
        Sample(a.astype(np.float32), 5, label="float32"),
    ]


@sample_inputs(scipy.linalg.diagsvd)
def _diagsvd_samples(rng: np.random.Generator) -> list[Sample]:
    s = rng.random(3)
    return [
        Sample(s, 3, 3, label="square"),
        Sample(s, 5, 3, label="tall"),
        Sample(s.astype(np.float32), 3, 4, label="float32, wide"),
        Sample(s + 0.1j, fkwargs={"M": 4, "N": 3}, label="complex, M and N by keyword"),
    ]


@sample_inputs(scipy.linalg.fiedler)
def _fiedler_samples(rng: np.random.Generator) -> list[Sample]:
    a = np.array([0.3, -1.2, 2.5, 0.9])
    return [
        Sample(a, label="distinct entries"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 0.4j * rng.standard_normal(4), label="complex"),
        Sample(np.stack([a, a + 1]), label="stack"),
    ]
