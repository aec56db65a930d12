"""Bessel-type functions: pullback time over primal time, side by side with autograd and JAX.

One case per family, on ``n = 10^4`` points (orders in ``[0, 5]``, arguments in ``[0.1,
30]``, so that every regime of the order derivative is visited). For each case the group
``<case>`` holds:

* the primal call (the baseline): ``f(v, x)`` with SciPy;
* ``chainrules x``: the pullback with only the argument's cotangent materialised (what an
  AD asks for when the order is a constant);
* ``chainrules order``: only the order's cotangent (the derivative in ``v``, which no other
  library has: its cost is stated here);
* autograd's ``vjp`` where autograd has the function (``jn``, which is SciPy's ``jv``;
  ``iv``, ``ive``, ``j1``, ``i0``...: the argument only; autograd's order cotangent is zero);
* JAX's jitted ``vjp`` where ``jax.scipy.special`` has the function (``i0e``, ``i1``: no
  ``jv``/``yv``/``iv``/``kv`` at all).

Each pullback is timed alone, after a fresh (untimed) forward pass in every round.
Run: ``OPENBLAS_NUM_THREADS=1 python -m pytest benchmarks/test_special_bessel.py --benchmark-only -q``;
the ratio table (median / the primal's median) is printed at the end and written to
``benchmarks/ratios.txt``.
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

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None

N = 10_000


@dataclass
class Case:
    """A call ``f(*args)``; ``x_index`` is the argument's position, ``order_index`` the order's (or None)."""

    name: str
    f: Any
    args: tuple[Any, ...]
    x_index: int
    order_index: int | None
    autograd: str | None = None  # the name in autograd.scipy.special
    jax: str | None = None  # the name in jax.scipy.special
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        y = self.f(*self.args, **self.kwargs)
        rng = np.random.default_rng(5)
        self.dy = tuple(rng.standard_normal(np.shape(p)) for p in y) if isinstance(y, tuple) else \
            rng.standard_normal(np.shape(y))


def _cases() -> list[Case]:
    rng = np.random.default_rng(3)
    v, x = rng.uniform(0.0, 5.0, N), rng.uniform(0.1, 30.0, N)
    n = rng.integers(0, 6, N)
    return [
        Case("jv", sc.jv, (v, x), 1, 0, autograd="jn"),
        Case("yv", sc.yv, (v, x), 1, 0),
        Case("iv", sc.iv, (v, x), 1, 0, autograd="iv"),
        Case("ive", sc.ive, (v, x), 1, 0, autograd="ive"),
        Case("kv", sc.kv, (v, x), 1, 0),
        Case("hankel1", sc.hankel1, (v, x + 0j), 1, 0),
        Case("jvp n=2", sc.jvp, (v, x, 2), 1, 0),
        Case("j1", sc.j1, (x,), 0, None, autograd="j1"),
        Case("i0e", sc.i0e, (x,), 0, None, jax="i0e"),
        Case("i1", sc.i1, (x,), 0, None, autograd="i1", jax="i1"),
        Case("k1", sc.k1, (x,), 0, None),
        Case("spherical_jn", sc.spherical_jn, (n, x), 1, None),
        Case("struve", sc.struve, (v, x), 1, 0),
        Case("modstruve", sc.modstruve, (v, x), 1, 0),
        Case("airy", sc.airy, (x - 15.0,), 0, None),
        Case("ber", sc.ber, (x,), 0, None),
        Case("itj0y0", sc.itj0y0, (x,), 0, None),
    ]


CASES = _cases()
IDS = [case.name for case in CASES]


def _time(benchmark: Any, forward: Callable[[], Any], backward: Callable[..., Any]) -> None:
    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (forward(),), {}

    benchmark.pedantic(backward, setup=setup, rounds=7, warmup_rounds=1)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    benchmark.extra_info["baseline"] = True
    benchmark.pedantic(case.f, args=case.args, kwargs=case.kwargs, rounds=7, warmup_rounds=1)


def _chainrules(benchmark: Any, case: Case, index: int) -> None:
    def forward() -> Any:
        return rrule(case.f, *case.args, **case.kwargs)[1]

    def backward(pullback: Any) -> Any:
        return unthunk(pullback(case.dy)[1 + index])

    _time(benchmark, forward, backward)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules_argument(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    benchmark.name = "chainrules x"
    _chainrules(benchmark, case, case.x_index)


@pytest.mark.parametrize("case", [c for c in CASES if c.order_index is not None],
                         ids=[c.name for c in CASES if c.order_index is not None])
def test_chainrules_order(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    benchmark.name = "chainrules order"
    assert case.order_index is not None
    _chainrules(benchmark, case, case.order_index)


@pytest.mark.parametrize("case", [c for c in CASES if c.autograd], ids=[c.name for c in CASES if c.autograd])
def test_autograd_argument(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    benchmark.name = "autograd x"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    import autograd.scipy.special as asc
    from autograd import make_vjp

    g = getattr(asc, str(case.autograd))
    rest = case.args[:case.x_index]

    def forward() -> Any:
        return make_vjp(lambda t: g(*rest, t))(case.args[case.x_index])[0]

    _time(benchmark, forward, lambda vjp: vjp(case.dy))


@pytest.mark.parametrize("case", [c for c in CASES if c.jax], ids=[c.name for c in CASES if c.jax])
def test_jax_argument(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    benchmark.name = "jax x (jit)"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    g = getattr(jax.scipy.special, str(case.jax))
    x = jax.numpy.asarray(case.args[case.x_index])
    _, vjp = jax.vjp(g, x)
    vjp = jax.jit(vjp)
    dy = jax.numpy.asarray(case.dy)
    vjp(dy)[0].block_until_ready()

    def backward(_: Any) -> Any:
        return vjp(dy)[0].block_until_ready()

    _time(benchmark, lambda: None, backward)


def interleaved_table(repeats: int = 7) -> str:
    """Primal, argument-cotangent and order-cotangent times, each the minimum of ``repeats`` interleaved runs.

    On a shared machine the medians of pytest-benchmark drift between groups run minutes
    apart; interleaving the three calls and keeping each one's fastest run gives steadier
    ratios. Run: ``python benchmarks/test_special_bessel.py``.
    """
    import time

    lines = [f"{'case':12} {'primal ms':>10} {'x ms':>8} {'order ms':>9} {'x/primal':>9} {'order/primal':>13} "
             f"{'order us/point':>15}"]
    for case in CASES:
        if case.order_index is None:
            continue
        primal, argument, order = [], [], []
        for _ in range(repeats):
            start = time.perf_counter()
            case.f(*case.args, **case.kwargs)
            primal.append(time.perf_counter() - start)
            for index, times in ((case.x_index, argument), (case.order_index, order)):
                cotangents = rrule(case.f, *case.args, **case.kwargs)[1](case.dy)
                start = time.perf_counter()
                unthunk(cotangents[1 + index])
                times.append(time.perf_counter() - start)
        p, a, o = min(primal), min(argument), min(order)
        lines.append(f"{case.name:12} {p * 1e3:10.1f} {a * 1e3:8.1f} {o * 1e3:9.1f} {a / p:9.2f} {o / p:13.2f} "
                     f"{o / N * 1e6:15.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(interleaved_table())
