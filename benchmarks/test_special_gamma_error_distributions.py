"""Special functions (gamma, error functions, exponentials, zeta, distributions): pullback time / primal time.

For each case the group ``<case>`` times, on float64 arrays:

* the primal SciPy call (the baseline);
* chainrules: ``pullback(dy)`` after a fresh (untimed) ``rrule`` in every round, with the
  cotangents of the differentiated arguments unthunked (the others are never computed);
* autograd's ``vjp(dy)`` (``autograd.scipy.special``) and JAX's jitted ``vjp_fn(dy)``
  (``jax.scipy.special``, x64, CPU; its forward pass is done once) where they have the
  function and differentiate those arguments (JAX raises for ``betainc`` in ``a``, ``b``;
  autograd differentiates ``gammainc``/``betainc`` in ``x`` only). A competitor without the
  function is absent from the group.

Elementary functions at n = 1e5 (goal: at most 2x the primal); derivatives in shape
parameters and orders at n = 1e4 (their cost is stated, not bounded: series and continued
fractions, Poisson mixtures). Run:
``OPENBLAS_NUM_THREADS=1 python -m pytest benchmarks/test_special_gamma_error_distributions.py --benchmark-only -q``;
the ratio table (median / the primal's median) is printed at the end.
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
SMALL, LARGE = 10_000, 100_000


@dataclass
class Case:
    """One call: SciPy's function, its arguments, which are differentiated (positions), and competitors' spellings.

    ``jax_f(jsp, *args)`` / ``autograd_f(asp, *args)`` evaluate it with ``jax.scipy.special`` /
    ``autograd.scipy.special`` (``None``: the competitor lacks it or those derivatives).
    """

    name: str
    f: Callable[..., Any]
    args: tuple[Any, ...]
    wanted: tuple[int, ...]
    jax_f: Callable[..., Any] | None = None
    autograd_f: Callable[..., Any] | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.y = self.f(*self.args, **self.kwargs)
        self.dy = np.random.default_rng(5).standard_normal(np.shape(self.y))


def _cases() -> list[Case]:
    r = np.random.default_rng(3)
    n, m = LARGE, SMALL
    x = r.uniform(0.5, 5.0, n)
    b = r.uniform(0.5, 5.0, n)
    z = r.standard_normal(n)
    p = r.uniform(0.02, 0.98, n)
    a_s, x_s = r.uniform(0.5, 20.0, m), r.uniform(0.1, 30.0, m)
    b_s, u_s = r.uniform(0.5, 20.0, m), r.uniform(0.02, 0.98, m)
    return [
        # elementary: the goal is at most 2x the primal
        Case("gamma", sc.gamma, (x,), (0,), lambda s, v: s.gamma(v), lambda s, v: s.gamma(v)),
        Case("gammaln", sc.gammaln, (x,), (0,), lambda s, v: s.gammaln(v), lambda s, v: s.gammaln(v)),
        Case("digamma", sc.digamma, (x,), (0,), lambda s, v: s.digamma(v), lambda s, v: s.digamma(v)),
        Case("beta", sc.beta, (x, b), (0, 1), lambda s, u, v: s.beta(u, v), lambda s, u, v: s.beta(u, v)),
        Case("erf", sc.erf, (z,), (0,), lambda s, v: s.erf(v), lambda s, v: s.erf(v)),
        Case("erfcx", sc.erfcx, (z,), (0,), lambda s, v: s.erfcx(v)),
        Case("log_ndtr", sc.log_ndtr, (z,), (0,), lambda s, v: s.log_ndtr(v)),
        Case("ndtri", sc.ndtri, (p,), (0,), lambda s, v: s.ndtri(v)),
        Case("expit", sc.expit, (z,), (0,), lambda s, v: s.expit(v), lambda s, v: s.expit(v)),
        Case("logit", sc.logit, (p,), (0,), lambda s, v: s.logit(v), lambda s, v: s.logit(v)),
        Case("xlogy", sc.xlogy, (x, b), (0, 1), lambda s, u, v: s.xlogy(u, v)),
        Case("exprel", sc.exprel, (z,), (0,)),
        Case("boxcox x,lmbda", sc.boxcox, (x, z), (0, 1)),
        Case("logsumexp axis=1", sc.logsumexp, (z.reshape(1000, 100),), (0,),
             lambda s, v: s.logsumexp(v, axis=1), lambda s, v: s.logsumexp(v, axis=1), {"axis": 1}),
        Case("softmax axis=1", sc.softmax, (z.reshape(1000, 100),), (0,), lambda s, v: s.softmax(v, axis=1),
             kwargs={"axis": 1}),
        Case("zeta q", sc.zeta, (x + 1.5, b), (1,), lambda s, u, v: s.zeta(u, v)),
        Case("expi", sc.expi, (x,), (0,), lambda s, v: s.expi(v)),
        Case("lambertw", sc.lambertw, (x,), (0,)),
        Case("voigt_profile x,sigma,gamma", sc.voigt_profile, (z, x, b), (0, 1, 2)),
        # orders and shape parameters (n = 1e4): their cost
        Case("gammainc x", sc.gammainc, (a_s, x_s), (1,), lambda s, u, v: s.gammainc(u, v),
             lambda s, u, v: s.gammainc(u, v)),
        Case("gammainc a,x", sc.gammainc, (a_s, x_s), (0, 1), lambda s, u, v: s.gammainc(u, v)),
        Case("gammaincinv a,p", sc.gammaincinv, (a_s, u_s), (0, 1)),
        Case("betainc x", sc.betainc, (a_s, b_s, u_s), (2,), lambda s, u, v, w: s.betainc(u, v, w),
             lambda s, u, v, w: s.betainc(u, v, w)),
        Case("betainc a,b,x", sc.betainc, (a_s, b_s, u_s), (0, 1, 2)),
        Case("betaincinv a,b,y", sc.betaincinv, (a_s, b_s, u_s), (0, 1, 2)),
        Case("zeta s", sc.zeta, (a_s + 1.5,), (0,)),
        Case("stdtr df,t", sc.stdtr, (a_s, x_s - 15.0), (0, 1)),
        Case("gdtr a,b,x", sc.gdtr, (u_s, a_s, x_s), (0, 1, 2)),
        Case("chndtr x,df,nc", sc.chndtr, (x_s, a_s, u_s * 10), (0, 1, 2)),
        Case("wright_bessel a,b,x", sc.wright_bessel, (u_s, a_s / 4, x_s / 3), (0, 1, 2)),
    ]


CASES = _cases()
IDS = [case.name for case in CASES]


def _rounds(case: Case) -> int:
    return 5 if case.y.size <= SMALL else 15


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_primal(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    benchmark.extra_info["baseline"] = True
    benchmark.pedantic(lambda: case.f(*case.args, **case.kwargs), rounds=_rounds(case), warmup_rounds=1)


def _pullback(pullback: Callable[[Any], tuple[Any, ...]], dy: Any, wanted: tuple[int, ...]) -> list[Any]:
    cotangents = pullback(dy)
    return [unthunk(cotangents[k + 1]) for k in wanted]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (rrule(case.f, *case.args, **case.kwargs)[1], case.dy, case.wanted), {}

    benchmark.pedantic(_pullback, setup=setup, rounds=_rounds(case), warmup_rounds=1)


@pytest.mark.parametrize("case", [c for c in CASES if c.autograd_f is not None],
                         ids=[c.name for c in CASES if c.autograd_f is not None])
def test_pullback_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    import autograd.scipy.special as asp
    from autograd import make_vjp

    def f(xs: Any) -> Any:
        args = list(case.args)
        for k, v in zip(case.wanted, xs):
            args[k] = v
        return case.autograd_f(asp, *args)  # type: ignore[misc]

    diff = [case.args[k] for k in case.wanted]

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (make_vjp(f)(diff)[0], case.dy), {}

    benchmark.pedantic(lambda vjp, dy: vjp(dy), setup=setup, rounds=_rounds(case), warmup_rounds=1)


@pytest.mark.parametrize("case", [c for c in CASES if c.jax_f is not None],
                         ids=[c.name for c in CASES if c.jax_f is not None])
def test_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = case.name
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    import jax.scipy.special as jsp

    args = [jax.numpy.asarray(a) for a in case.args]

    def f(*xs: Any) -> Any:
        full = list(args)
        for k, v in zip(case.wanted, xs):
            full[k] = v
        return case.jax_f(jsp, *full)  # type: ignore[misc]

    _, vjp_fn = jax.vjp(f, *(args[k] for k in case.wanted))
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.asarray(case.dy)
    jax.block_until_ready(backward(dy))
    benchmark.pedantic(lambda: jax.block_until_ready(backward(dy)), rounds=_rounds(case), warmup_rounds=1)
