"""Fit a Gaussian process with autograd + chainrules: the negative log marginal likelihood and its gradient.

The model: ``y = f(X) + noise``, ``f ~ GP(0, k)`` with the RBF kernel
``k(x, x') = s2 exp(-|x - x'|^2 / (2 l^2))`` and Gaussian noise of variance ``n2``. The
hyperparameters are ``params = [log l, log s2, log n2]``. The negative log marginal
likelihood is

    nlml = y^T K^{-1} y / 2 + log det K / 2 + N log(2 pi) / 2,    K = Kf + n2 I,

and :func:`fit` minimises it with ``scipy.optimize.minimize(jac=True)``, the gradient
coming from autograd (:func:`nlml_and_grad`).

The two expensive steps are functions of this module with chainrules rules registered
here (as a user would in their own module), made autograd primitives with
:func:`chainrules.interop.autograd.primitive`; autograd differentiates the rest (the
hyperparameters' transformations). :func:`rbf_kernel` builds the kernel matrix in one
buffer, and its pullback is one product and two reductions. :func:`gaussian_nlml` is the
Gaussian part; its pullback reuses the Cholesky factor of the forward pass:
``dKf = (K^{-1} - alpha alpha^T) / 2`` (``alpha = K^{-1} y``) needs
``K^{-1}``, computed from the factor in ``2 N^3 / 3`` flops and in the factor's memory
(:func:`cho_inverse`); the quadratic part costs ``O(N^2)`` given ``alpha``.

:func:`nlml_autograd_kernel` leaves the kernel to autograd (:func:`rbf_kernel_traceable`),
and :func:`nlml_composed` is the same likelihood written with a Cholesky factorization and
a triangular solve (the way one writes it for autograd); differentiated through
chainrules' linalg rules or through autograd's own, they are the comparisons in
``benchmarks/test_gaussian_process.py``.

Run ``python examples/gaussian_process.py`` to fit a GP to noisy samples of a sine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import scipy.linalg
import scipy.optimize
from scipy.linalg import blas, lapack

from chainrules import NoTangent, Thunk, ZeroTangent, rrule, unthunk
from chainrules.interop.autograd import primitive

__all__ = [
    "cho_inverse",
    "fit",
    "gaussian_nlml",
    "main",
    "make_data",
    "nlml",
    "nlml_and_grad",
    "nlml_autograd_kernel",
    "nlml_composed",
    "rbf_kernel",
    "rbf_kernel_traceable",
    "squared_distances",
]

_LOG_2PI = math.log(2 * math.pi)
_BLOCK = 32


# ---- linear algebra -------------------------------------------------------------------------------------
def _invert_lower_in_place(L: np.ndarray) -> None:
    """``L <- L^{-1}`` for a lower-triangular ``L`` (zeros above the diagonal), by blocks (BLAS-3 ``trmm``).

    LAPACK's ``?trtri`` is unblocked below its block size and slow at the sizes of a GP; two
    half-size inverses joined by two triangular products
    (``[[A, 0], [B, C]]^{-1} = [[A^{-1}, 0], [-C^{-1} B A^{-1}, C^{-1}]]``) run at the speed of
    matrix products. Only blocks are copied, never the whole matrix.
    """
    n = L.shape[0]
    if n <= _BLOCK:
        inverse, info = lapack.dtrtri(L, lower=1)
        if info:
            raise np.linalg.LinAlgError("singular triangular factor")
        L[...] = inverse
        return
    k = n // 2
    _invert_lower_in_place(L[:k, :k])
    _invert_lower_in_place(L[k:, k:])
    t = blas.dtrmm(-1.0, L[k:, k:], L[k:, :k], lower=1)
    L[k:, :k] = blas.dtrmm(1.0, L[:k, :k], t, lower=1, side=1, overwrite_b=1)


def cho_inverse(L: np.ndarray, overwrite_l: bool = False) -> np.ndarray:
    """``K^{-1}`` from the lower Cholesky factor ``L`` of ``K``: its lower triangle, zeros above (Fortran order).

    ``L^{-1}`` by blocks, then LAPACK's ``?lauum`` (``L^{-T} L^{-1}``): ``2 n^3 / 3`` flops,
    about 40% faster than ``?potri`` here. ``L`` must hold zeros above its diagonal. With
    ``overwrite_l`` (and a Fortran-ordered float64 ``L``) the result is computed in ``L``'s
    memory.

    Examples
    --------
    >>> import numpy as np
    >>> K = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> Kinv = cho_inverse(np.linalg.cholesky(K))
    >>> bool(np.allclose(Kinv + np.tril(Kinv, -1).T, np.linalg.inv(K)))
    True
    """
    work = L if overwrite_l and L.dtype == np.float64 and L.flags.f_contiguous else np.array(
        L, dtype=np.float64, order="F")
    _invert_lower_in_place(work)
    result, info = lapack.dlauum(work, lower=1, overwrite_c=1)
    if info:
        raise np.linalg.LinAlgError("lauum failed")
    return result


# ---- the Gaussian part, with its rule ------------------------------------------------------------------
def _factor(Kf: np.ndarray, noise: float, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """``L`` (lower factor of ``K = Kf + noise I``, Fortran order), ``alpha = K^{-1} y`` and the nlml.

    ``Kf`` is read by rows from its upper triangle (its transpose's lower one, which LAPACK
    factors in place on a copy, with no change of memory layout).
    """
    n = y.shape[0]
    K = np.array(Kf, dtype=np.float64, order="C")
    K.flat[:: n + 1] += noise
    L, info = lapack.dpotrf(K.T, lower=1, clean=1, overwrite_a=1)  # K.T: a Fortran view, factored in place
    if info:
        raise np.linalg.LinAlgError(f"the covariance is not positive definite (leading minor {info})")
    alpha, info = lapack.dpotrs(L, y, lower=1)
    value = 0.5 * float(y @ alpha) + float(np.log(np.diagonal(L)).sum()) + 0.5 * n * _LOG_2PI
    return L, alpha, value


def gaussian_nlml(Kf: Any, noise: Any, y: Any) -> float:
    """``-log N(y; 0, Kf + noise I)``, by a Cholesky factorization; ``Kf`` read from its upper triangle.

    Parameters
    ----------
    Kf : ndarray, shape (N, N)
        The noise-free covariance (symmetric; only its upper triangle is read, as by
        ``scipy.linalg.cholesky``).
    noise : float
        The noise variance.
    y : ndarray, shape (N,)
        The observations.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.stats import multivariate_normal
    >>> Kf, y = np.array([[1.0, 0.5], [0.5, 2.0]]), np.array([0.3, -1.0])
    >>> bool(np.isclose(gaussian_nlml(Kf, 0.1, y), -multivariate_normal(cov=Kf + 0.1 * np.eye(2)).logpdf(y)))
    True
    """
    return _factor(np.asarray(Kf), float(noise), np.asarray(y, dtype=np.float64))[2]


@rrule.register(gaussian_nlml, np.ndarray, float, np.ndarray)
def gaussian_nlml_rrule(Kf: np.ndarray, noise: float, y: np.ndarray) -> Any:
    """Reverse rule of :func:`gaussian_nlml`: the factor and ``alpha`` of the forward pass are reused.

    With ``G = (K^{-1} - alpha alpha^T) / 2``: ``dnoise = tr(G)``, ``dy = alpha``, and the
    cotangent of ``Kf`` (which is read from its upper triangle) is ``G`` folded onto that
    triangle: ``2 G`` strictly above the diagonal, ``G`` on it, zero below.
    """
    L, alpha, value = _factor(Kf, noise, y)
    n = y.shape[0]
    factor = [L]  # the pullback turns the factor into K^{-1} in place; a second call factors again

    def gaussian_nlml_pullback(ds: Any) -> tuple[Any, Any, Any, Any]:
        ds = unthunk(ds)
        if isinstance(ds, ZeroTangent):
            return NoTangent(), ZeroTangent(), ZeroTangent(), ZeroTangent()
        ds = float(ds)
        L = factor.pop() if factor else _factor(Kf, noise, y)[0]
        W = cho_inverse(L, overwrite_l=True)  # lower triangle of K^{-1} (Fortran order): the upper one of W.T
        W = blas.dsyr(-1.0, alpha, a=W, lower=1, overwrite_a=1)  # - alpha alpha^T, on that triangle
        dnoise = 0.5 * ds * float(np.trace(W))
        W.flat[:: n + 1] *= 0.5
        if ds != 1.0:
            W *= ds
        return NoTangent(), W.T, dnoise, ds * alpha

    return value, gaussian_nlml_pullback


# ---- the kernel, differentiated by autograd ---------------------------------------------------------------
def squared_distances(X: np.ndarray) -> np.ndarray:
    """``|x_i - x_j|^2`` for the rows of ``X`` (a constant of the optimisation).

    Examples
    --------
    >>> squared_distances(np.array([[0.0, 0.0], [3.0, 4.0]]))
    array([[ 0., 25.],
           [25.,  0.]])
    """
    sq = np.einsum("ij,ij->i", X, X)
    D2 = sq[:, None] + sq[None, :]
    D2 -= 2.0 * (X @ X.T)
    np.maximum(D2, 0.0, out=D2)
    return D2


def rbf_kernel(params: np.ndarray, D2: np.ndarray) -> np.ndarray:
    """``s2 exp(-D2 / (2 l^2))`` for ``params = [log l, log s2, ...]``, in one buffer (it has a rule).

    Examples
    --------
    >>> rbf_kernel(np.array([0.0, np.log(2.0)]), np.array([[0.0, 2.0], [2.0, 0.0]])).round(4)
    array([[2.    , 0.7358],
           [0.7358, 2.    ]])
    """
    K = D2 * (-0.5 * math.exp(-2.0 * params[0]))
    K += params[1]
    return np.exp(K, out=K)


@rrule.register(rbf_kernel, np.ndarray, np.ndarray)
def rbf_kernel_rrule(params: np.ndarray, D2: np.ndarray) -> Any:
    """Reverse rule of :func:`rbf_kernel`: one product with the output, two reductions.

    With ``c = -exp(-2 log l) / 2`` and ``t = dK * K``: ``d log l = -2 c <t, D2>``,
    ``d log s2 = sum(t)``, ``dD2 = c t``.
    """
    c = -0.5 * math.exp(-2.0 * params[0])
    K = rbf_kernel(params, D2)

    def rbf_kernel_pullback(dK: Any) -> tuple[Any, Any, Any]:
        dK = unthunk(dK)
        if isinstance(dK, ZeroTangent):
            return NoTangent(), ZeroTangent(), ZeroTangent()
        t = dK * K
        dparams = np.zeros_like(params)
        dparams[0] = -2.0 * c * np.vdot(t, D2)
        dparams[1] = t.sum()
        return NoTangent(), dparams, Thunk(lambda: t * c)

    return K, rbf_kernel_pullback


def rbf_kernel_traceable(params: Any, D2: np.ndarray) -> Any:
    """:func:`rbf_kernel` written in ``autograd.numpy``, for autograd to differentiate itself.

    Examples
    --------
    >>> D2 = np.array([[0.0, 2.0], [2.0, 0.0]])
    >>> bool(np.allclose(rbf_kernel_traceable(np.array([0.3, 0.1]), D2), rbf_kernel(np.array([0.3, 0.1]), D2)))
    True
    """
    return anp.exp(D2 * (-0.5 * anp.exp(-2.0 * params[0])) + params[1])


_gaussian_nlml = primitive(gaussian_nlml)
_rbf_kernel = primitive(rbf_kernel)


def nlml(params: Any, X: np.ndarray, y: np.ndarray) -> Any:
    """The negative log marginal likelihood of the RBF-kernel GP at ``params = [log l, log s2, log n2]``.

    Examples
    --------
    >>> X, y = make_data(20)
    >>> round(float(nlml(np.array([0.0, 0.0, np.log(0.1)]), X, y)), 4)
    18.2579
    """
    return _gaussian_nlml(_rbf_kernel(params, squared_distances(X)), anp.exp(params[2]), y)


def nlml_autograd_kernel(params: Any, X: np.ndarray, y: np.ndarray) -> Any:
    """:func:`nlml` with the kernel differentiated by autograd itself (:func:`rbf_kernel_traceable`).

    Examples
    --------
    >>> X, y = make_data(20)
    >>> p = np.array([0.0, 0.0, np.log(0.1)])
    >>> bool(np.isclose(nlml_autograd_kernel(p, X, y), nlml(p, X, y)))
    True
    """
    return _gaussian_nlml(rbf_kernel_traceable(params, squared_distances(X)), anp.exp(params[2]), y)


def nlml_composed(params: Any, X: np.ndarray, y: np.ndarray,
                  cholesky: Callable[[Any], Any] = anp.linalg.cholesky,
                  solve_triangular: Callable[..., Any] | None = None) -> Any:
    """:func:`nlml` written as a Cholesky factorization and a triangular solve, for an AD to compose.

    ``cholesky(K)`` must return the lower factor and ``solve_triangular(L, y, lower=True)``
    solve with it: autograd's own (the defaults) or chainrules primitives.

    Examples
    --------
    >>> X, y = make_data(20)
    >>> p = np.array([0.0, 0.0, np.log(0.1)])
    >>> bool(np.isclose(nlml_composed(p, X, y), nlml(p, X, y)))
    True
    """
    if solve_triangular is None:
        import autograd.scipy.linalg

        solve_triangular = autograd.scipy.linalg.solve_triangular
    n = y.shape[0]
    K = rbf_kernel_traceable(params, squared_distances(X)) + anp.exp(params[2]) * np.eye(n)
    L = cholesky(K)
    a = solve_triangular(L, y, lower=True)
    return 0.5 * anp.dot(a, a) + anp.sum(anp.log(anp.diag(L))) + 0.5 * n * _LOG_2PI


_value_and_grad = autograd.value_and_grad(nlml)


def nlml_and_grad(params: Any, X: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """``(nlml, d nlml / d params)`` by autograd + chainrules, for ``scipy.optimize.minimize(jac=True)``.

    Examples
    --------
    >>> from chainrules.testing import check_approx, jvp
    >>> X, y = make_data(20)
    >>> p = np.array([0.1, -0.2, np.log(0.1)])
    >>> value, grad = nlml_and_grad(p, X, y)
    >>> check_approx(grad @ np.array([1.0, 2.0, 3.0]),
    ...              jvp(None, lambda q: nlml(q, X, y), (p, np.array([1.0, 2.0, 3.0]))))
    """
    value, grad = _value_and_grad(np.asarray(params, dtype=np.float64), X, y)
    return float(value), np.asarray(grad, dtype=np.float64)


def make_data(n: int, seed: int = 0, noise: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """``n`` noisy samples of ``sin(x1) + cos(x2)`` at uniform points of ``[-3, 3]^2``.

    Examples
    --------
    >>> X, y = make_data(5)
    >>> X.shape, y.shape
    ((5, 2), (5,))
    """
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3.0, 3.0, size=(n, 2))
    y = np.sin(X[:, 0]) + np.cos(X[:, 1]) + noise * rng.standard_normal(n)
    return X, y


def fit(X: np.ndarray, y: np.ndarray, params0: Any = None, **options: Any) -> scipy.optimize.OptimizeResult:
    """Minimise :func:`nlml` over ``[log l, log s2, log n2]`` with L-BFGS-B and the autograd gradient.

    Examples
    --------
    >>> X, y = make_data(20)
    >>> result = fit(X, y)
    >>> bool(result.success), bool(result.fun < nlml(np.array([0.0, 0.0, np.log(0.1)]), X, y))
    (True, True)
    """
    params0 = np.array([0.0, 0.0, math.log(0.1)]) if params0 is None else np.asarray(params0, dtype=np.float64)
    return scipy.optimize.minimize(nlml_and_grad, params0, args=(X, y), jac=True, method="L-BFGS-B",
                                   options=options or None)


def main(n: int = 100) -> scipy.optimize.OptimizeResult:
    """Fit a GP to ``n`` samples and print the hyperparameters found.

    Examples
    --------
    >>> result = main(20)   # doctest: +ELLIPSIS
    fitted ...
    """
    X, y = make_data(n)
    result = fit(X, y)
    ell, s2, n2 = np.exp(result.x)
    print(f"fitted a GP to {n} points in {result.nit} iterations: lengthscale {ell:.3f}, signal variance {s2:.3f}, "
          f"noise variance {n2:.4f}, nlml {result.fun:.3f}")
    return result


if __name__ == "__main__":
    main()
