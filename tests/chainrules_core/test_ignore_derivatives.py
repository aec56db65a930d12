"""ignore_derivatives: a value (or the result of a function of no arguments) the AD treats as constant."""

import numpy as np

from chainrules_core import NoTangent, frule, ignore_derivatives, rrule


def test_returns_a_value_unchanged():
    x = np.ones(3)
    assert ignore_derivatives(x) is x
    assert ignore_derivatives(2.5) == 2.5
    assert ignore_derivatives(np.sin) is np.sin  # a builtin is a value, never called


def test_calls_a_function_of_no_arguments():
    assert ignore_derivatives(lambda: 2.0 + 2.0) == 4.0

    @ignore_derivatives
    def scale():
        return 10.0

    assert scale == 10.0


def test_does_not_call_functions_that_need_arguments():
    def needs_x(x):
        return x

    assert ignore_derivatives(needs_x) is needs_x


def test_rules_treat_the_result_as_constant():
    x = np.array([1.0, 2.0])
    y, pullback = rrule(ignore_derivatives, x)
    assert y is x
    assert pullback(np.ones(2)) == (NoTangent(), NoTangent())
    y, dy = frule((NoTangent(), np.ones(2)), ignore_derivatives, x)
    assert y is x and dy is NoTangent()
    y, pullback = rrule(ignore_derivatives, lambda: 3.0)
    assert y == 3.0 and pullback(1.0) == (NoTangent(), NoTangent())
