"""Accuracy of the special-function rules (gamma, error functions, distributions) against mpmath at 30 digits.

The worst relative error, per derivative, on grids a little wider than the tests' (the
numbers quoted in ``docs/rules/special-gamma-error-distributions.md``): each derivative is
compared with mpmath's numerical derivative of the function (of the smaller tail, so that
mpmath resolves it), of its defining series, or of mpmath's own root for an inverse. Not a
test: run ``PYTHONPATH=. python benchmarks/special_gamma_error_distributions_accuracy.py``
(a few seconds).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any

import mpmath as mp
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

mp.mp.dps = 30


def _partials(fun: Callable[..., Any], *args: Any) -> list[Any]:
    return [mp.diff(lambda t, i=i: fun(*args[:i], t, *args[i + 1:]), args[i]) for i in range(len(args))]


def _worst(f: Any, oracle: Callable[..., Any], points: Iterable[tuple[Any, ...]],
           which: set[int] | None = None) -> float:
    """The worst relative error of ``f``'s cotangents (at unit output cotangent) against the oracle's partials."""
    worst = 0.0
    for args in points:
        got = [unthunk(c) for c in rrule(f, *args)[1](1.0)[1:]]
        expected = oracle(*args) if not callable(oracle) or getattr(oracle, "gives_partials", False) else \
            _partials(oracle, *args)
        for i, (g, e) in enumerate(zip(got, expected)):
            if (which is None or i in which) and abs(e) > 1e-290:
                worst = max(worst, abs(float((g - e) / e)))
    return worst


def _partials_oracle(fun: Callable[..., Any]) -> Callable[..., Any]:
    """Mark an oracle that returns the list of partials itself."""
    fun.gives_partials = True  # type: ignore[attr-defined]
    return fun


def _lower(s: Any, z: Any) -> Any:
    return mp.gammainc(s, 0, z, regularized=True)


def _upper(s: Any, z: Any) -> Any:
    return mp.gammainc(s, z, mp.inf, regularized=True)


def _ib(a: Any, b: Any, x: Any) -> Any:
    return mp.betainc(a, b, 0, x, regularized=True)


@_partials_oracle
def _gammainc_tail(a: Any, x: Any) -> list[Any]:
    fixed = (lambda s: _lower(s, x)) if x <= a else (lambda s: -_upper(s, x))
    return [mp.diff(fixed, a), mp.mpf(0)]  # the x partial is left out (closed form)


@_partials_oracle
def _betainc_tail(a: Any, b: Any, x: Any) -> list[Any]:
    if _ib(a, b, x) < 0.5:
        return [*_partials(lambda s, t: _ib(s, t, x), a, b), mp.mpf(0)]
    y = 1 - mp.mpf(x)
    return [*_partials(lambda s, t: -_ib(t, s, y), a, b), mp.mpf(0)]


def _student(df: Any, t: Any) -> Any:
    half = _ib(df / 2, mp.mpf(0.5), df / (df + t * t)) / 2
    return 1 - half if t > 0 else half


def _ncx2(x: Any, k: Any, nc: Any) -> Any:
    return mp.fsum(mp.exp(-nc / 2) * (nc / 2) ** j / mp.factorial(j) * _lower(k / 2 + j, x / 2) for j in range(80))


def _wright(a: Any, b: Any, x: Any) -> Any:
    return mp.nsum(lambda k: x ** k * mp.rgamma(a * k + b) / mp.factorial(k), [0, mp.inf])


def _voigt(x: Any, s: Any, g: Any) -> Any:
    z = (x + 1j * g) / (s * mp.sqrt(2))
    return mp.re(mp.exp(-z * z) * mp.erfc(-1j * z)) / (s * mp.sqrt(2 * mp.pi))


def _owens_t(h: Any, a: Any) -> Any:
    return mp.quad(lambda x: mp.exp(-h * h * (1 + x * x) / 2) / (1 + x * x), [0, a]) / (2 * mp.pi)


def _gammaincinv_root(a: Any, p: Any) -> Any:
    return mp.findroot(lambda z: _lower(a, z) - p, mp.mpf(sc.gammaincinv(float(a), float(p))))


def _betaincinv_root(a: Any, b: Any, y: Any) -> Any:
    start = mp.mpf(sc.betaincinv(float(a), float(b), float(y)))
    return mp.findroot(lambda z: _ib(a, b, z) - y, start, solver="newton",
                       df=lambda z: z ** (a - 1) * (1 - z) ** (b - 1) / mp.beta(a, b))


def _zeta_s(s: Any, q: Any = None) -> float:
    got = unthunk(rrule(sc.zeta, s)[1](1.0)[1]) if q is None else unthunk(rrule(sc.zeta, s, q)[1](1.0)[1])
    expected = mp.zeta(s, 1 if q is None else q, 1)
    return abs(float((got - expected) / expected))


def measure() -> dict[str, float]:
    """The worst relative error per derivative (see the module docstring)."""
    gamma_points = [(a, r * a) for a in (0.01, 0.3, 2.0, 20.0, 300.0, 3000.0) for r in (0.01, 0.5, 0.9, 1.0, 1.1, 2.0,
                                                                                         10.0)]
    beta_points = [(a, b, x) for a, b in ((0.05, 0.5), (0.5, 2.5), (2.0, 3.0), (7.0, 0.8), (40.0, 60.0), (300.0, 500.0),
                                          (0.3, 900.0)) for x in (0.01, 0.2, a / (a + b), 0.8, 0.99)]
    return {
        "gammainc, gammaincc in a": _worst(sc.gammainc, _gammainc_tail, gamma_points, {0}),
        "betainc, betaincc in a, b": _worst(sc.betainc, _betainc_tail, beta_points, {0, 1}),
        "gammaincinv in a, p": _worst(sc.gammaincinv, _gammaincinv_root,
                                      [(0.3, 0.2), (2.5, 0.5), (2.5, 0.97), (40.0, 0.05), (40.0, 0.9), (500.0, 0.5)]),
        "betaincinv in a, b, y": _worst(sc.betaincinv, _betaincinv_root,
                                        [(0.5, 0.7, 0.3), (2.0, 3.0, 0.5), (2.0, 3.0, 0.95), (30.0, 12.0, 0.1)]),
        "betaln, poch, binom (digamma differences)": max(
            _worst(sc.betaln, lambda a, b: mp.log(mp.beta(a, b)),
                   [(1e6, 2.0), (1e10, 1.0), (3.0, 1e-9), (0.3, 0.8), (50.0, 60.0)]),
            _worst(sc.poch, mp.rf, [(1e8, 2.0), (2.5, 1e-7), (2.5, 1.5), (-2.5, 1.2)]),
            _worst(sc.binom, mp.binomial, [(60.0, 2.5), (5.5, 2.5), (-1.5, 2.0)])),
        "zeta in s (Riemann)": max(_zeta_s(s) for s in (-30.5, -7.5, -2.0, -0.3, 0.0, 0.3, 0.999, 1.001, 2.0, 10.0,
                                                           60.0, 150.0)),
        "zeta in s (Hurwitz)": max(_zeta_s(s, q) for s, q in ((1.1, 0.3), (2.5, 2.0), (6.0, 0.05), (30.0, 1.5),
                                                              (2.0, 1e-3), (1.5, 1e3))),
        "wright_bessel in a, b": _worst(sc.wright_bessel, _wright,
                                        [(0.5, 1.0, 2.0), (1.5, 0.3, 0.05), (0.1, 2.0, 30.0), (3.0, 0.7, 8.0),
                                         (0.5, 0.0, 2.0), (1.0, 1.0, 100.0)], {0, 1}),
        "stdtr in df (df to 2000)": _worst(sc.stdtr, _student, [(3.5, 1.2), (0.7, -2.0), (30.0, -0.4), (500.0, 1.5),
                                                                 (2000.0, 2.0)], {0}),
        "fdtr in dfn, dfd": _worst(sc.fdtr, lambda m, n, x: _ib(m / 2, n / 2, m * x / (m * x + n)),
                                   [(3.5, 7.2, 1.3), (1.0, 2.0, 0.05), (30.0, 40.0, 1.1), (300.0, 500.0, 1.0)], {0, 1}),
        "gdtr in a, b": _worst(sc.gdtr, lambda a, b, x: _lower(b, a * x),
                               [(1.5, 2.5, 3.0), (0.5, 0.3, 0.2), (1.0, 60.0, 55.0)], {0, 1}),
        "chdtr in v": _worst(sc.chdtr, lambda v, x: _lower(v / 2, x / 2), [(3.0, 2.0), (0.5, 0.01), (120.0, 118.0)],
                             {0}),
        "chndtr in df, nc": _worst(sc.chndtr, _ncx2, [(3.0, 2.5, 1.5), (50.0, 10.0, 30.0), (0.5, 0.7, 4.0)], {1, 2}),
        "voigt_profile in sigma, gamma": _worst(sc.voigt_profile, _voigt,
                                                [(0.5, 0.8, 0.3), (40.0, 1.0, 1.5), (3.0, 2.0, 0.01)], {1, 2}),
        "owens_t in h, a": _worst(sc.owens_t, _owens_t, [(0.5, 0.8), (2.0, 5.0), (0.1, -3.0)]),
    }


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, value in measure().items():
            print(f"{name:45s} {value:.1e}")
