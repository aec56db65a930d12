"""Accuracy of the order derivatives of the Bessel and Struve functions against mpmath, on dense grids.

Run: ``python benchmarks/bessel_order_accuracy.py`` (about a minute). For each function the
table gives, per regime of :mod:`chainrules.rulesets.special._bessel_order` (or of
:mod:`chainrules.rulesets.special._struve_order`), the number of points and the largest
relative error of ``dF_v(x)/dv`` against ``mpmath.diff`` of mpmath's own function at 60
working digits. For ``J`` and ``Y``, which oscillate, the error is also given relative to
the modulus of the Hankel function's derivative ``|dH_v/dv| = |dJ/dv + i dY/dv|`` (near a
zero of ``dJ/dv`` its relative error grows as any method's does); the largest value of that
one is what the documentation quotes. Points where the derivative underflows or overflows
float64, and points where a rule returns ``not_implemented``, are counted apart.

The complex-argument derivative (Richardson extrapolation of SciPy's function, checked by
its own error estimate) is measured on a small grid of ``z`` off the real axis.
"""

from __future__ import annotations

import time
import warnings

import mpmath as mp
import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_order import i_order, jy_order, k_order
from chainrules.rulesets.special._struve_order import struve_order
from chainrules.rulesets.special.bessel import order_derivative
from chainrules_core import NotImplementedTangent

XS = [1e-8, 1e-3, 0.1, 0.7, 1.9, 2.1, 4.0, 9.0, 19.0, 21.0, 40.0, 90.0, 300.0, 1500.0, 1e4]
VS = [0.0, 1e-4, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.3, 7.0, 15.0, 40.0, 120.0, 600.0]


def _regime(name: str, v: float, x: float) -> str:
    nu = abs(v)
    if name in "JY":
        if name == "J" and x <= 2:
            return "series"
        if x >= 20 and nu * nu <= x:
            return "Hankel (or fallback)"
        if nu > x + x ** (1 / 3) and nu >= 0.5:
            return "steepest descent"
        return "Schlaefli"
    if name == "I":
        if x <= 2:
            return "series"
        return "Schlaefli" if nu <= max(1.0, 2 * np.sqrt(x)) else "steepest descent"
    return "trapezoid"


def _mp_diff(f, v, x):
    """``mpmath.diff`` in the order, at enough digits to resolve a derivative far smaller than the function.

    (``dI_v/dv = -K_0`` at ``v = 0`` is ``e^-2x`` times ``I_0``: 60 digits resolve nothing at
    ``x = 150``.) The working precision is raised until the result has 30 digits beyond the
    ratio of the function to its derivative.
    """
    dps = 60
    d = mp.mpf(0)
    for _ in range(4):
        with mp.workdps(dps):
            try:
                value = f(v, x)
                d = mp.diff(lambda s: f(s, x), v)
            except (ValueError, mp.libmp.NoConvergence):  # mpmath could not: the point is not counted
                return None
            if d == 0 or value == 0:
                return +d
            need = 40 + int(max(0, mp.log10(abs(value) / abs(d))))
            if need <= dps:
                return +d
        dps = need + 20
    return +d


def real_orders() -> list[tuple[str, str, int, float, float]]:
    rows = []
    points = [(v, x) for x in XS for v in VS] + [(-v, x) for x in XS for v in VS if v > 0]
    v = np.array([p[0] for p in points])
    x = np.array([p[1] for p in points])
    ours = {"J": jy_order(v, x)[0], "Y": jy_order(v, x)[1], "I": i_order(v, x) * np.exp(x),
            "K": k_order(v, x) * np.exp(-x)}
    mpf = {"J": mp.besselj, "Y": mp.bessely, "I": mp.besseli, "K": mp.besselk}
    for name in "JYIK":
        table: dict[str, list[float]] = {}
        for (vi, xi), d in zip(points, ours[name]):
            if name == "I" and xi > 700:
                continue  # I overflows float64
            ref = _mp_diff(mpf[name], vi, xi)
            if ref is None or not (1e-300 < abs(ref) < 1e300):
                continue
            rel = float(abs(d - ref) / abs(ref))
            env = rel
            if name in "JY":
                other = _mp_diff(mpf["Y" if name == "J" else "J"], vi, xi)
                env = float(abs(d - ref) / abs(ref + 1j * (other or 0)))
            key = _regime(name, vi, xi) + (", negative order" if vi < 0 else "")
            table.setdefault(key, []).extend([rel, env])
        for key, errors in sorted(table.items()):
            rels, envs = errors[0::2], errors[1::2]
            rows.append((name, key, len(rels), max(rels), max(envs)))
    return rows


def struve_orders() -> list[tuple[str, str, int, float, float]]:
    rows = []
    xs = [1e-6, 0.3, 1.5, 3.0, 6.0, 10.0, 15.0, 20.0, 30.0, 50.0, 80.0, 150.0, 300.0]
    vs = [-3.3, -2.0, -1.5, -0.7, -0.5, -0.2, 0.0, 1e-3, 0.3, 0.5, 1.0, 2.5, 5.0, 12.0, 30.0, 60.0, 130.0, 200.0]
    for modified, name, f in ((False, "H (struve)", mp.struveh), (True, "L (modstruve)", mp.struvel)):
        errors = []
        missing = 0
        for xi in xs:
            for vi in vs:
                d, ok = struve_order(vi, xi, modified)
                if not ok:
                    missing += 1
                    continue
                ref = _mp_diff(f, vi, xi)
                if ref is None or ref == 0 or not (1e-300 < abs(ref) < 1e300):
                    continue
                errors.append(float(abs(d - ref) / abs(ref)))
        rows.append((name, f"all regimes ({missing} not available)", len(errors), max(errors), max(errors)))
    return rows


def complex_arguments() -> list[tuple[str, str, int, float, float]]:
    rows = []
    zs = [1 + 0.5j, 2 - 0.8j, 0.3 + 2j, -2 + 1j, 5 + 5j, 3 + 0.1j, 20 + 3j, -0.5 - 0.5j, 0.1 + 0.1j, 12 - 7j]
    vs = [0.0, 0.5, 1.5, -1.3, 3.7, 10.5]
    mpf = {sc.jv: mp.besselj, sc.yv: mp.bessely, sc.iv: mp.besseli, sc.kv: mp.besselk}
    for f, g in mpf.items():
        errors = []
        missing = 0
        for z in zs:
            for v in vs:
                d = order_derivative(f, v, z)
                if isinstance(d, NotImplementedTangent):
                    missing += 1
                    continue
                ref = _mp_diff(g, v, z)
                if ref is None or ref == 0:
                    continue
                errors.append(float(abs(d - complex(ref)) / abs(ref)))
        rows.append((f.__name__, f"complex z, Richardson ({missing} not implemented)", len(errors), max(errors),
                     max(errors)))
    return rows


def main() -> None:
    warnings.simplefilter("ignore")
    mp.mp.dps = 30
    start = time.perf_counter()
    rows = real_orders() + struve_orders() + complex_arguments()
    print(f"{'function':14} {'regime':48} {'points':>6} {'max rel. error':>15} {'max rel. to |dH/dv|':>20}")
    for name, regime, count, rel, env in rows:
        print(f"{name:14} {regime:48} {count:6d} {rel:15.2e} {env:20.2e}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
