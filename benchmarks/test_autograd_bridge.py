"""The four examples of ``docs/why-rules.md``: autograd's gradient with a chainrules rule and without.

One group per example (``examples/why_rules.py``); the baseline of each is the gradient
*with* the rule (``autograd.grad(primitive(f))``), so the ratio of the others reads "times
slower than with the rule":

* ``mse``, a Python loop over 30 elements: autograd records 5 operations per iteration;
* ``sum3``, three elements read one by one (N = 30 and N = 100000): autograd records three
  indexing operations and accumulates their cotangents;
* ``addone``, an internal buffer filled in place: autograd fails (``ValueError``); the
  comparison is with the rewrite autograd needs (``addone_traceable``);
* ``safe_log``, ``math.log`` in ``try``/``except``: autograd fails (``TypeError``); the
  comparison is with the rewrite ``safe_log_traceable``.

A last group measures the bridge itself: the same ``mse`` rule through ``primitive``
against the same derivative registered natively in autograd (``defvjp``), and a rule doing
no work at all (the floor set by ``autograd.grad``'s own per-call work), called with its
arrays as positional arguments and inside a tuple (the search of containers,
``chainrules.interop._arguments``).

Run::

    OPENBLAS_NUM_THREADS=1 python -m pytest benchmarks/test_autograd_bridge.py --benchmark-only -q
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name: str) -> ModuleType:
    module_name = f"chainrules_examples.{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


why = _load("why_rules")
RNG = np.random.default_rng(2026)
Y, YHAT = RNG.standard_normal(30), RNG.standard_normal(30)


def _grad(f: Any, argnum: int = 0) -> Any:
    import autograd

    return autograd.grad(f, argnum)


def _bridged(f: Any) -> Any:
    from chainrules.interop.autograd import primitive

    return primitive(f)


# ---- loops: mse --------------------------------------------------------------------------------------------
MSE = "why-rules mse (loop over 30): time / gradient with the rule"


def test_mse_with_rule(benchmark: Any) -> None:
    benchmark.group = MSE
    benchmark.extra_info["baseline"] = True
    grad = _grad(_bridged(why.mse), 1)
    np.testing.assert_allclose(grad(Y, YHAT), _grad(why.mse, 1)(Y, YHAT))
    benchmark(grad, Y, YHAT)


def test_mse_without_rule(benchmark: Any) -> None:
    benchmark.group = MSE
    benchmark(_grad(why.mse, 1), Y, YHAT)


def test_mse_primal(benchmark: Any) -> None:
    benchmark.group = MSE
    benchmark(why.mse, Y, YHAT)


# ---- in-place accumulation: sum3 ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", [30, 100_000])
def test_sum3_with_rule(benchmark: Any, n: int) -> None:
    benchmark.group = f"why-rules sum3 (N={n}): time / gradient with the rule"
    benchmark.extra_info["baseline"] = True
    a = RNG.standard_normal(n)
    grad = _grad(_bridged(why.sum3))
    np.testing.assert_array_equal(grad(a), _grad(why.sum3)(a))
    benchmark(grad, a)


@pytest.mark.parametrize("n", [30, 100_000])
def test_sum3_without_rule(benchmark: Any, n: int) -> None:
    benchmark.group = f"why-rules sum3 (N={n}): time / gradient with the rule"
    benchmark(_grad(why.sum3), RNG.standard_normal(n))


# ---- functions that mutate arrays: addone -------------------------------------------------------------------
ADDONE = "why-rules addone (N=30): time / gradient with the rule"


def test_addone_with_rule(benchmark: Any) -> None:
    benchmark.group = ADDONE
    benchmark.extra_info["baseline"] = True
    a = RNG.standard_normal(30)
    with pytest.raises(ValueError, match="sequence"):  # autograd cannot differentiate the original
        _grad(why.addone)(a)
    benchmark(_grad(_bridged(why.addone)), a)


def test_addone_rewritten_without_rule(benchmark: Any) -> None:
    benchmark.group = ADDONE
    benchmark(_grad(why.addone_traceable), RNG.standard_normal(30))


# ---- exception handling: safe_log ----------------------------------------------------------------------------
SAFE_LOG = "why-rules safe_log: time / gradient with the rule"


def test_safe_log_with_rule(benchmark: Any) -> None:
    benchmark.group = SAFE_LOG
    benchmark.extra_info["baseline"] = True
    with pytest.raises(TypeError):  # autograd cannot differentiate the original
        _grad(why.safe_log)(2.0)
    benchmark(_grad(_bridged(why.safe_log)), 2.0)


def test_safe_log_rewritten_without_rule(benchmark: Any) -> None:
    benchmark.group = SAFE_LOG
    benchmark(_grad(why.safe_log_traceable), 2.0)


# ---- the bridge itself ----------------------------------------------------------------------------------------
BRIDGE = "autograd bridge overhead (mse rule, N=30): time / native autograd primitive"


def _native_mse() -> Any:
    """The same derivative as ``mse_rrule``, written the way autograd's own VJPs are."""
    from autograd.extend import defvjp, primitive

    def mse_vectorised(y: Any, yhat: Any) -> Any:
        r = y - yhat
        return r.dot(r) / r.size

    native = primitive(mse_vectorised)
    defvjp(native,
           lambda ans, y, yhat: lambda g: (2.0 / y.size) * g * (y - yhat),
           lambda ans, y, yhat: lambda g: (-2.0 / y.size) * g * (y - yhat))
    return native


def test_bridge_native_autograd_primitive(benchmark: Any) -> None:
    benchmark.group = BRIDGE
    benchmark.extra_info["baseline"] = True
    benchmark(_grad(_native_mse(), 1), Y, YHAT)


def test_bridge_chainrules_primitive(benchmark: Any) -> None:
    benchmark.group = BRIDGE
    benchmark(_grad(_bridged(why.mse), 1), Y, YHAT)


def test_bridge_rule_doing_nothing(benchmark: Any) -> None:
    from chainrules import NoTangent, rrule

    def constant(y: Any, yhat: Any) -> Any:
        return 0.0

    zeros = np.zeros(30)

    @rrule.register(constant, np.ndarray, np.ndarray)
    def constant_rrule(y: np.ndarray, yhat: np.ndarray) -> Any:
        def constant_pullback(dy: Any) -> Any:
            return NoTangent(), zeros, zeros

        return np.float64(0.0), constant_pullback

    benchmark.group = BRIDGE
    benchmark(_grad(_bridged(constant), 1), Y, YHAT)


def test_bridge_rule_doing_nothing_arguments_in_a_tuple(benchmark: Any) -> None:
    from chainrules import NoTangent, Tangent, rrule

    def constant_of_pair(pair: Any) -> Any:
        return 0.0

    zeros = np.zeros(30)

    @rrule.register(constant_of_pair, tuple)
    def constant_of_pair_rrule(pair: tuple[Any, Any]) -> Any:
        def constant_of_pair_pullback(dy: Any) -> Any:
            return NoTangent(), Tangent(tuple, zeros, zeros)

        return np.float64(0.0), constant_of_pair_pullback

    bridged = _bridged(constant_of_pair)
    benchmark.group = BRIDGE
    benchmark(_grad(lambda y, yhat: bridged((y, yhat)), 1), Y, YHAT)
