"""The rules of scipy.special's hypergeometric, elliptic, orthogonal-polynomial, Legendre, Mathieu,
spheroidal and parabolic cylinder functions: pullback time against the primal, and JAX.

One group per case, on 10^4 points (float64): the primal call is the baseline; then the
chainrules pullback with only the argument's cotangent asked for (the cheap derivatives:
contiguous functions, closed forms) and with the parameters' (orders, shape parameters: series
with error bounds, quadrature, recurrences, extrapolated differences); JAX's jitted ``vjp``
where ``jax.scipy.special`` has the function (``hyp1f1``, ``hyp2f1``, ``sph_harm_y``; autograd has
none of these). The forward pass (rrule) is done untimed before every round, so only the
pullback is timed; the parameter partials are computed on first use inside it.

Run: ``OPENBLAS_NUM_THREADS=1 python -m pytest benchmarks/test_special_hypergeometric_elliptic_polynomials.py
--benchmark-only -q``; the ratios (median / the primal's median) are printed at the end and
written to ``benchmarks/ratios.txt``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
import scipy.special as sc

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_JAX = importlib.util.find_spec("jax") is not None
N = 10_000


@dataclass
class Case:
    """A call: the function, its arguments, and which cotangents each pullback variant asks for."""

    name: str
    f: Callable[..., Any]
    args: tuple[Any, ...]
    variants: dict[str, tuple[int, ...]]
    rounds: int = 10
    jax: Callable[..., Any] | None = None
    jax_diff: tuple[int, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        y = self.f(*self.args)
        self.dy = tuple(np.ones_like(part) for part in y) if isinstance(y, tuple) else np.ones_like(y)


def _cases() -> list[Case]:
    r = np.random.default_rng(7)
    a, b = r.uniform(0.1, 3.0, N), r.uniform(0.1, 3.0, N)
    c = r.uniform(1.0, 5.0, N)
    z = r.uniform(-0.9, 0.9, N)
    x = r.uniform(-10.0, 10.0, N)
    positive = r.uniform(0.1, 10.0, N)
    unit = r.uniform(-0.99, 0.99, N)
    m = r.uniform(0.0, 0.99, N)
    phi = r.uniform(0.0, 1.5, N)
    theta, azimuth = r.uniform(0.1, 3.0, N), r.uniform(-3.0, 3.0, N)
    orders = r.uniform(-3.0, 3.0, N)
    degrees = r.uniform(0.0, 5.0, N)
    angles = r.uniform(0.0, 180.0, N)
    return [
        Case("hyp2f1", sc.hyp2f1, (a, b, c, z), {"z": (4,), "a, b, c": (1, 2, 3)}, 5, "hyp2f1", (0, 1, 2, 3)),
        Case("hyp1f1", sc.hyp1f1, (a, b, x), {"x": (3,), "a, b": (1, 2)}, 10, "hyp1f1", (0, 1, 2)),
        Case("hyp0f1", sc.hyp0f1, (b, x), {"x": (2,), "b": (1,)}),
        Case("hyperu", sc.hyperu, (a, b, positive), {"x": (3,), "a, b": (1, 2)}, 3),
        Case("ellipkinc", sc.ellipkinc, (phi, m), {"phi, m": (1, 2)}),
        Case("ellipj", sc.ellipj, (x, m), {"u, m": (1, 2)}),
        Case("elliprj", sc.elliprj, (a, b, c, positive), {"x, y, z, p": (1, 2, 3, 4)}),
        Case("eval_jacobi n=10", sc.eval_jacobi, (10, a, b, unit), {"x": (4,), "alpha, beta": (2, 3)}),
        Case("eval_jacobi real n", sc.eval_jacobi, (degrees, a, b, unit), {"x": (4,), "n, alpha, beta": (1, 2, 3)}, 3),
        Case("eval_chebyt real n", sc.eval_chebyt, (degrees, unit), {"n, x": (1, 2)}),
        Case("lpmv", sc.lpmv, (2, degrees + 2, unit), {"x": (3,), "v": (2,)}, 3),
        Case("sph_harm_y", sc.sph_harm_y, (3, 1, theta, azimuth), {"theta, phi": (3, 4)}, 10, "sph_harm_y", (2, 3)),
        Case("mathieu_cem q fixed", sc.mathieu_cem, (3, 2.5, angles), {"x": (3,), "q": (2,)}),
        Case("pbdv", sc.pbdv, (orders, x), {"x": (2,), "v": (1,)}, 3),
        Case("pro_ang1", sc.pro_ang1, (1, 3, 1.5, unit), {"x": (4,), "c": (3,)}, 3),
    ]


CASES = _cases()


def _variants() -> list[tuple[Case, str]]:
    return [(case, name) for case in CASES for name in case.variants]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} n={N}"
    benchmark.extra_info["baseline"] = True
    benchmark.pedantic(case.f, args=case.args, rounds=case.rounds, warmup_rounds=1)


@pytest.mark.parametrize("case, variant", _variants(), ids=[f"{c.name} [{v}]" for c, v in _variants()])
def test_pullback_chainrules(benchmark: Any, case: Case, variant: str) -> None:
    benchmark.group = f"{case.name} n={N}"
    wanted = case.variants[variant]

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (rrule(case.f, *case.args)[1],), {}

    def backward(pullback: Any) -> list[Any]:
        cotangents = pullback(case.dy)
        return [unthunk(cotangents[k]) for k in wanted]

    benchmark.pedantic(backward, setup=setup, rounds=case.rounds, warmup_rounds=1)


@pytest.mark.parametrize("case", [c for c in CASES if c.jax], ids=[c.name for c in CASES if c.jax])
def test_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} n={N}"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    fn = getattr(jax.scipy.special, str(case.jax))
    args = [jax.numpy.asarray(np.broadcast_to(a, (N,)) if np.ndim(a) == 0 else a) for a in case.args]
    diff = case.jax_diff

    def call(*xs: Any) -> Any:
        full = list(args)
        for k, value in zip(diff, xs):
            full[k] = value
        out = fn(*full)
        return out.real if np.iscomplexobj(out) else out

    _, vjp_fn = jax.vjp(call, *(args[k] for k in diff))
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.ones(N)
    jax.block_until_ready(backward(dy))
    benchmark.pedantic(lambda: jax.block_until_ready(backward(dy)), rounds=case.rounds, warmup_rounds=1)
