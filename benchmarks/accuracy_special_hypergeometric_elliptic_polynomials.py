"""Accuracy of the parameter derivatives of scipy.special's hypergeometric, elliptic, orthogonal-polynomial,
Legendre and parabolic cylinder rules against mpmath at 30 digits, on seeded random grids.

Run: ``python benchmarks/accuracy_special_hypergeometric_elliptic_polynomials.py`` (a few minutes).
For each function and differentiated argument the table gives the number of points, the
largest error relative to ``max(|derivative|, |value|)`` (the rules' promise: ``1e-8``), the
largest plain relative error, and how many points gave ``not_implemented`` (the rules' honest
answer where nothing reaches the accuracy). Points where SciPy's primal is not finite are
skipped. JAX's ``hyp1f1`` and ``hyp2f1`` (the only two of these with parameter gradients in
JAX) are measured on the same points, for comparison: their median error and how many
points miss ``1e-8`` or are not finite.

mpmath's derivative is ``mpmath.diff`` of mpmath's function (an independent oracle: never
this package's formulas). The test suite runs a few points per regime of the same
comparisons; this script is the wider sweep behind the numbers in
``docs/rules/special-hypergeometric-elliptic-polynomials.md``.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule
from chainrules_core import NoTangent, NotImplementedTangent, ZeroTangent

mpmath.mp.dps = 30


def _ours(f: Callable[..., Any], point: tuple[Any, ...], i: int, output: int | None) -> Any:
    # the other arguments get structural zeros: a not-implemented derivative in one of them
    # must not hide this one (a numeric 0.0 tangent still asks for its partial)
    tangents: list[Any] = [NoTangent()] + [ZeroTangent() if isinstance(p, float | complex) else NoTangent()
                                           for p in point]
    tangents[i + 1] = 1.0
    d = frule(tuple(tangents), f, *point)[1]
    if output is not None and not isinstance(d, NotImplementedTangent):
        d = d[output]
    return d


def _reference(mf: Callable[..., Any], point: tuple[Any, ...], i: int) -> tuple[complex, complex]:
    def along(t: Any) -> Any:
        args = list(point)
        args[i] = t
        return mf(*args)

    return complex(mpmath.diff(along, point[i])), complex(mf(*point))


def sweep(name: str, f: Callable[..., Any], mf: Callable[..., Any], points: list[tuple[Any, ...]],
          positions: tuple[int, ...], labels: tuple[str, ...], output: int | None = None,
          jax_f: Callable[..., Any] | None = None) -> None:
    for i, label in zip(positions, labels):
        worst = worst_plain = 0.0
        jax_errors: list[float] = []
        count = missing = 0
        for point in points:
            value = f(*point)
            if output is not None:
                value = value[output]
            if not np.all(np.isfinite(value)):
                continue
            d = _ours(f, point, i, output)
            if isinstance(d, NotImplementedTangent):
                missing += 1
                continue
            ref, v = _reference(mf, point, i)
            count += 1
            worst = max(worst, abs(complex(d) - ref) / max(abs(ref), abs(v)))
            worst_plain = max(worst_plain, abs(complex(d) - ref) / abs(ref) if ref else 0.0)
            if jax_f is not None:
                jax_errors.append(abs(complex(jax_f(point, i)) - ref) / max(abs(ref), abs(v)))
        jax_text = ""
        if jax_f is not None:
            errors = np.array(jax_errors)
            bad = int(np.sum(~(errors <= 1e-8)))
            jax_text = (f"   JAX: median err {np.median(errors):8.1e}, {bad} of {errors.size} points worse than 1e-8 "
                        "or not finite")
        print(f"{name:18s} {label:8s} {count:5d} points   max err/scale {worst:8.1e}   max rel {worst_plain:8.1e}   "
              f"not implemented {missing:3d}{jax_text}")


def _jax() -> Callable[[str], Any] | None:
    if importlib.util.find_spec("jax") is None:
        return None
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")

    def make(fname: str) -> Callable[..., Any]:
        fn = getattr(jax.scipy.special, fname)

        def derivative(point: tuple[Any, ...], i: int) -> Any:
            return jax.grad(fn, argnums=i)(*(float(p) for p in point))

        return derivative

    return make


def main() -> None:
    rng = np.random.default_rng(2026)
    make_jax = _jax()
    start = time.perf_counter()

    def u(lo: float, hi: float) -> float:
        return round(float(rng.uniform(lo, hi)), 4)

    points = [(u(-4, 4), u(-4, 4), u(-3.5, 5), float(rng.choice([u(-0.6, 0.6), u(0.6, 0.999), u(-3, -0.6),
                                                                    u(-50, -3)]))) for _ in range(60)]
    sweep("hyp2f1 (real z)", sc.hyp2f1, mpmath.hyp2f1, points, (0, 1, 2), ("a", "b", "c"),
          jax_f=make_jax("hyp2f1") if make_jax else None)
    points = [(round(float(rng.uniform(-25, 25)), 2), round(float(rng.uniform(-25, 25)), 2),
               round(float(rng.uniform(-20, 30)), 2), float(rng.choice([u(-0.6, 0.6), u(0.6, 0.99), u(-3, -0.6),
                                                                       u(-50, -3)]))) for _ in range(40)]
    sweep("hyp2f1 (|a|..<=25)", sc.hyp2f1, mpmath.hyp2f1, points, (0, 1, 2), ("a", "b", "c"))
    points = [(u(-3, 3), u(-3, 3), u(-2.5, 4), complex(u(-3, 3), u(-3, 3))) for _ in range(25)]
    sweep("hyp2f1 (complex z)", sc.hyp2f1, mpmath.hyp2f1, points, (0, 1, 2), ("a", "b", "c"))
    points = [(u(-6, 6), u(-4.5, 8), float(rng.choice([u(-2, 2), u(2, 30), u(-30, -2), u(30, 300), u(-300, -30)])))
              for _ in range(60)]
    sweep("hyp1f1", sc.hyp1f1, mpmath.hyp1f1, points, (0, 1), ("a", "b"),
          jax_f=make_jax("hyp1f1") if make_jax else None)
    points = [(u(-4.5, 8), float(rng.choice([u(-2, 2), u(2, 50), u(-50, -2), u(50, 2000), u(-2000, -50)])))
              for _ in range(50)]
    sweep("hyp0f1", sc.hyp0f1, mpmath.hyp0f1, points, (0,), ("b",))
    points = [(u(-10, 15), u(-10, 15), float(rng.choice([u(1e-3, 0.1), u(0.1, 3), u(3, 30), u(30, 500)])))
              for _ in range(60)]
    sweep("hyperu", sc.hyperu, mpmath.hyperu, points, (0, 1), ("a", "b"))
    points = [(u(-2, 6), u(-0.999, 0.999)) for _ in range(30)]
    sweep("eval_legendre", sc.eval_legendre, lambda n, x: mpmath.legendre(n, x), points, (0,), ("n",))
    points = [(u(0, 8), u(-0.999, 3.0)) for _ in range(30)]
    sweep("eval_chebyt", sc.eval_chebyt, mpmath.chebyt, points, (0,), ("n",))
    sweep("eval_chebyu", sc.eval_chebyu, mpmath.chebyu, points, (0,), ("n",))
    points = [(u(0, 8), u(-0.95, 0.95), u(-0.9, 4), u(-0.999, 2.0)) for _ in range(30)]
    sweep("eval_jacobi", sc.eval_jacobi, mpmath.jacobi, points, (0, 1, 2), ("n", "alpha", "beta"))
    points = [(int(rng.integers(0, 40)), u(-0.9, 4), u(-0.9, 4), u(-0.999, 2.0)) for _ in range(30)]
    sweep("eval_jacobi int n", sc.eval_jacobi, mpmath.jacobi, points, (1, 2), ("alpha", "beta"))
    points = [(u(0, 8), u(0.05, 4), u(-0.999, 2.0)) for _ in range(30)]
    sweep("eval_gegenbauer", sc.eval_gegenbauer, mpmath.gegenbauer, points, (0, 1), ("n", "alpha"))
    points = [(u(0, 8), u(-0.9, 4), u(0, 20)) for _ in range(30)]
    sweep("eval_genlaguerre", sc.eval_genlaguerre, mpmath.laguerre, points, (0, 1), ("n", "alpha"))
    points = [(int(rng.integers(-3, 5)), u(-0.5, 8), u(-0.999, 0.999)) for _ in range(40)]
    sweep("lpmv", sc.lpmv, lambda m, v, x: mpmath.legenp(v, m, x, type=2), points, (1, 2), ("v", "x"))
    points = [(u(-6, 6), float(rng.choice([u(-3, 3), u(-9, 9)]))) for _ in range(40)]
    sweep("pbdv", sc.pbdv, mpmath.pcfd, points, (0,), ("v",), output=0)
    sweep("pbvv", sc.pbvv, lambda v, x: mpmath.pcfv(-v - 0.5, x), points, (0,), ("v",), output=0)
    points = [(u(-4.5, 4.5), u(-5, 5)) for _ in range(30)]
    sweep("pbwa", sc.pbwa, mpmath.pcfw, points, (0,), ("a",), output=0)
    points = [(u(-50, 0.999),) for _ in range(20)]
    sweep("ellipk", sc.ellipk, mpmath.ellipk, points, (0,), ("m",))
    sweep("ellipe", sc.ellipe, mpmath.ellipe, points, (0,), ("m",))
    points = [(u(-12, 12), u(-5, 0.99)) for _ in range(30)]
    sweep("ellipkinc", sc.ellipkinc, mpmath.ellipf, points, (1,), ("m",))
    sweep("ellipeinc", sc.ellipeinc, mpmath.ellipe, points, (1,), ("m",))
    points = [(u(-20, 20), u(0.0, 0.999)) for _ in range(20)]
    for k, kind in enumerate(("sn", "cn", "dn")):
        sweep(f"ellipj {kind}", sc.ellipj, lambda x, m, kind=kind: mpmath.ellipfun(kind, x, m), points, (1,), ("m",),
              output=k)
    points = [(u(0.01, 5), u(0.01, 5), u(0.01, 5), u(0.01, 5)) for _ in range(25)]
    points += [(1.0, 3.0, 4.0, 1.0), (2.0, 2.0, 2.0, 2.0), (1.0, 3.0, 4.0, 4.0 + 1e-9)]
    sweep("elliprj", sc.elliprj, mpmath.elliprj, points, (0, 1, 2, 3), ("x", "y", "z", "p"))
    sweep("elliprd", sc.elliprd, mpmath.elliprd, [p[:3] for p in points], (0, 1, 2), ("x", "y", "z"))
    sweep("elliprg", sc.elliprg, mpmath.elliprg, [p[:3] for p in points], (0, 1, 2), ("x", "y", "z"))
    sweep("elliprf", sc.elliprf, mpmath.elliprf, [p[:3] for p in points], (0, 1, 2), ("x", "y", "z"))
    sweep("elliprc", sc.elliprc, mpmath.elliprc, [p[:2] for p in points] + [(0.7, -1.3), (2.0, -0.1)], (0, 1),
          ("x", "y"))
    _no_mpmath(rng)
    print(f"({time.perf_counter() - start:.0f} s)")


def _no_mpmath(rng: np.random.Generator) -> None:
    """Mathieu and spheroidal (mpmath has neither): against extrapolated differences of SciPy's function."""
    from chainrules.rulesets.special._numerical import parameter_derivative

    def versus_differences(name: str, f: Callable[..., Any], points: list[tuple[Any, ...]], i: int,
                           output: int | None = None) -> None:
        worst, missing = 0.0, 0
        for point in points:
            d = _ours(f, point, i, output)
            if isinstance(d, NotImplementedTangent):
                missing += 1
                continue

            def along(t: Any, point: tuple[Any, ...] = point) -> Any:
                args = list(point)
                args[i] = t[0]
                value = f(*args)
                return np.atleast_1d(value[output] if output is not None else value)

            ref, _ = parameter_derivative(along, np.array([point[i]]))
            value = f(*point)
            value = value[output] if output is not None else value
            worst = max(worst, abs(complex(d) - ref[0]) / max(abs(ref[0]), abs(value)))
        print(f"{name:18s} {'vs diff':8s} {len(points) - missing:5d} points   max err/scale {worst:8.1e}   "
              f"(reference: Richardson differences of SciPy)   not implemented {missing:3d}")

    def u(lo: float, hi: float) -> float:
        return round(float(rng.uniform(lo, hi)), 4)

    for f, low in ((sc.mathieu_a, 0), (sc.mathieu_b, 1)):
        versus_differences(f"{f.__name__} q", f, [(int(rng.integers(low, 8)), u(-30, 30)) for _ in range(30)], 1)
    for f, low in ((sc.mathieu_cem, 0), (sc.mathieu_sem, 1)):
        points = [(int(rng.integers(low, 7)), u(-20, 20), u(0, 180)) for _ in range(30)]
        versus_differences(f"{f.__name__} q", f, points, 1, output=0)
        versus_differences(f"{f.__name__}' q", f, points, 1, output=1)
    for f in (sc.mathieu_modcem1, sc.mathieu_modcem2, sc.mathieu_modsem1, sc.mathieu_modsem2):
        points = [(int(rng.integers(1, 6)), u(0.05, 25), u(0.05, 2)) for _ in range(20)]
        versus_differences(f"{f.__name__} q", f, points, 1, output=0)
    for f in (sc.pro_cv, sc.obl_cv):
        points = []
        for _ in range(30):
            m = int(rng.integers(0, 4))
            points.append((m, m + int(rng.integers(0, 5)), u(0.05, 8)))
        versus_differences(f"{f.__name__} c", f, points, 2)


if __name__ == "__main__":
    main()
