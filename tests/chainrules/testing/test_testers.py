"""The testers on the library's own rules and on features the broken-rule suite does not reach.

float32 needs no tolerances of its own; configs and ``rrule_f``/``frule_f`` (an AD testing
its own gradients); callable objects with fields (their own cotangent is checked);
keyword arguments; messages that name NumPy and SciPy functions.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import scipy.special

import chainrules  # noqa: F401  (registers the library's rules)
from chainrules.testing import PrimalAndTangent, rand_tangent, test_frule, test_rrule, test_scalar
from chainrules.testing.testers import _argument_labels, _describe
from chainrules_core import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    ProjectTo,
    RuleConfig,
    Tangent,
    ZeroTangent,
    frule,
    rrule,
    scalar_rule,
    unthunk,
)


# ---- float32 works with the default tolerances ----------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_library_rules_at_single_precision(dtype):
    rng = np.random.default_rng(0)
    x = rng.uniform(0.5, 2.0, (3, 4)).astype(dtype)
    y = rng.uniform(0.5, 2.0, (4,)).astype(dtype)
    test_rrule(np.sin, x)
    test_frule(np.sin, x)
    test_rrule(np.multiply, x, y)
    test_frule(np.multiply, x, y)
    test_rrule(np.exp, x)
    test_rrule(np.sum, x, fkwargs={"axis": 0})
    test_scalar(np.sin, dtype(0.5))


def logistic(x):
    return 1 / (1 + np.exp(-x))


scalar_rule(logistic, lambda x, out: out * (1 - out))


@pytest.mark.parametrize("x", [np.linspace(-3, 3, 5, dtype=np.float32), np.float32(8.0), np.float32(-12.0)])
def test_own_rule_at_float32(x):
    test_rrule(logistic, x)
    test_frule(logistic, x)


def test_float32_tolerance_still_catches_a_small_error():
    def logistic_off(x):
        return 1 / (1 + np.exp(-x))

    scalar_rule(logistic_off, lambda x, out: out * (1 - out) * np.float32(1.001))  # 0.1% too big
    with pytest.raises(AssertionError, match=r"logistic_off\).*argument 1 \('x'\): arrays differ"):
        test_rrule(logistic_off, np.linspace(-1, 1, 4, dtype=np.float32))


# ---- configs and the rules an AD brings -----------------------------------------------------------
class ReverseConfig(RuleConfig, HasReverseMode, HasForwardsMode):
    pass


def test_an_ad_tests_its_own_rules_through_rrule_f_and_frule_f():
    seen = []

    def ad_rrule(config, f, *args):
        seen.append(("rrule", type(config).__name__))
        return rrule(config, f, *args)

    def ad_frule(config, tangents, f, *args):
        seen.append(("frule", type(config).__name__))
        return frule(config, tangents, f, *args)

    x = np.array([0.1, 0.7])
    test_rrule(np.tanh, x, config=ReverseConfig(), rrule_f=ad_rrule, frule_f=ad_frule)
    test_frule(np.tanh, x, config=ReverseConfig(), frule_f=ad_frule, rrule_f=ad_rrule)
    assert ("rrule", "ReverseConfig") in seen and ("frule", "ReverseConfig") in seen


def test_config_first_as_rrule_takes_it():
    """``test_rrule(config, f, x, rrule_f=...)``: the calling convention of ``rrule`` with a config."""
    seen = []

    def ad_rrule(config, f, *args):
        seen.append(type(config).__name__)
        return rrule(config, f, *args)

    def ad_frule(config, tangents, f, *args):
        seen.append(type(config).__name__)
        return frule(config, tangents, f, *args)

    x = np.array([0.1, 0.7])
    test_rrule(ReverseConfig(), np.tanh, x, rrule_f=ad_rrule)
    test_frule(ReverseConfig(), np.tanh, x, frule_f=ad_frule)
    assert seen.count("ReverseConfig") >= 2
    with pytest.raises(TypeError, match="both as the first argument and as config="):
        test_rrule(ReverseConfig(), np.tanh, x, config=ReverseConfig())
    with pytest.raises(TypeError, match="must follow the config"):
        test_frule(ReverseConfig())


def test_an_ad_gradient_that_is_wrong_is_caught():
    def sloppy_ad_rrule(config, f, x):
        y, pullback = rrule(config, f, x)

        def sloppy_pullback(dy):
            df, dx = pullback(dy)
            return df, 1.01 * unthunk(dx)

        return y, sloppy_pullback

    with pytest.raises(AssertionError, match=r"numpy.tanh\).*argument 1 \('x'\).*arrays differ"):
        test_rrule(np.tanh, np.array([0.1, 0.7]), config=ReverseConfig(), rrule_f=sloppy_ad_rrule,
                   check_frule_consistency=False)


# ---- callable objects with fields -------------------------------------------------------------------
@dataclasses.dataclass
class Affine:
    w: np.ndarray
    b: float

    def __call__(self, x):
        return self.w * x + self.b


@rrule.register_functor(Affine, np.ndarray)
def affine_rrule(a, x):
    project_w, project_x = ProjectTo(a.w), ProjectTo(x)

    def affine_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return ZeroTangent(), ZeroTangent()
        return Tangent(Affine, w=project_w(np.conj(x) * dy), b=float(np.sum(np.real(dy)))), project_x(np.conj(a.w) * dy)

    return a(x), affine_pullback


@frule.register_functor(Affine, np.ndarray)
def affine_frule(tangents, a, x):
    da, dx = tangents
    if isinstance(da, AbstractZero):
        return a(x), a.w * dx
    return a(x), a.w * dx + da.w * x + da.b  # a Tangent(Affine) or an Affine: both have .w and .b


@dataclasses.dataclass
class AffineBadBias(Affine):
    def __call__(self, x):
        return self.w * x + self.b


@rrule.register_functor(AffineBadBias, np.ndarray)
def affine_bad_bias_rrule(a, x):
    def affine_bad_bias_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return ZeroTangent(), ZeroTangent()
        return Tangent(AffineBadBias, w=x * dy, b=0.0), a.w * dy  # the bias' cotangent is lost

    return a(x), affine_bad_bias_pullback


def test_callable_object_with_fields():
    a, x = Affine(np.array([1.0, -2.0]), 0.5), np.array([0.3, 0.4])
    test_rrule(PrimalAndTangent(a, rand_tangent(a)), x)
    test_frule(PrimalAndTangent(a, rand_tangent(a)), x)
    with pytest.raises(AssertionError, match=r"cotangent of the function: AffineBadBias\.b: arrays differ"):
        test_rrule(PrimalAndTangent(AffineBadBias(a.w, a.b), rand_tangent(a)), x)


# ---- keyword arguments and optional positional arguments -----------------------------------------
def test_both_spellings_of_an_optional_argument():
    x = np.arange(1.0, 7.0).reshape(2, 3)
    test_rrule(np.sum, x, 1)
    test_rrule(np.sum, x, fkwargs={"axis": 1})
    test_frule(np.sum, x, 1)


# ---- messages name the function and the arguments -------------------------------------------------
def test_functions_are_named_with_their_module():
    assert _describe(np.multiply) == "numpy.multiply"
    assert _describe(np.linalg.solve) == "numpy.linalg.solve"
    assert _describe(scipy.special.gamma) == "scipy.special.gamma"
    assert _describe(logistic).endswith("test_testers.logistic")


def test_arguments_are_named_by_position_and_name():
    assert _argument_labels(np.multiply, 2) == ["argument 1 ('x1')", "argument 2 ('x2')"]
    assert _argument_labels(lambda *xs: 0, 2) == ["argument 1 ('xs[0]')", "argument 2 ('xs[1]')"]
    assert _argument_labels(max, 2) == ["argument 1", "argument 2"]


def test_primal_and_tangent():
    pair = PrimalAndTangent(np.float32(1.0), NoTangent())
    x, dx = pair
    assert x == 1.0 and isinstance(dx, NoTangent)
    assert repr(PrimalAndTangent(3, NoTangent())) == "PrimalAndTangent(3, NoTangent())"


def test_testers_are_not_collected_by_pytest():
    assert test_rrule.__test__ is False and test_frule.__test__ is False and test_scalar.__test__ is False


# ---- a structured tangent that is partly not implemented ---------------------------------------------
def value_and_scaled(x, k):
    return np.sin(x), k * x


@frule.register(value_and_scaled, float, float)
def value_and_scaled_frule(tangents, x, k):
    from chainrules_core import Tangent, not_implemented

    _, dx, _dk = tangents
    return value_and_scaled(x, k), Tangent(tuple, np.cos(x) * dx, not_implemented("the second output"))


def value_and_scaled_wrong(x, k):
    return np.sin(x), k * x


@frule.register(value_and_scaled_wrong, float, float)
def value_and_scaled_wrong_frule(tangents, x, k):
    from chainrules_core import Tangent, not_implemented

    _, dx, _dk = tangents
    return value_and_scaled_wrong(x, k), Tangent(tuple, 2 * np.cos(x) * dx, not_implemented("the second output"))


def test_frule_partly_not_implemented_is_an_expected_failure_and_the_rest_is_checked():
    import warnings

    from chainrules.testing import NotImplementedDerivativeWarning
    from chainrules.testing.testers import _collect_not_implemented

    with _collect_not_implemented() as notes:
        test_frule(value_and_scaled, 0.3, 2.0, check_rrule_consistency=False)
    assert notes and "the second output" in notes[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NotImplementedDerivativeWarning)
        with _collect_not_implemented(), pytest.raises(AssertionError, match="output tangent"):
            test_frule(value_and_scaled_wrong, 0.3, 2.0, check_rrule_consistency=False)
