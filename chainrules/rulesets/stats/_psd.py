"""Symmetric positive (semi)definite parameters of the multivariate distributions (private).

``multivariate_normal(mean, cov)``, ``multivariate_t(loc, shape)``, ``wishart(df, scale)``
... take a covariance-like matrix as a scalar (``c I``), a vector (a diagonal) or a full
matrix, and ``multivariate_normal`` and ``multivariate_t`` factor it the way SciPy's
``_PSD`` does: ``s, u = eigh(cov)`` (the lower triangle), eigenvalues at most
``eps = 1e6 * float64 eps * max |s|`` counted as zero, ``cov^+ = U U^T`` with
``U = u diag(s^-1/2)`` on the kept eigenvalues and ``log pdet = sum log s`` over them. The
derivatives here use the same factorisation and the same cutoff, so they are the
derivatives of the function SciPy computes, singular or not.

:class:`MatrixArgument` maps between the argument as given and the full symmetric matrix:

* the cotangent ``G`` of the full matrix (symmetric) becomes ``trace(G)`` for a scalar
  ``c`` (the matrix is ``c I``), ``diag(G)`` for a vector, ``G`` itself for a matrix: the
  cotangent of a matrix argument lies in the symmetric matrices (SciPy reads one triangle,
  and a covariance is symmetric: the cotangent is the gradient in the space of symmetric
  matrices with the Frobenius inner product);
* a tangent of the argument becomes the tangent of the full matrix, symmetrised
  (``(dS + dS^T) / 2``): the frule and the rrule are adjoint on the symmetric matrices.

:class:`QuantileLayout` reshapes ``x`` as SciPy's ``_process_quantiles`` does (the last
axis holds the components; a vector is one point, or ``n`` points in one dimension) and
maps the squeezed output (or its cotangent) back and forth.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

__all__ = ["ArrayCovariance", "MatrixArgument", "PsdFactor", "QuadraticForm", "QuantileLayout", "symmetric"]


def symmetric(a: np.ndarray) -> np.ndarray:
    """``(a + a^T) / 2`` on the last two axes."""
    return 0.5 * (a + np.swapaxes(a, -1, -2))


class PsdFactor:
    """The eigendecomposition SciPy's ``_PSD`` makes of a symmetric positive semidefinite matrix.

    Attributes
    ----------
    U : ndarray
        ``u diag(s^-1/2)`` on the kept eigenvalues, zero columns elsewhere: ``pinv = U U^T``.
    pinv : ndarray
        The pseudo-inverse.
    log_pdet : float
        The log of the pseudo-determinant (the product of the kept eigenvalues).
    rank : int
    null : ndarray
        An orthonormal basis of the null space (eigenvectors of the dropped eigenvalues).
    support_eps : float
        SciPy's tolerance for ``x - mean`` to count as in the range (``1e3 eps``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.stats._psd import PsdFactor
    >>> f = PsdFactor(np.diag([4.0, 0.0]))
    >>> f.rank, f.pinv
    (1, array([[0.25, 0.  ],
           [0.  , 0.  ]]))
    """

    __slots__ = ("U", "log_pdet", "null", "pinv", "rank", "support_eps")

    def __init__(self, matrix: np.ndarray) -> None:
        s, u = scipy.linalg.eigh(matrix, lower=True)
        eps = 1e6 * np.finfo(np.float64).eps * np.max(np.abs(s))
        keep = s > eps
        self.rank = int(np.count_nonzero(keep))
        self.U = u * np.where(keep, 1.0 / np.sqrt(np.where(keep, s, 1.0)), 0.0)
        self.pinv = self.U @ self.U.T
        self.log_pdet = float(np.sum(np.log(s[keep])))
        self.null = u[:, ~keep]
        self.support_eps = 1e3 * eps

    def in_support(self, deviations: np.ndarray) -> np.ndarray | None:
        """Which rows of ``x - mean`` lie in the range (``None``: the matrix is nonsingular)."""
        if self.null.shape[1] == 0:
            return None
        return np.linalg.norm(deviations @ self.null, axis=-1) < self.support_eps


class MatrixArgument:
    """A covariance-like argument (scalar, vector or matrix) and the full ``dim x dim`` matrix it stands for.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.stats._psd import MatrixArgument
    >>> m = MatrixArgument(np.array([1.0, 2.0]), 2)
    >>> m.full
    array([[1., 0.],
           [0., 2.]])
    >>> m.cotangent(np.array([[1.0, 5.0], [5.0, 3.0]]))
    array([1., 3.])
    """

    __slots__ = ("dim", "full", "ndim", "shape")

    def __init__(self, value: Any, dim: int) -> None:
        arr = np.asarray(value, dtype=np.float64)
        self.shape = arr.shape
        self.dim = dim
        if dim == 1:
            arr = arr.reshape(1, 1)
        self.ndim = arr.ndim
        if arr.ndim == 0:
            self.full = arr * np.eye(dim)
        elif arr.ndim == 1:
            self.full = np.diag(arr)
        else:
            self.full = arr

    def cotangent(self, g: np.ndarray) -> np.ndarray:
        """The cotangent of the argument from the (symmetric) cotangent ``g`` of the full matrix."""
        if self.ndim == 0:
            out = np.trace(g, axis1=-2, axis2=-1)
        elif self.ndim == 1:
            out = np.diagonal(g, axis1=-2, axis2=-1)
        else:
            out = g
        return np.reshape(out, self.shape)

    def tangent(self, d: Any) -> np.ndarray:
        """The (symmetrised) tangent of the full matrix from a tangent ``d`` of the argument."""
        arr = np.asarray(d, dtype=np.float64)
        if self.dim == 1:
            arr = arr.reshape(1, 1)
        if arr.ndim == 0:
            return arr * np.eye(self.dim)
        if arr.ndim == 1:
            return np.diag(arr)
        return symmetric(arr)


class QuantileLayout:
    """``x`` as SciPy's multivariate distributions read it: points along the last axis.

    ``points`` has shape ``(N, dim)`` (all leading axes merged); :meth:`weights` reads a
    cotangent of the (squeezed) output as ``N`` numbers, :meth:`back` maps an ``(N, dim)``
    array to the shape of ``x``, :meth:`output` an ``(N,)`` array to the output's shape.
    """

    __slots__ = ("lead", "points", "shape")

    def __init__(self, x: Any, dim: int) -> None:
        arr = np.asarray(x, dtype=np.float64)
        self.shape = arr.shape
        if arr.ndim == 0:
            arr = arr[np.newaxis]
        elif arr.ndim == 1:
            arr = arr[:, np.newaxis] if dim == 1 else arr[np.newaxis, :]
        self.lead = arr.shape[:-1]
        self.points = arr.reshape(-1, arr.shape[-1])

    def weights(self, dy: Any) -> np.ndarray:
        return np.reshape(np.asarray(dy, dtype=np.float64), -1)

    def back(self, g: np.ndarray) -> np.ndarray:
        return np.reshape(g, self.shape)

    def take(self, dx: Any) -> np.ndarray:
        """A tangent of ``x`` as ``(N, dim)``."""
        return np.reshape(np.asarray(dx, dtype=np.float64), self.points.shape)


class ArrayCovariance:
    """A covariance-like argument given as an array (scalar, vector or matrix), factored as SciPy's ``_PSD`` does.

    The parameter protocol :class:`QuadraticForm` uses: ``W`` whitens (``Z = R W`` has
    ``|Z_k|^2 = r_k^T S^+ r_k``), ``pinv = W W^T``, ``log_pdet``, ``rank``,
    ``in_support(R)``, ``cotangent(R, Z, a, b)`` (the cotangent of the argument for
    ``sum_k a_k m_k + b log pdet``) and ``tangent(R, Z, d)`` (``(dm_k, d log pdet)``).
    """

    def __init__(self, value: Any, dim: int) -> None:
        self.matrix = MatrixArgument(value, dim)
        self.factor = PsdFactor(self.matrix.full)
        self.W = self.factor.U
        self.pinv = self.factor.pinv
        self.log_pdet = self.factor.log_pdet
        self.rank = self.factor.rank

    def in_support(self, deviations: np.ndarray) -> np.ndarray | None:
        return self.factor.in_support(deviations)

    def symmetric_cotangent(self, z: np.ndarray, a: np.ndarray, b: float) -> np.ndarray:
        """``-S^+ (sum_k a_k r_k r_k^T) S^+ + b S^+``: the symmetric cotangent of the full matrix."""
        u = self.W
        inner = -((z.T * a) @ z)
        inner[np.diag_indices_from(inner)] += b
        return u @ inner @ u.T

    def cotangent(self, deviations: np.ndarray, z: np.ndarray, a: np.ndarray, b: float) -> Any:
        return self.matrix.cotangent(self.symmetric_cotangent(z, a, b))

    def symmetric_tangent(self, z: np.ndarray, ds: np.ndarray) -> tuple[np.ndarray, float]:
        w_rows = z @ self.W.T
        return -np.einsum("ij,ij->i", w_rows @ ds, w_rows), float(np.sum(self.pinv * ds))

    def tangent(self, deviations: np.ndarray, z: np.ndarray, d: Any) -> tuple[np.ndarray, float]:
        return self.symmetric_tangent(z, self.matrix.tangent(d))


class QuadraticForm:
    """The Mahalanobis terms ``m_k = r_k^T S^+ r_k`` (``r_k = x_k - loc``) of a density and their derivatives.

    A log density ``L_k = g(m_k) + h log pdet(S) + ...`` is differentiated through the
    two pieces: with ``a_k = dL/dm_k`` (times the output cotangent) and ``b = sum of the
    cotangents times h``::

        x_bar_k = 2 a_k S^+ r_k,   loc_bar = -sum_k x_bar_k,
        S_bar = -S^+ (sum_k a_k r_k r_k^T) S^+ + b S^+    (for a matrix; other parameterisations by the chain rule)

    and forwards ``dm_k = 2 <S^+ r_k, dr_k> - r_k^T S^+ dS S^+ r_k``,
    ``d log pdet = tr(S^+ dS)`` (dS symmetric). ``S`` is a parameter object: an
    :class:`ArrayCovariance`, or a ``scipy.stats.Covariance`` through
    :mod:`chainrules.rulesets.stats.covariance`. Points outside the support of a singular
    ``S`` (``r`` not in its range) get zero weights: their log density is ``-inf`` on a
    neighbourhood.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.stats._psd import QuadraticForm
    >>> q = QuadraticForm(np.array([[1.0, 2.0]]), np.zeros(2), np.array([1.0, 4.0]))
    >>> q.maha
    array([2.])
    """

    def __init__(self, x: Any, loc: Any, matrix: Any, dim: int | None = None) -> None:
        from chainrules.rulesets.stats.covariance import covariance_parameter, is_covariance

        if dim is None:
            if is_covariance(matrix):
                dim = int(matrix.shape[-1])
            elif loc is not None:
                dim = int(np.size(loc))
            else:
                c = np.asarray(matrix)
                dim = 1 if c.ndim < 2 else c.shape[0]
        self.dim = dim
        self.parameter = covariance_parameter(matrix, dim)
        self.layout = QuantileLayout(x, dim)
        if loc is None:
            m = np.zeros(dim)
        else:
            la = np.asarray(loc, dtype=np.float64)
            m = la.reshape(dim) if la.size == dim else np.broadcast_to(la, (dim,))  # (a Covariance broadcasts it)
        self.loc_shape = (dim,) if loc is None else np.shape(loc)
        self.deviations = self.layout.points - m
        self.support = self.parameter.in_support(self.deviations)
        self._z: np.ndarray | None = None

    @property
    def whitened(self) -> np.ndarray:
        """``Z = R W`` (one row per point)."""
        if self._z is None:
            self._z = self.deviations @ self.parameter.W
        return self._z

    @property
    def maha(self) -> np.ndarray:
        """``m_k = |Z_k|^2``."""
        z = self.whitened
        return np.einsum("ij,ij->i", z, z)

    def restrict(self, w: np.ndarray) -> np.ndarray:
        """``w`` with zeros at the points outside the support."""
        return w if self.support is None else np.where(self.support, w, 0.0)

    def x_cotangent(self, a: np.ndarray) -> np.ndarray:
        return self.layout.back(2.0 * a[:, None] * (self.whitened @ self.parameter.W.T))

    def loc_cotangent(self, a: np.ndarray) -> np.ndarray:
        g = -2.0 * ((a @ self.whitened) @ self.parameter.W.T)
        if int(np.prod(self.loc_shape)) == self.dim:
            return np.reshape(g, self.loc_shape)
        return np.reshape(np.sum(g), self.loc_shape)  # a location broadcast over the components

    def matrix_cotangent(self, a: np.ndarray, b: float) -> Any:
        """The cotangent of the matrix parameter (its own form: an array's shape, or a ``Tangent``)."""
        return self.parameter.cotangent(self.deviations, self.whitened, a, b)

    def tangents(self, dx: Any, dloc: Any, dmatrix: Any) -> tuple[np.ndarray, float]:
        """``(dm_k, d log pdet)`` for the given input tangents (``None``: zero)."""
        dm = np.zeros(self.deviations.shape[0])
        dlogdet = 0.0
        dr = None
        if dx is not None:
            dr = self.layout.take(dx)
        if dloc is not None:
            dl = np.asarray(dloc, dtype=np.float64)
            dl = dl.reshape(self.dim) if dl.size == self.dim else np.broadcast_to(dl, (self.dim,))
            dr = -dl if dr is None else dr - dl
        if dr is not None:
            w_rows = self.whitened @ self.parameter.W.T
            dm += 2.0 * np.einsum("ij,ij->i", w_rows, np.broadcast_to(dr, w_rows.shape))
        if dmatrix is not None:
            dmm, dlogdet = self.parameter.tangent(self.deviations, self.whitened, dmatrix)
            dm = dm + dmm
        return dm, dlogdet
