"""The Rosenbrock test function and its derivatives: ``rosen``, ``rosen_der``, ``rosen_hess``, ``rosen_hess_prod``.

The maths
---------
``f(x) = sum_{i<n-1} 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2`` (Rosenbrock 1960, The Computer
Journal 3). SciPy gives its gradient (``rosen_der``), its Hessian (``rosen_hess``) and the
Hessian's product with a vector (``rosen_hess_prod``), so each function's derivative is the next:
``df = rosen_der(x) . dx``, ``d rosen_der = rosen_hess(x) dx``. The Hessian is tridiagonal,
``H_ii = 1200 x_i^2 - 400 x_{i+1} + 2 + 200 [i > 0]`` (``H_{n-1,n-1} = 200``) and
``H_{i,i+1} = H_{i+1,i} = -400 x_i``, so its derivative (the third derivatives of ``f``) has three
nonzero patterns: ``dH_ii = 2400 x_i dx_i - 400 dx_{i+1}`` (``i < n-1``) and
``dH_{i,i+1} = dH_{i+1,i} = -400 dx_i``. The rules take a one-dimensional ``x`` (``rosen``
also sums along the first axis of an ``(n, m)`` array, its columns being ``m`` points; that
case has no rule here).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules_core import (
    AbstractZero,
    NoTangent,
    ProjectTo,
    Sample,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["rosen_hess_pullback_of", "rosen_hess_pushforward"]

NO = NoTangent()


def _vector(t: Any, x: np.ndarray) -> np.ndarray | None:
    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return None
    return np.asarray(t)


def rosen_hess_pushforward(x: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """``dH``: the derivative of ``rosen_hess`` at ``x`` along ``dx`` (a tridiagonal matrix).

    Examples
    --------
    >>> import numpy as np
    >>> rosen_hess_pushforward(np.array([1.0, 2.0]), np.array([1.0, 0.0]))
    array([[2400., -400.],
           [-400.,    0.]])
    """
    n = x.size
    dh = np.zeros((n, n), dtype=np.result_type(x, dx, np.float64))
    if n < 2:
        return dh
    i = np.arange(n - 1)
    dh[i, i] = 2400 * x[:-1] * dx[:-1] - 400 * dx[1:]
    dh[i, i + 1] = -400 * dx[:-1]
    dh[i + 1, i] = -400 * dx[:-1]
    return dh


def rosen_hess_pullback_of(x: np.ndarray, hbar: np.ndarray) -> np.ndarray:
    """``x_bar`` for the cotangent ``hbar`` of ``rosen_hess(x)`` (the adjoint of :func:`rosen_hess_pushforward`).

    Examples
    --------
    >>> import numpy as np
    >>> rosen_hess_pullback_of(np.array([1.0, 2.0]), np.eye(2))
    array([2400., -400.])
    """
    n = x.size
    xbar = np.zeros(n, dtype=np.result_type(x, hbar, np.float64))
    if n < 2:
        return xbar
    i = np.arange(n - 1)
    diag = hbar[i, i]
    xbar[:-1] += 2400 * x[:-1] * diag - 400 * (hbar[i, i + 1] + hbar[i + 1, i])
    xbar[1:] += -400 * diag
    return xbar


def _one_dimensional(x: np.ndarray) -> bool:
    return x.ndim == 1 and x.dtype.kind == "f"


# ---- rosen ---------------------------------------------------------------------------------------------------------
@rrule.register(scipy.optimize.rosen, np.ndarray)
def rosen_rrule(x: np.ndarray) -> Any:
    """Reverse rule of ``scipy.optimize.rosen``: ``x_bar = y_bar * rosen_der(x)``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.optimize.rosen, np.array([1.0, 1.0, 1.0]))
    >>> y, pullback(2.0)[1]                         # the minimum: f = 0, a zero gradient
    (np.float64(0.0), array([0., 0., 0.]))
    """
    if not _one_dimensional(x):
        return None
    y = scipy.optimize.rosen(x)
    project = ProjectTo(x)

    def rosen_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, scipy.optimize.rosen)
        if passes_through(dy):
            return NO, project(dy)
        return NO, project(dy * scipy.optimize.rosen_der(x))

    return y, rosen_pullback


@frule.register(scipy.optimize.rosen, np.ndarray)
def rosen_frule(tangents: Any, x: np.ndarray) -> Any:
    """Forward rule of ``scipy.optimize.rosen``: ``dy = rosen_der(x) . dx``."""
    if not _one_dimensional(x):
        return None
    y = scipy.optimize.rosen(x)
    dx = _vector(tangents[1], x)
    if dx is None:
        return y, ProjectTo(y)(0.0)
    return y, ProjectTo(y)(scipy.optimize.rosen_der(x) @ dx)


# ---- rosen_der -----------------------------------------------------------------------------------------------------
@rrule.register(scipy.optimize.rosen_der, np.ndarray)
def rosen_der_rrule(x: np.ndarray) -> Any:
    """Reverse rule of ``scipy.optimize.rosen_der``: ``x_bar = rosen_hess(x) g_bar`` (the Hessian is symmetric)."""
    if not _one_dimensional(x):
        return None
    g = scipy.optimize.rosen_der(x)
    project = ProjectTo(x)

    def rosen_der_pullback(dg: Any) -> tuple[Any, Any]:
        dg = read_cotangent(dg, g, scipy.optimize.rosen_der)
        if passes_through(dg):
            return NO, project(dg)
        return NO, project(scipy.optimize.rosen_hess_prod(x, dg))

    return g, rosen_der_pullback


@frule.register(scipy.optimize.rosen_der, np.ndarray)
def rosen_der_frule(tangents: Any, x: np.ndarray) -> Any:
    """Forward rule of ``scipy.optimize.rosen_der``: ``dg = rosen_hess(x) dx``."""
    if not _one_dimensional(x):
        return None
    g = scipy.optimize.rosen_der(x)
    dx = _vector(tangents[1], x)
    if dx is None:
        return g, ProjectTo(g)(np.zeros_like(g))
    return g, ProjectTo(g)(scipy.optimize.rosen_hess_prod(x, dx))


# ---- rosen_hess, rosen_hess_prod -----------------------------------------------------------------------------------
@rrule.register(scipy.optimize.rosen_hess, np.ndarray)
def rosen_hess_rrule(x: np.ndarray) -> Any:
    """Reverse rule of ``scipy.optimize.rosen_hess``: the third derivatives contracted with ``H_bar``."""
    if not _one_dimensional(x):
        return None
    h = scipy.optimize.rosen_hess(x)
    project = ProjectTo(x)

    def rosen_hess_pullback(dh: Any) -> tuple[Any, Any]:
        dh = read_cotangent(dh, h, scipy.optimize.rosen_hess)
        if passes_through(dh):
            return NO, project(dh)
        return NO, project(rosen_hess_pullback_of(x, np.asarray(dh)))

    return h, rosen_hess_pullback


@frule.register(scipy.optimize.rosen_hess, np.ndarray)
def rosen_hess_frule(tangents: Any, x: np.ndarray) -> Any:
    """Forward rule of ``scipy.optimize.rosen_hess``."""
    if not _one_dimensional(x):
        return None
    h = scipy.optimize.rosen_hess(x)
    dx = _vector(tangents[1], x)
    if dx is None:
        return h, ProjectTo(h)(np.zeros_like(h))
    return h, ProjectTo(h)(rosen_hess_pushforward(x, dx))


@rrule.register(scipy.optimize.rosen_hess_prod, np.ndarray, np.ndarray)
def rosen_hess_prod_rrule(x: np.ndarray, p: np.ndarray) -> Any:
    """Reverse rule of ``scipy.optimize.rosen_hess_prod`` (``H(x) p``): ``p_bar = H y_bar``.

    The third derivatives: :func:`rosen_hess_pullback_of` at ``H_bar = y_bar p^T``.
    """
    if not _one_dimensional(x):
        return None
    y = scipy.optimize.rosen_hess_prod(x, p)
    project_x, project_p = ProjectTo(x), ProjectTo(p)

    def rosen_hess_prod_pullback(dy: Any) -> tuple[Any, Any, Any]:
        dy = read_cotangent(dy, y, scipy.optimize.rosen_hess_prod)
        if passes_through(dy):
            return NO, project_x(dy), project_p(dy)
        dy = np.asarray(dy)
        return (NO, project_x(rosen_hess_pullback_of(x, np.outer(dy, p))),
                project_p(scipy.optimize.rosen_hess_prod(x, dy)))

    return y, rosen_hess_prod_pullback


@frule.register(scipy.optimize.rosen_hess_prod, np.ndarray, np.ndarray)
def rosen_hess_prod_frule(tangents: Any, x: np.ndarray, p: np.ndarray) -> Any:
    """Forward rule of ``scipy.optimize.rosen_hess_prod``: ``dH p + H dp``."""
    if not _one_dimensional(x):
        return None
    y = scipy.optimize.rosen_hess_prod(x, p)
    dx, dp = _vector(tangents[1], x), _vector(tangents[2], p)
    dy = np.zeros_like(y)
    if dx is not None:
        dy = dy + rosen_hess_pushforward(x, dx) @ p
    if dp is not None:
        dy = dy + scipy.optimize.rosen_hess_prod(x, dp)
    return y, ProjectTo(y)(dy)


# ---- samples -------------------------------------------------------------------------------------------------------
@sample_inputs(scipy.optimize.rosen, scipy.optimize.rosen_der, scipy.optimize.rosen_hess)
def _rosen_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(rng.uniform(-1.5, 1.5, 4))
    yield Sample(rng.uniform(-1.5, 1.5, 2).astype(np.float32), label="float32")


@sample_inputs(scipy.optimize.rosen_hess_prod)
def _rosen_hess_prod_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(rng.uniform(-1.5, 1.5, 4), rng.standard_normal(4))
    yield Sample(rng.uniform(-1.5, 1.5, 3).astype(np.float32), rng.standard_normal(3).astype(np.float32),
                 label="float32")
