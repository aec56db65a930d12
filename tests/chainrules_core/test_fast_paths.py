"""The core's fast paths against the general paths they shortcut, on the same inputs.

The general paths (``read_cotangent_general``, ``unbroadcast_general``, the general rrule
``scalar_rule`` keeps as ``rrule_impl.general``) are the specification: every fast path must
return the same values, of the same types and dtypes, with the same thunks, and raise the same
errors (bad cotangents included).
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pytest

import chainrules  # noqa: F401  (the elementwise rules)
from chainrules.testing import check_same_outcome, outcome
from chainrules_core import (
    NoTangent,
    Tangent,
    Thunk,
    ZeroTangent,
    not_implemented,
    read_cotangent,
    rrule,
    unbroadcast,
    unthunk,
)
from chainrules_core.broadcasting import unbroadcast_general
from chainrules_core.cotangents import read_cotangent_general
from chainrules_core.scalar_rules import ONE, scalar_rule

RNG = np.random.default_rng(7)


# ---- read_cotangent ----------------------------------------------------------------------------------------------
OUTPUTS = [np.ones(3), np.ones((2, 3), np.float32), np.ones(3, np.complex128), np.arange(3), np.float64(1.0), 1.0,
           np.array(2.0), np.array([True, False]), 3, 1j]
COTANGENTS = [np.full(3, 2.0), np.full(3, 2.0, np.float32), np.arange(3), np.full((2, 3), 0.5), np.array(1.5),
              np.float64(0.5), 0.5, 2j, np.complex128(1j), np.float32(0.5), 3, True, ZeroTangent(), NoTangent(),
              not_implemented("x"), Thunk(lambda: np.full(3, 1.0)), Thunk(lambda: 0.5), None, "abc", [1.0, 2.0, 3.0],
              np.array(["a", "b", "c"]), Tangent(tuple, 1.0, 2.0), np.ones((3, 1)), np.ones(3).view(np.matrix)]


@pytest.mark.parametrize("y", OUTPUTS, ids=lambda y: f"{type(y).__name__}{np.shape(y)}")
def test_read_cotangent_fast_path_is_the_general_reader(y: Any) -> None:
    for dy in COTANGENTS:
        check_same_outcome(outcome(lambda dy=dy: read_cotangent(dy, y, np.sin)),
                           outcome(lambda dy=dy: read_cotangent_general(dy, y, np.sin)))


# ---- unbroadcast ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dx_shape, shape", [
    ((3,), (3,)), ((2, 3), (3,)), ((4, 2, 3), (2, 3)), ((4, 2, 3), (3,)), ((2, 3), (2, 1)), ((2, 3), (1, 3)),
    ((4, 2, 3), (1, 3)), ((2, 3), ()), ((), ()), ((3,), (2, 3)), ((2, 3), (4,)), ((2, 3), (3, 3)), ((1, 1), (1,)),
])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_unbroadcast_fast_path_is_the_general_one(dx_shape: tuple[int, ...], shape: tuple[int, ...],
                                                   dtype: Any) -> None:
    dx = RNG.standard_normal(dx_shape).astype(dtype)
    check_same_outcome(outcome(lambda: unbroadcast(dx, shape)), outcome(lambda: unbroadcast_general(dx, shape)))


# ---- scalar_rule's fast rrules ----------------------------------------------------------------------------------
def _rules(f: Any, *args: Any) -> tuple[Any, Any]:
    fast = rrule.find(f, *args)
    assert fast is not None and hasattr(fast, "general"), f"{f} has no fast rrule"
    return fast, fast.general


def _run(rule: Any, args: tuple[Any, ...], kwargs: dict[str, Any], dy: Any) -> Any:
    y, pullback = rule(*args, **kwargs)
    return y, tuple(unthunk(d) for d in pullback(dy))


def _scalar_cotangents(y: Any) -> list[Any]:
    """Cotangents for an elementwise output ``y``: the fast paths' own cases, then everything they hand on."""
    shape = np.shape(y)
    dtype = np.asarray(y).dtype
    return [np.ones(shape, dtype) if shape else dtype.type(1.5), 1.5, np.float64(-2.0), np.full(shape, 0.5, np.float32),
            np.full(shape, 0.5), np.full(shape, 2, np.int64), np.array(0.25), ZeroTangent(), not_implemented("x"),
            Thunk(lambda: np.ones(shape)), None, "abc", np.ones((*shape, 2)), Tangent(tuple, 1.0), 1j,
            [1.0] * (shape[0] if shape else 1)]


def _compare_pullbacks(fast: Any, general: Any, cotangents: list[Any]) -> list[tuple[Any, Any, Any]]:
    """Both pullbacks on each cotangent: the same name, the same outcome (cotangents unthunked) and thunks where the
    general one makes them. Returns ``(dy, fast cotangents, general cotangents)`` where both gave values."""
    assert fast.__name__ == general.__name__
    values = []
    for dy in cotangents:
        fast_out = outcome(lambda dy=dy: tuple(unthunk(d) for d in fast(dy)))
        general_out = outcome(lambda dy=dy: tuple(unthunk(d) for d in general(dy)))
        check_same_outcome(fast_out, general_out)
        if fast_out[0] == "value":
            assert [type(d) for d in fast(dy)] == [type(d) for d in general(dy)]
            values.append((dy, fast_out[1], general_out[1]))
    return values


def _compare(f: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None) -> None:
    kwargs = kwargs or {}
    fast, general = _rules(f, *args)
    with np.errstate(all="ignore"):  # the primal's own warnings (log(-1)) are not the rules' business
        primal_fast = outcome(lambda: fast(*args, **kwargs))
        primal_general = outcome(lambda: general(*args, **kwargs))
    assert primal_fast[0] == primal_general[0], (primal_fast, primal_general)
    if primal_fast[0] == "error":  # bad keywords, unsupported types: the same error
        assert primal_fast[1:] == primal_general[1:]
        return
    (y_fast, pb_fast), (y_general, pb_general) = primal_fast[1], primal_general[1]
    check_same_outcome(("value", y_fast), ("value", y_general))
    _compare_pullbacks(pb_fast, pb_general, _scalar_cotangents(y_fast))


UNARY = [np.sin, np.exp, np.sqrt, np.log, np.tanh, np.reciprocal, np.negative, np.cbrt, np.arcsin, np.floor]
UNARY_ARGS = [0.7, np.float64(0.7), np.array([0.3, 0.0, 2.0]), np.array([0.3, -0.5], np.float32), np.array(0.25),
              np.array([[0.1, 0.2]]), 2, np.arange(3), 0.5 + 0.25j, np.array([0.5 + 1j]), np.float32(0.5),
              [0.1, 0.2], 0.0, -1.0, np.array([-1.0, 0.0, np.inf, np.nan])]


@pytest.mark.parametrize("f", UNARY, ids=lambda f: f.__name__)
def test_unary_fast_rrule_is_the_general_rrule(f: Any) -> None:
    for x in UNARY_ARGS:
        if rrule.find(f, x) is None:
            continue
        _compare(f, (x,))


def test_unary_fast_rrule_with_keywords_is_the_general_rrule() -> None:
    x = np.array([0.1, 0.2])
    _compare(np.sin, (x,), {"dtype": np.float32})
    _compare(np.sin, (x,), {"where": np.array([True, False]), "out": np.zeros(2)})


BINARY = [np.multiply, np.add, np.subtract, np.divide, np.power, np.arctan2, np.hypot, np.logaddexp, np.true_divide]
BINARY_ARGS = [
    (0.7, 1.3), (np.float64(0.7), 2.0), (np.array([0.3, 0.0, 2.0]), np.array([1.0, 2.0, 0.0])),
    (RNG.standard_normal((3, 3)), RNG.standard_normal(3)), (RNG.standard_normal((3, 1)), RNG.standard_normal((1, 2))),
    (np.ones(3, np.float32), np.float64(2.0)), (np.ones(3, np.float32), np.ones(3)), (2, np.array([0.5, 1.5])),
    (np.array([0.5, 1.5]), 3), (np.arange(3), np.arange(3)), (2.0, True), (np.array([1 + 1j]), 2.0),
    (np.array(0.5), np.array([1.0, 2.0])), (0.0, 0.0), (np.array([-1.0, 0.0]), np.array([0.5, -0.5])),
    ([1.0, 2.0], 2.0),
]


@pytest.mark.parametrize("f", BINARY, ids=lambda f: f.__name__)
def test_binary_fast_rrule_is_the_general_rrule(f: Any) -> None:
    for a, b in BINARY_ARGS:
        if rrule.find(f, a, b) is None:
            continue
        _compare(f, (a, b))


def test_fast_rrules_of_a_user_rule_with_constant_and_not_implemented_partials() -> None:
    def scaled_difference(a: Any, b: Any) -> Any:
        return 2.0 * a - np.cbrt(b)

    def with_gap(a: Any, b: Any) -> Any:
        return a + b

    scalar_rule(scaled_difference, 2.0, lambda a, b: -np.cbrt(b) / (3 * b))
    scalar_rule(with_gap, ONE, lambda a, b: not_implemented("no") if np.any(b < 0) else np.ones_like(b))
    for a, b in itertools.product([0.5, np.array([0.5, 2.0]), 2], [1.5, np.array([1.0, -8.0]), 0.0]):
        if rrule.find(scaled_difference, a, b) is not None:
            _compare(scaled_difference, (a, b))
            _compare(with_gap, (a, b))


def _compare_given_output(rule: Any, args: tuple[Any, ...]) -> None:
    """``rule.pullback_given_output(y, *args)`` against the pullback of ``rule(*args)``, on the same cotangents."""
    with np.errstate(all="ignore"):
        primal = outcome(lambda: rule(*args))
    if primal[0] == "error":  # no output (a ufunc without a loop for these types): nothing to be given
        return
    y, pullback = primal[1]
    _compare_pullbacks(rule.pullback_given_output(y, *args), pullback, _scalar_cotangents(y))


@pytest.mark.parametrize("f", UNARY + BINARY, ids=lambda f: f.__name__)
def test_pullback_given_output_is_the_rrules_pullback(f: Any) -> None:
    cases = [(x,) for x in UNARY_ARGS] if f in UNARY else BINARY_ARGS
    for args in cases:
        fast = rrule.find(f, *args)
        if fast is None:
            continue
        _compare_given_output(fast, tuple(args))
        _compare_given_output(fast.general, tuple(args))


def test_pullback_given_output_of_rules_without_a_fast_path() -> None:
    def clipped_sum(a: Any, b: Any, c: Any) -> Any:
        return a + 2.0 * b + np.tanh(c)

    def shared_product(a: Any, b: Any) -> Any:
        return a * b

    scalar_rule(clipped_sum, ONE, 2.0, lambda a, b, c, y: 1 - np.tanh(c) ** 2)
    scalar_rule(shared_product, lambda a, b, y, s: b * s, lambda a, b, y, s: a * s, shared=lambda a, b, y: 1.0)
    x = np.array([0.5, -1.0])
    _compare_given_output(rrule.find(clipped_sum, x, x, x), (x, 2.0, x))
    _compare_given_output(rrule.find(shared_product, x, x), (x, x + 1.0))


def test_fast_rrule_raises_no_floating_point_warning_and_leaves_the_error_state_alone() -> None:
    before = np.geterr()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            _, pullback = rrule(np.sqrt, np.array([0.0, 4.0]))  # the partial 1 / (2 sqrt(x)) divides by zero
            _, dx = pullback(np.ones(2))
            assert np.geterr()["divide"] == "raise"
    assert np.geterr() == before
    np.testing.assert_array_equal(dx, [np.inf, 0.25])


# ---- fast paths of hand-written rules (sum, matmul, transpose) against their general rrules ------------------------
def _array_cotangents(y: Any) -> list[Any]:
    """Cotangents for an output ``y``: the fast path's own case, then everything it must hand to the general path."""
    shape = np.shape(y)
    dtype = np.asarray(y).dtype
    good = RNG.standard_normal(shape).astype(dtype) if shape else dtype.type(1.5)
    readonly = np.array(good, copy=True)
    if shape:
        readonly.flags.writeable = False
    return [good, readonly, 1.5, np.float64(-2.0), np.full(shape, 0.5, np.float32), np.full(shape, 0.5),
            np.full(shape, 2, np.int64), np.full(shape, 1 + 2j), np.array(0.25), ZeroTangent(), NoTangent(),
            not_implemented("x"), Thunk(lambda: np.ones(shape)), None, "abc", np.ones((*shape, 2)),
            np.ones(shape[::-1]),
            Tangent(tuple, 1.0), 1j, [1.0] * (shape[0] if shape else 1), np.full(shape, 1.0).view(np.matrix)
            if len(shape) == 2 else np.array(["a"] * (shape[0] if shape else 1))]


def _compare_rules(fast: Any, general: Any, args: tuple[Any, ...]) -> None:
    """``fast(*args)`` and ``general(*args)``: same output, same cotangents (values, types, dtypes, thunks,
    read-only flags), same errors, and no cotangent aliasing an input or a writeable view of the cotangent."""
    copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
    y_fast, pb_fast = fast(*args)
    y_general, pb_general = general(*args)
    check_same_outcome(("value", y_fast), ("value", y_general))
    for dy, fast_values, general_values in _compare_pullbacks(pb_fast, pb_general, _array_cotangents(y_fast)):
        for d_fast, d_general in zip(fast_values, general_values):
            if isinstance(d_fast, np.ndarray):
                assert d_fast.flags.writeable == d_general.flags.writeable
                for a in args:
                    if isinstance(a, np.ndarray):
                        assert not np.may_share_memory(d_fast, a)
                if isinstance(dy, np.ndarray):  # a view of the caller's cotangent only where the general path gives one
                    assert np.may_share_memory(d_fast, dy) == np.may_share_memory(d_general, dy)
                    if np.may_share_memory(d_fast, dy):
                        assert not d_fast.flags.writeable
    for a, kept in zip(args, copies):  # nothing written into the inputs
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, kept)


REDUCED = [RNG.standard_normal((3, 3)), RNG.standard_normal((2, 3, 4)).astype(np.float32), RNG.standard_normal(3),
           np.array(1.5), RNG.standard_normal((2, 2)) + 1j, np.ones((0, 3)),
           np.asfortranarray(RNG.standard_normal((2, 3))),
           RNG.standard_normal((4, 3))[::2]]


@pytest.mark.parametrize("a", REDUCED, ids=lambda a: f"{a.dtype}{a.shape}")
def test_sum_fast_rrule_is_the_general_rrule(a: np.ndarray) -> None:
    from chainrules.rulesets.reductions import sums

    assert rrule.find(np.sum, a, 0) is not None
    for axis in [None, 0, -1, a.ndim, 5]:
        args = (a,) if axis is None else (a, axis)
        with np.errstate(all="ignore"):
            outcome_fast = outcome(lambda args=args: sums.sum_rrule(*args))
            outcome_general = outcome(lambda args=args: sums.sum_rrule.general(*args))
        assert outcome_fast[0] == outcome_general[0], (outcome_fast, outcome_general)
        if outcome_fast[0] == "error":  # an axis out of range: NumPy's own error, unchanged
            assert outcome_fast[1:] == outcome_general[1:]
            continue
        _compare_rules(sums.sum_rrule, sums.sum_rrule.general, args)


def test_sum_fast_rrule_is_taken_for_the_common_call() -> None:
    from chainrules.rulesets.reductions import sums

    a = np.ones((3, 3))
    assert sums.sum_rrule(a, 0)[1].__code__ is sums._sum_rrule_fast(a, 0, sums.sum_rrule.general)[1].__code__
    assert sums.sum_rrule(a, 0, keepdims=True)[1].__code__ is not sums._sum_rrule_fast(a, 0, None)[1].__code__


MATRICES = [(RNG.standard_normal((3, 3)), RNG.standard_normal((3, 3))),
            (RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4))),
            (RNG.standard_normal((2, 3)).astype(np.float32), RNG.standard_normal((3, 1)).astype(np.float32)),
            (np.asfortranarray(RNG.standard_normal((3, 3))), RNG.standard_normal((3, 3)).T),
            (RNG.standard_normal((0, 3)), RNG.standard_normal((3, 2))),
            # not the fast path's case: the general rule answers them, through the same dispatch
            (RNG.standard_normal((2, 3)), RNG.standard_normal((3, 4)).astype(np.float32)),
            (RNG.standard_normal((2, 3)) + 1j, RNG.standard_normal((3, 4))),
            (RNG.standard_normal((2, 3, 3)), RNG.standard_normal((3, 3))),
            (RNG.standard_normal(3), RNG.standard_normal(3))]


@pytest.mark.parametrize("a, b", MATRICES, ids=lambda x: f"{x.dtype}{x.shape}")
def test_matmul_fast_rrule_is_the_general_rrule(a: np.ndarray, b: np.ndarray) -> None:
    from chainrules.rulesets.contractions import matrix_vector_products as mvp

    _compare_rules(mvp.matmul_rrule, mvp._matmul_rrule_general, (a, b))


def test_matmul_fast_rrule_keeps_the_thunks_lazy() -> None:
    from chainrules.rulesets.contractions import matrix_vector_products as mvp

    a, b = np.ones((2, 3)), np.ones((3, 4))
    _, pullback = mvp.matmul_rrule(a, b)
    assert pullback.__qualname__ == "matmul_rrule.<locals>.matmul_pullback"  # the fast path's
    _, da, db = pullback(np.ones((2, 4)))
    assert isinstance(da, Thunk) and isinstance(db, Thunk)


TRANSPOSED = [RNG.standard_normal((3, 3)), RNG.standard_normal((2, 3, 4)).astype(np.float32), RNG.standard_normal(3),
              np.array(1.5), RNG.standard_normal((2, 2)) + 1j, np.ones((0, 3)), RNG.standard_normal((4, 3))[::2],
              np.arange(6).reshape(2, 3), np.ones((2, 2), np.float16)]


@pytest.mark.parametrize("a", TRANSPOSED, ids=lambda a: f"{a.dtype}{a.shape}")
def test_transpose_fast_rrule_is_the_general_rrule(a: np.ndarray) -> None:
    from chainrules.rulesets.arrays import axes

    _compare_rules(axes.transpose_rrule, axes._transpose_rrule_general, (a,))
    _compare_rules(lambda a: axes.transpose_rrule(a, None), lambda a: axes._transpose_rrule_general(a, None), (a,))

    def general_of_one_argument(a: np.ndarray) -> Any:
        y, pullback = axes._transpose_rrule_general(a, None)

        def transpose_pullback(dy: Any) -> Any:
            return pullback(dy)[:2]

        return y, transpose_pullback

    _compare_rules(axes.transpose_of_array_rrule, general_of_one_argument, (a,))
    assert len(rrule(np.transpose, a)[1](np.ones(np.shape(a)[::-1], a.dtype))) == 2
    assert rrule(np.transpose, a)[1].__name__ == "transpose_pullback"
