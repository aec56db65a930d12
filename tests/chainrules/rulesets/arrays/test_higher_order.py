"""Rules of chainrules/rulesets/arrays/higher_order.py, checked against finite differences.

``RulesAD`` is a toy AD whose ``rrule_via_ad``/``frule_via_ad`` look up chainrules' own rules
(what a real AD does first); it counts its calls, so the tests see that the config rules
call back into it. Every derivative is checked against finite differences of the primal.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import chainrules  # registers the rules
import chainrules.rulesets.arrays.higher_order  # noqa: F401  (until registration discovery lands)
from chainrules import (
    AbstractZero,
    HasForwardsMode,
    HasReverseMode,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    RuleConfig,
    Tangent,
    UnsupportedKeywordError,
    ZeroTangent,
    frule,
    rrule,
    unthunk,
)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


class RulesAD(RuleConfig, HasReverseMode, HasForwardsMode):
    """A toy AD that differentiates a function by looking up its chainrules rule."""

    def __init__(self) -> None:
        self.calls = 0

    def rrule_via_ad(self, f, *args, **kwargs):
        self.calls += 1
        result = rrule(self, f, *args, **kwargs)
        if result is None:
            raise NotImplementedError(f"RulesAD has no rrule for {f!r}")
        return result

    def frule_via_ad(self, tangents, f, *args, **kwargs):
        self.calls += 1
        result = frule(self, tangents, f, *args, **kwargs)
        if result is None:
            raise NotImplementedError(f"RulesAD has no frule for {f!r}")
        return result


@dataclasses.dataclass
class Scale:
    """A callable with a differentiable field: ``Scale(a)(v) = a * v``."""

    a: float

    def __call__(self, v, *args):
        return self.a * v


@rrule.register_functor(Scale, np.ndarray)
def scale_rrule(s, v):
    project_v = ProjectTo(v)

    def scale_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return ZeroTangent(), ZeroTangent()
        return Tangent(Scale, a=float(np.sum(np.real(np.conj(v) * dy)))), project_v(s.a * dy)

    return s(v), scale_pullback


@frule.register_functor(Scale, np.ndarray)
def scale_frule(tangents, s, v):
    ds, dv = (unthunk(t) for t in tangents)
    da = 0.0 if isinstance(ds, AbstractZero) else ds.a
    dv = 0.0 if isinstance(dv, AbstractZero) else dv
    return s(v), da * v + s.a * dv


@pytest.fixture
def ad():
    return RulesAD()


# ---- apply_along_axis -------------------------------------------------------------------------------------
@pytest.mark.parametrize("func1d", [np.sum, np.cumsum, np.sort, np.diag], ids=["sum", "cumsum", "sort", "diag"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_apply_along_axis(func1d, axis, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    if func1d is np.sort and dtype == np.complex128:
        x = x.real.copy()
    test_rrule(np.apply_along_axis, func1d, axis, x)
    test_frule(np.apply_along_axis, func1d, axis, x)


def test_apply_along_axis_three_dimensions(rand):
    x = rand(2, 3, 2)
    for axis in (0, 1, 2):
        test_rrule(np.apply_along_axis, np.diag, axis, x)
        test_frule(np.apply_along_axis, np.cumsum, axis, x)


def test_apply_along_axis_calls_back_into_the_ad(ad, rand):
    x = rand(3, 4)
    test_rrule(np.apply_along_axis, np.cumsum, 1, x, config=ad)
    test_frule(np.apply_along_axis, np.cumsum, 0, x, config=ad)
    assert ad.calls > 0


def test_apply_along_axis_extra_arguments_are_differentiated(ad, rand):
    x, kernel, w = rand(3, 4), rand(2), rand(4)
    test_rrule(np.apply_along_axis, np.convolve, 1, x, kernel)       # the kernel's cotangent sums over slices
    test_frule(np.apply_along_axis, np.convolve, 1, x, kernel)
    test_rrule(np.apply_along_axis, np.dot, 0, rand(4, 3), w, config=ad)
    test_frule(np.apply_along_axis, np.dot, 0, rand(4, 3), w, config=ad)


def test_apply_along_axis_keywords_reach_the_function(rand):
    x = rand(3, 4)
    test_rrule(np.apply_along_axis, np.sum, 1, x, fkwargs={"keepdims": True})
    test_frule(np.apply_along_axis, np.cumsum, 1, x, fkwargs={"dtype": np.float64})


def test_apply_along_axis_function_with_fields(ad, rand):
    x = rand(3, 4)
    test_rrule(np.apply_along_axis, Scale(1.5), 1, x)              # the field's cotangent sums over slices
    test_frule(np.apply_along_axis, PrimalAndTangent(Scale(1.5), Tangent(Scale, a=0.7)), 0, x, config=ad)


def test_apply_along_axis_without_a_rule_is_none(rand):
    def double(v):
        return 2 * v

    x = rand(2, 3)
    assert rrule(np.apply_along_axis, double, 1, x) is None
    assert frule((NoTangent(),) * 4, np.apply_along_axis, double, 1, x) is None
    with pytest.raises(NotImplementedError, match="no rrule for"):     # the AD says it cannot
        rrule(RulesAD(), np.apply_along_axis, double, 1, x)


def test_apply_along_axis_integer_array_and_wrong_cotangent(rand):
    test_rrule(np.apply_along_axis, np.cumsum, 1, np.arange(6).reshape(2, 3))
    _, pullback = rrule(np.apply_along_axis, np.sum, 1, rand(2, 3))
    with pytest.raises(ProjectionError, match=r"np\.apply_along_axis pullback: output cotangent"):
        pullback(np.ones(3))


# ---- apply_over_axes --------------------------------------------------------------------------------------
@pytest.mark.parametrize("func", [np.sum, np.mean, np.cumsum, np.max], ids=["sum", "mean", "cumsum", "max"])
@pytest.mark.parametrize("axes", [0, [1], (0, 1), [-1, 0]])
def test_apply_over_axes(func, axes, dtype, rand):
    x = rand(3, 4, dtype=dtype)
    if func is np.max and dtype == np.complex128:
        x = x.real.copy()
    test_rrule(np.apply_over_axes, func, x, axes)
    test_frule(np.apply_over_axes, func, x, axes)


def test_apply_over_axes_calls_back_into_the_ad(ad, rand):
    x = rand(2, 3, 2)
    test_rrule(np.apply_over_axes, np.sum, x, [0, 2], config=ad)
    test_frule(np.apply_over_axes, np.cumsum, x, 1, config=ad)
    assert ad.calls > 0


def test_apply_over_axes_without_a_rule_is_none(rand):
    assert rrule(np.apply_over_axes, lambda a, axis: a.sum(axis), rand(2, 3), 0) is None


# ---- piecewise -----------------------------------------------------------------------------------------------
@pytest.fixture
def x6(rand):
    return np.array([-1.3, -0.7, -0.2, 0.3, 0.8, 1.6])


def test_piecewise_functions(x6, dtype):
    x = x6.astype(dtype) + (0.1j if dtype == np.complex128 else 0)
    cond = [x6 < -0.5, x6 > 0.5]
    test_rrule(np.piecewise, x, cond, [np.sin, np.exp, np.square])     # the last: "otherwise"
    test_frule(np.piecewise, x, cond, [np.sin, np.exp, np.square])
    test_rrule(np.piecewise, x, cond, [np.sin, np.exp])                # 0 where no condition holds


def test_piecewise_constants_are_differentiated(x6):
    cond = [x6 < -0.5, x6 > 0.5]
    test_rrule(np.piecewise, x6, cond, [np.sin, 0.5, np.square])
    test_frule(np.piecewise, x6, cond, [np.sin, 0.5, np.square])
    test_rrule(np.piecewise, x6, cond, (2.0, 3.0))
    _, pullback = rrule(np.piecewise, x6, cond, [np.sin, 0.5, np.square])
    funclist_bar = pullback(np.ones(6))[3]
    assert isinstance(funclist_bar, Tangent) and funclist_bar[1] == 2.0 and funclist_bar[0] == NoTangent()


def test_piecewise_overlapping_conditions_last_wins(x6):
    test_rrule(np.piecewise, x6, [x6 < 0.5, x6 > -0.5], [np.sin, np.exp])
    test_frule(np.piecewise, x6, [x6 < 0.5, x6 > -0.5], [np.sin, np.exp])


def test_piecewise_single_condition_and_scalar_results(x6):
    test_rrule(np.piecewise, x6, x6 < 0, [np.negative, np.square])      # one condition, not a list
    test_rrule(np.piecewise, x6, [x6 < 0], [np.sum, np.prod])           # scalar results broadcast
    test_frule(np.piecewise, x6, [x6 < 0], [np.sum, np.prod])


def test_piecewise_extra_arguments(x6, ad):
    test_rrule(np.piecewise, x6, [x6 < 0], [np.multiply, np.add], 1.5)
    test_frule(np.piecewise, x6, [x6 < 0], [np.multiply, np.add], 1.5)
    test_rrule(np.piecewise, x6, [x6 < 0], [np.multiply, np.add], 1.5, config=ad)
    assert ad.calls > 0


def test_piecewise_config_and_function_with_fields(x6, ad):
    test_rrule(np.piecewise, x6, [x6 < 0], [Scale(2.0), np.exp], config=ad)
    test_frule(np.piecewise, x6, [x6 < 0], [Scale(2.0), np.exp], config=ad)
    test_rrule(np.piecewise, x6, [x6 < 0], [Scale(2.0), np.exp])


def test_piecewise_float32_and_none(x6):
    x = x6.astype(np.float32)
    test_rrule(np.piecewise, x, [x < 0], [np.sin, np.cos])
    assert rrule(np.piecewise, x6, [x6 < 0], [lambda v: 2 * v, np.cos]) is None


# ---- fromfunction --------------------------------------------------------------------------------------------
def test_fromfunction_plain_function_has_no_tangent():
    test_rrule(np.fromfunction, lambda i, j: i * j + 1.0, (2, 3))
    test_frule(np.fromfunction, lambda i, j: i * j + 1.0, (2, 3))
    test_rrule(np.fromfunction, np.add, (2, 2), fkwargs={"dtype": int})
    y, pullback = rrule(np.fromfunction, np.hypot, (2, 3))
    assert np.array_equal(y, np.fromfunction(np.hypot, (2, 3)))
    assert pullback(np.ones((2, 3))) == (NoTangent(), NoTangent(), NoTangent())


def test_fromfunction_function_with_fields_gets_its_cotangent(ad):
    test_rrule(np.fromfunction, Scale(1.5), (4,))                    # through Scale's own rule
    test_rrule(np.fromfunction, Scale(1.5), (4,), config=ad)
    test_frule(np.fromfunction, PrimalAndTangent(Scale(1.5), Tangent(Scale, a=0.3)), (4,), config=ad)
    test_frule(np.fromfunction, PrimalAndTangent(Scale(1.5), Tangent(Scale, a=0.3)), (4,))


def test_fromfunction_closure_without_a_rule_is_not_implemented():
    def offset_by(c):
        return lambda i: i + c

    _, pullback = rrule(np.fromfunction, offset_by(2.5), (3,))
    assert isinstance(pullback(np.ones(3))[1], NotImplementedTangent)
    _, dy = frule((NoTangent(), 1.0, NoTangent()), np.fromfunction, offset_by(2.5), (3,))
    assert isinstance(dy, NotImplementedTangent)
    _, pullback = rrule(np.fromfunction, offset_by(2), (3,))        # an integer is not differentiated
    assert pullback(np.ones(3))[1] == NoTangent()


def test_fromfunction_like_is_rejected():
    with pytest.raises(UnsupportedKeywordError, match="like="):
        rrule(np.fromfunction, np.add, (2,), like=np.zeros(1))
