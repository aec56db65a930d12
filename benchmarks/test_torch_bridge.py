"""The PyTorch bridge: the Gaussian-process likelihood gradient with chainrules' linear algebra, and the per-call cost.

Two groups, each with its baseline:

* ``GP nlml gradient N=400 | PyTorch``: the gradient of the negative log marginal
  likelihood of ``benchmarks/test_gaussian_process.py`` (RBF kernel of 400 points in 2-d,
  three hyperparameters), written with ``torch`` operations, float64. Baseline: PyTorch's
  own eager gradient (``torch.linalg.cholesky``, ``torch.linalg.solve_triangular``).
  Against it: the same function with the Cholesky factorization and the triangular solve
  from chainrules' rules, through ``primitive`` (``chainrules.interop.torch.scipy.linalg``)
  and as custom ops (``chainrules.interop.torch.library.custom_op``), and both compiled
  (``torch.compile(fullgraph=True)``, inductor: the custom ops stay in the graph). The goal:
  the bridge at most 1.5 times PyTorch's own eager gradient.
* ``PyTorch primitive per call``: ``np.sin`` of 3 numbers. Baseline: the NumPy call.
  Against it: the primitive called on a tensor that requires no gradient, the rule itself
  (``rrule`` and its pullback, no bridge), a backward pass through the primitive and
  through the custom op, and PyTorch's own ``torch.sin`` forward and backward.

Run (one thread everywhere, the convention of these benchmarks)::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=268435456 \\
    python -m pytest benchmarks/test_torch_bridge.py --benchmark-only -q
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import scipy.linalg
from test_gaussian_process import EXPECTED_GRAD, PARAMS, X, Y

torch = pytest.importorskip("torch", reason="PyTorch is not installed: no PyTorch bridge benchmarks")
torch.set_num_threads(1)

from chainrules.interop.torch import scipy as tsp  # noqa: E402
from chainrules.interop.torch.library import custom_op  # noqa: E402

GP = "GP nlml gradient N=400 | PyTorch: time / PyTorch's own eager gradient"
CALL = "PyTorch primitive per call (np.sin of 3 numbers): time / NumPy call"
N = Y.shape[0]
XT = torch.tensor(X, dtype=torch.float64)
YT = torch.tensor(Y, dtype=torch.float64)
EYE = torch.eye(N, dtype=torch.float64)
_cholesky_op = custom_op(scipy.linalg.cholesky, name="bench_cholesky", lower=True)
_solve_op = custom_op(scipy.linalg.solve_triangular, name="bench_solve_lower", lower=True)


def _nlml(cholesky: Any, solve_lower: Any) -> Any:
    def nlml(params: Any) -> Any:
        sq = (XT * XT).sum(1)
        D2 = torch.clamp(sq[:, None] + sq[None, :] - 2.0 * XT @ XT.T, min=0.0)
        K = torch.exp(D2 * (-0.5 * torch.exp(-2.0 * params[0])) + params[1]) + torch.exp(params[2]) * EYE
        L = cholesky(K)
        a = solve_lower(L, YT)
        return 0.5 * a @ a + torch.log(torch.diagonal(L)).sum() + 0.5 * N * math.log(2 * math.pi)

    return nlml


OWN = _nlml(torch.linalg.cholesky, lambda L, y: torch.linalg.solve_triangular(L, y[:, None], upper=False)[:, 0])
BRIDGE = _nlml(lambda K: tsp.linalg.cholesky(K, lower=True), lambda L, y: tsp.linalg.solve_triangular(L, y, lower=True))
OPS = _nlml(_cholesky_op, _solve_op)


def _gradient(nlml: Any) -> Any:
    def gradient() -> Any:
        params = torch.tensor(PARAMS, dtype=torch.float64, requires_grad=True)
        (g,) = torch.autograd.grad(nlml(params), params)
        return g

    return gradient


def _run(benchmark: Any, nlml: Any) -> None:
    gradient = _gradient(nlml)
    np.testing.assert_allclose(gradient().numpy(), EXPECTED_GRAD, rtol=1e-6)
    benchmark(gradient)


def test_gp_torch_own_eager(benchmark: Any) -> None:
    benchmark.group = GP
    benchmark.extra_info["baseline"] = True
    _run(benchmark, OWN)


def test_gp_bridge_primitive(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, BRIDGE)


def test_gp_bridge_custom_ops(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, OPS)


def test_gp_torch_own_compiled(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, torch.compile(OWN, fullgraph=True))


def test_gp_bridge_custom_ops_compiled(benchmark: Any) -> None:
    benchmark.group = GP
    _run(benchmark, torch.compile(OPS, fullgraph=True))  # fullgraph: the custom ops break no graph


# ---- per call --------------------------------------------------------------------------------------------------
XN = np.array([0.1, 0.2, 0.3])
XT3 = torch.tensor(XN)
_sin_op = custom_op(np.sin, name="bench_sin")


def test_call_numpy(benchmark: Any) -> None:
    benchmark.group = CALL
    benchmark.extra_info["baseline"] = True
    benchmark(np.sin, XN)


def test_call_primitive_no_grad(benchmark: Any) -> None:
    from chainrules.interop.torch import numpy as tnp

    benchmark.group = CALL
    benchmark(tnp.sin, XT3)


def test_call_rule_without_bridge(benchmark: Any) -> None:
    from chainrules import rrule

    benchmark.group = CALL

    def rule_and_pullback() -> Any:
        _y, pullback = rrule(np.sin, XN)
        return pullback(np.ones(3))

    benchmark(rule_and_pullback)


def _backward(f: Any) -> Any:
    def forward_and_backward() -> Any:
        x = XT3.clone().requires_grad_()
        (g,) = torch.autograd.grad(f(x).sum(), x)
        return g

    return forward_and_backward


def test_call_backward_through_primitive(benchmark: Any) -> None:
    from chainrules.interop.torch import numpy as tnp

    benchmark.group = CALL
    run = _backward(tnp.sin)
    np.testing.assert_allclose(run().numpy(), np.cos(XN))
    benchmark(run)


def test_call_backward_through_custom_op(benchmark: Any) -> None:
    benchmark.group = CALL
    run = _backward(_sin_op)
    np.testing.assert_allclose(run().numpy(), np.cos(XN))
    benchmark(run)


def test_call_torch_own_backward(benchmark: Any) -> None:
    benchmark.group = CALL
    benchmark(_backward(torch.sin))


def test_call_torch_own_forward(benchmark: Any) -> None:
    benchmark.group = CALL
    benchmark(torch.sin, XT3)


def interleaved_table(repeats: int = 15) -> str:
    """Each gradient's fastest of ``repeats`` interleaved runs, as a ratio to PyTorch's own eager gradient.

    Steadier than medians on a shared machine (see ``benchmarks/test_jax_bridge.py``). Run:
    ``python benchmarks/test_torch_bridge.py`` (with the environment of the module's docstring).
    """
    import time

    from chainrules.interop.torch import numpy as tnp

    cases = {"GP: PyTorch's own, eager": _gradient(OWN), "GP: bridge, primitive": _gradient(BRIDGE),
             "GP: bridge, custom ops": _gradient(OPS),
             "GP: PyTorch's own, torch.compile": _gradient(torch.compile(OWN, fullgraph=True)),
             "GP: bridge, custom ops, torch.compile": _gradient(torch.compile(OPS, fullgraph=True))}
    calls = {"sin(3): PyTorch's own forward and backward": _backward(torch.sin),
             "sin(3): forward and backward through the primitive": _backward(tnp.sin),
             "sin(3): forward and backward through the custom op": _backward(_sin_op),
             "sin(3): the primitive, no gradient": lambda: tnp.sin(XT3)}
    everything = {**cases, **calls}
    best = {name: math.inf for name in everything}
    for f in everything.values():
        f()
    for _ in range(repeats):
        for name, f in everything.items():
            start = time.perf_counter()
            f()
            best[name] = min(best[name], time.perf_counter() - start)
    base = best["GP: PyTorch's own, eager"]
    lines = [f"{'gradient':52} {'fastest':>10} {'/ own eager':>11}"]
    lines += [f"{name:52} {best[name] * 1e3:8.2f}ms {best[name] / base:11.2f}" for name in cases]
    lines += [f"{name:52} {best[name] * 1e6:8.1f}us" for name in calls]
    return "\n".join(lines)


if __name__ == "__main__":
    print(interleaved_table())
