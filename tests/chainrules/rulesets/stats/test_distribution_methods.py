"""The calling forms of distribution methods (chainrules/rulesets/stats/_distribution_methods.py): positional
parameters differentiated, keywords constant, integers NoTangent, broadcasting, float32, dispatch on the
distribution's class, what has no rule."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as st
from scipy.stats._distn_infrastructure import rv_continuous

import chainrules  # noqa: F401  (registers the rules)
from chainrules import frule, rrule, unthunk
from chainrules.rulesets.stats._distribution_methods import MethodCall, register_method
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent


def _cotangents(f, *args, **kwargs):
    y, pullback = rrule(f, *args, **kwargs)
    return y, [unthunk(c) for c in pullback(np.ones(np.shape(y)))]


def test_bound_method_is_the_class_function_with_the_instance_first():
    x = np.array([0.3, 1.2])
    y1, bound = _cotangents(st.norm.logpdf, x, 0.5, 2.0)
    y2, unbound = _cotangents(rv_continuous.logpdf, st.norm, x, 0.5, 2.0)
    np.testing.assert_array_equal(y1, y2)
    assert isinstance(bound[0], NoTangent) and isinstance(bound[1], NoTangent)  # the method, the distribution
    for a, b in zip(bound, unbound):
        if not isinstance(a, NoTangent):
            np.testing.assert_array_equal(a, b)


def test_keywords_are_constants_and_positional_parameters_are_differentiated():
    x = np.array([0.3, 1.2])
    _, positional = _cotangents(st.norm.logpdf, x, 0.5, 2.0)
    _y, keywords = _cotangents(st.norm.logpdf, x, loc=0.5, scale=2.0)
    assert len(keywords) == 3  # the method, the distribution, x: no slot for loc and scale
    np.testing.assert_allclose(keywords[2], positional[2], rtol=1e-15)
    _, mixed = _cotangents(st.norm.logpdf, x, 0.5, scale=2.0)
    assert len(mixed) == 4
    np.testing.assert_allclose(mixed[3], positional[3], rtol=1e-15)
    # the same derivative as the finite differences, with the keyword held at its value
    test_rrule(st.norm.logpdf, x, 0.5, fkwargs={"scale": 2.0})
    test_frule(st.norm.logpdf, x, 0.5, fkwargs={"scale": 2.0})


def test_x_by_keyword_is_a_constant_too():
    _, cotangents = _cotangents(st.norm.cdf, x=0.25, loc=0.5)
    assert len(cotangents) == 2  # the method and the distribution: nothing is differentiated


def test_integer_arguments_get_no_tangent():
    _, cotangents = _cotangents(st.norm.logpdf, 1, 0.5, 2)
    assert isinstance(cotangents[2], NoTangent) and isinstance(cotangents[4], NoTangent)
    assert float(cotangents[3]) == pytest.approx(0.125)  # z = 0.25: dlogpdf/dloc = z / scale
    _, moment = _cotangents(st.norm.moment, 3, 0.5, 2.0)  # the order is an index
    assert isinstance(moment[2], NoTangent)


def test_broadcasting_sums_the_cotangents_back_to_each_shape():
    x = np.array([[0.3, 1.2, -0.4]])
    loc = np.array([[0.5], [1.0]])
    _, cotangents = _cotangents(st.norm.logcdf, x, loc, 2.0)
    assert cotangents[2].shape == (1, 3) and cotangents[3].shape == (2, 1) and np.shape(cotangents[4]) == ()
    test_rrule(st.norm.logcdf, x, loc, 2.0)
    test_frule(st.norm.logcdf, x, loc, 2.0)


def test_float32_arguments_get_float32_cotangents():
    x = np.array([0.3, 1.2], dtype=np.float32)
    _, cotangents = _cotangents(st.norm.pdf, x, np.float32(0.5), 2.0)
    assert cotangents[2].dtype == np.float32 and cotangents[3].dtype == np.float32
    assert isinstance(cotangents[4], float)


def test_a_subclass_gets_its_base_class_rules():
    class WideGen(type(st.norm)):
        pass

    wide = WideGen(name="wide")
    test_rrule(wide.logpdf, np.array([0.3, 1.2]), 0.5, 2.0)


def test_a_distribution_without_rules_has_none():
    assert rrule(st.levy_stable.pdf, 0.5, 1.5, 0.5) is None
    assert frule((None, None, 1.0, 0.0, 0.0), st.levy_stable.pdf, 0.5, 1.5, 0.5) is None


def test_scipy_errors_on_bad_primal_input_pass_through():
    with pytest.raises(TypeError, match="missing"):
        rrule(st.norm.logpdf)


def test_method_call_binds_arguments_as_scipy_does():
    call = MethodCall(type(st.beta).cdf, st.beta, (0.3, 2.0), {"b": 3.0, "scale": 2.0})
    assert call.bound == ("x", "a") and call.shapes == (2.0, 3.0) and call.loc == 0.0 and call.scale == 2.0
    call = MethodCall(type(st.norm).interval, st.norm, (0.9, 1.0), {})
    assert call.bound == ("confidence", "loc") and call.lead() == 0.9 and call.scale == 1.0


def test_register_method_takes_any_kernel():
    class HalfGen(type(st.halfnorm)):
        pass

    half = HalfGen(a=0.0, name="half")

    def mean_kernel(call, y, names):
        scale = np.sqrt(2 / np.pi)
        return {"loc": 1.0, "scale": scale}

    register_method(type(st.norm).mean, {HalfGen: mean_kernel})
    _y, pullback = rrule(half.mean, 0.5, 2.0)
    assert [unthunk(c) for c in pullback(1.0)[2:]] == [1.0, pytest.approx(np.sqrt(2 / np.pi))]
    test_rrule(half.mean, 0.5, 2.0)
