"""The harness the linear-algebra benchmarks share (``test_linalg_*.py``): pullback time / primal time,
chainrules against autograd, JAX and PyTorch.

A benchmark module lists its :class:`Case` s (one function at one size, spelled for each library) and
builds its tests from a :class:`Suite`, one library at a time, in the order they are to run: NumPy-based
libraries first, since JAX and PyTorch start thread pools that would slow the rest::

    SUITE = Suite(CASES)
    test_chainrules_primal, test_chainrules_pullback, test_chainrules_rrule_forward = SUITE.chainrules_tests()
    test_autograd_primal, test_autograd_pullback = SUITE.autograd_tests()
    test_jax_primal, test_jax_pullback = SUITE.jax_tests()
    test_torch_primal, test_torch_pullback = SUITE.torch_tests()

Every test is parametrised over the cases (ids: the case names). Each library has one group per case
(:meth:`Suite.group`) that holds its primal, marked the baseline (``benchmark.extra_info["baseline"] =
True``), and its pullback, so that the ratio table of ``benchmarks/conftest.py`` gives each library's
pullback time over its own primal time:

* ``chainrules``: primal ``numpy_f(*args)``; pullback ``pullback(dy)`` of the rrule (the forward pass
  done beforehand), every cotangent unthunked; also the rrule's own forward pass against the primal;
* ``autograd``: the same NumPy primal; pullback ``vjp(dy)`` from ``make_vjp`` (skipped when the case
  has no ``autograd_f``: autograd has no VJP for it);
* ``jax``: jitted ``jax_f`` on the CPU in float64; pullback the jitted ``vjp_fn(dy)``;
* ``torch``: ``torch_f`` on the CPU in float64, one thread; pullback ``torch.autograd.grad`` on a
  retained graph.

A library that is not installed skips its tests. This module is not collected (its name starts with an
underscore); ``benchmarks/conftest.py`` puts this folder on ``sys.path`` so that the benchmark modules
import it as ``_linalg_harness``.
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

BenchmarkTest = Callable[[Any, "Case"], None]


@dataclass
class Case:
    """One function at one size: NumPy inputs, the output cotangent, and each library's spelling."""

    name: str
    args: tuple[np.ndarray, ...]
    dy: Any                                   # an array, or a tuple of one cotangent per output
    numpy_f: Callable[..., Any]
    autograd_f: Callable[..., Any] | None     # None: autograd has no VJP for it (its tests skip)
    jax_f: Callable[..., Any]
    torch_f: Callable[..., Any]
    rrule_args: tuple[Any, ...] | None = None  # ``(f, *args)`` of the rrule when not ``(numpy_f, *args)``
    torch_output: int | None = None            # the one output PyTorch differentiates (None: every output)

    @property
    def rrule_call(self) -> tuple[Any, ...]:
        """The arguments of ``rrule``: the function and its positional arguments."""
        return self.rrule_args if self.rrule_args is not None else (self.numpy_f, *self.args)


def _jax() -> Any:
    if not HAVE_JAX:
        pytest.skip("jax is not installed")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    return jax


def _torch() -> Any:
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import torch

    torch.set_num_threads(1)
    return torch


def _autograd_skip(case: Case) -> None:
    if not HAVE_AUTOGRAD:
        pytest.skip("autograd is not installed")
    if case.autograd_f is None:
        pytest.skip(f"autograd has no VJP for {case.name}")


def _outputs(y: Any) -> list[Any]:
    """The outputs of a function as a list (one entry for a single array)."""
    return list(y) if isinstance(y, tuple) else [y]


@dataclass
class Suite:
    """The benchmark tests of a list of cases; ``group_format`` names a library's group of a case."""

    cases: list[Case]
    group_format: str = "{case} | {library}: pullback / primal"

    def group(self, case: Case, library: str) -> str:
        """The group of ``library``'s benchmarks of ``case``: its primal (the baseline) and its pullback."""
        return self.group_format.format(case=case.name, library=library)

    def parametrize(self, test: BenchmarkTest) -> BenchmarkTest:
        """``test`` parametrised over the cases, with the case names as ids."""
        return pytest.mark.parametrize("case", self.cases, ids=[case.name for case in self.cases])(test)

    def chainrules_tests(self) -> tuple[BenchmarkTest, BenchmarkTest, BenchmarkTest]:
        """The primal (baseline), the pullback, and the rrule's forward pass (primal plus what the pullback
        keeps, for its overhead over the plain call)."""

        def test_chainrules_primal(benchmark: Any, case: Case) -> None:
            benchmark.group = self.group(case, "chainrules")
            benchmark.extra_info["baseline"] = True
            benchmark(case.numpy_f, *case.args)

        def test_chainrules_pullback(benchmark: Any, case: Case) -> None:
            benchmark.group = self.group(case, "chainrules")
            _, pullback = rrule(*case.rrule_call)
            benchmark(lambda: [unthunk(c) for c in pullback(case.dy)[1:]])

        def test_chainrules_rrule_forward(benchmark: Any, case: Case) -> None:
            benchmark.group = self.group(case, "chainrules")
            benchmark(rrule, *case.rrule_call)

        return (self.parametrize(test_chainrules_primal), self.parametrize(test_chainrules_pullback),
                self.parametrize(test_chainrules_rrule_forward))

    def autograd_tests(self) -> tuple[BenchmarkTest, BenchmarkTest]:
        """The NumPy primal (baseline) and autograd's ``vjp(dy)``."""

        def test_autograd_primal(benchmark: Any, case: Case) -> None:
            _autograd_skip(case)
            benchmark.group = self.group(case, "autograd")
            benchmark.extra_info["baseline"] = True
            benchmark(case.numpy_f, *case.args)

        def test_autograd_pullback(benchmark: Any, case: Case) -> None:
            _autograd_skip(case)
            from autograd import make_vjp

            f = case.autograd_f
            assert f is not None
            benchmark.group = self.group(case, "autograd")
            if len(case.args) == 1:
                vjp, _ = make_vjp(f)(case.args[0])
            else:
                vjp, _ = make_vjp(lambda args: f(*args))(case.args)
            benchmark(vjp, case.dy)

        return self.parametrize(test_autograd_primal), self.parametrize(test_autograd_pullback)

    def jax_tests(self) -> tuple[BenchmarkTest, BenchmarkTest]:
        """The jitted primal (baseline) and the jitted ``vjp_fn(dy)``."""

        def test_jax_primal(benchmark: Any, case: Case) -> None:
            jax = _jax()
            benchmark.group = self.group(case, "jax")
            benchmark.extra_info["baseline"] = True
            forward = jax.jit(case.jax_f)
            args = tuple(jax.numpy.asarray(x) for x in case.args)
            jax.block_until_ready(forward(*args))
            benchmark(lambda: jax.block_until_ready(forward(*args)))

        def test_jax_pullback(benchmark: Any, case: Case) -> None:
            jax = _jax()
            benchmark.group = self.group(case, "jax")
            args = tuple(jax.numpy.asarray(x) for x in case.args)
            _, vjp_fn = jax.vjp(case.jax_f, *args)
            backward = jax.jit(vjp_fn)
            dy = jax.tree_util.tree_map(jax.numpy.asarray, case.dy)
            jax.block_until_ready(backward(dy))
            benchmark(lambda: jax.block_until_ready(backward(dy)))

        return self.parametrize(test_jax_primal), self.parametrize(test_jax_pullback)

    def torch_tests(self) -> tuple[BenchmarkTest, BenchmarkTest]:
        """The primal without a graph (baseline) and ``torch.autograd.grad`` on a retained graph."""

        def test_torch_primal(benchmark: Any, case: Case) -> None:
            torch = _torch()
            benchmark.group = self.group(case, "torch")
            benchmark.extra_info["baseline"] = True
            inputs = tuple(torch.from_numpy(x.copy()) for x in case.args)
            with torch.no_grad():
                benchmark(case.torch_f, *inputs)

        def test_torch_pullback(benchmark: Any, case: Case) -> None:
            torch = _torch()
            benchmark.group = self.group(case, "torch")
            inputs = tuple(torch.from_numpy(x.copy()).requires_grad_(True) for x in case.args)
            outputs = _outputs(case.torch_f(*inputs))
            cotangents = _outputs(case.dy)
            if case.torch_output is not None:
                outputs, cotangents = [outputs[case.torch_output]], [cotangents[case.torch_output]]
            dys = [torch.from_numpy(np.array(d)) for d in cotangents]
            benchmark(lambda: torch.autograd.grad(outputs, inputs, dys, retain_graph=True))

        return self.parametrize(test_torch_primal), self.parametrize(test_torch_pullback)
