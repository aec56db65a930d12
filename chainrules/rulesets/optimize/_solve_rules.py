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
        return super().adjoint(v) - self.shift * v

    def jacobian(self) -> np.ndarray:
        return super().jacobian() - self.shift * np.eye(self.n)


class ShiftedForward(ForwardLinearization):
    """``fun(x, *args) - shift * x`` in forward mode."""

    def __init__(self, *args: Any, shift: float = 0.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shift = shift

    def matvec(self, v: np.ndarray) -> np.ndarray:
        return super().matvec(v) - self.shift * v

    def jacobian(self) -> np.ndarray:
        return super().jacobian() - self.shift * np.eye(self.n)


def implicit_pullback(lin: ReverseLinearization, xbar: np.ndarray, name: str, jacobian: np.ndarray | None = None,
                      what: str = "the Jacobian of the equations") -> tuple[Any, Sequence[Any]]:
    """``(d_fun, [d_arg...])``: solve ``J^T u = xbar``, then the AD's cotangents of ``fun`` and ``args`` at ``-u``.

    ``jacobian``: ``J`` from the user (``jac=``), used for the solve and checked against the AD's
    ``J^T u``, which the last pullback computes anyway (see :func:`refine_adjoint`).
    """
    shift = getattr(lin, "shift", 0.0)
    u = solve_adjoint(lin, xbar, name, what, jacobian=jacobian)
    cotangents = lin.pull(-u)
    if jacobian is not None:
        jtu = -flat(cotangents[1], lin.x, "the cotangent of x") - shift * u
        refined = refine_adjoint(lin, xbar, u, jtu, np.asarray(jacobian, dtype=np.float64), name, what)
        if refined is not None:
            cotangents = lin.pull(-refined)
    return cotangents[0], cotangents[2:]


def implicit_pushforward(lin: ForwardLinearization, dfun: Any, dargs: Sequence[Any], name: str,
                         jacobian: np.ndarray | None = None,
                         what: str = "the Jacobian of the equations") -> np.ndarray:
    """``dx`` (flat): ``J dx = -(dF/dtheta) dtheta``, the right side by one pushforward of ``fun``."""
    _, rhs = lin.push(dfun, ZeroTangent(), dargs)
    if not np.any(rhs):
        return np.zeros(lin.n)
    return -solve(lin, rhs, name, what, jacobian=jacobian)
