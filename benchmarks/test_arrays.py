"""Array manipulation: the pullback of chainrules against a hand-written NumPy pullback, autograd, JAX and PyTorch.

One representative rule per family, on a 1000 x 1000 float64 array (and a vector of 1e6
entries for the gathers):

* ``transpose`` (axes): the cotangent transposed back;
* ``concatenate`` (joining) of two 500 x 1000 halves: the cotangent cut in two;
* ``pad`` (padding), ``mode='reflect'`` by 8 on each side: the padding folded back;
* ``take`` (gathering) of 1e5 random, repeated indices of a 1e6-vector: a scatter-add;
* ``sort`` (sorting) of a 1e6-vector: the cotangent scattered through the permutation;
* ``tile`` (repetition) by (2, 1): the two copies summed.

Each group ``<case> pullback`` times the backward pass alone (the forward pass and the
rule call done beforehand): the hand-written NumPy pullback (the baseline, the cheapest
correct expression), chainrules' ``pullback(dy)`` with the cotangent unthunked, autograd's
``vjp(dy)`` from ``make_vjp``, JAX's jitted ``vjp_fn(dy)`` (CPU, float64) and PyTorch's
``torch.autograd.grad`` on a retained graph. Competitors that are not installed skip
themselves.

Run: ``python -m pytest benchmarks/test_arrays.py --benchmark-only -q``; the ratio table
(median / the NumPy baseline's median) is printed and written to ``benchmarks/ratios.txt``.
"""

from __future__ import annotations

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

RNG = np.random.default_rng(0)
MATRIX = RNG.standard_normal((1000, 1000))
VECTOR = RNG.standard_normal(1_000_000)
INDICES = RNG.integers(0, VECTOR.size, 100_000)
PAD = 8


@dataclass
class Case:
    """One function: its input, how each competitor calls it, and the hand-written pullback."""

    name: str
    x: np.ndarray
    call: Callable[[Any, Any], Any]  # call(numpy-like module, x)
    hand_pullback: Callable[[np.ndarray], np.ndarray]


def _hand_pad(dy: np.ndarray) -> np.ndarray:
    """Fold the reflected borders back (reflect: no edge repeat), axis by axis."""
    out = dy
    for axis in (1, 0):
        v = np.moveaxis(out, axis, 0)
        n = v.shape[0] - 2 * PAD
        centre = v[PAD:PAD + n].copy()
        centre[1:PAD + 1] += v[:PAD][::-1]
        centre[n - PAD - 1:n - 1] += v[PAD + n:][::-1]
        out = np.moveaxis(centre, 0, axis)
    return out


def _hand_take(dy: np.ndarray) -> np.ndarray:
    return np.bincount(INDICES, weights=dy, minlength=VECTOR.size)


def _hand_sort(dy: np.ndarray) -> np.ndarray:
    out = np.empty_like(dy)
    out[np.argsort(VECTOR)] = dy
    return out


CASES = [
    Case("transpose", MATRIX, lambda m, x: m.transpose(x), lambda dy: dy.T),
    Case("concatenate", MATRIX, lambda m, x: m.concatenate([x[:500], x[500:]]), lambda dy: np.split(dy, [500])),
    Case("pad reflect", MATRIX, lambda m, x: m.pad(x, PAD, mode="reflect"), _hand_pad),
    Case("take", VECTOR, lambda m, x: m.take(x, INDICES), _hand_take),
    Case("sort", VECTOR, lambda m, x: m.sort(x), _hand_sort),
    Case("tile", MATRIX, lambda m, x: m.tile(x, (2, 1)), lambda dy: dy[:1000] + dy[1000:]),
]
IDS = [c.name for c in CASES]


def _output_cotangent(case: Case) -> np.ndarray:
    y = case.call(np, case.x)
    return np.random.default_rng(1).standard_normal(np.shape(y))


def _run(benchmark: Any, case: Case, fn: Callable[[], Any], baseline: bool = False) -> None:
    benchmark.group = f"{case.name} pullback"
    if baseline:
        benchmark.extra_info["baseline"] = True
    benchmark.pedantic(fn, rounds=15, iterations=1, warmup_rounds=1)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_numpy_hand_written(benchmark: Any, case: Case) -> None:
    dy = _output_cotangent(case)
    _run(benchmark, case, lambda: case.hand_pullback(dy), baseline=True)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_chainrules(benchmark: Any, case: Case) -> None:
    dy = _output_cotangent(case)
    f, args = {
        "transpose": (np.transpose, (case.x,)),
        "concatenate": (np.concatenate, ([case.x[:500], case.x[500:]],)),
        "pad reflect": (np.pad, (case.x, PAD, "reflect")),
        "take": (np.take, (case.x, INDICES)),
        "sort": (np.sort, (case.x,)),
        "tile": (np.tile, (case.x, (2, 1))),
    }[case.name]
    _, pullback = rrule(f, *args)
    cotangent = unthunk(pullback(dy)[1])
    expected = case.hand_pullback(dy)
    if case.name == "concatenate":
        cotangent, expected = np.concatenate(list(cotangent)), np.concatenate(expected)
    np.testing.assert_allclose(cotangent, expected, atol=1e-9)
    _run(benchmark, case, lambda: unthunk(pullback(dy)[1]))


@pytest.mark.skipif(not HAVE_AUTOGRAD, reason="autograd is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_autograd(benchmark: Any, case: Case) -> None:
    import autograd.numpy as anp
    from autograd import make_vjp

    dy = _output_cotangent(case)
    try:
        vjp, _ = make_vjp(lambda x: case.call(anp, x))(case.x)
        got = vjp(dy)
    except (NotImplementedError, AssertionError, KeyError) as err:  # autograd has no VJP for it
        pytest.skip(f"autograd cannot differentiate {case.name}: {err}")
    expected = case.hand_pullback(dy)
    np.testing.assert_allclose(got, np.concatenate(expected) if case.name == "concatenate" else expected, atol=1e-9)
    _run(benchmark, case, lambda: vjp(dy))


@pytest.mark.skipif(not HAVE_JAX, reason="jax is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_jax(benchmark: Any, case: Case) -> None:
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    dy = jnp.asarray(_output_cotangent(case))
    _, vjp_fn = jax.vjp(lambda x: case.call(jnp, x), jnp.asarray(case.x))
    pullback = jax.jit(vjp_fn)
    expected = case.hand_pullback(np.asarray(dy))
    expected = np.concatenate(expected) if case.name == "concatenate" else expected
    np.testing.assert_allclose(np.asarray(pullback(dy)[0]), expected, atol=1e-9)
    _run(benchmark, case, lambda: pullback(dy)[0].block_until_ready())


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_torch(benchmark: Any, case: Case) -> None:
    import torch

    x = torch.tensor(case.x, requires_grad=True)
    calls = {
        "transpose": lambda t: t.T,
        "concatenate": lambda t: torch.cat([t[:500], t[500:]]),
        "pad reflect": lambda t: torch.nn.functional.pad(t[None, None], (PAD,) * 4, mode="reflect")[0, 0],
        "take": lambda t: t[torch.as_tensor(INDICES)],
        "sort": lambda t: torch.sort(t).values,
        "tile": lambda t: t.tile((2, 1)),
    }
    y = calls[case.name](x)
    dy_np = _output_cotangent(case)
    dy = torch.tensor(dy_np)
    grad = torch.autograd.grad(y, x, dy, retain_graph=True)[0]
    expected = case.hand_pullback(dy_np)
    expected = np.concatenate(expected) if case.name == "concatenate" else expected
    np.testing.assert_allclose(grad.numpy(), expected, atol=1e-9)
    _run(benchmark, case, lambda: torch.autograd.grad(y, x, dy, retain_graph=True)[0])
