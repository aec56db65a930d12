"""scalar_rule, non_differentiable, opt_out and reject_keywords.

Every derivative is checked with chainrules.testing against finite differences of the primal.
"""

import numpy as np
import pytest

from chainrules.testing import PrimalAndTangent, test_frule, test_rrule, test_scalar
from chainrules_core import (
    OPTED_OUT,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Tangent,
    Thunk,
    UnsupportedKeywordError,
    ZeroTangent,
    frule,
    non_differentiable,
    not_implemented,
    opt_out,
    reject_keywords,
    rrule,
    scalar_rule,
    unthunk,
)
from chainrules_core.scalar_rules import ONE, ZERO


# One argument, partials from the inputs.
def my_sinh(x):
    return np.sinh(x)


scalar_rule(my_sinh, lambda x: np.cosh(x))


# One argument, partials from the output (a parameter after the arguments).
def my_exp(x):
    return np.exp(x)


scalar_rule(my_exp, lambda x, out: out)


# Two arguments.
def my_hypot(x, y):
    return np.hypot(x, y)


scalar_rule(my_hypot, lambda x, y, out: x / out, lambda x, y, out: y / out)


# Two arguments, complex-capable (holomorphic in both).
def my_mul_exp(x, y):
    return x * np.exp(y)


scalar_rule(my_mul_exp, lambda x, y: np.exp(y), lambda x, y, out: out)


# Several outputs: one row of partials per output.
def sin_and_cos(x):
    return np.sin(x), np.cos(x)


scalar_rule(sin_and_cos, (np.cos,), (lambda x: -np.sin(x),))


def quotient_and_product(x, y):
    return x / y, x * y


scalar_rule(quotient_and_product, (lambda x, y: 1 / y, lambda x, y: -x / y**2), (lambda x, y: y, lambda x, y: x))


# Restricted argument types.
def my_square(x):
    return x * x


scalar_rule(my_square, lambda x: 2 * x, types=(float,))


@pytest.mark.parametrize("f", [my_sinh, my_exp], ids=lambda f: f.__name__)
@pytest.mark.parametrize("z", [0.5, -1.25, np.float32(0.5), np.float64(0.3), 0.5 + 0.25j, np.complex128(-0.3 + 1j)],
                         ids=repr)
def test_one_argument_on_scalars(f, z):
    test_scalar(f, z)


@pytest.mark.parametrize("f", [my_sinh, my_exp], ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [np.array([0.1, -0.2, 0.7]), np.array([[0.5, 1.0], [-1.0, 0.25]], dtype=np.float32),
                               np.array(0.3), np.array([0.1 + 0.5j, -0.2j])], ids=["vector", "float32", "0-d",
                                                                                    "complex"])
def test_one_argument_elementwise_on_arrays(f, x):
    test_rrule(f, x)
    test_frule(f, x)


def test_float32_stays_float32():
    x = np.array([0.5, 1.0], dtype=np.float32)
    y, pullback = rrule(my_sinh, x)
    assert y.dtype == np.float32 and pullback(np.ones(2, np.float32))[1].dtype == np.float32
    _, dy = frule((NoTangent(), np.ones(2, np.float32)), my_sinh, x)
    assert dy.dtype == np.float32


def test_complex_pullback_conjugates_the_partials():
    # The holomorphic convention, checked against finite differences of the real inner product.
    test_rrule(my_exp, 0.3 + 0.7j, output_tangent=1.0 + 0.0j)
    test_rrule(my_exp, 0.3 + 0.7j, output_tangent=1j)
    test_rrule(my_mul_exp, 1.0 - 0.5j, 0.2 + 0.4j)


def test_several_arguments():
    test_rrule(my_hypot, 1.0, 2.0)
    test_frule(my_hypot, 1.0, 2.0)
    test_rrule(my_hypot, np.float32(1.0), np.float32(2.0))
    test_rrule(my_mul_exp, np.array([1.0, 2.0]), np.array([0.5, -0.5]))
    test_frule(my_mul_exp, np.array([1.0, 2.0]), np.array([0.5, -0.5]))
    test_frule(my_hypot, 1.5, PrimalAndTangent(2.0, 0.0))  # one held fixed


@pytest.mark.parametrize("x_shape, y_shape", [((1, 3), (2, 1)), ((3,), (2, 3)), ((), (3,)), ((2, 1), ())])
def test_several_arguments_with_broadcasting(x_shape, y_shape):
    rng = np.random.default_rng(1)
    x = rng.uniform(0.5, 2.0, x_shape)
    y = rng.uniform(0.5, 2.0, y_shape)
    test_rrule(my_hypot, x, y)
    test_frule(my_hypot, x, y)
    _, pullback = rrule(my_hypot, x, y)
    _, dx, dy = pullback(np.ones(np.broadcast_shapes(x_shape, y_shape)))
    assert np.shape(unthunk(dx)) == x_shape and np.shape(unthunk(dy)) == y_shape  # summed back


def test_several_arguments_return_thunks():
    _, pullback = rrule(my_hypot, np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    _, dx, dy = pullback(np.ones(2))
    assert isinstance(dx, Thunk) and isinstance(dy, Thunk)


def test_several_outputs():
    test_rrule(sin_and_cos, 0.4)
    test_frule(sin_and_cos, 0.4)
    test_rrule(sin_and_cos, np.array([0.4, -1.2]))
    test_frule(sin_and_cos, np.array([0.4, -1.2]))
    test_rrule(sin_and_cos, 0.4 + 0.2j, output_tangent=(1.0 + 0.5j, -0.5j))
    test_rrule(quotient_and_product, 1.5, 2.5)
    test_frule(quotient_and_product, np.array([1.5, 1.0]), 2.5)
    test_rrule(quotient_and_product, np.array([1.5, 1.0]), 2.5)
    _, pullback = rrule(sin_and_cos, 0.4)
    test_rrule(sin_and_cos, 0.4, output_tangent=Tangent(tuple, 1.0, ZeroTangent()))  # one output unused
    with pytest.raises(ValueError, match=r"output cotangent has 1 parts, expected 2 \(one per output\)"):
        pullback((1.0,))


def test_restricted_types():
    test_scalar(my_square, 1.5)
    assert rrule(my_square, np.ones(2)) is None
    assert rrule(my_square, 2) is None


def test_zero_cotangent_gives_zeros():
    _, pullback = rrule(my_hypot, 1.0, 2.0)
    assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent(), ZeroTangent())
    assert frule((NoTangent(), ZeroTangent(), ZeroTangent()), my_hypot, 1.0, 2.0)[1] is ZeroTangent()


def test_integer_inputs_get_no_tangent():
    # The library's convention for rules: integer and boolean arguments are indices, counts
    # and flags, so they get NoTangent() (ProjectTo itself would give a float cotangent).
    _, pullback = rrule(my_sinh, 1)
    assert isinstance(pullback(1.0)[1], NoTangent)
    _, pullback = rrule(my_sinh, np.arange(3))
    assert isinstance(pullback(np.ones(3))[1], NoTangent)


def test_wrong_cotangent_shape_names_the_function_and_shapes():
    _, pullback = rrule(my_hypot, np.ones(3), np.ones(3))
    with pytest.raises(ProjectionError, match=r"my_hypot pullback: output cotangent has shape \(2,\), expected "
                                              r"shape \(3,\)"):
        pullback(np.ones(2))


@pytest.mark.parametrize("keyword", ["out", "where"])
def test_rejects_out_and_where(keyword):
    value = np.ones(2) if keyword == "out" else np.ones(2, dtype=bool)
    with pytest.raises(UnsupportedKeywordError, match=f"my_sinh: the keyword {keyword}= is not differentiable"):
        rrule(my_sinh, np.ones(2), **{keyword: value})
    with pytest.raises(UnsupportedKeywordError, match=f"the keyword {keyword}="):
        frule((NoTangent(), np.ones(2)), my_sinh, np.ones(2), **{keyword: value})
    assert issubclass(UnsupportedKeywordError, TypeError)


def test_other_keywords_reach_the_function():
    def my_cos(x, **kwargs):
        return np.cos(x, **kwargs)

    scalar_rule(my_cos, lambda x: -np.sin(x))
    x = np.array([0.5, 1.0])
    y, pullback = rrule(my_cos, x, dtype=np.float32)
    assert y.dtype == np.float32
    assert pullback(np.ones(2, np.float32))[1].dtype == np.float64  # projected onto x
    test_rrule(my_cos, x, fkwargs={"casting": "same_kind"})


def test_wrong_definitions_are_clear_errors():
    def f(x, y):
        return x + y

    with pytest.raises(TypeError, match=r"must name its parameters \(no \*args\)"):
        scalar_rule(f, lambda *args: 1.0, lambda *args: 1.0)
    with pytest.raises(TypeError, match="1 types for 2 arguments"):
        scalar_rule(f, lambda x, y: 1.0, lambda x, y: 1.0, types=(float,))
    with pytest.raises(TypeError, match=r"1 partial\(s\) given for a function of 2 argument\(s\)"):
        scalar_rule(f, lambda x, y, out: (1.0, 1.0))
    with pytest.raises(TypeError, match="takes 3"):
        scalar_rule(np.sin, lambda a, b, c: 1.0)
    with pytest.raises(TypeError, match="one tuple of partials per output"):
        scalar_rule(f, (lambda x, y: 1.0,), lambda x, y: 1.0)
    with pytest.raises(TypeError, match="must be a callable, a number"):
        scalar_rule(f, "1", ONE)


def test_constant_and_not_implemented_partials():
    def scaled(x, k):
        return 0.5 * x + k

    scalar_rule(scaled, 0.5, not_implemented("the derivative in k is not written"))
    _, pullback = rrule(scaled, 2.0, 1.0)
    _, dx, dk = pullback(1.0)
    assert unthunk(dx) == 0.5
    assert isinstance(unthunk(dk), NotImplementedTangent)
    assert isinstance(frule((NoTangent(), 0.0, 1.0), scaled, 2.0, 1.0)[1], NotImplementedTangent)
    test_rrule(scaled, 2.0, PrimalAndTangent(1.0, NoTangent()))


def test_partial_that_returns_not_implemented_for_some_arguments():
    # A partial may decide at call time that it cannot be computed (e.g. outside the regimes
    # a series reaches): that argument's cotangent and the pushforward are the tangent.
    def shifted(x, k):
        return x + np.sin(k)

    def k_partial(x, k):
        return np.cos(k) if np.all(np.abs(k) < 1) else not_implemented("k outside (-1, 1)")

    scalar_rule(shifted, ONE, k_partial)
    test_rrule(shifted, np.array([0.5, 1.5]), np.array([0.2, -0.3]))
    test_frule(shifted, np.array([0.5, 1.5]), np.array([0.2, -0.3]))
    for dy in (np.ones(2), np.float64(1.0)):
        x, k = (np.array([0.5, 1.5]), np.array([0.2, 3.0])) if np.ndim(dy) else (0.5, 3.0)
        _, pullback = rrule(shifted, x, k)
        _, dx, dk = pullback(dy)
        assert np.allclose(unthunk(dx), 1.0)
        assert isinstance(unthunk(dk), NotImplementedTangent) and "outside" in unthunk(dk).info
    ydot = frule((NoTangent(), 1.0, 1.0), shifted, 0.5, 3.0)[1]
    assert isinstance(ydot, NotImplementedTangent)
    assert frule((NoTangent(), 1.0, ZeroTangent()), shifted, 0.5, 3.0)[1] == 1.0

    def two_outputs(x, k):
        return x * np.cos(k), x * np.sin(k)

    scalar_rule(two_outputs, (lambda x, k: np.cos(k), k_partial), (lambda x, k: np.sin(k), ONE))
    _, pullback = rrule(two_outputs, 0.5, 3.0)
    _, dx, dk = pullback(Tangent(tuple, 1.0, 1.0))
    assert np.isclose(unthunk(dx), np.cos(3.0) + np.sin(3.0))
    assert isinstance(unthunk(dk), NotImplementedTangent)


def test_no_tangent_partial_marks_an_index_argument():
    # An order that the function truncates (given as a float or an integer) is an index:
    # its cotangent is NoTangent() whatever its type, and it never enters a pushforward.
    def scaled_by_order(n, x):
        return np.trunc(n) * x

    scalar_rule(scaled_by_order, NoTangent(), lambda n, x: np.trunc(n))
    for n in (2, 2.0, np.array([1.0, 3.0])):
        _, pullback = rrule(scaled_by_order, n, np.array([0.5, 1.5]))
        _, dn, dx = pullback(np.ones(2))
        assert dn == NoTangent()
        assert np.allclose(unthunk(dx), np.trunc(n))
        ydot = frule((NoTangent(), 1.0, np.ones(2)), scaled_by_order, n, np.array([0.5, 1.5]))[1]
        assert np.allclose(ydot, np.trunc(n))
    test_rrule(scaled_by_order, 2, np.array([0.5, 1.5]))
    test_frule(scaled_by_order, 2, np.array([0.5, 1.5]))

    def two_by_order(n, x):
        return np.trunc(n) * x, x

    scalar_rule(two_by_order, (NoTangent(), lambda n, x: np.trunc(n)), (NoTangent(), ONE))
    _, pullback = rrule(two_by_order, 2.0, 0.5)
    _, dn, dx = pullback(Tangent(tuple, 1.0, 1.0))
    assert dn == NoTangent() and np.isclose(unthunk(dx), 3.0)


def test_a_partial_may_return_not_implemented_at_some_arguments():
    # A partial that cannot reach its accuracy at some inputs returns not_implemented(...) there:
    # that argument's cotangent (and the frule's output tangent) is the NotImplementedTangent.
    def scaled_by(x, k):
        return k * x

    def k_partial(x, k):
        return not_implemented("no derivative in k beyond x = 1") if np.any(np.abs(x) > 1) else x

    scalar_rule(scaled_by, lambda x, k: k, k_partial)
    _, pullback = rrule(scaled_by, np.array([0.5, 2.0]), np.array([3.0, 4.0]))
    _, dx, dk = pullback(np.ones(2))
    np.testing.assert_array_equal(unthunk(dx), [3.0, 4.0])
    assert isinstance(unthunk(dk), NotImplementedTangent) and "beyond x = 1" in unthunk(dk).info
    _, pullback = rrule(scaled_by, np.array([0.5, 0.25]), np.array([3.0, 4.0]))
    np.testing.assert_array_equal(unthunk(pullback(np.ones(2))[2]), [0.5, 0.25])
    _, dy = frule((NoTangent(), np.zeros(2), np.ones(2)), scaled_by, np.array([0.5, 2.0]), np.array([3.0, 4.0]))
    assert isinstance(dy, NotImplementedTangent)
    _, dy = frule((NoTangent(), np.ones(2), ZeroTangent()), scaled_by, np.array([0.5, 2.0]), np.array([3.0, 4.0]))
    np.testing.assert_array_equal(dy, [3.0, 4.0])

    def two_outputs(x, k):
        return k * x, x

    scalar_rule(two_outputs, (lambda x, k: k, k_partial), (ONE, ZERO))
    _, pullback = rrule(two_outputs, np.array([0.5, 2.0]), np.array([3.0, 4.0]))
    cotangents = pullback(Tangent(tuple, np.ones(2), np.ones(2)))
    np.testing.assert_array_equal(unthunk(cotangents[1]), [4.0, 5.0])
    assert isinstance(unthunk(cotangents[2]), NotImplementedTangent)


# ---- non_differentiable -------------------------------------------------------------------------
def concatenate_strings(a, b):
    return a + b


non_differentiable(concatenate_strings, str, str)


def test_non_differentiable():
    y, pullback = rrule(concatenate_strings, "ab", "cd")
    assert y == "abcd"
    assert pullback(1.0) == (NoTangent(), NoTangent(), NoTangent())
    assert frule((NoTangent(), NoTangent(), NoTangent()), concatenate_strings, "ab", "cd") == ("abcd", NoTangent())
    test_rrule(concatenate_strings, "ab", "cd")
    test_frule(concatenate_strings, "ab", "cd")
    assert rrule(concatenate_strings, 1.0, 2.0) is None  # only for the declared types


def test_non_differentiable_for_any_arguments():
    def argmax_of(x, axis=None):
        return np.argmax(x, axis=axis)

    non_differentiable(argmax_of)
    y, pullback = rrule(argmax_of, np.array([1.0, 3.0, 2.0]), 0)
    assert y == 1 and pullback(ZeroTangent()) == (NoTangent(), NoTangent(), NoTangent())
    assert rrule(argmax_of, [1.0, 3.0])[1](None) == (NoTangent(), NoTangent())


# ---- opt_out and reject_keywords ------------------------------------------------------------------
def test_opt_out_function():
    def total(x):
        return np.sum(x)

    @rrule.register(total, object)
    def total_rrule(x):
        return total(x), lambda dy: (NoTangent(), dy)

    signature = opt_out(rrule, total, list)
    assert signature.opt_out
    assert rrule(total, [1.0, 2.0]) is None
    assert rrule.find(total, list) is OPTED_OUT
    assert rrule(total, (1.0, 2.0)) is not None


def test_reject_keywords():
    reject_keywords(np.sin, {"dtype": None, "out": None})  # None means "not given"
    with pytest.raises(UnsupportedKeywordError, match=r"numpy\.sin: the keyword out= is not differentiable"):
        reject_keywords(np.sin, {"out": np.zeros(2)})
    with pytest.raises(UnsupportedKeywordError, match="the keyword method="):
        reject_keywords(np.sin, {"method": "fast"}, ("method",))
