"""The condition number of the matrix exponential: ``scipy.linalg.expm_cond(A)``.

``kappa(A) = ||K(A)||_2 ||A||_F / ||exp(A)||_F``, where ``K(A)`` is the ``n^2 x n^2`` Kronecker
form of the Fréchet derivative ``E -> L(A, E)`` of ``exp`` at ``A`` (Higham, "Functions of
Matrices", 2008, section 3.1 and algorithm 3.17; Al-Mohy & Higham 2009; SciPy computes
``K`` column by column and its largest singular value).

The maths
---------
With ``s = ||K||_2 = u^H K v`` (``u``, ``v`` the top singular vectors) and ``U``, ``V`` the
``n x n`` matrices they stand for (``K v = vec(L(A, V))``, ``u = vec(U)``):

* ``ds = Re <U, L2(A, V, dA)>``, ``L2`` the second Fréchet derivative, which is the
  ``(1, 2)`` block of ``L(M, diag(dA, dA))`` for ``M = [[A, V], [0, A]]`` (because
  ``L(A, V)`` is the ``(1, 2)`` block of ``exp(M)``; Higham & Relton 2014, "Higher order
  Fréchet derivatives of matrix functions and the level-2 condition number", theorem 3.5);
  its gradient is the sum of the two diagonal blocks of ``L(M^H, W)``, ``W = [[0, U], [0, 0]]``
  (the adjoint of ``L(M, .)`` is ``L(M^H, .)`` for a function with real Taylor coefficients);
* ``d||A||_F = Re <A, dA> / ||A||_F`` and ``d||exp(A)||_F = Re <exp(A), L(A, dA)> / ||exp(A)||_F``,
  whose gradient is ``L(A^H, exp(A)) / ||exp(A)||_F``;

so ``d kappa = kappa (ds / s + Re <A, dA> / ||A||^2 - Re <X, L(A, dA)> / ||X||^2)`` with
``X = exp(A)``. Every Fréchet derivative is SciPy's ``expm_frechet`` (of ``2n x 2n`` matrices
for ``L2``), so the rules cost ``O(n^3)`` on top of the primal's ``O(n^6)`` SVD of ``K``.

Ties. ``s`` is the largest singular value of ``K``; where it is repeated (``A = c I`` makes
every singular value equal) ``s`` is not differentiable, and the rules use the average of
the gradients over the cluster of singular values within the degeneracy tolerance of
``s`` (:func:`~chainrules.rulesets.linalg.degeneracy_tolerance`): the derivative of the
cluster's mean, which is the centre of the subdifferential of the spectral norm of ``K``
(Watson 1992, "Characterization of the subdifferential of some matrix norms") and does not
depend on the singular vectors LAPACK picks. At ``A = 0`` (``kappa = 0``, a kink of
``||A||_F``) the rules give the subgradient ``0``.

``kappa`` is float64 whatever ``A``'s precision (as SciPy returns it); ``A``'s cotangent has
``A``'s dtype. Stacks are handled one matrix at a time, as SciPy does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._spectral import relative_tolerance
from chainrules.rulesets.linalg._utils import NO, mH, not_implemented_in, tangent_value
from chainrules_core import (
    ProjectTo,
    Sample,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["kronecker_form"]


def _frechet(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    return scipy.linalg.expm_frechet(a, e, compute_expm=False, check_finite=False)


def kronecker_form(a: np.ndarray) -> np.ndarray:
    """``K`` with ``K[:, i n + j] = vec(L(A, e_i e_j^T))`` (column-major ``vec``), as SciPy builds it.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.expm_condition import kronecker_form
    >>> kronecker_form(np.zeros((2, 2)))           # L(0, E) = E
    array([[1., 0., 0., 0.],
           [0., 0., 1., 0.],
           [0., 1., 0., 0.],
           [0., 0., 0., 1.]])
    """
    n = a.shape[-1]
    cols = []
    for i in range(n):
        for j in range(n):
            e = np.zeros((n, n), dtype=a.dtype)
            e[i, j] = 1
            cols.append(_frechet(a, e).T.ravel())
    return np.stack(cols, axis=-1) if cols else np.zeros((0, 0), dtype=a.dtype)


class _Condition:
    """``kappa`` of one matrix and what its derivative needs."""

    def __init__(self, a: np.ndarray, kappa: float) -> None:
        n = a.shape[-1]
        self.a, self.kappa = a, kappa
        self.x = scipy.linalg.expm(a)
        self.norm_a, self.norm_x = np.linalg.norm(a), np.linalg.norm(self.x)
        u, s, vh = np.linalg.svd(kronecker_form(a))
        top = s[0] if s.size else 0.0
        cluster = np.nonzero(s >= top - relative_tolerance(np.float64) * top)[0] if s.size else np.arange(0)
        self.s = top
        self.pairs = [(u[:, i].reshape(n, n).T, np.conj(vh[i]).reshape(n, n)) for i in cluster]

    def _block(self, v: np.ndarray) -> np.ndarray:
        n = self.a.shape[-1]
        m = np.zeros((2 * n, 2 * n), dtype=np.result_type(self.a, v))
        m[:n, :n] = m[n:, n:] = self.a
        m[:n, n:] = v
        return m

    def gradient(self) -> np.ndarray:
        """``d kappa / dA`` (a cotangent of ``A``)."""
        n = self.a.shape[-1]
        if self.norm_a == 0 or self.s == 0:
            return np.zeros(self.a.shape, dtype=np.result_type(self.a, np.float64))
        grad_s: Any = 0
        for U, V in self.pairs:
            w = np.zeros((2 * n, 2 * n), dtype=np.result_type(self.a, U))
            w[:n, n:] = U
            g = _frechet(mH(self._block(V)), w)
            grad_s = grad_s + g[:n, :n] + g[n:, n:]
        grad_s = grad_s / len(self.pairs)
        grad_x = _frechet(mH(self.a), self.x)
        return self.kappa * (grad_s / self.s + self.a / self.norm_a**2 - grad_x / self.norm_x**2)

    def tangent(self, da: np.ndarray) -> float:
        """``d kappa`` along ``dA``."""
        n = self.a.shape[-1]
        if self.norm_a == 0 or self.s == 0:
            return 0.0
        ds = 0.0
        for U, V in self.pairs:
            dm = np.zeros((2 * n, 2 * n), dtype=np.result_type(self.a, V, da))
            dm[:n, :n] = dm[n:, n:] = da
            ds += float(np.real(np.vdot(U, _frechet(self._block(V), dm)[:n, n:])))
        ds /= len(self.pairs)
        dx = _frechet(self.a, da)
        return self.kappa * (ds / self.s + float(np.real(np.vdot(self.a, da))) / self.norm_a**2
                             - float(np.real(np.vdot(self.x, dx))) / self.norm_x**2)


def _states(A: Any, kappa: Any) -> tuple[tuple[int, ...], list[_Condition]]:
    a = np.asarray(A)
    a = a.astype(np.result_type(a, np.float64), copy=False)
    batch = a.shape[:-2]
    kappas = np.broadcast_to(np.asarray(kappa, dtype=float), batch)
    return batch, [_Condition(a[i], float(kappas[i])) for i in np.ndindex(batch)]


@rrule.register(scipy.linalg.expm_cond, np.ndarray)
def expm_cond_rrule(A: np.ndarray, check_finite: Any = True) -> Any:
    """Reverse rule of ``scipy.linalg.expm_cond``: ``kappa (grad s / s + A / ||A||^2 - L(A^H, X) / ||X||^2)``.

    See the module docstring for the maths and the treatment of a repeated largest singular
    value of ``K``.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> from chainrules import rrule
    >>> kappa, pullback = rrule(scipy.linalg.expm_cond, np.array([[2.0]]))    # 1 x 1: kappa = |a|
    >>> float(kappa), pullback(1.0)[1]
    (2.0, array([[1.]]))
    """
    kappa = scipy.linalg.expm_cond(A, check_finite)
    project_a = cotangent_projector(A)

    def expm_cond_pullback(dy: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dy, kappa, "scipy.linalg.expm_cond")
        if passes_through(g):
            return NO, project_a(g), NO
        batch, states = _states(A, kappa)
        weights = np.broadcast_to(np.real(g), batch)
        grads = [weights[i] * state.gradient() for i, state in zip(np.ndindex(batch), states)]
        out = np.stack(grads).reshape(np.shape(A)) if grads else np.zeros(np.shape(A))
        return NO, project_a(out), NO

    return kappa, expm_cond_pullback


@frule.register(scipy.linalg.expm_cond, np.ndarray)
def expm_cond_frule(tangents: Any, A: np.ndarray, check_finite: Any = True) -> Any:
    """Forward rule of ``scipy.linalg.expm_cond``: ``kappa (ds/s + Re<A, dA>/||A||^2 - Re<X, L(A, dA)>/||X||^2)``."""
    kappa = scipy.linalg.expm_cond(A, check_finite)
    da = tangent_value(tangents[1])
    if da is None or not_implemented_in(da):
        return kappa, ZeroTangent() if da is None else da
    batch, states = _states(A, kappa)
    da = np.broadcast_to(da, batch + np.shape(A)[-2:])
    out = np.array([state.tangent(da[i]) for i, state in zip(np.ndindex(batch), states)]).reshape(batch)
    return kappa, ProjectTo(kappa)(out if batch else float(out))


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.expm_cond)
def _expm_cond_samples(rng: np.random.Generator) -> list[Sample]:
    a = 0.5 * rng.standard_normal((3, 3))
    return [
        Sample(a, label="3x3"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 0.5j * rng.standard_normal((3, 3)), label="complex"),
        Sample(a[:2, :2], False, label="2x2, check_finite by position"),
        Sample(np.stack([a[:2, :2], -a[:2, :2]]), label="stack"),
    ]
