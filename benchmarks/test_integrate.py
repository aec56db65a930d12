"""The gradient of a loss on an ODE solution (20 states, 50 parameters) and of an integral, against their primals.

**ODE.** ``y' = -k y + a tanh(roll(y, 1)) + repeat(c, 2) cos(t)`` with 20 states and the 50
parameters ``(k, a, c)``, solved over ``[0, 5]`` with Dormand-Prince 5(4) at ``rtol=1e-6``,
``atol=1e-8``; the loss is the squared misfit at 20 observation times (or, in the second
group, at the final time only). The baseline of each group is the forward solve
(``scipy.integrate.solve_ivp``, RK45), so every ratio is "gradient time / forward solve":

* ``chainrules adjoint (rule for rhs)``: the rrule of ``solve_ivp`` through ``RulesOnlyConfig``,
  the right-hand side with a hand-written rule (what a user who writes one gets);
* ``chainrules adjoint (autograd rhs)``: the same rrule through ``AutogradConfig``, the
  right-hand side in ``autograd.numpy`` (one autograd trace per evaluation of the adjoint);
* ``chainrules odeint through autograd.grad``: ``autograd.grad`` of the loss on
  ``primitive(scipy.integrate.odeint)`` (LSODA, the adjoint over checkpointed intervals);
* ``autograd.scipy.integrate.odeint``: autograd's own rule for ``odeint``;
* ``jax odeint (jit)``: ``jax.grad`` of ``jax.experimental.ode.odeint`` (float64, jitted);
* ``torchdiffeq odeint_adjoint``: ``dopri5`` and its adjoint (float64);
* ``diffrax Dopri5 (...)``: ``RecursiveCheckpointAdjoint`` (differentiating the solver's steps)
  and ``BacksolveAdjoint`` (integrating the state backwards), jitted.

Each framework's own forward solve is in a group of its own, for the gradient / own-solve
ratio. Competitors skip themselves when not installed (``pip install 'chainrules[bench]'``).

**quad.** ``int_0^b exp(-t x) sin(x) dx`` and its gradient with respect to ``b`` and ``t``
(``quad``, ``epsabs=epsrel=1e-10``): the primal is the baseline.

Run with every library on one thread::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    python -m pytest benchmarks/test_integrate.py --benchmark-only -q
"""

from __future__ import annotations

from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.integrate
from autograd.builtins import tuple as ag_tuple

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, RulesOnlyConfig, frule, rrule, unthunk
from chainrules.interop.autograd import AutogradConfig, primitive
from chainrules_core import cotangent_projector, passes_through, read_cotangent

N, P = 20, 50
T = 5.0
T_EVAL = np.linspace(0.25, T, 20)
Y0 = np.linspace(0.5, 1.5, N)
_rng = np.random.default_rng(0)
P0 = np.concatenate([_rng.uniform(0.5, 1.5, N), _rng.uniform(-1.0, 1.0, N), _rng.uniform(-0.5, 0.5, 10)])
TOL = {"rtol": 1e-6, "atol": 1e-8}
GROUP = f"ODE gradient, {N} states x {P} parameters, {T_EVAL.size} observations: time / solve_ivp"
GROUP_FINAL = f"ODE gradient, {N} states x {P} parameters, the final state: time / solve_ivp"


# ---- the model, in NumPy with a rule, and in autograd ---------------------------------------------------
def rhs(t: float, y: np.ndarray, p: np.ndarray) -> np.ndarray:
    k, a, c = p[:N], p[N:2 * N], p[2 * N:]
    shifted = np.concatenate([y[-1:], y[:-1]])
    return -k * y + a * np.tanh(shifted) + np.repeat(c, 2) * np.cos(t)


@rrule.register(rhs, float, np.ndarray, np.ndarray)
def _rhs_rrule(t: float, y: np.ndarray, p: np.ndarray) -> Any:
    k, a, c = p[:N], p[N:2 * N], p[2 * N:]
    th = np.tanh(np.concatenate([y[-1:], y[:-1]]))
    cos, sin = np.cos(t), np.sin(t)
    out = -k * y + a * th + np.repeat(c, 2) * cos

    def rhs_pullback(dv: Any) -> tuple[Any, ...]:
        dv = read_cotangent(dv, out, rhs)
        if passes_through(dv):
            return NoTangent(), *(cotangent_projector(x)(dv) for x in (t, y, p))
        back = a * (1 - th * th) * dv
        dy = -k * dv
        dy[:-1] += back[1:]
        dy[-1] += back[0]
        dp = np.empty(P)
        dp[:N], dp[N:2 * N] = -y * dv, th * dv
        pairs = dv.reshape(10, 2).sum(1)
        dp[2 * N:] = pairs * cos
        return NoTangent(), float(-sin * (c @ pairs)), dy, dp

    return out, rhs_pullback


@frule.register(rhs, float, np.ndarray, np.ndarray)
def _rhs_frule(tangents: Any, t: float, y: np.ndarray, p: np.ndarray) -> Any:
    _, dt, dy, dp = (unthunk(x) for x in tangents)
    k, a, c = p[:N], p[N:2 * N], p[2 * N:]
    th = np.tanh(np.concatenate([y[-1:], y[:-1]]))
    out = -k * y + a * th + np.repeat(c, 2) * np.cos(t)
    d = np.zeros(N)
    if isinstance(dy, np.ndarray):
        d = d - k * dy + a * (1 - th ** 2) * np.concatenate([dy[-1:], dy[:-1]])
    if isinstance(dp, np.ndarray):
        d = d - dp[:N] * y + dp[N:2 * N] * th + np.repeat(dp[2 * N:], 2) * np.cos(t)
    if isinstance(dt, float):
        d = d - np.repeat(c, 2) * np.sin(t) * dt
    return out, d


def rhs_autograd(t: Any, y: Any, p: Any) -> Any:
    k, a, c = p[:N], p[N:2 * N], p[2 * N:]
    shifted = anp.concatenate([y[-1:], y[:-1]])
    return -k * y + a * anp.tanh(shifted) + anp.repeat(c, 2) * anp.cos(t)


DATA = scipy.integrate.solve_ivp(rhs, (0.0, T), Y0, "RK45", T_EVAL, args=(P0 * 1.1,), rtol=1e-9, atol=1e-11).y
REFERENCE = {}


def _reference(final_only: bool) -> np.ndarray:
    """The gradient at tight tolerances (the adjoint at rtol 1e-10), to check every competitor against."""
    if final_only not in REFERENCE:
        REFERENCE[final_only] = _chainrules_gradient(RulesOnlyConfig(), rhs, final_only, rtol=1e-10, atol=1e-12)
    return REFERENCE[final_only]


def _check(grad: Any, final_only: bool = False) -> None:
    np.testing.assert_allclose(np.asarray(grad, dtype=np.float64), _reference(final_only), rtol=2e-3, atol=1e-4)


def _misfit_cotangent(y: np.ndarray, final_only: bool) -> np.ndarray:
    residual = 2 * (y - DATA)
    if final_only:
        residual[:, :-1] = 0.0
    return residual


def _chainrules_gradient(config: Any, fun: Any, final_only: bool, **options: Any) -> np.ndarray:
    options = {**TOL, **options}
    result, pullback = rrule(config, scipy.integrate.solve_ivp, fun, (0.0, T), Y0, "RK45", T_EVAL, False, None,
                             False, (P0,), **options)
    cotangents = pullback({"y": _misfit_cotangent(result.y, final_only)})   # the cotangent of the OdeResult
    return unthunk(cotangents[9])[0]


# ---- the baseline and chainrules ------------------------------------------------------------------------
def _forward() -> Any:
    return scipy.integrate.solve_ivp(rhs, (0.0, T), Y0, "RK45", T_EVAL, args=(P0,), **TOL)


@pytest.mark.parametrize("group", [GROUP, GROUP_FINAL], ids=["observations", "final state"])
def test_forward_solve(benchmark: Any, group: str) -> None:
    benchmark.group = group
    benchmark.extra_info["baseline"] = True
    result = benchmark(_forward)
    assert result.success


@pytest.mark.parametrize("final_only", [False, True], ids=["observations", "final state"])
def test_chainrules_adjoint_rule_for_rhs(benchmark: Any, final_only: bool) -> None:
    benchmark.group = GROUP_FINAL if final_only else GROUP
    _check(benchmark(_chainrules_gradient, RulesOnlyConfig(), rhs, final_only), final_only)


@pytest.mark.parametrize("final_only", [False, True], ids=["observations", "final state"])
def test_chainrules_adjoint_autograd_rhs(benchmark: Any, final_only: bool) -> None:
    benchmark.group = GROUP_FINAL if final_only else GROUP
    grad = benchmark.pedantic(_chainrules_gradient, (AutogradConfig(), rhs_autograd, final_only), rounds=3,
                              warmup_rounds=1)
    _check(grad, final_only)


def _odeint_loss(p: Any, odeint: Any) -> Any:
    # autograd's own odeint reads its parameters from an autograd tuple; chainrules' binds a plain one too
    y = odeint(lambda y, t, p: rhs_autograd(t, y, p), Y0, np.concatenate([[0.0], T_EVAL]), ag_tuple((p,)), **TOL)
    return anp.sum((y[1:].T - DATA) ** 2)


def test_chainrules_odeint_through_autograd_grad(benchmark: Any) -> None:
    benchmark.group = GROUP
    odeint = primitive(scipy.integrate.odeint)
    grad = benchmark.pedantic(autograd.grad(_odeint_loss), (P0, odeint), rounds=3, warmup_rounds=1)
    _check(grad)


def test_autograd_own_odeint(benchmark: Any) -> None:
    from autograd.scipy.integrate import odeint

    benchmark.group = GROUP
    grad = benchmark.pedantic(autograd.grad(_odeint_loss), (P0, odeint), rounds=3, warmup_rounds=1)
    _check(grad)


# ---- JAX, PyTorch, diffrax ------------------------------------------------------------------------------
def _jax() -> Any:
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


def _jax_rhs(jnp: Any) -> Any:
    def f(y: Any, t: Any, p: Any) -> Any:
        k, a, c = p[:N], p[N:2 * N], p[2 * N:]
        return -k * y + a * jnp.tanh(jnp.roll(y, 1)) + jnp.repeat(c, 2) * jnp.cos(t)

    return f


def test_jax_odeint(benchmark: Any) -> None:
    jax = _jax()
    import jax.numpy as jnp
    from jax.experimental.ode import odeint

    f = _jax_rhs(jnp)
    ts = jnp.concatenate([jnp.zeros(1), jnp.asarray(T_EVAL)])
    data = jnp.asarray(DATA)

    def loss(p: Any) -> Any:
        y = odeint(f, jnp.asarray(Y0), ts, p, **TOL)
        return jnp.sum((y[1:].T - data) ** 2)

    grad = jax.jit(jax.grad(loss))
    grad(jnp.asarray(P0)).block_until_ready()
    benchmark.group = GROUP
    _check(benchmark(lambda: grad(jnp.asarray(P0)).block_until_ready()))
    solve = jax.jit(lambda p: odeint(f, jnp.asarray(Y0), ts, p, **TOL))
    solve(jnp.asarray(P0)).block_until_ready()
    benchmark.extra_info["own forward solve (s)"] = _median_time(lambda: solve(jnp.asarray(P0)).block_until_ready())


def _median_time(f: Any, repeat: int = 7) -> float:
    import time

    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def test_torchdiffeq_odeint_adjoint(benchmark: Any) -> None:
    torch = pytest.importorskip("torch")
    torchdiffeq = pytest.importorskip("torchdiffeq")
    torch.set_num_threads(1)

    class Rhs(torch.nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.p = torch.nn.Parameter(torch.tensor(P0))

        def forward(self, t: Any, y: Any) -> Any:
            p = self.p
            k, a, c = p[:N], p[N:2 * N], p[2 * N:]
            return -k * y + a * torch.tanh(torch.roll(y, 1)) + torch.repeat_interleave(c, 2) * torch.cos(t)

    module = Rhs()
    ts = torch.tensor(np.concatenate([[0.0], T_EVAL]))
    y0, data = torch.tensor(Y0), torch.tensor(DATA)

    def gradient() -> Any:
        module.zero_grad()
        y = torchdiffeq.odeint_adjoint(module, y0, ts, method="dopri5", **TOL)
        torch.sum((y[1:].T - data) ** 2).backward()
        return module.p.grad.detach().numpy().copy()

    benchmark.group = GROUP
    _check(benchmark.pedantic(gradient, rounds=3, warmup_rounds=1))
    with torch.no_grad():
        benchmark.extra_info["own forward solve (s)"] = _median_time(
            lambda: torchdiffeq.odeint(module, y0, ts, method="dopri5", **TOL))


@pytest.mark.parametrize("adjoint", ["RecursiveCheckpointAdjoint", "BacksolveAdjoint"])
def test_diffrax(benchmark: Any, adjoint: str) -> None:
    jax = _jax()
    diffrax = pytest.importorskip("diffrax")
    import jax.numpy as jnp

    f = _jax_rhs(jnp)
    term = diffrax.ODETerm(lambda t, y, p: f(y, t, p))
    data = jnp.asarray(DATA)
    saveat = diffrax.SaveAt(ts=jnp.asarray(T_EVAL))
    controller = diffrax.PIDController(rtol=TOL["rtol"], atol=TOL["atol"])

    def solve(p: Any) -> Any:
        return diffrax.diffeqsolve(term, diffrax.Dopri5(), 0.0, T, None, jnp.asarray(Y0), args=p, saveat=saveat,
                                   stepsize_controller=controller, adjoint=getattr(diffrax, adjoint)(),
                                   max_steps=100_000).ys

    grad = jax.jit(jax.grad(lambda p: jnp.sum((solve(p).T - data) ** 2)))
    grad(jnp.asarray(P0)).block_until_ready()
    benchmark.group = GROUP
    benchmark.name = f"diffrax Dopri5 ({adjoint})"
    _check(benchmark(lambda: grad(jnp.asarray(P0)).block_until_ready()))
    forward = jax.jit(solve)
    forward(jnp.asarray(P0)).block_until_ready()
    benchmark.extra_info["own forward solve (s)"] = _median_time(lambda: forward(jnp.asarray(P0)).block_until_ready())


# ---- quad -----------------------------------------------------------------------------------------------
QUAD_GROUP = "quad gradient (limit and parameter): time / quad"
B, T_PARAM = 3.0, 0.7
QUAD_TOL = {"epsabs": 1e-10, "epsrel": 1e-10}


def damped_sine(x: float, t: float) -> float:
    return float(np.exp(-t * x) * np.sin(x))


@rrule.register(damped_sine, float, float)
def _damped_sine_rrule(x: float, t: float) -> Any:
    e, s = np.exp(-t * x), np.sin(x)
    value = float(e * s)

    def damped_sine_pullback(dv: Any) -> tuple[Any, ...]:
        dv = float(unthunk(dv))
        return NoTangent(), dv * e * (np.cos(x) - t * s), -dv * x * value

    return value, damped_sine_pullback


def _quad_expected() -> np.ndarray:
    # int_0^b exp(-t x) sin x dx = (1 - exp(-t b) (t sin b + cos b)) / (1 + t^2)
    b, t = B, T_PARAM
    d_b = np.exp(-t * b) * np.sin(b)
    value = (1 - np.exp(-t * b) * (t * np.sin(b) + np.cos(b))) / (1 + t * t)
    d_t = (b * np.exp(-t * b) * (t * np.sin(b) + np.cos(b)) - np.exp(-t * b) * np.sin(b)) / (1 + t * t) \
        - 2 * t * value / (1 + t * t)
    return np.array([d_b, d_t])


def test_quad_primal(benchmark: Any) -> None:
    benchmark.group = QUAD_GROUP
    benchmark.extra_info["baseline"] = True
    benchmark(scipy.integrate.quad, damped_sine, 0.0, B, (T_PARAM,), **QUAD_TOL)


def _quad_gradient(config: Any, integrand: Any) -> np.ndarray:
    _, pullback = rrule(config, scipy.integrate.quad, integrand, 0.0, B, (T_PARAM,), **QUAD_TOL)
    cotangents = pullback((1.0, 0.0))
    return np.array([unthunk(cotangents[3]), unthunk(cotangents[4])[0]])


def test_quad_gradient_rule_for_integrand(benchmark: Any) -> None:
    benchmark.group = QUAD_GROUP
    np.testing.assert_allclose(benchmark(_quad_gradient, RulesOnlyConfig(), damped_sine), _quad_expected(), rtol=1e-8)


def test_quad_gradient_through_autograd_grad(benchmark: Any) -> None:
    quad = primitive(scipy.integrate.quad)

    def integral(bt: Any) -> Any:
        return quad(lambda x, t: anp.exp(-t * x) * anp.sin(x), 0.0, bt[0], (bt[1],), **QUAD_TOL)[0]

    benchmark.group = QUAD_GROUP
    grad = benchmark(autograd.grad(integral), np.array([B, T_PARAM]))
    np.testing.assert_allclose(grad, _quad_expected(), rtol=1e-8)
