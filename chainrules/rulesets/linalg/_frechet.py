"""Fréchet derivatives of primary matrix functions (private).

For a function ``f`` analytic on the spectrum of ``A``, the primary matrix function ``f(A)``
has a Fréchet derivative ``L_f(A, E)``, linear in ``E`` (Higham, "Functions of Matrices:
Theory and Computation", SIAM 2008, chapter 3). Three ways to compute it live here:

* :func:`frechet_by_block`, the block-triangular trick (Higham 2008, Theorem 3.6 / eq. 3.16;
  Mathias 1996)::

      f([[A, E], [0, A]]) = [[f(A), L_f(A, E)], [0, f(A)]],

  evaluated by any algorithm for ``f`` that copes with the repeated eigenvalues of the
  block matrix (SciPy's ``expm``, ``logm``, ``sqrtm``, ``fractional_matrix_power``, and the
  trigonometric and hyperbolic functions built on ``expm`` do; ``funm``'s Schur-Parlett
  recurrence does not). ``E`` is scaled to the norm of ``A`` first (``L`` is linear), so
  the block matrix is no further from normal than it must be.
* :func:`sign_frechet`, the same trick for the matrix sign function, evaluated by the
  Newton iteration ``X <- (X + X^{-1}) / 2`` on the block matrix; its top-right block
  follows ``L <- (L - X^{-1} L X^{-1}) / 2`` (Kenney & Laub 1991, "Polar decomposition and
  matrix sign function condition estimates", SIAM J. Sci. Stat. Comput. 12(3); Higham 2008,
  Theorem 5.7 and section 5.3). SciPy's ``signm`` evaluates ``sign`` with ``funm``.
* :func:`daleckii_krein` for diagonalizable ``A = V diag(w) V^{-1}`` (Daleckii & Krein 1965;
  Higham 2008, Theorem 3.11)::

      L_f(A, E) = V (F ∘ (V^{-1} E V)) V^{-1},   F_ij = f[w_i, w_j],

  the first divided differences of ``f`` (``f'(w_i)`` where ``w_i = w_j``). For Hermitian
  ``A``, ``V`` is unitary and the formula is as well conditioned as ``f`` itself.
  :func:`divided_differences` forms ``F`` from values and a derivative of ``f``, switching
  to the midpoint derivative ``f'((w_i + w_j) / 2)`` for eigenvalues too close for the
  difference quotient.

Every adjoint is the same operator at ``A^H`` for the functions with real Taylor
coefficients (``f(conj z) = conj f(z)``, true of every SciPy matrix function):
``L_f^*(A, G) = L_f(A^H, G)``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chainrules.rulesets.linalg._utils import mH

__all__ = ["daleckii_krein", "divided_differences", "frechet_by_block", "one_norm", "sign_frechet"]


def one_norm(x: np.ndarray) -> np.ndarray:
    """The matrix 1-norm (largest absolute column sum) of each matrix of a stack, shape ``(...)``."""
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        return np.zeros(x.shape[:-2])
    return np.max(np.sum(np.abs(x), axis=-2), axis=-1)


def _direction_scale(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """The factor that brings each ``E`` of a stack to the 1-norm of its ``A`` (1 where ``E = 0``)."""
    norm_a, norm_e = one_norm(a), one_norm(e)
    target = np.where(norm_a > 0, norm_a, 1.0)
    return np.where(norm_e > 0, target / np.where(norm_e > 0, norm_e, 1.0), 1.0)


def frechet_by_block(f: Callable[[np.ndarray], np.ndarray], a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """``L_f(A, E)`` as the top-right block of ``f([[A, E], [0, A]])`` (stacks of matrices too).

    ``f`` maps a stack of square matrices to a stack of square matrices (SciPy's matrix
    functions do).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules.rulesets.linalg._frechet import frechet_by_block
    >>> a, e = np.array([[1.0, 2.0], [0.0, 3.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> bool(np.allclose(frechet_by_block(scipy.linalg.expm, a, e),
    ...                  scipy.linalg.expm_frechet(a, e, compute_expm=False)))
    True
    """
    n = a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], e.shape[:-2])
    scale = _direction_scale(a, e)[..., None, None]
    block = np.zeros(batch + (2 * n, 2 * n), dtype=np.result_type(a, e))
    block[..., :n, :n] = a
    block[..., n:, n:] = a
    block[..., :n, n:] = scale * e
    return np.asarray(f(block))[..., :n, n:] / scale


def sign_frechet(a: np.ndarray, e: np.ndarray, max_iterations: int = 100) -> np.ndarray:
    """``L_sign(A, E)`` by the Newton iteration on ``[[A, E], [0, A]]`` (stacks too).

    Raises ``LinAlgError`` when the iteration does not converge (an eigenvalue of ``A`` on or
    near the imaginary axis, where ``sign`` is not defined) or ``A`` is singular.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._frechet import sign_frechet
    >>> sign_frechet(np.diag([2.0, -1.0]), np.array([[0.0, 3.0], [0.0, 0.0]]))   # 3 * (1 - (-1)) / (2 - (-1))
    array([[0., 2.],
           [0., 0.]])
    """
    dtype = np.result_type(a, e, np.float32)
    x = np.array(a, dtype=dtype)
    lx = np.broadcast_to(e, np.broadcast_shapes(a.shape, e.shape)).astype(dtype)
    tol = 10 * a.shape[-1] * np.finfo(dtype).eps
    for _ in range(max_iterations):
        try:
            x_inv = np.linalg.inv(x)
        except np.linalg.LinAlgError:
            break
        lx = (lx - x_inv @ lx @ x_inv) / 2
        x_next = (x + x_inv) / 2
        change = one_norm(x_next - x)
        x = x_next
        if np.all(change <= tol * one_norm(x)):
            x_inv = np.linalg.inv(x)  # one more step at the converged X: L's update is then a projection
            return (lx - x_inv @ lx @ x_inv) / 2
    raise np.linalg.LinAlgError("signm: the Newton iteration for the derivative of the matrix sign function met a "
                                "singular matrix or did not converge: an eigenvalue on or near the imaginary axis, "
                                "where sign is not defined")


def daleckii_krein(v: np.ndarray, dd: np.ndarray, e: np.ndarray, v_inv: np.ndarray | None = None) -> np.ndarray:
    """``V (F ∘ (V^{-1} E V)) V^{-1}``; ``v_inv=None`` means ``V`` is unitary (``V^{-1} = V^H``).

    The adjoint (the pullback) is the same call with ``conj(F)`` and ``V^{-H}`` for ``V``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._frechet import daleckii_krein
    >>> daleckii_krein(np.eye(2), np.array([[1.0, 2.0], [2.0, 3.0]]), np.ones((2, 2)))
    array([[1., 2.],
           [2., 3.]])
    """
    if v_inv is None:
        return v @ (dd * (mH(v) @ e @ v)) @ mH(v)
    return v @ (dd * (v_inv @ e @ v)) @ v_inv


def divided_differences(values: np.ndarray, w: np.ndarray,
                        derivative: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The matrix ``F_ij = f[w_i, w_j]`` of first divided differences (stacks: ``w`` of shape ``(..., n)``).

    ``values`` are ``f(w)``; ``derivative(z)`` gives ``f'(z)`` elementwise. The difference
    quotient ``(f(w_i) - f(w_j)) / (w_i - w_j)`` loses ``eps |f| / |w_i - w_j|`` to
    cancellation; below a gap of ``eps^(1/3) * min(l, max(|w_i|, |w_j|, 1))``, with ``l =
    (|f(w_i)| + |f(w_j)|) / |f'(m)|`` the length over which ``f`` changes by its own size,
    the midpoint derivative ``f'(m)``, ``m = (w_i + w_j) / 2``, is used instead (its error is
    ``O(gap^2 f''')``). Both errors are then about ``eps^(2/3)`` relative.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg._frechet import divided_differences
    >>> w = np.array([1.0, 1.0, 2.0])
    >>> np.round(divided_differences(np.exp(w), w, np.exp), 4)
    array([[2.7183, 2.7183, 4.6708],
           [2.7183, 2.7183, 4.6708],
           [4.6708, 4.6708, 7.3891]])
    """
    a, b = w[..., :, None], w[..., None, :]
    fa, fb = values[..., :, None], values[..., None, :]
    gap = a - b
    d_mid = np.asarray(derivative((a + b) / 2))
    eps = np.finfo(np.result_type(w.real.dtype, np.float32)).eps
    with np.errstate(divide="ignore", invalid="ignore"):
        length = (np.abs(fa) + np.abs(fb)) / np.abs(d_mid)
        length = np.where(np.isnan(length), np.inf, length)
        close = np.abs(gap) <= np.cbrt(eps) * np.minimum(length, np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0))
        quotient = (fa - fb) / np.where(close, 1.0, gap)
    return np.where(close, d_mid, quotient)

