"""Reductions and scans: the pullback of chainrules against a hand-written NumPy pullback, autograd, JAX and PyTorch.

Cases: ``sum``, ``mean``, ``prod``, ``var``, ``max`` (full reductions) and ``cumsum`` of a
vector of n = 1000 and n = 1e6 entries. For each case the group ``<case> pullback`` times
the backward pass alone (the forward pass done beforehand):

* the hand-written NumPy pullback (the baseline): the cheapest correct NumPy expression
  (``np.broadcast_to`` for sum and mean, ``y / x`` for prod, which is wrong for inputs with
  zeros, ``2 (x - mean) / n`` for var, the tie mask for max, a reversed ``cumsum``);
* chainrules: ``pullback(dy)`` with the cotangent unthunked;
* autograd's ``vjp(dy)`` from ``make_vjp``; JAX's jitted ``vjp_fn(dy)`` (CPU, float64);
  PyTorch's ``torch.autograd.grad`` on a retained graph. Competitors that are not
  installed skip themselves.

The groups ``<sum|mean> n=1000000 pullback+accumulate`` time what an AD does with the
cotangent of a value used several times: add it into an existing gradient accumulator
(``add_`` for chainrules, ``acc += dx`` for the others).

``test_pullback_memory`` measures, with ``tracemalloc``, the peak memory allocated by the
pullback of ``sum`` and ``mean`` over 1e6 float64 entries (8 MB), and writes a table to
``benchmarks/memory_reductions.txt`` (and to the terminal). NumPy reports its data buffers
to ``tracemalloc``, so the numbers include array memory. Nothing here is asserted.

Run: ``python -m pytest benchmarks/test_reductions.py --benchmark-only -q``; the ratio table
(median / the NumPy baseline's median) is printed at the end and written to
``benchmarks/ratios.txt``.
"""

from __future__ import annotations

import importlib.util
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import add_, rrule, unthunk

HAVE_AUTOGRAD = importlib.util.find_spec("autograd") is not None
HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_TORCH = importlib.util.find_spec("torch") is not None

SIZES = [1000, 1_000_000]


@dataclass
class Case:
    """One reduction of a vector: the input, the output cotangent and how each competitor spells it."""

    name: str
    x: np.ndarray
    dy: Any
    hand_pullback: Callable[[Any, np.ndarray], Any]
    rule_call: Callable[[np.ndarray], Any]
    autograd_f: Callable[[Any], Any]
    jax_f: Callable[[Any], Any]
    torch_f: Callable[[Any], Any]


def _hand_sum(dy: Any, x: np.ndarray) -> Any:
    return np.broadcast_to(dy, x.shape)


def _hand_mean(dy: Any, x: np.ndarray) -> Any:
    return np.broadcast_to(dy / x.size, x.shape)


def _hand_prod(dy: Any, x: np.ndarray) -> Any:
    return np.prod(x) / x * dy


def _hand_var(dy: Any, x: np.ndarray) -> Any:
    return (x - x.mean()) * (2 * dy / x.size)


def _hand_max(dy: Any, x: np.ndarray) -> Any:
    hit = x == x.max()
    return hit * (dy / np.count_nonzero(hit))


def _hand_cumsum(dy: Any, x: np.ndarray) -> Any:
    return np.cumsum(dy[::-1])[::-1]


def _cases() -> list[Case]:
    import operator

    cases = []
    for n in SIZES:
        r = np.random.default_rng(11)
        x = r.standard_normal(n)
        near_one = 1.0 + 1e-4 * x  # a product of 1e6 entries that stays finite
        for name, f, hand, data, method in [
            ("sum", np.sum, _hand_sum, x, "sum"),
            ("mean", np.mean, _hand_mean, x, "mean"),
            ("prod", np.prod, _hand_prod, near_one, "prod"),
            ("var", np.var, _hand_var, x, "var"),
            ("max", np.max, _hand_max, x, "max"),
            ("cumsum", np.cumsum, _hand_cumsum, x, "cumsum"),
        ]:
            dy = r.standard_normal(n) if name == "cumsum" else 0.75
            getter = operator.methodcaller(method)
            cases.append(Case(f"{name} n={n}", data, dy, hand, lambda x, f=f: rrule(f, x),
                              _module_call("autograd.numpy", method), _module_call("jax.numpy", method),
                              _torch_call(name, getter)))
    return cases


def _module_call(module: str, method: str) -> Callable[[Any], Any]:
    def call(x: Any) -> Any:
        return getattr(importlib.import_module(module), method)(x)

    return call


def _torch_call(name: str, getter: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def call(x: Any) -> Any:
        if name == "var":
            return x.var(unbiased=False)
        if name == "cumsum":
            return x.cumsum(0)
        if name == "max":
            return x.amax()   # amax splits ties equally, like the chainrules rule
        return getter(x)

    return call


CASES = _cases()
IDS = [case.name for case in CASES]


def _autograd_vjp(case: Case) -> Callable[[Any], Any]:
    from autograd import make_vjp

    vjp, _ = make_vjp(case.autograd_f)(case.x)
    return vjp


def _jax_setup() -> Any:
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


# ---- NumPy, chainrules and autograd first: JAX and PyTorch start thread pools that would slow the rest ----
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_numpy_by_hand(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    benchmark.extra_info["baseline"] = True
    benchmark(case.hand_pullback, case.dy, case.x)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    _, pullback = case.rule_call(case.x)
    benchmark(lambda: unthunk(pullback(case.dy)[1]))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    vjp = _autograd_vjp(case)
    benchmark(vjp, case.dy)


ACCUMULATE = [case for case in CASES if case.name.split()[0] in ("sum", "mean") and case.x.size == SIZES[-1]]
ACCUMULATE_IDS = [case.name for case in ACCUMULATE]


@pytest.mark.parametrize("case", ACCUMULATE, ids=ACCUMULATE_IDS)
def test_accumulate_numpy_dense(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback+accumulate"
    benchmark.extra_info["baseline"] = True
    acc = np.zeros(case.x.shape)

    def run() -> None:
        dense = np.array(case.hand_pullback(case.dy, case.x))  # a dense cotangent, then added
        acc.__iadd__(dense)

    benchmark(run)


@pytest.mark.parametrize("case", ACCUMULATE, ids=ACCUMULATE_IDS)
def test_accumulate_chainrules(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback+accumulate"
    _, pullback = case.rule_call(case.x)
    acc = np.zeros(case.x.shape)
    benchmark(lambda: add_(acc, pullback(case.dy)[1]))


@pytest.mark.parametrize("case", ACCUMULATE, ids=ACCUMULATE_IDS)
def test_accumulate_autograd(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback+accumulate"
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    vjp = _autograd_vjp(case)
    acc = np.zeros(case.x.shape)
    benchmark(lambda: acc.__iadd__(vjp(case.dy)))


# ---- memory ----------------------------------------------------------------------------------------
MEMORY_LINES: list[str] = []


def _peak_bytes(run: Callable[[], Any]) -> int:
    """Peak memory allocated while ``run()`` executes and its result is alive (tracemalloc)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    result = run()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return peak


@pytest.fixture(scope="module", autouse=True)
def _memory_report(request: Any) -> Any:
    yield
    if not MEMORY_LINES:
        return
    header = "peak memory allocated by one pullback (tracemalloc), input: 1e6 float64 = 8.0 MB"
    Path(__file__).with_name("memory_reductions.txt").write_text("\n".join([header, *MEMORY_LINES]) + "\n")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.section("memory of the sum/mean pullbacks")
        for line in [header, *MEMORY_LINES]:
            reporter.write_line(line)


@pytest.mark.parametrize("case", ACCUMULATE, ids=ACCUMULATE_IDS)
def test_pullback_memory(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback memory"
    _, pullback = case.rule_call(case.x)
    acc = np.zeros(case.x.shape)   # allocated before the measurement, as an AD's gradient buffer is
    value = case.dy / case.x.size if case.name.startswith("mean") else case.dy
    measured = {
        "chainrules pullback (read-only broadcast view)": lambda: unthunk(pullback(case.dy)[1]),
        "chainrules pullback + add_ into an accumulator": lambda: add_(acc, pullback(case.dy)[1]),
        "NumPy by hand, dense (np.full)": lambda: np.full(case.x.shape, value),
    }
    if HAVE_AUTOGRAD:
        vjp = _autograd_vjp(case)
        measured["autograd vjp"] = lambda: vjp(case.dy)
    for label, run in measured.items():
        peak = _peak_bytes(run)
        benchmark.extra_info[label] = peak
        MEMORY_LINES.append(f"    {case.name:<14} {label:<50} {peak / 1e6:10.3f} MB")
    benchmark(lambda: unthunk(pullback(case.dy)[1]))


# ---- JAX and PyTorch ---------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_pullback_jax(benchmark: Any, case: Case) -> None:
    benchmark.group = f"{case.name} pullback"
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    jax = _jax_setup()
    x = jax.numpy.asarray(case.x)
    _, vjp_fn = jax.vjp(case.jax_f, x)
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

    x = torch.from_numpy(case.x.copy()).requires_grad_(True)
    y = case.torch_f(x)
    dy = torch.as_tensor(case.dy, dtype=torch.float64)
    benchmark(lambda: torch.autograd.grad(y, (x,), dy, retain_graph=True))
