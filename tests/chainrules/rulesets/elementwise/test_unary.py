"""The machinery of the elementwise rules (scalar_rule, unary_rule in elementwise/_unary.py): keywords,
cotangent kinds, integers, zeros."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import (
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    frule,
    not_implemented,
    rrule,
    unthunk,
)
from chainrules.rulesets.elementwise._unary import unary_rule
from chainrules.testing import test_frule, test_rrule
from chainrules_core import scalar_rule
from chainrules_core.scalar_rules import MINUS_ONE, ONE, ZERO

BINARY = [np.add, np.multiply, np.power, np.maximum, np.hypot]
UNARY = [np.sin, np.exp, np.abs, np.floor, np.sign, np.conj]


@pytest.mark.parametrize("f", UNARY + BINARY)
def test_out_keyword_raises(f, sample):
    args = (sample((3,), low=0.2),) * f.nin
    for registry_call in (lambda: rrule(f, *args, out=np.empty(3)),
                          lambda: frule((NoTangent(),) * (f.nin + 1), f, *args, out=np.empty(3)),
                          lambda: rrule(f, *args, out=(np.empty(3),))):
        with pytest.raises(UnsupportedKeywordError, match="out="):
            registry_call()


@pytest.mark.parametrize("f", UNARY + BINARY)
def test_out_by_position_raises(f, sample):
    args = (sample((3,), low=0.2),) * f.nin
    with pytest.raises(UnsupportedKeywordError, match="by position"):
        rrule(f, *args, np.empty(3))
    with pytest.raises(UnsupportedKeywordError, match="by position"):
        frule((NoTangent(),) * (f.nin + 2), f, *args, np.empty(3))


@pytest.mark.parametrize("f", UNARY + BINARY)
def test_where_keyword_raises_unless_true(f, sample):
    args = (sample((3,), low=0.2),) * f.nin
    with pytest.raises(UnsupportedKeywordError, match="where="):
        rrule(f, *args, where=np.array([True, False, True]))
    test_rrule(f, *args, fkwargs={"where": True, "out": None})


def test_other_ufunc_keywords_pass_through(sample):
    x = sample((2, 3))
    test_rrule(np.exp, x, fkwargs={"casting": "same_kind", "order": "C", "subok": True})
    test_rrule(np.multiply, x, x[0], fkwargs={"dtype": np.complex128})
    y, _ = rrule(np.add, np.ones(2), np.ones(2), dtype=np.int64, casting="unsafe")
    assert y.dtype == np.int64


def test_integer_dtype_keyword_makes_the_output_non_differentiable():
    _y, pullback = rrule(np.add, np.ones(2), np.ones(2), dtype=np.int64, casting="unsafe")
    assert pullback(np.ones(2)) == (NoTangent(), NoTangent(), NoTangent())
    assert frule((NoTangent(), np.ones(2), np.ones(2)), np.add, np.ones(2), np.ones(2), dtype=np.int64,
                 casting="unsafe")[1] == NoTangent()


@pytest.mark.parametrize("f", UNARY + BINARY)
def test_cotangent_kinds(f, sample):
    args = (sample((2, 3), low=0.2),) * f.nin
    _y, pullback = rrule(f, *args)
    dy = sample((2, 3))
    direct = [unthunk(c) for c in pullback(dy)]
    thunked = [unthunk(c) for c in pullback(Thunk(lambda: dy))]
    for a, b in zip(direct, thunked):
        assert a == NoTangent() if isinstance(a, NoTangent) else np.array_equal(a, b)
    assert pullback(ZeroTangent()) == (NoTangent(), *(ZeroTangent(),) * f.nin)
    assert pullback(NoTangent()) == (NoTangent(), *(ZeroTangent(),) * f.nin)
    missing = not_implemented("upstream")
    assert all(isinstance(unthunk(c), NotImplementedTangent) for c in pullback(missing)[1:])


@pytest.mark.parametrize("f", UNARY + BINARY)
def test_wrong_cotangents_raise_naming_the_function(f, sample):
    args = (sample((2, 3), low=0.2),) * f.nin
    _, pullback = rrule(f, *args)
    with pytest.raises(ProjectionError, match=rf"{f.__name__} pullback: output cotangent has shape \(3,\), "
                                              rf"expected shape \(2, 3\)"):
        pullback(np.ones(3))
    with pytest.raises(ProjectionError, match=f"{f.__name__} pullback: output cotangent is a Tangent"):
        pullback(Tangent(tuple, 1.0, 2.0))


def test_projection_keeps_float32_and_real(sample):
    x32, w = sample((2, 3), np.float32), sample((3,), np.complex128)
    _, pullback = rrule(np.multiply, x32, w)
    dx, dw = (unthunk(c) for c in pullback(sample((2, 3), np.complex128))[1:])
    assert dx.dtype == np.float32 and dx.shape == (2, 3)
    assert dw.dtype == np.complex128 and dw.shape == (3,)


def test_zero_derivative_gives_dense_zeros_of_the_input(sample):
    for x in (sample((2, 3), np.float32), sample((), np.float64), np.float32(0.3), 0.3):
        _, pullback = rrule(np.floor, x)
        dx = pullback(1.0 if np.ndim(x) == 0 else np.ones((2, 3)))[1]
        assert type(dx) is type(x) and np.shape(dx) == np.shape(x) and not np.any(dx)
        if hasattr(x, "dtype"):
            assert dx.dtype == x.dtype
    _y, dy = frule((NoTangent(), np.ones(3, np.float32)), np.ceil, sample((3,), np.float32))
    assert dy.dtype == np.float32 and not np.any(dy)


def test_scalar_rule_for_a_user_function(sample):
    def scaled_difference(a, b, scale):
        return (a - b) * scale

    scalar_rule(scaled_difference, lambda a, b, s, y: s, lambda a, b, s, y: -s, lambda a, b, s, y: a - b,
                     name="scaled_difference")
    a, b = sample((2, 3)), sample((3,))
    test_rrule(scaled_difference, a, b, 2.5)
    test_frule(scaled_difference, a, b, 2.5)
    test_rrule(scaled_difference, a, b, 2)  # an integer scale is not differentiated


def test_scalar_rule_constant_partials(sample):
    def shift_and_flip(a, b, c):
        return a - b + 0 * c

    scalar_rule(shift_and_flip, ONE, MINUS_ONE, ZERO)
    a, b, c = sample((2, 3)), sample((3,)), sample((2, 1))
    test_rrule(shift_and_flip, a, b, c)
    test_frule(shift_and_flip, a, b, c)
    _, pullback = rrule(shift_and_flip, a, b, c)
    dc = unthunk(pullback(np.ones((2, 3)))[3])
    assert dc.shape == (2, 1) and not np.any(dc)


def test_unary_rule_with_optional_parameters(sample):
    def scaled(x, factor=2.0, mode="plain"):
        return x * factor

    unary_rule(scaled, lambda x, y, dy, **p: dy * p.get("factor", 2.0),
               lambda x, y, dx, **p: dx * p.get("factor", 2.0), extra=(("factor", float), ("mode", str)),
               keywords=lambda f, kwargs: None)
    x = sample((2, 3))
    test_rrule(scaled, x)
    test_frule(scaled, x)
    test_rrule(scaled, x, fkwargs={"factor": 3.0})
    _, pullback = rrule(scaled, x, 3.0, "plain")
    assert pullback(np.ones((2, 3)))[2:] == (NoTangent(), NoTangent())


def test_frule_accepts_none_and_zero_tangents(sample):
    x = sample((2, 3))
    _, dy = frule((None, np.ones((2, 3))), np.sin, x)
    assert np.array_equal(dy, frule((NoTangent(), np.ones((2, 3))), np.sin, x)[1])
    assert frule((None, None), np.sin, x)[1] == ZeroTangent()
    assert frule((NoTangent(), ZeroTangent(), NoTangent()), np.multiply, x, x)[1] == ZeroTangent()
    _, dy = frule((NoTangent(), Thunk(lambda: np.ones((2, 3))), ZeroTangent()), np.multiply, x, 2.0)
    assert np.array_equal(dy, frule((NoTangent(), np.ones((2, 3)), 0.0), np.multiply, x, 2.0)[1])
