"""Elementwise rules: the pullback of chainrules against a hand-written NumPy pullback, autograd, JAX and PyTorch.

One representative rule per family, at n = 1000 and n = 1e6 float64 entries:

* ``sin`` (trigonometric; ``cos(x) * dy``);
* ``multiply`` with broadcasting, ``x * w`` with ``x`` of shape ``(n/10, 10)`` and ``w`` of
  shape ``(10,)`` (arithmetic; ``w``'s cotangent is summed over the broadcast axis);
* ``power`` with an array exponent (powers; both cotangents, the exponent's needs a log);
* ``maximum`` of two arrays (extrema; the hand-written version ignores ties, the rule
  splits them);
* ``abs`` (non-holomorphic; ``sign(x) * dy``);
* ``where`` (selection; both branches' cotangents);
* ``clip`` with scalar bounds (the bounds are scalars: only ``a``'s cotangent is timed);
* ``floor`` (zero derivative; the rule returns dense zeros).

For each case the group ``<case> pullback`` times the backward pass alone, after a fresh
(untimed) forward pass in every round, with every cotangent materialised:

* the hand-written NumPy pullback (the baseline): the cheapest NumPy expression a user
  would write, reusing the forward output where it helps;
* chainrules: ``pullback(dy)``, the cotangents of the differentiated arguments unthunked
  (``clip``'s constant bounds are not: an AD never asks for them);
* autograd's ``vjp(dy)`` from ``make_vjp``; PyTorch's ``torch.autograd.grad``; JAX's
  jitted ``vjp_fn(dy)`` (CPU, float64; its forward pass is done once, as re-jitting every
  round would time the compiler). Competitors that are not installed skip themselves.

Run: ``python -m pytest benchmarks/test_elementwise.py --benchmark-only -q``; the ratio table
(median / the NumPy baseline's median) is printed at the end and written to
``benchmarks/ratios.txt``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None

SIZES = [1000, 1_000_000]


@dataclass
class Case:
    """One elementwise call: its arguments (the differentiated ones first) and each competitor's spelling.

    ``numpy_f(np, *args)`` evaluates the function with a NumPy-like module (NumPy, autograd's
    or JAX's); ``torch_f(torch, *args)`` with PyTorch; ``hand(dy, y, *args)`` is the
    hand-written pullback. ``n_diff`` leading arguments are differentiated.
    """

    name: str
    args: tuple[Any, ...]
    n_diff: int
    numpy_f: Callable[..., Any]
    torch_f: Callable[..., Any]
    hand: Callable[..., Any]

    def __post_init__(self) -> None:
        self.y = self.numpy_f(np, *self.args)
        self.dy = np.random.default_rng(5).standard_normal(np.shape(self.y))


def _hand_multiply(dy: Any, y: Any, x: Any, w: Any) -> Any:
    return dy * w, np.sum(dy * x, axis=0)


def _hand_power(dy: Any, y: Any, x: Any, p: Any) -> Any:
    return p * x ** (p - 1) * dy, y * np.log(x) * dy


def _hand_maximum(dy: Any, y: Any, a: Any, b: Any) -> Any:
    first = a > b
    return dy * first, dy * ~first


def _hand_where(dy: Any, y: Any, a: Any, b: Any, condition: Any) -> Any:
    return np.where(condition, dy, 0), np.where(condition, 0, dy)


def _cases() -> list[Case]:
    cases = []
    for n in SIZES:
        r = np.random.default_rng(3)
        x, z = r.standard_normal(n), r.standard_normal(n)
        positive, exponent = r.uniform(0.5, 2.0, n), r.uniform(-2.0, 2.0, n)
        matrix, row = r.standard_normal((n // 10, 10)), r.standard_normal(10)
        condition = x > 0
        cases += [
            Case(f"sin n={n}", (x,), 1, lambda m, a: m.sin(a), lambda t, a: t.sin(a),
                 lambda dy, y, a: np.cos(a) * dy),
            Case(f"multiply-broadcast n={n}", (matrix, row), 2, lambda m, a, b: a * b, lambda t, a, b: a * b,
                 _hand_multiply),
            Case(f"power n={n}", (positive, exponent), 2, lambda m, a, b: m.power(a, b), lambda t, a, b: t.pow(a, b),
                 _hand_power),
            Case(f"maximum n={n}", (x, z), 2, lambda m, a, b: m.maximum(a, b), lambda t, a, b: t.maximum(a, b),
                 _hand_maximum),
            Case(f"abs n={n}", (x,), 1, lambda m, a: m.abs(a), lambda t, a: t.abs(a),
                 lambda dy, y, a: np.sign(a) * dy),
            Case(f"where n={n}", (x, z, condition), 2, lambda m, a, b, c: m.where(c, a, b),
                 lambda t, a, b, c: t.where(c, a, b), _hand_where),
            Case(f"clip n={n}", (x,), 1, lambda m, a: m.clip(a, -0.5, 0.5), lambda t, a: t.clamp(a, -0.5, 0.5),
                 lambda dy, y, a: dy * ((a >= -0.5) & (a <= 0.5))),
            Case(f"floor n={n}", (x,), 1, lambda m, a: m.floor(a), lambda t, a: t.floor(a),
                 lambda dy, y, a: np.zeros_like(a)),
        ]
    return cases


CASES = _cases()
IDS = [case.name for case in CASES]


def _rrule_call(case: Case) -> Any:
    """``rrule`` of the NumPy function with NumPy's argument order (``where`` takes the condition first)."""
    name = case.name.split()[0]
    if name == "where":
        x, z, condition = case.args
        return rrule(np.where, condition, x, z)
    if name == "multiply-broadcast":
        return rrule(np.multiply, *case.args)
    if name == "clip":
        return rrule(np.clip, case.args[0], -0.5, 0.5)
    return rrule(getattr(np, name), *case.args)


def _pullback(pullback: Callable[[Any], tuple[Any, ...]], dy: Any, wanted: tuple[int, ...]) -> list[Any]:
    cotangents = pullback(dy)
    return [unthunk(cotangents[k]) for k in wanted]


def _time_backward(benchmark: Any, case: Case, forward: Callable[[], Any], backward: Callable[..., Any]) -> None:
    """Time ``backward(*forward())`` with a fresh forward pass (untimed) before every round.

    Every competitor is timed this way, so each pays for the same allocations, and work a
    rule caches between calls of one pullback (the selection weights of ``maximum`` and
    ``clip``) is timed too.
    """

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return forward(), {}

    rounds = 1000 if case.dy.size <= 1000 else 25
    benchmark.pedantic(backward, setup=setup, rounds=rounds, warmup_rounds=3)


# ---- NumPy, chainrules and autograd first: JAX and PyTorch start thread pools that would slow the rest ----
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_numpy_by_hand(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    benchmark.extra_info["baseline"] = True
    _time_backward(benchmark, case, lambda: (case.dy, case.numpy_f(np, *case.args), *case.args), case.hand)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    # The cotangents of the differentiated arguments (where's come after the condition's).
    first = 2 if case.name.startswith("where") else 1
    wanted = tuple(range(first, first + case.n_diff))
    _time_backward(benchmark, case, lambda: (_rrule_call(case)[1], case.dy, wanted), _pullback)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    from autograd import make_vjp
    from autograd import numpy as anp

    diff, rest = case.args[:case.n_diff], case.args[case.n_diff:]

    def forward() -> tuple[Any, ...]:
        vjp, _ = make_vjp(lambda xs: case.numpy_f(anp, *xs, *rest))(diff)
        return vjp, case.dy

    _time_backward(benchmark, case, forward, lambda vjp, dy: vjp(dy))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    diff = [jax.numpy.asarray(a) for a in case.args[:case.n_diff]]
    rest = [jax.numpy.asarray(a) for a in case.args[case.n_diff:]]
    _, vjp_fn = jax.vjp(lambda *xs: case.numpy_f(jax.numpy, *xs, *rest), *diff)
    backward = jax.jit(vjp_fn)
    dy = jax.numpy.asarray(case.dy)
    jax.block_until_ready(backward(dy))
    benchmark(lambda: jax.block_until_ready(backward(dy)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_torch(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    diff = [torch.from_numpy(a.copy()).requires_grad_(True) for a in case.args[:case.n_diff]]
    rest = [torch.from_numpy(np.asarray(a).copy()) for a in case.args[case.n_diff:]]
    dy = torch.from_numpy(case.dy)
    _time_backward(benchmark, case, lambda: (case.torch_f(torch, *diff, *rest),),
                   lambda y: torch.autograd.grad(y, diff, dy))
