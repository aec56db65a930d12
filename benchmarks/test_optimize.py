"""Implicit-function-theorem gradients of a 100-unknown root and a 50-parameter minimisation, against their primals.

**Root.** ``F(x; W, b) = x + tanh(W x) / 2 - b = 0`` with 100 unknowns (``W`` scaled so that ``F``
is a contraction-like, well-conditioned system), solved by ``scipy.optimize.root`` (hybr,
``tol=1e-10``); the loss is ``|x*|^2 / 2`` and its gradient is taken with respect to ``W`` and
``b`` (10,100 parameters). Every ratio is "value and gradient time / primal solve":

* ``chainrules root (autograd F, dense J)``: the rrule through ``AutogradConfig``: ``J`` formed by
  100 pullbacks of one autograd tape and LU-factored (the default at 100 unknowns);
* ``chainrules root (autograd F, GMRES)``: the same with ``DENSE_UP_TO = 0`` (one pullback per
  GMRES iteration);
* ``chainrules root (autograd F, user jac)``: ``jac=`` given to ``root`` (used for the solve,
  checked by the final pullback);
* ``chainrules root (rule for F)``: ``RulesOnlyConfig`` with a hand-written rule of ``F``;
* ``autograd unrolled Newton``: ``autograd.grad`` through 8 Newton iterations written in
  ``autograd.numpy`` (differentiating through the iterations);
* ``jax unrolled Newton (jit)``: the same in JAX, jitted, float64;
* ``jaxopt ScipyRootFinding``: jaxopt's wrapper of the same SciPy solve, with its implicit
  differentiation (``jax.grad``), float64.

**Minimisation.** L2-regularised logistic regression with 50 weights on 200 samples,
``f(w; y, lam) = sum(softplus(X w) - y * X w) + lam |w|^2 / 2``, solved by ``minimize``
(L-BFGS-B, ``gtol=1e-10``, the exact gradient); the outer loss is a validation loss
``sum(softplus(Xv w*) - yv * Xv w*)``, differentiated with respect to the 200 labels ``y`` and
``lam``. Ratios to the primal solve:

* ``chainrules minimize (jac)``: the rrule with ``jac=autograd.grad(f)``: the config
  differentiates the gradient once (Hessian products by reverse mode through it);
* ``chainrules minimize (second derivatives)``: without ``jac``: the config's own gradient,
  differentiated again (reverse over reverse);
* ``autograd unrolled Newton`` / ``jax unrolled Newton (jit)``: 10 Newton steps differentiated;
* ``jaxopt LBFGS (implicit diff)``: jaxopt's own L-BFGS solver (jitted) with implicit
  differentiation.

Competitors skip themselves when not installed (``pip install 'chainrules[bench]'``). Run with
every library on one thread::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \\
    XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \\
    python -m pytest benchmarks/test_optimize.py --benchmark-only -q
"""

from __future__ import annotations

from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.optimize

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, RulesOnlyConfig, Tangent, rrule
from chainrules.interop.autograd import AutogradConfig
from chainrules.rulesets.optimize import _implicit
from chainrules_core import ProjectTo, read_cotangent

N = 100
_rng = np.random.default_rng(0)
W = 0.8 * _rng.standard_normal((N, N)) / np.sqrt(N)
B = _rng.standard_normal(N)
TOL = 1e-10
ROOT_GROUP = f"root, {N} unknowns, gradient in W and b: time / root (hybr)"

M, P = 200, 50
X = _rng.standard_normal((M, P)) / np.sqrt(P)
Y = (_rng.random(M) < 1 / (1 + np.exp(-X @ _rng.standard_normal(P)))).astype(float)
XV = _rng.standard_normal((M, P)) / np.sqrt(P)
YV = (_rng.random(M) < 0.5).astype(float)
LAM = 0.5
MIN_GROUP = f"minimize, {P} weights x {M} samples, gradient in the labels and lam: time / minimize (L-BFGS-B)"


# ---- the root problem --------------------------------------------------------------------------------------------
def residual(x: Any, w: Any, b: Any) -> Any:
    return x + 0.5 * anp.tanh(w @ x) - b


def residual_jacobian(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.eye(N) + 0.5 * (1 - np.tanh(w @ x) ** 2)[:, None] * w


def residual_np(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    return x + 0.5 * np.tanh(w @ x) - b


@rrule.register(residual_np, np.ndarray, np.ndarray, np.ndarray)
def _residual_np_rrule(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> Any:
    wx = w @ x
    s = 0.5 * (1 - np.tanh(wx) ** 2)
    out = x + 0.5 * np.tanh(wx) - b
    project_x, project_w, project_b = ProjectTo(x), ProjectTo(w), ProjectTo(b)

    def residual_np_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, out, residual_np)
        g = s * dy
        return NoTangent(), project_x(dy + w.T @ g), project_w(np.outer(g, x)), project_b(-dy)

    return out, residual_np_pullback


def _root_primal() -> np.ndarray:
    return scipy.optimize.root(residual_np, np.zeros(N), (W, B), tol=TOL).x


def _root_gradient(config: Any, fun: Any, **kwargs: Any) -> Any:
    res, pullback = rrule(config, scipy.optimize.root, fun, np.zeros(N), (W, B), tol=TOL, **kwargs)
    return pullback(Tangent(type(res), {"x": res.x}))[3]


def _newton_loss_autograd(w: Any, b: Any) -> Any:
    x = anp.zeros(N)
    for _ in range(8):
        t = anp.tanh(w @ x)
        jac = anp.eye(N) + 0.5 * (1 - t ** 2)[:, None] * w
        x = x - anp.linalg.solve(jac, x + 0.5 * t - b)
    return 0.5 * anp.sum(x ** 2)


def _check_root(grads: Any, rtol: float = 1e-6) -> None:
    reference = _root_gradient(RulesOnlyConfig(), residual_np)
    np.testing.assert_allclose(np.asarray(grads[0]), reference[0], rtol=rtol, atol=rtol * 1e-4)
    np.testing.assert_allclose(np.asarray(grads[1]), reference[1], rtol=rtol, atol=rtol * 1e-4)


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_primal(benchmark: Any) -> None:
    benchmark.extra_info["baseline"] = True
    x = benchmark.pedantic(_root_primal, rounds=5, warmup_rounds=1)
    assert np.max(np.abs(residual_np(x, W, B))) < 1e-9


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_chainrules_autograd_dense(benchmark: Any) -> None:
    grads = benchmark.pedantic(_root_gradient, (AutogradConfig(), residual), rounds=3, warmup_rounds=1)
    _check_root(grads)


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_chainrules_autograd_gmres(benchmark: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(_implicit, "DENSE_UP_TO", 0)
    grads = benchmark.pedantic(_root_gradient, (AutogradConfig(), residual), rounds=3, warmup_rounds=1)
    _check_root(grads)


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_chainrules_autograd_user_jac(benchmark: Any) -> None:
    grads = benchmark.pedantic(_root_gradient, (AutogradConfig(), residual), {"jac": residual_jacobian}, rounds=3,
                               warmup_rounds=1)
    _check_root(grads)


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_chainrules_rule_for_f(benchmark: Any) -> None:
    grads = benchmark.pedantic(_root_gradient, (RulesOnlyConfig(), residual_np), rounds=5, warmup_rounds=1)
    _check_root(grads)


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_autograd_unrolled_newton(benchmark: Any) -> None:
    grad = autograd.grad(_newton_loss_autograd, (0, 1))
    grads = benchmark.pedantic(grad, (W, B), rounds=3, warmup_rounds=1)
    _check_root(grads)


def _jax() -> Any:
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    return jax


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_jax_unrolled_newton(benchmark: Any) -> None:
    jax = _jax()
    jnp = jax.numpy

    def loss(w: Any, b: Any) -> Any:
        x = jnp.zeros(N)
        for _ in range(8):
            t = jnp.tanh(w @ x)
            jac = jnp.eye(N) + 0.5 * (1 - t ** 2)[:, None] * w
            x = x - jnp.linalg.solve(jac, x + 0.5 * t - b)
        return 0.5 * jnp.sum(x ** 2)

    grad = jax.jit(jax.grad(loss, (0, 1)))
    w, b = jnp.asarray(W), jnp.asarray(B)

    def run() -> Any:
        return jax.block_until_ready(grad(w, b))

    grads = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    _check_root(grads)


@pytest.mark.benchmark(group=ROOT_GROUP)
def test_root_jaxopt_scipy_root_finding(benchmark: Any) -> None:
    jax = _jax()
    jaxopt = pytest.importorskip("jaxopt")
    jnp = jax.numpy

    def optimality(x: Any, w: Any, b: Any) -> Any:
        return x + 0.5 * jnp.tanh(w @ x) - b

    solver = jaxopt.ScipyRootFinding(optimality_fun=optimality, method="hybr", tol=TOL)

    def loss(w: Any, b: Any) -> Any:
        x = solver.run(jnp.zeros(N), w, b).params
        return 0.5 * jnp.sum(x ** 2)

    grad = jax.grad(loss, (0, 1))
    w, b = jnp.asarray(W), jnp.asarray(B)
    grads = benchmark.pedantic(lambda: jax.block_until_ready(grad(w, b)), rounds=3, warmup_rounds=1)
    _check_root(grads, rtol=1e-2)  # jaxopt's default implicit solve (normal CG) is good to ~6e-3 here


# ---- the minimisation --------------------------------------------------------------------------------------------
def logistic(w: Any, y: Any, lam: Any) -> Any:
    z = X @ w
    return anp.sum(anp.logaddexp(0.0, z) - y * z) + 0.5 * lam * anp.sum(w ** 2)


def validation(w: Any) -> Any:
    z = XV @ w
    return anp.sum(anp.logaddexp(0.0, z) - YV * z)


_logistic_grad = autograd.grad(logistic)
_validation_grad = autograd.grad(validation)
_MIN_OPTIONS = {"method": "L-BFGS-B", "options": {"gtol": 1e-10, "ftol": 1e-15}}


def _min_primal() -> np.ndarray:
    return scipy.optimize.minimize(logistic, np.zeros(P), (Y, LAM), jac=_logistic_grad, **_MIN_OPTIONS).x


def _min_gradient(with_jac: bool) -> Any:
    jac = {"jac": _logistic_grad} if with_jac else {}
    res, pullback = rrule(AutogradConfig(), scipy.optimize.minimize, logistic, np.zeros(P), (Y, LAM), **jac,
                          **_MIN_OPTIONS)
    dargs = pullback(Tangent(type(res), {"x": _validation_grad(res.x)}))[3]
    return dargs[0], dargs[1]


def _newton_validation(step: Any, y: Any, lam: Any) -> Any:
    w = anp.zeros(P)
    for _ in range(10):
        z = X @ w
        p = 1 / (1 + step.exp(-z))
        grad = X.T @ (p - y) + lam * w
        hess = (X.T * (p * (1 - p))) @ X + lam * step.eye(P)
        w = w - step.linalg.solve(hess, grad)
    zv = XV @ w
    return step.sum(step.logaddexp(0.0, zv) - YV * zv)


def _check_min(grads: Any, rtol: float = 1e-5) -> None:
    reference = _min_gradient(True)
    np.testing.assert_allclose(np.asarray(grads[0]), reference[0], rtol=rtol, atol=rtol * 1e-3)
    assert float(grads[1]) == pytest.approx(float(reference[1]), rel=rtol)


@pytest.mark.benchmark(group=MIN_GROUP)
def test_minimize_primal(benchmark: Any) -> None:
    benchmark.extra_info["baseline"] = True
    w = benchmark.pedantic(_min_primal, rounds=5, warmup_rounds=1)
    assert np.max(np.abs(_logistic_grad(w, Y, LAM))) < 1e-6


@pytest.mark.benchmark(group=MIN_GROUP)
def test_minimize_chainrules_jac(benchmark: Any) -> None:
    grads = benchmark.pedantic(_min_gradient, (True,), rounds=3, warmup_rounds=1)
    _check_min(grads)


@pytest.mark.benchmark(group=MIN_GROUP)
def test_minimize_chainrules_second_derivatives(benchmark: Any) -> None:
    grads = benchmark.pedantic(_min_gradient, (False,), rounds=3, warmup_rounds=1)
    reference = _min_gradient(True)  # the solve uses finite-difference gradients here: x* differs by ~1e-7
    np.testing.assert_allclose(np.asarray(grads[0]), reference[0], rtol=1e-3, atol=1e-5)


@pytest.mark.benchmark(group=MIN_GROUP)
def test_minimize_autograd_unrolled_newton(benchmark: Any) -> None:
    grad = autograd.grad(lambda y, lam: _newton_validation(anp, y, lam), (0, 1))
    grads = benchmark.pedantic(grad, (Y, LAM), rounds=3, warmup_rounds=1)
    _check_min(grads)


@pytest.mark.benchmark(group=MIN_GROUP)
def test_minimize_jax_unrolled_newton(benchmark: Any) -> None:
    jax = _jax()
    jnp = jax.numpy
    grad = jax.jit(jax.grad(lambda y, lam: _newton_validation(jnp, y, lam), (0, 1)))
    y = jnp.asarray(Y)
    grads = benchmark.pedantic(lambda: jax.block_until_ready(grad(y, LAM)), rounds=5, warmup_rounds=1)
    _check_min(grads)


@pytest.mark.benchmark(group=MIN_GROUP)
def test_minimize_jaxopt_lbfgs_implicit(benchmark: Any) -> None:
    jax = _jax()
    jaxopt = pytest.importorskip("jaxopt")
    jnp = jax.numpy
    xj, xv, yv = jnp.asarray(X), jnp.asarray(XV), jnp.asarray(YV)

    def objective(w: Any, y: Any, lam: Any) -> Any:
        z = xj @ w
        return jnp.sum(jnp.logaddexp(0.0, z) - y * z) + 0.5 * lam * jnp.sum(w ** 2)

    solver = jaxopt.LBFGS(fun=objective, tol=1e-10, maxiter=500, implicit_diff=True)

    def outer(y: Any, lam: Any) -> Any:
        w = solver.run(jnp.zeros(P), y, lam).params
        z = xv @ w
        return jnp.sum(jnp.logaddexp(0.0, z) - yv * z)

    grad = jax.jit(jax.grad(outer, (0, 1)))
    y = jnp.asarray(Y)
    grads = benchmark.pedantic(lambda: jax.block_until_ready(grad(y, LAM)), rounds=5, warmup_rounds=1)
    _check_min(grads, rtol=1e-3)  # jaxopt's L-BFGS and implicit solve agree to ~2e-5 here
