"""Forward-mode numbers with running error bounds, for the parameter derivatives of special functions.

A :class:`Jet` holds, for every element of a 1-D array, a value, its partial derivatives with
respect to ``k`` real parameters, and a bound on the absolute rounding error of each. The
arithmetic propagates both to first order (running error analysis, Higham, *Accuracy and
Stability of Numerical Algorithms*, 2nd ed., section 3.3): for ``z = x * y``,
``err(z) <= |x| err(y) + |y| err(x) + u |z|`` with the unit roundoff ``u = 2**-53``, and the
partials obey the product rule with the same bounds. The hypergeometric rules build their
connection formulas (DLMF 15.8, 13.2.42) from jets, so the error bound of a derivative that
cancels between two large terms is known, and a rule returns ``not_implemented`` (or falls
back to another method) instead of a loose number.

The values may be real or complex; the parameters are real. Functions of special functions
(``rgamma``) assume SciPy's relative accuracy of a few units of roundoff
(:data:`FUNCTION_ULPS`).

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets.special._jet import Jet, rgamma
>>> a = Jet.variable(np.array([0.5, -2.0]), 0, 1)
>>> g = rgamma(a)                       # 1/Gamma(a) and its derivative, also at the pole a = -2
>>> np.round(g.d[0], 7)                 # -psi(1/2)/Gamma(1/2); (-1)**2 * 2!
array([1.1077919, 2.       ])
>>> bool(np.all(g.ed[0] < 1e-14))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

__all__ = ["FUNCTION_ULPS", "U", "Jet", "as_jet", "cos", "exp", "gamma_ratio", "log", "power", "rgamma", "sin"]

U = 2.0 ** -53
"""The unit roundoff of float64."""

FUNCTION_ULPS = 8.0
"""The relative error assumed of SciPy's elementary and special functions, in units of ``U``."""


class Jet:
    """Values, partial derivatives in ``k`` parameters, and bounds on their absolute errors.

    Attributes
    ----------
    v : ndarray, shape (n,)
        The values (float64 or complex128).
    d : ndarray, shape (k, n)
        ``d[i]`` is the partial derivative of ``v`` with respect to parameter ``i``.
    ev, ed : ndarray
        Bounds on the absolute errors of ``v`` and ``d`` (first order).
    """

    __slots__ = ("d", "ed", "ev", "v")

    def __init__(self, v: Any, d: Any, ev: Any, ed: Any) -> None:
        self.v, self.d, self.ev, self.ed = v, d, ev, ed

    # ---- construction --------------------------------------------------------------------------
    @classmethod
    def constant(cls, v: Any, k: int, error: Any = 0.0, shape: tuple[int, ...] | None = None) -> Jet:
        """A value that does not depend on the parameters (with an optional error bound).

        ``shape`` broadcasts a scalar to the elements of the jets it is combined with.
        """
        v = np.asarray(v)
        if shape is not None and v.shape != shape:
            v = np.broadcast_to(v, shape).copy()
        if v.dtype.kind not in "fc":
            v = v.astype(np.float64)
        ev = np.broadcast_to(np.asarray(error, dtype=np.float64), v.shape).copy()
        return cls(v, np.zeros((k, *v.shape), dtype=v.dtype), ev, np.zeros((k, *v.shape)))

    @classmethod
    def variable(cls, v: Any, i: int, k: int) -> Jet:
        """Parameter ``i`` of ``k`` itself (exact, derivative one in its own direction)."""
        jet = cls.constant(v, k)
        jet.d[i] = 1.0
        return jet

    @property
    def k(self) -> int:
        """The number of parameters."""
        return int(self.d.shape[0])

    def take(self, index: Any) -> Jet:
        """The elements at ``index`` (a boolean mask or integer indices)."""
        return Jet(self.v[index], self.d[:, index], self.ev[index], self.ed[:, index])

    def put(self, index: Any, other: Jet) -> None:
        """Overwrite the elements at ``index`` with ``other``'s (in place)."""
        if other.v.dtype.kind == "c" and self.v.dtype.kind != "c":
            self.v = self.v.astype(np.complex128)
            self.d = self.d.astype(np.complex128)
        self.v[index] = other.v
        self.d[:, index] = other.d
        self.ev[index] = other.ev
        self.ed[:, index] = other.ed

    def __repr__(self) -> str:
        return f"Jet(v={self.v!r}, d={self.d!r})"

    # ---- arithmetic ----------------------------------------------------------------------------
    def __add__(self, other: Any) -> Jet:
        o = as_jet(other, self.k, self.v.shape)
        v = self.v + o.v
        d = self.d + o.d
        return Jet(v, d, self.ev + o.ev + U * np.abs(v), self.ed + o.ed + U * np.abs(d))

    __radd__ = __add__

    def __neg__(self) -> Jet:
        return Jet(-self.v, -self.d, self.ev, self.ed)

    def __sub__(self, other: Any) -> Jet:
        return self + (-as_jet(other, self.k, self.v.shape))

    def __rsub__(self, other: Any) -> Jet:
        return as_jet(other, self.k, self.v.shape) + (-self)

    def __mul__(self, other: Any) -> Jet:
        o = as_jet(other, self.k, self.v.shape)
        v = self.v * o.v
        d1, d2 = self.d * o.v, self.v * o.d
        d = d1 + d2
        av, aov = np.abs(self.v), np.abs(o.v)
        ev = av * o.ev + aov * self.ev + U * np.abs(v)
        ed = (np.abs(self.d) * o.ev + self.ed * aov + av * o.ed + self.ev * np.abs(o.d)
              + U * (np.abs(d1) + np.abs(d2)))
        return Jet(v, d, ev, ed)

    __rmul__ = __mul__

    def reciprocal(self) -> Jet:
        """``1 / self``."""
        with np.errstate(divide="ignore", invalid="ignore"):
            v = 1.0 / self.v
        av = np.abs(v)
        d = -self.d * (v * v)
        ev = self.ev * av * av + U * av
        ed = self.ed * av * av + 2 * np.abs(self.d) * self.ev * av ** 3 + 2 * U * np.abs(d)
        return Jet(v, d, ev, ed)

    def __truediv__(self, other: Any) -> Jet:
        return self * as_jet(other, self.k, self.v.shape).reciprocal()

    def __rtruediv__(self, other: Any) -> Jet:
        return as_jet(other, self.k, self.v.shape) * self.reciprocal()

    def scaled_error(self, factor: float) -> Jet:
        """The same jet with its error bounds multiplied by ``factor`` (a safety margin)."""
        return Jet(self.v, self.d, self.ev * factor, self.ed * factor)


def as_jet(x: Any, k: int, shape: tuple[int, ...] | None = None) -> Jet:
    """``x`` itself if it is a :class:`Jet`, else a constant jet of ``k`` parameters (of ``shape``)."""
    return x if isinstance(x, Jet) else Jet.constant(x, k, shape=shape)


def _apply(x: Jet, v: Any, f1: Any, f2: Any, rel: float = FUNCTION_ULPS * U) -> Jet:
    """``f(x)`` from its value ``v``, first derivative ``f1`` and second derivative ``f2`` at ``x.v``."""
    d = f1 * x.d
    af1 = np.abs(f1)
    ev = af1 * x.ev + rel * np.abs(v)
    ed = af1 * x.ed + np.abs(f2) * np.abs(x.d) * x.ev + rel * np.abs(d)
    return Jet(v, d, ev, ed)


def exp(x: Jet) -> Jet:
    """``exp(x)``."""
    with np.errstate(over="ignore", invalid="ignore"):
        v = np.exp(x.v)
    return _apply(x, v, v, v)


def cos(x: Jet) -> Jet:
    """``cos(x)``."""
    c, s = np.cos(x.v), np.sin(x.v)
    return _apply(x, c, -s, -c)


def sin(x: Jet) -> Jet:
    """``sin(x)``."""
    c, s = np.cos(x.v), np.sin(x.v)
    return _apply(x, s, c, -s)


def log(x: Jet) -> Jet:
    """``log(x)`` (principal branch; complex for negative or complex ``x``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        v = np.log(x.v)
        r = 1.0 / x.v
    return _apply(x, v, r, r * r)


def power(base: Any, exponent: Jet) -> Jet:
    """``base ** exponent`` for a base that does not depend on the parameters (principal branch).

    ``base`` may be an array (with its own relative error bound ``FUNCTION_ULPS * U``) or a
    jet; the exponent is a jet.
    """
    k = exponent.k
    b = as_jet(base, k, exponent.v.shape)
    if not isinstance(base, Jet):
        b = Jet(b.v, b.d, b.ev + FUNCTION_ULPS * U * np.abs(b.v), b.ed)
    return exp(exponent * log(b))


def rgamma(x: Jet) -> Jet:
    """``1 / Gamma(x)`` (entire), with its derivative ``-psi(x) / Gamma(x)``.

    At the poles of Gamma, ``x = -n``, the derivative is the limit ``(-1)**n n!`` and the
    second derivative ``-2 (-1)**n n! psi(n+1)``, from the Laurent expansion
    ``Gamma(-n+e) = (-1)**n / n! (1/e + psi(n+1) + O(e))`` (DLMF 5.7.1 with 5.5.3).
    """
    xv = x.v
    v = sc.rgamma(xv)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        psi = sc.psi(xv)
        f1 = -psi * v
        f2 = (psi * psi - sc.polygamma(1, xv)) * v
    pole = (np.imag(xv) == 0) & (np.real(xv) <= 0) & (np.real(xv) == np.round(np.real(xv)))
    if np.any(pole):
        n = -np.real(xv[pole])
        sign = np.where(n % 2 == 0, 1.0, -1.0)
        fact = sc.gamma(n + 1)
        f1 = np.array(f1, copy=True)
        f2 = np.array(f2, copy=True)
        f1[pole] = sign * fact
        f2[pole] = -2 * sign * fact * sc.psi(n + 1)
    return _apply(x, v, f1, f2)


def gamma_ratio(numerator: list[Jet], denominator: list[Jet]) -> Jet:
    """``prod Gamma(numerator) / prod Gamma(denominator)`` (``inf`` at a pole of the numerator)."""
    k = (numerator or denominator)[0].k
    out = Jet.constant(np.ones_like((numerator or denominator)[0].v), k)
    for x in denominator:
        out = out * rgamma(x)
    for x in numerator:
        out = out / rgamma(x)
    return out
