"""What the quadrature rules share (private): reading the cotangent of ``(value, error, ...)``,
the integrand's weight, and the second integral of a derivative with the primal's settings.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.integrate

from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    ZeroTangent,
    backing,
    read_cotangents,
    unthunk,
)


def read_integral_cotangent(d_out: Any, out: tuple[Any, ...], f: Any) -> Any:
    """The cotangent of the integral from that of ``(value, abserr[, infodict, ...])``.

    The error estimate and the diagnostics (``infodict``, messages) are not differentiable:
    their cotangents are read (a bad one is an error) and dropped. A zero or not-implemented
    cotangent of the whole output passes through.

    Examples
    --------
    >>> read_integral_cotangent(Tangent(tuple, 2.0, ZeroTangent()), (1.0, 1e-14), "scipy.integrate.quad")
    2.0
    >>> read_integral_cotangent((ZeroTangent(), 1.0), (1.0, 1e-14), "scipy.integrate.quad")
    ZeroTangent()
    """
    d_out = unthunk(d_out)
    if isinstance(d_out, (AbstractZero, NotImplementedTangent)):
        return d_out
    if len(out) > 2 and (isinstance(d_out, (tuple, list)) or
                         (isinstance(d_out, Tangent) and isinstance(backing(d_out), tuple))):
        parts = tuple(backing(d_out)) if isinstance(d_out, Tangent) else tuple(d_out)
        if len(parts) != len(out):
            raise ProjectionError(f"{_name(f)} pullback: output cotangent has {len(parts)} parts, expected "
                                  f"{len(out)} (one per output)")
        d_out = parts[:2]
    values = read_cotangents(d_out, out[:2], f)
    if isinstance(values, (AbstractZero, NotImplementedTangent)):
        return values
    return ZeroTangent() if values[0] is None else values[0]


def _name(f: Any) -> str:
    if isinstance(f, str):
        return f
    module = getattr(f, "__module__", "") or ""
    return f"{'scipy.integrate' if module.startswith('scipy.integrate') else module}.{f.__name__}"


def weight_function(weight: Any, wvar: Any) -> Callable[[float], Any] | None:
    """``w(x)`` of QUADPACK's weighted rules that do not depend on the limits (``None``: no weight).

    Examples
    --------
    >>> weight_function("cos", 2.0)(0.5) == np.cos(1.0), weight_function(None, None)
    (np.True_, None)
    """
    if weight is None:
        return None
    if weight == "cos":
        return lambda x: np.cos(wvar * x)
    if weight == "sin":
        return lambda x: np.sin(wvar * x)
    if weight == "cauchy":
        return lambda x: 1.0 / (x - wvar)
    raise ValueError(f"no weight function for weight={weight!r}")


@dataclasses.dataclass
class QuadSettings:
    """The settings of a ``quad`` call that a second integral over the same range reuses."""

    epsabs: float = 1.49e-8
    epsrel: float = 1.49e-8
    limit: int = 50
    points: Any = None
    weight: Any = None
    wvar: Any = None
    wopts: Any = None
    maxp1: int = 50
    limlst: int = 50

    def quad(self, g: Callable[[float], Any], a: float, b: float, complex_func: bool = False,
             weight: Any = "same", wvar: Any = "same") -> Any:
        """``quad(g, a, b)`` with these settings (or another weight); the value."""
        options: dict[str, Any] = dict(epsabs=self.epsabs, epsrel=self.epsrel, limit=self.limit)
        weight = self.weight if weight == "same" else weight
        wvar = self.wvar if wvar == "same" else wvar
        if weight is not None:
            options.update(weight=weight, wvar=wvar, maxp1=self.maxp1, limlst=self.limlst)
            if self.wopts is not None and weight == self.weight and wvar == self.wvar:
                options["wopts"] = self.wopts
        elif self.points is not None:
            options["points"] = self.points
        return scipy.integrate.quad(g, a, b, complex_func=complex_func, **options)[0]

    def integrate(self, g: Callable[[float], np.ndarray], n: int, dtype: Any, a: float, b: float) -> np.ndarray:
        """The integral of the vector-valued ``g`` (``n`` components of ``dtype``) with these settings.

        Without a weight, one ``quad_vec`` call (one scalar ``quad`` for one component); with a weight
        (which ``quad_vec`` does not take), one weighted ``quad`` per component, sharing the
        evaluations of ``g`` at the points they have in common.
        """
        complex_values = np.dtype(dtype).kind == "c"
        if n == 0:
            return np.zeros(0, dtype=dtype)
        if self.weight is None and n > 1:
            options: dict[str, Any] = dict(epsabs=self.epsabs, epsrel=self.epsrel, limit=max(self.limit, 50))
            if self.points is not None and math.isfinite(a) and math.isfinite(b):
                options["points"] = self.points
            return np.asarray(scipy.integrate.quad_vec(g, a, b, **options)[0], dtype=dtype)
        cache: dict[float, np.ndarray] = {}

        def cached(x: float) -> np.ndarray:
            value = cache.get(x)
            if value is None:
                value = cache[x] = np.asarray(g(x))
            return value

        out = np.zeros(n, dtype=dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            for k in range(n):
                out[k] = self.quad(_component(cached, k), a, b, complex_func=complex_values)
        return out


def _component(g: Callable[[float], np.ndarray], k: int) -> Callable[[float], Any]:
    def component(x: float) -> Any:
        return g(x)[k]

    return component
