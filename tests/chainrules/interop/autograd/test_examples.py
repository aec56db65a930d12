"""The four examples of ``docs/why-rules.md`` (``examples/why_rules.py``): without a rule, and fixed with one."""

from __future__ import annotations

import doctest
import importlib.util
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import autograd
import numpy as np
import pytest

from chainrules import frule_via_ad, rrule_via_ad
from chainrules.interop.autograd import AutogradConfig, primitive
from chainrules.testing import check_approx, jvp, test_frule, test_rrule

CONFIG = AutogradConfig()
EXAMPLES = Path(__file__).resolve().parents[4] / "examples"


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` once per process (its rules register on import)."""
    module_name = f"chainrules_examples.{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, EXAMPLES / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


why = load_example("why_rules")


def via_autograd(f: Any, *args: Any) -> None:
    """autograd's gradient of ``f`` against finite differences (chainrules' testers)."""
    test_rrule(f, *args, config=CONFIG, rrule_f=rrule_via_ad, check_inplace_add=False)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(30)


def test_the_example_module_doctests() -> None:
    failures, tried = doctest.testmod(why, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


# ---- loops: mse --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_mse_rules(rng: np.random.Generator, dtype: Any) -> None:
    y, yhat = rng.standard_normal(30).astype(dtype), rng.standard_normal(30).astype(dtype)
    test_rrule(why.mse, y, yhat)
    test_frule(why.mse, y, yhat)


def test_mse_rule_keeps_each_inputs_precision(rng: np.random.Generator) -> None:
    test_rrule(why.mse, rng.standard_normal(5).astype(np.float32), rng.standard_normal(5))


def test_mse_with_and_without_the_rule(rng: np.random.Generator) -> None:
    y, yhat = rng.standard_normal(30), rng.standard_normal(30)
    via_autograd(why.mse, y, yhat)  # autograd traces the loop: correct, slow
    via_autograd(primitive(why.mse), y, yhat)  # one rule: correct, fast
    test_frule(primitive(why.mse), y, yhat, config=CONFIG, frule_f=frule_via_ad, rrule_f=rrule_via_ad)
    check_approx(autograd.grad(primitive(why.mse), 1)(y, yhat), autograd.grad(why.mse, 1)(y, yhat))


# ---- in-place accumulation: sum3 ---------------------------------------------------------------------------
def test_sum3_rules(rng: np.random.Generator) -> None:
    a = rng.standard_normal(10)
    test_rrule(why.sum3, a)
    test_frule(why.sum3, a)


def test_sum3_with_and_without_the_rule(rng: np.random.Generator) -> None:
    a = rng.standard_normal(10)
    via_autograd(why.sum3, a)
    via_autograd(primitive(why.sum3), a)


# ---- functions that mutate arrays: addone ------------------------------------------------------------------
def test_addone_fails_without_a_rule(rng: np.random.Generator) -> None:
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        autograd.grad(why.addone)(rng.standard_normal(4))


def test_addone_with_the_rule(rng: np.random.Generator) -> None:
    a = rng.standard_normal(4)
    test_rrule(why.addone, a)
    test_frule(why.addone, a)
    via_autograd(primitive(why.addone), a)
    via_autograd(why.addone_traceable, a)  # the rewrite autograd needs instead


# ---- exception handling: safe_log --------------------------------------------------------------------------
def test_safe_log_fails_without_a_rule() -> None:
    with pytest.raises(TypeError, match="ArrayBox"):
        autograd.grad(why.safe_log)(2.0)


def test_a_broad_except_gives_a_silently_wrong_gradient() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = autograd.grad(why.safe_log_broad)(2.0)
    assert g == 0.0  # autograd's answer ...
    assert abs(jvp(None, why.safe_log, (2.0, 1.0))) > 0.1  # ... but the derivative is not zero
    assert any("independent of input" in str(w.message) for w in caught)


@pytest.mark.parametrize("x", [2.0, 0.3])
def test_safe_log_with_the_rule(x: float) -> None:
    test_rrule(why.safe_log, x)
    test_frule(why.safe_log, x)
    via_autograd(primitive(why.safe_log), x)
    via_autograd(why.safe_log_traceable, x)


def test_safe_log_rule_off_its_domain() -> None:
    y, pullback = rrule_via_ad(CONFIG, primitive(why.safe_log), -1.0)
    assert y == -np.inf
    assert pullback(1.0)[1] == 0.0
    assert float(autograd.grad(primitive(why.safe_log))(-1.0)) == 0.0
