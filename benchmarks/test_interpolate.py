"""scipy.interpolate: the pullback of chainrules against the primal (and JAX where it has the function).

Groups (each a ratio to the SciPy primal, the baseline):

* ``CubicSpline 1e4 knots, 1e5 queries``: the primal ``CubicSpline(x, y)(xq)`` (construction and
  evaluation); chainrules' pullback of the two steps (the call's pullback, then the
  constructor's: one sparse LU solve for the slopes) with respect to ``y`` and with respect to
  ``x``, ``y`` and ``xq``. Neither JAX nor PyTorch has a cubic spline.
* ``RegularGridInterpolator 512x512 linear, 1e5 queries``: the primal call; chainrules'
  pullback with respect to the values and the points; JAX's jitted ``vjp`` of
  ``jax.scipy.interpolate.RegularGridInterpolator`` (values and points).

The pullbacks are timed alone (the forward passes and the rule calls done beforehand),
cotangents unthunked. Run: ``python -m pytest benchmarks/test_interpolate.py --benchmark-only -q``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest
import scipy.interpolate as si

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_JAX = importlib.util.find_spec("jax") is not None

RNG = np.random.default_rng(0)
X = np.cumsum(RNG.uniform(0.5, 1.5, 10_000))
Y = np.sin(X / 50.0) + 0.1 * RNG.standard_normal(X.size)
XQ = RNG.uniform(X[0], X[-1], 100_000)
DY = RNG.standard_normal(XQ.size)
GRID = (np.linspace(0.0, 1.0, 512), np.linspace(0.0, 2.0, 512))
VALUES = RNG.standard_normal((512, 512))
POINTS = np.stack([RNG.uniform(0.0, 1.0, 100_000), RNG.uniform(0.0, 2.0, 100_000)], axis=1)
ROUNDS = 7


def _run(benchmark: Any, group: str, fn: Any, baseline: bool = False) -> None:
    benchmark.group = group
    if baseline:
        benchmark.extra_info["baseline"] = True
    benchmark.pedantic(fn, rounds=ROUNDS, iterations=1, warmup_rounds=1)


# ---- CubicSpline ------------------------------------------------------------------------------------------
SPLINE = "CubicSpline 1e4 knots, 1e5 queries"


def test_spline_primal(benchmark: Any) -> None:
    _run(benchmark, SPLINE, lambda: si.CubicSpline(X, Y)(XQ), baseline=True)


def _spline_pullbacks() -> tuple[Any, Any]:
    spline, construct_pullback = rrule(si.CubicSpline, X, Y)
    _, call_pullback = rrule(spline, XQ)
    return construct_pullback, call_pullback


def test_spline_chainrules_values(benchmark: Any) -> None:
    construct_pullback, call_pullback = _spline_pullbacks()

    def run() -> Any:
        dspline, _ = call_pullback(DY)
        return unthunk(construct_pullback(unthunk(dspline))[2])

    _run(benchmark, SPLINE, run)


def test_spline_chainrules_everything(benchmark: Any) -> None:
    construct_pullback, call_pullback = _spline_pullbacks()

    def run() -> Any:
        dspline, dxq = call_pullback(DY)
        parts = construct_pullback(unthunk(dspline))
        return unthunk(parts[1]), unthunk(parts[2]), unthunk(dxq)

    _run(benchmark, SPLINE, run)


# ---- RegularGridInterpolator --------------------------------------------------------------------------------
GRID_GROUP = "RegularGridInterpolator 512x512 linear, 1e5 queries"


def test_grid_primal(benchmark: Any) -> None:
    interpolator = si.RegularGridInterpolator(GRID, VALUES)
    _run(benchmark, GRID_GROUP, lambda: interpolator(POINTS), baseline=True)


def test_grid_chainrules(benchmark: Any) -> None:
    interpolator, construct_pullback = rrule(si.RegularGridInterpolator, GRID, VALUES)
    _, call_pullback = rrule(interpolator, POINTS)

    def run() -> Any:
        dobj, dpoints = call_pullback(DY)
        return unthunk(construct_pullback(unthunk(dobj))[2]), unthunk(dpoints)

    _run(benchmark, GRID_GROUP, run)


@pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed")
def test_grid_jax(benchmark: Any) -> None:
    import jax
    import jax.numpy as jnp
    from jax.scipy.interpolate import RegularGridInterpolator

    jax.config.update("jax_enable_x64", True)
    grid = tuple(jnp.asarray(g) for g in GRID)

    def f(values: Any, points: Any) -> Any:
        return RegularGridInterpolator(grid, values)(points)

    y, vjp_fn = jax.vjp(f, jnp.asarray(VALUES), jnp.asarray(POINTS))
    np.testing.assert_allclose(np.asarray(y), si.RegularGridInterpolator(GRID, VALUES)(POINTS), atol=1e-9)
    pullback = jax.jit(vjp_fn)
    dy = jnp.asarray(DY)

    def run() -> Any:
        dv, dp = pullback(dy)
        return dv.block_until_ready(), dp.block_until_ready()

    _run(benchmark, GRID_GROUP, run)
