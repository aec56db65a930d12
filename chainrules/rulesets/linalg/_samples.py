"""Building blocks of the linear-algebra sample inputs (private; see :func:`chainrules_core.sample_inputs`).

The general ones (``spd``, ``well_conditioned``) are in :mod:`chainrules.rulesets._samples`;
these are the regimes only linear algebra has: band storage, separated and repeated
spectra, a fixed rank, and the gauge-invariant views of outputs that are defined only up to
a gauge (``gauge_invariant=`` of the testers).

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets.linalg._samples import band_storage, repeated_eigenvalue
>>> band_storage(np.arange(9.0).reshape(3, 3), 1, 0)
array([[0., 4., 8.],
       [3., 7., 0.]])
>>> np.round(np.linalg.eigvalsh(repeated_eigenvalue(np.random.default_rng(0))), 12)
array([1., 1., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "band_storage",
    "cluster_invariants",
    "eigenprojectors",
    "hermitian",
    "hermitian_band",
    "pair_sum",
    "rank_two",
    "repeated_eigenvalue",
    "singular_projectors",
    "sorted_eigenpairs",
    "sorted_eigenprojectors",
    "sorted_eigenvalues",
    "unitary",
]


def band_storage(a: np.ndarray, lower: int, upper: int) -> np.ndarray:
    """LAPACK's general band storage of ``a`` (``solve_banded``'s ``ab``): row ``upper + i - j`` holds ``a[i, j]``."""
    n = a.shape[-1]
    ab = np.zeros((lower + upper + 1, n), dtype=a.dtype)
    for i in range(n):
        for j in range(max(0, i - lower), min(n, i + upper + 1)):
            ab[upper + i - j, j] = a[i, j]
    return ab


def hermitian_band(a: np.ndarray, k: int, lower: bool) -> np.ndarray:
    """LAPACK's Hermitian band storage (``eig_banded``, ``solveh_banded``) of the ``k`` off-diagonals of ``a``."""
    n = a.shape[-1]
    out = np.zeros((k + 1, n), dtype=a.dtype)
    for d in range(k + 1):
        if lower:
            out[d, : n - d] = np.diagonal(a, -d)
        else:
            out[k - d, d:] = np.diagonal(a, d)
    return out


def unitary(n: int, rng: np.random.Generator, dtype: Any = np.float64) -> np.ndarray:
    """A random orthogonal (unitary, for a complex ``dtype``) ``n x n`` matrix."""
    g = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        g = g + 1j * rng.standard_normal((n, n))
    return np.linalg.qr(g)[0].astype(dtype)


def hermitian(rng: np.random.Generator, dtype: Any = np.float64, n: int = 3) -> np.ndarray:
    """A Hermitian (real symmetric) matrix whose eigenvalues are at least about 1 apart."""
    q = unitary(n, rng, dtype)
    w = np.arange(n, dtype=float) * 1.5 - 1.0 + 0.2 * rng.random(n)
    return ((q * w) @ np.conj(q.T)).astype(dtype)


def repeated_eigenvalue(rng: np.random.Generator, dtype: Any = np.float64) -> np.ndarray:
    """A Hermitian matrix with eigenvalues ``(1, 1, 3)`` in a random eigenbasis: an exactly repeated pair."""
    q = unitary(3, rng, dtype)
    return ((q * np.array([1.0, 1.0, 3.0])) @ np.conj(q.T)).astype(dtype)


def rank_two(rng: np.random.Generator, hermitian: bool = False) -> np.ndarray:
    """A 3x3 matrix with singular values ``(3, 1.5, 0)`` (symmetric with ``hermitian=True``).

    A cutoff of ``0.2 * 3`` (or an ``atol`` of ``0.3``) discards the zero one, and the steps
    of the finite differences (below ``1e-2``) keep it below the cutoff: the rank is locally
    constant, as the pseudo-inverse rules assume.
    """
    u = unitary(3, rng)
    v = u if hermitian else unitary(3, rng)
    return (u * np.array([3.0, 1.5, 0.0])) @ v.T


def eigenprojectors(result: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(w, P)`` with ``P[..., k, :, :] = v_k v_k^H``: what no choice of the eigenvectors' phases changes.

    Give it to the testers for an eigendecomposition's output (``gauge_invariant=eigenprojectors``):
    each eigenvector is defined up to a phase (a sign for real ones), its projector is not.

    Examples
    --------
    >>> import numpy as np
    >>> w, P = eigenprojectors(np.linalg.eigh(np.array([[2.0, 1j], [-1j, 2.0]])))
    >>> w, bool(np.allclose(P[0] @ P[0], P[0]))
    (array([1., 3.]), True)
    """
    w, V = result[0], result[1]
    return np.asarray(w), np.einsum("...ik,...jk->...kij", V, np.conj(V))


def _eigen_order(w: np.ndarray) -> np.ndarray:
    """The indices sorting eigenvalues by real part, then imaginary part (along the last axis)."""
    w = np.asarray(w)
    keys = np.real(w) + 1e-3 * np.imag(w) / (1 + np.abs(w).max(initial=0.0))
    return np.argsort(keys, axis=-1)


def sorted_eigenvalues(w: Any) -> np.ndarray:
    """The eigenvalues ``w`` sorted by real part, then imaginary part.

    LAPACK's ``?geev`` returns a general matrix's eigenvalues in an order that can change
    under an arbitrarily small perturbation (the order the QR iteration deflates them in):
    the order is a gauge, and the sorted eigenvalues are smooth where they are distinct.
    """
    return np.take_along_axis(np.asarray(w), _eigen_order(w), axis=-1)


def sorted_eigenpairs(result: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(w, V)`` of a general eigendecomposition with the pairs sorted as :func:`sorted_eigenvalues`."""
    w, V = np.asarray(result[0]), np.asarray(result[1])
    order = _eigen_order(w)
    return np.take_along_axis(w, order, axis=-1), np.take_along_axis(V, order[..., None, :], axis=-1)


def sorted_eigenprojectors(result: Any) -> tuple[np.ndarray, np.ndarray]:
    """:func:`eigenprojectors` of :func:`sorted_eigenpairs`: blind to the order and to each vector's phase."""
    return eigenprojectors(sorted_eigenpairs(result))


def singular_projectors(result: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(s, u_k v_k^H)`` of an SVD ``(U, s, Vh)``: the joint phase of ``u_k`` and ``v_k`` cancels."""
    U, s, Vh = result[0], result[1], result[2]
    k = s.shape[-1]
    return np.asarray(s), np.einsum("...ik,...kj->...kij", U[..., :, :k], Vh[..., :k, :])


def cluster_invariants(result: Any) -> tuple[Any, ...]:
    """For eigenvalues ``(1, 1, 3)`` (:func:`repeated_eigenvalue`): ``w_0 + w_1``, ``w_2``, the projector on the
    repeated pair's eigenspace and that on the third eigenvector.

    Smooth at the repeated eigenvalue, unlike ``w_0``, ``w_1`` and the pair's eigenvectors
    themselves (any orthonormal basis of the eigenspace is a valid output).
    """
    w, V = result[0], result[1]
    pair = V[..., :2]
    return w[0] + w[1], w[2], pair @ np.conj(pair.T), np.outer(V[:, 2], np.conj(V[:, 2]))


def pair_sum(w: np.ndarray) -> tuple[Any, Any]:
    """``(w_0 + w_1, w_2)``: the functions of eigenvalues ``(1, 1, 3)`` that are smooth at the repeated pair."""
    return w[0] + w[1], w[2]
