"""The reverse and forward steps of an implicit-function-theorem rule, for root-type equations.

Root finders (``root``, ``fsolve``, the scalar bracketing methods, ``newton``, ``fixed_point``)
share them: the equation is ``fun(x, *args) - shift * x = 0`` (``shift = 1`` for a fixed point
``x = g(x)``, ``0`` otherwise), linearised at the solution through the config.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.optimize._implicit import (
    ForwardLinearization,
    ImplicitDerivativeError,
    ReverseLinearization,
    flat,
    refine_adjoint,
    solve,
    solve_adjoint,
)
from chainrules_core import ZeroTangent

__all__ = ["ShiftedForward", "ShiftedReverse", "implicit_pullback", "implicit_pushforward"]


class ShiftedReverse(ReverseLinearization):
    """``fun(x, *args) - shift * x`` in reverse mode (``shift = 1``: a fixed-point map's residual)."""

    def __init__(self, *args: Any, shift: float = 0.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shift = shift

    def adjoint(self, v: np.ndarray) -> np.ndarray:
        return super().adjoint(v) - self.shift * v  # jacobian() is built from adjoint(): shifted too


class ShiftedForward(ForwardLinearization):
    """``fun(x, *args) - shift * x`` in forward mode."""

    def __init__(self, *args: Any, shift: float = 0.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shift = shift

    def matvec(self, v: np.ndarray) -> np.ndarray:
        return super().matvec(v) - self.shift * v  # jacobian() is built from matvec(): shifted too


_DIAGONAL_RTOL = 1e-10


def _probe(n: int) -> np.ndarray:
    """A fixed vector with entries in [1, 2] (the same on every call, so results are reproducible)."""
    return 1.0 + np.random.default_rng(20260211).random(n)


def _diagonal(d: np.ndarray, r: np.ndarray, product: np.ndarray) -> bool:
    """Whether ``product`` (``J^T r`` or ``J r``) is ``d * r``: then ``J`` is diagonal, with diagonal ``d``
    (for a ``J`` that is not diagonal this holds for a set of ``r`` of measure zero)."""
    scale = np.abs(d * r) + np.abs(product)
    return bool(np.all(np.abs(product - d * r) <= _DIAGONAL_RTOL * scale + 1e-300))


def implicit_pullback(lin: ReverseLinearization, xbar: np.ndarray, name: str, jacobian: np.ndarray | None = None,
                      what: str = "the Jacobian of the equations",
                      elementwise: bool = False) -> tuple[Any, Sequence[Any]]:
    """``(d_fun, [d_arg...])``: solve ``J^T u = xbar``, then the AD's cotangents of ``fun`` and ``args`` at ``-u``.

    ``jacobian``: ``J`` from the user (``jac=``), used for the solve and checked against the AD's
    ``J^T u``, which the last pullback computes anyway (see :func:`refine_adjoint`).
    ``elementwise``: ``fun`` is expected to act elementwise (vectorised ``newton``,
    ``fixed_point``): ``J^T 1`` and ``J^T r`` at a fixed random ``r`` test that ``J`` is diagonal,
    and the solve is then a division; otherwise the general solve runs.
    """
    shift = getattr(lin, "shift", 0.0)
    u = None
    if elementwise and jacobian is None and lin.n > 1:
        d = lin.adjoint(np.ones(lin.n))
        r = _probe(lin.n)
        if _diagonal(d, r, lin.adjoint(r)):
            if np.any(d == 0) or not np.all(np.isfinite(d)):
                raise ImplicitDerivativeError(f"{name}: {what} is singular at the solution (a zero derivative): the "
                                              "solution is not locally unique, so it has no derivative")
            u = xbar / d
    if u is None:
        u = solve_adjoint(lin, xbar, name, what, jacobian=jacobian)
    cotangents = lin.pull(-u)
    if jacobian is not None:
        jtu = -flat(cotangents[1], lin.x, "the cotangent of x") - shift * u
        refined = refine_adjoint(lin, xbar, u, jtu, np.asarray(jacobian, dtype=np.float64), name, what)
        if refined is not None:
            cotangents = lin.pull(-refined)
    return cotangents[0], cotangents[2:]


def implicit_pushforward(lin: ForwardLinearization, dfun: Any, dargs: Sequence[Any], name: str,
                         jacobian: np.ndarray | None = None, what: str = "the Jacobian of the equations",
                         elementwise: bool = False) -> np.ndarray:
    """``dx`` (flat): ``J dx = -(dF/dtheta) dtheta``, the right side by one pushforward of ``fun``."""
    _, rhs = lin.push(dfun, ZeroTangent(), dargs)
    if not np.any(rhs):
        return np.zeros(lin.n)
    if elementwise and jacobian is None and lin.n > 1:
        d = lin.matvec(np.ones(lin.n))
        r = _probe(lin.n)
        if _diagonal(d, r, lin.matvec(r)):
            if np.any(d == 0) or not np.all(np.isfinite(d)):
                raise ImplicitDerivativeError(f"{name}: {what} is singular at the solution (a zero derivative): the "
                                              "solution is not locally unique, so it has no derivative")
            return -rhs / d
    return -solve(lin, rhs, name, what, jacobian=jacobian)
