"""Finite-difference derivatives of functions on nested values: ``jvp``, ``vjp``, ``jacobian``.

Inputs and outputs may be any nesting of scalars, real and complex arrays, tuples, lists,
dicts, namedtuples, dataclasses and registered types (structured matrices, sparse arrays);
see :mod:`chainrules.testing.tree`. Complex values are treated as pairs of reals, so the
results follow the library's convention: a ``jvp`` is the ordinary directional derivative,
and a ``vjp`` cotangent of a complex input is ``d/dRe + 1j * d/dIm`` of the real inner
product ``<dy, f(x)> = Re(sum(conj(dy) * f(x)))``.

By default the function is evaluated at float64 precision (float32 and float16 inputs are
promoted), so the estimates are accurate whatever the precision of the rule under test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.testing.finite_differences import FiniteDifferenceMethod, central_fdm
from chainrules.testing.tree import TreeDef, leaves_to_vec, tree_flatten, vec_to_leaves

FDMethod = FiniteDifferenceMethod | Callable[[Callable[[float], Any], float], Any]


def default_fdm() -> FiniteDifferenceMethod:
    """The method the testers use: 5-point central, adaptive step, within 1e-2 of the primal.

    Examples
    --------
    >>> from chainrules.testing import default_fdm
    >>> default_fdm().p, default_fdm().max_range
    (5, 0.01)
    """
    return central_fdm(5, 1, max_range=1e-2)


class _Flat:
    """A primal flattened once: its treedef, leaf specs and vector."""

    __slots__ = ("specs", "treedef", "vec")

    def __init__(self, x: Any) -> None:
        leaves, self.treedef = tree_flatten(x)
        self.specs = self.treedef.leaf_specs()
        self.vec = leaves_to_vec(leaves, self.specs)

    def rebuild(self, v: np.ndarray, promote: bool) -> Any:
        return self.treedef.unflatten(vec_to_leaves(v, self.specs, promote=promote))

    def tangent_vec(self, dx: Any) -> np.ndarray:
        return leaves_to_vec(self.treedef.flatten_tangent(dx), self.specs)

    def tangent(self, v: np.ndarray) -> Any:
        return self.treedef.unflatten_tangent(vec_to_leaves(v, self.specs, promote=True))


def _output_vec(treedef: TreeDef, specs: list[Any], y: Any) -> np.ndarray:
    leaves, _ = tree_flatten(y)
    if len(leaves) != len(specs):
        raise ValueError("the function's output changed structure between evaluations")
    return leaves_to_vec(leaves, specs)


def grad(fdm: FDMethod | None, f: Callable[[np.ndarray], Any], x: Any) -> np.ndarray:
    """Estimate the gradient of a real scalar function ``f`` at ``x``, coordinate by coordinate.

    For checking a framework's gradient of a whole computation (a solver call, a bridge)
    against the function alone: one finite-difference derivative of ``t -> f(x + t e_i)`` per
    entry ``i`` of ``x``. Cost: ``x.size`` derivatives, so keep ``x`` small.

    Parameters
    ----------
    fdm : FiniteDifferenceMethod or None
        ``None`` uses :func:`default_fdm`.
    f : callable
        A function of an array shaped like ``x`` returning a real number.
    x : array_like or float
        The point (real).

    Returns
    -------
    numpy.ndarray
        The gradient, shaped like ``x`` (0-d for a number).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import grad
    >>> np.round(grad(None, lambda v: v[0] ** 2 * v[1], np.array([2.0, 3.0])), 8) + 0.0
    array([12.,  4.])
    """
    fdm = default_fdm() if fdm is None else fdm
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros(x.shape)
    for i in np.ndindex(*x.shape):
        e = np.zeros(x.shape)
        e[i] = 1.0

        def along(t: float, e: np.ndarray = e) -> float:
            return float(f(x + t * e))

        g[i] = fdm(along, 0.0)
    return g


def jvp(fdm: FDMethod | None, f: Callable[..., Any], *pairs: tuple[Any, Any], promote: bool = True) -> Any:
    """Estimate the pushforward ``J(x) dx`` of ``f`` along the given tangents.

    The cost is that of one finite-difference derivative of ``eps -> f(x + eps * dx)``,
    whatever the size of the inputs. The step is taken along ``dx / max|dx|``, so no entry
    of any argument moves further than the method's ``max_range``.

    Parameters
    ----------
    fdm : FiniteDifferenceMethod or None
        ``None`` uses :func:`default_fdm`.
    f : callable
    *pairs : (x, dx)
        Each argument of ``f`` with its tangent (``ZeroTangent()``/``NoTangent()`` to hold
        it fixed).
    promote : bool
        Evaluate ``f`` at float64 precision.

    Returns
    -------
    A tangent of ``f``'s output (same nesting; namedtuples and dataclasses as ``Tangent``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import jvp
    >>> x = np.array([1.0, 2.0])
    >>> np.round(jvp(None, lambda x: x ** 2, (x, np.array([1.0, 0.0]))), 8) + 0.0
    array([2., 0.])
    """
    fdm = default_fdm() if fdm is None else fdm
    flats = [_Flat(x) for x, _ in pairs]
    directions = [flat.tangent_vec(dx) for flat, (_, dx) in zip(flats, pairs)]
    y0 = f(*(x for x, _ in pairs))
    _, ytree = tree_flatten(y0)
    yspecs = ytree.leaf_specs()

    # Step along dx / max|dx|, so that no coordinate moves further than the method's
    # max_range, and scale the derivative back.
    scale = max((float(np.max(np.abs(d))) for d in directions if d.size), default=0.0)
    m = len(leaves_to_vec(tree_flatten(y0)[0], yspecs))
    if m == 0:  # no differentiable output (integers, booleans, empty arrays)
        return ytree.unflatten_tangent(vec_to_leaves(np.zeros(0), yspecs, promote=True))
    if scale == 0.0 or not np.isfinite(scale):
        derivative = np.zeros(m) if scale == 0.0 else np.full(m, np.nan)
        return ytree.unflatten_tangent(vec_to_leaves(derivative, yspecs, promote=True))
    units = [d / scale for d in directions]

    def along(eps: float) -> np.ndarray:
        args = [flat.rebuild(flat.vec + eps * u, promote) for flat, u in zip(flats, units)]
        return _output_vec(ytree, yspecs, f(*args))

    derivative = scale * np.asarray(fdm(along, 0.0), dtype=np.float64).reshape(-1)
    return ytree.unflatten_tangent(vec_to_leaves(derivative, yspecs, promote=True))


def jacobian(fdm: FDMethod | None, f: Callable[..., Any], *xs: Any, promote: bool = True) -> list[np.ndarray]:
    """Estimate the Jacobian of ``f`` with respect to each argument, as real matrices.

    Row ``i`` is the ``i``-th entry of the output's real vector (see
    :mod:`chainrules.testing.tree`), column ``j`` the ``j``-th entry of the argument's.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import jacobian
    >>> (J,) = jacobian(None, lambda x: np.array([x[0] * x[1], x[0]]), np.array([2.0, 3.0]))
    >>> np.round(J, 8) + 0.0
    array([[3., 2.],
           [1., 0.]])
    """
    flats = [_Flat(x) for x in xs]
    return _jacobians(default_fdm() if fdm is None else fdm, f, flats, tree_flatten(f(*xs)), promote)


def _jacobians(fdm: FDMethod, f: Callable[..., Any], flats: list[_Flat], y_flat: tuple[list[Any], TreeDef],
               promote: bool) -> list[np.ndarray]:
    yleaves, ytree = y_flat
    yspecs = ytree.leaf_specs()
    m = len(leaves_to_vec(yleaves, yspecs))
    out = []
    for i, flat in enumerate(flats):
        n = len(flat.vec)
        J = np.zeros((m, n))
        for j in range(n if m else 0):  # no differentiable output: the Jacobian is empty
            direction = np.zeros(n)
            direction[j] = 1.0

            def along(eps: float, i: int = i, direction: np.ndarray = direction) -> np.ndarray:
                args = [fl.rebuild(fl.vec + (eps * direction if k == i else 0.0), promote)
                        for k, fl in enumerate(flats)]
                return _output_vec(ytree, yspecs, f(*args))

            J[:, j] = np.asarray(fdm(along, 0.0), dtype=np.float64).reshape(-1)
        out.append(J)
    return out


def vjp(fdm: FDMethod | None, f: Callable[..., Any], dy: Any, *xs: Any, promote: bool = True) -> tuple[Any, ...]:
    """Estimate the pullback ``J(x)^T dy`` of ``f`` for each argument.

    Parameters
    ----------
    fdm : FiniteDifferenceMethod or None
    f : callable
    dy : a cotangent of ``f``'s output (any form the output's structure accepts)
    *xs : the arguments

    Returns
    -------
    tuple
        One cotangent per argument, in the argument's structure. The cost is one
        finite-difference derivative per real entry of the arguments (complex entries
        count twice).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import vjp
    >>> (dx,) = vjp(None, lambda z: z * z, 1.0, 1.0 + 2.0j)   # conj(2z) * dy
    >>> complex(np.round(dx, 8))
    (2-4j)
    """
    flats = [_Flat(x) for x in xs]
    y_flat = tree_flatten(f(*xs))
    ytree = y_flat[1]
    dyvec = leaves_to_vec(ytree.flatten_tangent(dy), ytree.leaf_specs())
    if not np.any(dyvec):  # a zero cotangent: nothing to evaluate
        return tuple(flat.tangent(np.zeros(len(flat.vec))) for flat in flats)
    jacobians = _jacobians(default_fdm() if fdm is None else fdm, f, flats, y_flat, promote)
    return tuple(flat.tangent(J.T @ dyvec) for flat, J in zip(flats, jacobians))
