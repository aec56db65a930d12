"""Fixed points: ``scipy.optimize.fixed_point``.

The maths
---------
The answer ``x*`` satisfies ``x* = g(x*, theta)`` (``g = func``, ``theta``: ``args``). With
``F(x, theta) = g(x, theta) - x``, ``dF/dx = dg/dx - I`` and the implicit function theorem
gives ``(I - dg/dx) dx* = (dg/dtheta) dtheta``; reverse mode solves
``(I - dg/dx)^T u = x*_bar`` and returns ``theta_bar = (dg/dtheta)^T u`` (for a contraction the
solve is the Neumann series ``u = sum_k (dg/dx^T)^k x*_bar``, the adjoint fixed-point
iteration of Christianson 1994, "Reverse accumulation and attractive fixed points",
Optim. Methods Softw. 3; it is done here by the solves of
:mod:`chainrules.rulesets.optimize._implicit`, exact whatever the contraction rate).

SciPy's iteration (``del2``: Steffensen's acceleration, or plain ``iteration``) treats an
array ``x0`` entry by entry, so ``func`` usually acts elementwise: as for array ``newton``,
two pullbacks test whether ``dg/dx`` is diagonal and the solve is then a division; a coupled
``func`` gets the general solve. ``fixed_point`` raises ``RuntimeError`` itself when it does
not converge, so every answer it returns is a fixed point to ``xtol``, and derivatives are
as accurate as that. ``x0`` gets ``ZeroTangent()``; a fixed point where ``dg/dx`` has an
eigenvalue 1 (not isolated) raises :class:`~chainrules.rulesets.optimize.ImplicitDerivativeError`.
The output keeps ``x0``'s shape and dtype (a 0-d array for a scalar ``x0``), and so do its
tangents.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.optimize

from chainrules.rulesets.arrays.higher_order import carries_no_values
from chainrules.rulesets.optimize import _problems
from chainrules.rulesets.optimize._implicit import (
    MissingDerivative,
    args_cotangent,
    args_tangents,
    args_tuple,
    args_zero_cotangent,
    bind,
    flat,
    is_zero,
    shaped,
    zero_cotangent,
)
from chainrules.rulesets.optimize._solve_rules import (
    ShiftedForward,
    ShiftedReverse,
    implicit_pullback,
    implicit_pushforward,
)
from chainrules.testing import PrimalAndTangent
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectTo,
    RulesOnlyConfig,
    Sample,
    ZeroTangent,
    frule,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__: list[str] = []

NO = NoTangent()
ZERO = ZeroTangent()
_NAME = "scipy.optimize.fixed_point"
_WHAT = "I - dg/dx (g: the fixed-point map)"


def _cotangents(npos: int, dfun: Any, x0: Any, dargs: Any) -> tuple[Any, ...]:
    out = [NO, dfun, zero_cotangent(x0)]
    if npos >= 3:
        out.append(dargs)
    out.extend([NO] * (npos - 3))
    return tuple(out)


def _solution(x: np.ndarray) -> Any:
    """The point at which ``func`` is linearised: float64, in ``x0``'s shape."""
    return np.asarray(x, dtype=np.float64) if np.ndim(x) else np.float64(x)


@rrule.register(scipy.optimize.fixed_point, object, object, config=HasReverseMode)
def fixed_point_rrule(config: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Reverse rule of ``scipy.optimize.fixed_point``: ``(I - dg/dx)^T u = x_bar``, ``args_bar = (dg/dargs)^T u``.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> from chainrules import rrule, RulesOnlyConfig
    >>> from chainrules.rulesets.optimize import _problems
    >>> _problems.register()                              # g(x, t) = t cos(x)
    >>> x, pullback = rrule(RulesOnlyConfig(), scipy.optimize.fixed_point, _problems.cosine_map, 0.3, (0.5,),
    ...                     xtol=1e-14)
    >>> dt = pullback(np.array(1.0))[3][0]
    >>> bool(np.isclose(dt, np.cos(x) / (1 + 0.5 * np.sin(x))))    # from x = t cos(x)
    True
    """
    x = scipy.optimize.fixed_point(func, x0, *rest, **kwargs)
    params = bind(scipy.optimize.fixed_point, (func, x0, *rest), kwargs)
    npos = 2 + len(rest)
    args = params["args"]
    point = _solution(x)

    def fixed_point_pullback(dy: Any) -> tuple[Any, ...]:
        xbar = read_cotangent(dy, x, scipy.optimize.fixed_point)
        if isinstance(xbar, NotImplementedTangent):
            return _missing(npos, func, x0, args, xbar)
        if isinstance(xbar, AbstractZero):
            return _cotangents(npos, NO, x0, args_zero_cotangent(args))
        try:
            lin = ShiftedReverse(config, func, point, args_tuple(args), shift=1.0)
            dfun, dargs = implicit_pullback(lin, flat(xbar, x), _NAME, what=_WHAT, elementwise=True)
        except MissingDerivative as missing:
            return _missing(npos, func, x0, args, missing.tangent)
        return _cotangents(npos, dfun, x0, args_cotangent(args, dargs))

    return x, fixed_point_pullback


def _missing(npos: int, func: Any, x0: Any, args: Any, t: NotImplementedTangent) -> tuple[Any, ...]:
    return _cotangents(npos, NO if carries_no_values(func) else t, x0, t if args_zero_cotangent(args) is ZERO else NO)


@frule.register(scipy.optimize.fixed_point, object, object, config=HasForwardsMode)
def fixed_point_frule(config: Any, tangents: Any, func: Any, x0: Any, *rest: Any, **kwargs: Any) -> Any:
    """Forward rule of ``scipy.optimize.fixed_point``: ``(I - dg/dx) dx = (dg/dargs) dargs``."""
    x = scipy.optimize.fixed_point(func, x0, *rest, **kwargs)
    params = bind(scipy.optimize.fixed_point, (func, x0, *rest), kwargs)
    dfun = tangents[1] if len(tangents) > 1 else NO
    dargs = tangents[3] if len(tangents) > 3 else ZERO
    if is_zero(dfun) and is_zero(dargs):
        return x, ZERO
    point = _solution(x)
    try:
        lin = ShiftedForward(config, func, point, args_tuple(params["args"]), shift=1.0)
        dx = implicit_pushforward(lin, dfun, args_tangents(dargs, params["args"]), _NAME, what=_WHAT,
                                  elementwise=True)
    except MissingDerivative as missing:
        return x, missing.tangent
    return x, ProjectTo(x)(np.reshape(dx, np.shape(x)) if np.ndim(x) else shaped(dx, point))


@sample_inputs(scipy.optimize.fixed_point)
def _fixed_point_samples(rng: np.random.Generator) -> Iterator[Sample]:
    _problems.register()
    config = RulesOnlyConfig()
    yield Sample(_problems.cosine_map, 0.3, (0.5,), fkwargs={"xtol": 1e-14}, config=config, label="scalar x = t cos x")
    yield Sample(_problems.cosine_map, np.array([0.3, -0.2, 0.1]), (np.array([0.5, -0.8, 0.9]),),
                 fkwargs={"xtol": 1e-14}, config=config, label="elementwise over an array")
    yield Sample(_problems.cosine_map, np.array([0.3, 0.2]), (0.7,), PrimalAndTangent(1e-12, NO), 500, "iteration",
                 config=config,
                 label="plain iteration, options by position")
