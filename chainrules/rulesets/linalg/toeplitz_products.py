"""The Toeplitz matrix product ``scipy.linalg.matmul_toeplitz((c, r), x)`` (``T x`` by FFT, ``T = toeplitz(c, r)``).

The maths
---------
``y = T x`` is bilinear in the Toeplitz matrix and ``x``, and ``T`` is linear in ``(c, r)``:

* forward: ``dy = T dx + T(dc, dr) x``, two more products by FFT
  (``matmul_toeplitz((dc, dr), x)``);
* reverse: ``x_bar = T^H y_bar``, and ``T^H`` is again Toeplitz (first column
  ``conj([c_0, r_1, ...])``, first row ``conj(c)``), so it is one more ``matmul_toeplitz``;
  the cotangent of ``T`` is ``y_bar x^H``, whose sums along the diagonals give ``c_bar``
  (``c_bar_k`` sums ``i - j = k``) and ``r_bar`` (``r_bar_k`` sums ``j - i = k``; ``r[0]`` is
  not read and gets ``0``). Those sums are the cross-correlation of the columns of ``y_bar``
  and ``x``, computed by FFT in ``O((m + n) k log(m + n))``: the dense ``T`` and the dense
  ``y_bar x^H`` are never formed.

Without ``r`` (``c_or_cr`` an array, not a tuple) SciPy uses ``r = conj(c)``: ``c_bar`` then
also collects the conjugate of the superdiagonal sums (as in ``toeplitz(c)``'s rule).

SciPy computes in float64 or complex128 (float32 inputs give a float64 output); cotangents
keep their inputs' dtypes. Leading batch axes broadcast as in SciPy (``c``, ``r``: one core
axis; ``x``: one core axis if it is 1-d, else two), and cotangents are summed back to each
input's shape. The cotangent of a tuple ``(c, r)`` is a ``Tangent(tuple, c_bar, r_bar)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.fft
import scipy.linalg

from chainrules.rulesets.linalg._utils import NO, conj, not_implemented_in, tangent_parts, tangent_value
from chainrules_core import (
    ProjectTo,
    Sample,
    Tangent,
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

__all__ = ["toeplitz_diagonal_correlation"]

C_OR_CR = (tuple, list, np.ndarray)
"""What ``c_or_cr`` may be: a tuple ``(c, r)``, or ``c`` alone (an array or a list)."""


def _parts(c_or_cr: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(c, r, hermitian)``: the first column and row SciPy reads, and whether ``r = conj(c)``."""
    if isinstance(c_or_cr, tuple):
        c, r = c_or_cr
        return np.asarray(c), np.asarray(r), False
    c = np.asarray(c_or_cr)
    return c, np.conjugate(c), True


def toeplitz_diagonal_correlation(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The diagonal sums of ``g x^H`` (``(..., m, k)`` and ``(..., n, k)``): entry ``n - 1 + d`` sums ``i - j = d``.

    Computed as the cross-correlation of the columns by FFT (the product is never formed).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.toeplitz_products import toeplitz_diagonal_correlation
    >>> g, x = np.array([[1.0], [2.0]]), np.array([[3.0], [4.0], [5.0]])
    >>> toeplitz_diagonal_correlation(g, x).round(12)        # g x^H = [[3, 4, 5], [6, 8, 10]]
    array([ 5., 14., 11.,  6.])
    """
    m, n = g.shape[-2], x.shape[-2]
    p = m + n - 1
    spectrum = scipy.fft.fft(g, p, axis=-2) * scipy.fft.fft(conj(x[..., ::-1, :]), p, axis=-2)
    out = scipy.fft.ifft(np.sum(spectrum, axis=-1), axis=-1)
    if not (np.iscomplexobj(g) or np.iscomplexobj(x)):
        out = out.real
    return out


def _matrices(x: np.ndarray, g: Any = None) -> tuple[np.ndarray, Any]:
    """``x`` (and an output cotangent ``g``) with a trailing column axis when ``x`` is a vector."""
    if x.ndim == 1:
        return x[:, None], (None if g is None else g[..., None])
    return x, g


@rrule.register(scipy.linalg.matmul_toeplitz, C_OR_CR, np.ndarray)
def matmul_toeplitz_rrule(c_or_cr: Any, x: np.ndarray, check_finite: Any = False, workers: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.matmul_toeplitz``: ``x_bar = T^H y_bar`` and the diagonal sums of ``y_bar x^H``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> c, r, x = np.array([1.0, 2.0]), np.array([9.0, 3.0]), np.array([1.0, 1.0])
    >>> y, pullback = rrule(scipy.linalg.matmul_toeplitz, (c, r), x)     # T = [[1, 3], [2, 1]]
    >>> y
    array([4., 3.])
    >>> d_cr, dx = map(unthunk, pullback(np.array([1.0, 0.0]))[1:3])
    >>> d_cr, dx.round(12)                                  # d y_0 = d(c_0 x_0 + r_1 x_1)
    (Tangent(tuple, array([1., 0.]), array([0., 1.])), array([1., 3.]))
    """
    y = scipy.linalg.matmul_toeplitz(c_or_cr, x, check_finite, workers)
    c, r, hermitian = _parts(c_or_cr)
    project_x = cotangent_projector(x)
    project_c, project_r = cotangent_projector(c), cotangent_projector(r)
    m, n = c.shape[-1], r.shape[-1]

    def cr_cotangent(value_c: Any, value_r: Any) -> Any:
        if hermitian:
            return project_c(value_c)
        return Tangent(tuple, project_c(value_c), project_r(value_r))

    def matmul_toeplitz_pullback(dy: Any) -> tuple[Any, ...]:
        g = read_cotangent(dy, y, "scipy.linalg.matmul_toeplitz")
        if passes_through(g):
            return NO, cr_cotangent(g, g), project_x(g), NO, NO
        X, G = _matrices(x, g)

        def dx() -> Any:
            batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
            cb, rb = np.broadcast_to(c, batch + (m,)), np.broadcast_to(r, batch + (n,))
            first_row = np.concatenate([cb[..., :1], rb[..., 1:]], axis=-1)      # [c_0, r_1, ...]
            adjoint = scipy.linalg.matmul_toeplitz((conj(first_row), conj(cb)), G, False, workers)
            return project_x(unbroadcast(adjoint, X.shape).reshape(x.shape))

        def dcr() -> Any:
            sums = toeplitz_diagonal_correlation(G, X)      # index n - 1 + (i - j)
            dc = sums[..., n - 1:]
            upper = sums[..., n - 1::-1]                    # j - i = 0, 1, ..., n - 1
            dr = np.concatenate([np.zeros_like(upper[..., :1]), upper[..., 1:]], axis=-1)
            if hermitian:
                dc = dc + conj(dr)
                return cr_cotangent(unbroadcast(dc, c.shape).reshape(np.shape(c)), None)
            return cr_cotangent(unbroadcast(dc, c.shape), unbroadcast(dr, r.shape))

        return NO, Thunk(dcr), Thunk(dx), NO, NO

    return y, matmul_toeplitz_pullback


@frule.register(scipy.linalg.matmul_toeplitz, C_OR_CR, np.ndarray)
def matmul_toeplitz_frule(tangents: Any, c_or_cr: Any, x: np.ndarray, check_finite: Any = False,
                          workers: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.matmul_toeplitz``: ``T dx + toeplitz(dc, dr) x``, both by FFT.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import frule, NoTangent, ZeroTangent
    >>> c = np.array([2.0, 1.0])
    >>> frule((NoTangent(), np.array([1.0, 0.0]), ZeroTangent()), scipy.linalg.matmul_toeplitz, c,
    ...       np.array([1.0, 1.0]))[1].round(12)       # d(toeplitz(c) x) along dc = e_0
    array([1., 1.])
    """
    y = scipy.linalg.matmul_toeplitz(c_or_cr, x, check_finite, workers)
    c, r, hermitian = _parts(c_or_cr)
    if hermitian:
        dc, dr = tangent_value(tangents[1]), None
    else:
        dc, dr = tangent_parts(tangents[1], ("c", "r"), "scipy.linalg.matmul_toeplitz frule: tangent of (c, r)")
        dc, dr = (None if t is None else tangent_value(t) for t in (dc, dr))
    dx = tangent_value(tangents[2])
    missing = not_implemented_in(dc, dr, dx)
    if missing is not None:
        return y, missing
    if dc is None and dr is None and dx is None:
        return y, ZeroTangent()
    total: Any = 0
    if dx is not None:
        total = total + scipy.linalg.matmul_toeplitz(c_or_cr, dx, False, workers)
    if dc is not None or dr is not None:
        dc = np.zeros(c.shape) if dc is None else dc
        if hermitian:
            total = total + scipy.linalg.matmul_toeplitz(dc, x, False, workers)
        else:
            dr = np.zeros(r.shape) if dr is None else dr
            total = total + scipy.linalg.matmul_toeplitz((dc, dr), x, False, workers)
    return y, ProjectTo(y)(np.broadcast_to(total, y.shape))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.matmul_toeplitz)
def _matmul_toeplitz_samples(rng: np.random.Generator) -> list[Sample]:
    c, r, x = rng.standard_normal(4), rng.standard_normal(4), rng.standard_normal(4)
    return [
        Sample(c, x, label="c only (Hermitian Toeplitz)"),
        Sample((c, r), x, label="(c, r)"),
        Sample((c, r), rng.standard_normal((4, 2)), label="two columns"),
        Sample(c + 1j * rng.standard_normal(4), x, label="complex c"),
        Sample((c.astype(np.float32), r.astype(np.float32)), x.astype(np.float32), label="float32"),
        Sample((c, r), x, False, None, label="check_finite, workers by position"),
    ]
