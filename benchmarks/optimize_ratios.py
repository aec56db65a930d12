"""Gradient/primal time ratios of the optimize rules and their competitors, measured interleaved.

``benchmarks/test_optimize.py`` times each candidate on its own; on a shared machine the load
changes between them. Here every round times the primal and each candidate back to back (best of
``--repeat`` calls each), and the table gives each candidate's best time and the median over the
rounds of its ratio to that round's primal. The problems and candidates are those of
``test_optimize.py`` (its docstring describes them). Run::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    python benchmarks/optimize_ratios.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import autograd
import numpy as np
import test_optimize as bench

from chainrules import RulesOnlyConfig
from chainrules.interop.autograd import AutogradConfig
from chainrules.rulesets.optimize import _implicit


def _gmres_root() -> Any:
    saved = _implicit.DIRECT_UP_TO, _implicit.DENSE_UP_TO
    _implicit.DIRECT_UP_TO = _implicit.DENSE_UP_TO = 0
    try:
        return bench._root_gradient(AutogradConfig(), bench.residual)
    finally:
        _implicit.DIRECT_UP_TO, _implicit.DENSE_UP_TO = saved


def _dense_root() -> Any:
    saved = _implicit.DIRECT_UP_TO
    _implicit.DIRECT_UP_TO = bench.N
    try:
        return bench._root_gradient(AutogradConfig(), bench.residual)
    finally:
        _implicit.DIRECT_UP_TO = saved


def _jax_candidates() -> dict[str, dict[str, Callable[[], Any]]]:
    try:
        import jax
        import jaxopt
    except ImportError:
        return {"root": {}, "minimize": {}}
    jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy
    w, b = jnp.asarray(bench.W), jnp.asarray(bench.B)

    def newton_loss(w: Any, b: Any) -> Any:
        x = jnp.zeros(bench.N)
        for _ in range(8):
            t = jnp.tanh(w @ x)
            x = x - jnp.linalg.solve(jnp.eye(bench.N) + 0.5 * (1 - t ** 2)[:, None] * w, x + 0.5 * t - b)
        return 0.5 * jnp.sum(x ** 2)

    root_unrolled = jax.jit(jax.grad(newton_loss, (0, 1)))
    xj, xv, yv = jnp.asarray(bench.X), jnp.asarray(bench.XV), jnp.asarray(bench.YV)

    def objective(wt: Any, y: Any, lam: Any) -> Any:
        z = xj @ wt
        return jnp.sum(jnp.logaddexp(0.0, z) - y * z) + 0.5 * lam * jnp.sum(wt ** 2)

    solver = jaxopt.LBFGS(fun=objective, tol=1e-10, maxiter=500, implicit_diff=True)

    def outer(y: Any, lam: Any) -> Any:
        wt = solver.run(jnp.zeros(bench.P), y, lam).params
        z = xv @ wt
        return jnp.sum(jnp.logaddexp(0.0, z) - yv * z)

    lbfgs = jax.jit(jax.grad(outer, (0, 1)))
    newton = jax.jit(jax.grad(lambda y, lam: bench._newton_validation(jnp, y, lam), (0, 1)))
    y = jnp.asarray(bench.Y)
    return {"root": {"jax unrolled Newton (jit)": lambda: jax.block_until_ready(root_unrolled(w, b))},
            "minimize": {"jax unrolled Newton (jit)": lambda: jax.block_until_ready(newton(y, bench.LAM)),
                         "jaxopt LBFGS implicit diff (jit)": lambda: jax.block_until_ready(lbfgs(y, bench.LAM))}}


def _cases() -> dict[str, tuple[Callable[[], Any], dict[str, Callable[[], Any]]]]:
    root_unrolled = autograd.grad(bench._newton_loss_autograd, (0, 1))
    min_unrolled = autograd.grad(lambda y, lam: bench._newton_validation(autograd.numpy, y, lam), (0, 1))
    jax_cases = _jax_candidates()
    return {
        bench.ROOT_GROUP: (bench._root_primal, {
            "chainrules root, autograd F (GMRES, the default)": lambda: bench._root_gradient(AutogradConfig(),
                                                                                              bench.residual),
            "chainrules root, autograd F, J formed": _dense_root,
            "chainrules root, autograd F, GMRES from the start": _gmres_root,
            "chainrules root, autograd F, user jac": lambda: bench._root_gradient(
                AutogradConfig(), bench.residual, jac=bench.residual_jacobian),
            "chainrules root, rule for F": lambda: bench._root_gradient(RulesOnlyConfig(), bench.residual_np),
            "autograd unrolled Newton (8 steps)": lambda: root_unrolled(bench.W, bench.B),
            **jax_cases["root"],
        }),
        bench.MIN_GROUP: (bench._min_primal, {
            "chainrules minimize, jac given": lambda: bench._min_gradient(True),
            "chainrules minimize, second derivatives of f": lambda: bench._min_gradient(False),
            "autograd unrolled Newton (10 steps)": lambda: min_unrolled(bench.Y, bench.LAM),
            **jax_cases["minimize"],
        }),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args(argv)
    for group, (primal, candidates) in _cases().items():
        for f in (primal, *candidates.values()):
            f()  # warm up (jit, caches)
        best: dict[str, float] = {name: np.inf for name in ("primal", *candidates)}
        ratios: dict[str, list[float]] = {name: [] for name in candidates}
        for _ in range(options.rounds):
            tp = min(timeit.repeat(primal, number=1, repeat=options.repeat))
            best["primal"] = min(best["primal"], tp)
            for name, f in candidates.items():
                t = min(timeit.repeat(f, number=1, repeat=options.repeat))
                best[name] = min(best[name], t)
                ratios[name].append(t / tp)
        print(group)
        print(f"    {'primal':55s} {best['primal'] * 1e3:9.2f} ms")
        for name in sorted(candidates, key=lambda k: statistics.median(ratios[k])):
            print(f"    {name:55s} {best[name] * 1e3:9.2f} ms {statistics.median(ratios[name]):8.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
