"""What the spectral rules (``eigh``, ``svd``, ``eig``) share (private).

* :func:`degeneracy_tolerance` and :func:`gap_threshold`: which eigenvalue (singular value)
  gaps count as zero. Every coupling coefficient ``1 / (lambda_j - lambda_i)`` of the rules
  goes through :func:`inverse_gaps`, which gives ``0`` instead for a gap at or below the
  threshold ``tau = rtol * scale`` (``scale``: the largest ``|lambda|`` or singular value
  of that matrix; ``rtol``: ``sqrt(eps)`` of the working precision unless set with
  :func:`degeneracy_tolerance`). The rule modules' docstrings say why this is exact for
  the losses that have a derivative at a degenerate spectrum.
* the output cotangents (the parts of ``EighResult``, ``SVDResult``, SciPy's tuples and
  lists) are read by the core's :func:`~chainrules_core.read_cotangents`, which gives
  ``None`` for a zero part.
* :func:`hermitian_from_triangle` / :func:`hermitian_triangle_cotangent`: NumPy's and
  SciPy's ``eigh`` read one triangle of their input (and the real part of its diagonal);
  the first builds the Hermitian tangent an input tangent stands for, the second is its
  adjoint (the cotangent of the triangle that was read). Both are ``_utils``'
  ``from_triangle``/``triangle_cotangent`` for Hermitian matrices.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

import numpy as np

from chainrules.rulesets.linalg._utils import from_triangle, triangle_cotangent

__all__ = [
    "add_to_diagonal",
    "degeneracy_tolerance",
    "gap_threshold",
    "hermitian_from_triangle",
    "hermitian_triangle_cotangent",
    "inverse_gaps",
]

_RTOL: contextvars.ContextVar[float | None] = contextvars.ContextVar("chainrules_degeneracy_rtol", default=None)


@contextlib.contextmanager
def degeneracy_tolerance(rtol: float | None) -> Iterator[None]:
    """Set the relative gap below which the spectral rules treat eigenvalues as equal.

    Inside the ``with`` block, the rules of ``eigh``, ``svd`` and ``eig`` (and their
    SciPy and eigenvalue-only variants) treat two eigenvalues (singular values) whose
    distance is at most ``rtol * scale`` as one degenerate cluster, ``scale`` being the
    largest ``|lambda|`` (singular value) of that matrix. ``None`` restores the default,
    ``sqrt(eps)`` of the working precision (about ``1.5e-8`` for float64 and ``3.5e-4``
    for float32). ``0`` treats only exactly equal eigenvalues as degenerate. The setting
    is read when the rule runs (a pullback keeps the value it was created with) and is
    local to the thread or task (a :class:`contextvars.ContextVar`).

    Why ``sqrt(eps)``: for a loss that is invariant under rotations inside a cluster, the
    coupling term of a pair is ``(roundoff of size eps) / gap``; at gaps above the
    threshold this error stays below ``sqrt(eps)`` relative, and below it the term is
    dropped, which is exact for such losses.

    Parameters
    ----------
    rtol : float or None
        The relative tolerance (``>= 0``), or ``None`` for the default.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg import degeneracy_tolerance
    >>> from chainrules.rulesets.linalg._spectral import gap_threshold
    >>> float(gap_threshold(np.array([1.0, 2.0]), np.float64)[0])  # doctest: +ELLIPSIS
    2.98...e-08
    >>> with degeneracy_tolerance(1e-3):
    ...     float(gap_threshold(np.array([1.0, 2.0]), np.float64)[0])
    0.002
    """
    if rtol is not None and not rtol >= 0:
        raise ValueError(f"degeneracy_tolerance: rtol must be a number >= 0 or None, got {rtol!r}")
    token = _RTOL.set(None if rtol is None else float(rtol))
    try:
        yield
    finally:
        _RTOL.reset(token)


def relative_tolerance(dtype: Any) -> float:
    """The relative degeneracy tolerance in force for computations at ``dtype``."""
    rtol = _RTOL.get()
    if rtol is not None:
        return rtol
    return float(np.sqrt(np.finfo(np.dtype(dtype)).eps))


def gap_threshold(values: np.ndarray, dtype: Any, rtol: float | None = None) -> np.ndarray:
    """``tau = rtol * max|values|`` over the last axis, with that axis kept (length 1).

    ``rtol=None`` takes the tolerance in force (:func:`relative_tolerance`); rules read it
    when they run and pass it on, so that a pullback uses the value of its own time.

    Examples
    --------
    >>> import numpy as np
    >>> gap_threshold(np.array([[1.0, -4.0], [0.5, 0.25]]), np.float32).round(6)
    array([[0.001381],
           [0.000173]], dtype=float32)
    """
    scale = np.max(np.abs(values), axis=-1, keepdims=True) if values.shape[-1] else np.zeros(values.shape[:-1] + (1,))
    rtol = relative_tolerance(dtype) if rtol is None else rtol
    return (rtol * scale).astype(np.finfo(np.dtype(dtype)).dtype, copy=False)


def inverse_gaps(gaps: np.ndarray, tau: Any) -> np.ndarray:
    """``1 / gaps`` where ``|gaps| > tau``, and ``0`` elsewhere (never ``inf`` or ``nan``).

    Examples
    --------
    >>> import numpy as np
    >>> inverse_gaps(np.array([2.0, 1e-12, 0.0, -4.0]), 1e-8)
    array([ 0.5 ,  0.  ,  0.  , -0.25])
    """
    gaps = np.asarray(gaps)
    out = np.zeros(gaps.shape, dtype=np.result_type(gaps.dtype, np.float32))
    np.divide(1, gaps, out=out, where=np.abs(gaps) > tau)
    return out


def add_to_diagonal(m: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Add the stacked vectors ``d`` (``(..., n)``) to the diagonals of a fresh array ``m``, in place; return ``m``."""
    idx = np.arange(m.shape[-1])
    m[..., idx, idx] += d
    return m


def hermitian_from_triangle(dA: np.ndarray, lower: bool) -> np.ndarray:
    """The Hermitian matrix that one triangle of ``dA`` stands for (the real part of the diagonal).

    This is how ``eigh`` reads its input, so it is also the tangent that an arbitrary
    input tangent ``dA`` pushes through: the other triangle is not read.

    Examples
    --------
    >>> import numpy as np
    >>> hermitian_from_triangle(np.array([[1.0 + 2j, 5.0], [3j, 4.0]]), lower=True)
    array([[1.+0.j, 0.-3.j],
           [0.+3.j, 4.+0.j]])
    """
    return from_triangle(np.asarray(dA), lower, hermitian=True)


def hermitian_triangle_cotangent(G: np.ndarray, lower: bool) -> np.ndarray:
    """The adjoint of :func:`hermitian_from_triangle`: the cotangent of the triangle read.

    An entry of the strict triangle appears twice in the Hermitian matrix (once
    conjugated), so it gets ``G_ij + conj(G_ji)`` (``2 G_ij`` for Hermitian ``G``); the
    diagonal gets ``Re(G_ii)`` (its imaginary part is not read); the other triangle gets 0.

    Examples
    --------
    >>> import numpy as np
    >>> hermitian_triangle_cotangent(np.array([[1.0, 2.0], [2.0, 3.0]]), lower=False)
    array([[1., 4.],
           [0., 3.]])
    """
    return triangle_cotangent(G, lower, hermitian=True)
