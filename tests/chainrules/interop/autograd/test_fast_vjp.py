"""The autograd bridge's shortcuts against the general paths they shortcut, on the same inputs.

Two shortcuts: the VJP of positional arguments (``_vjp_of_one`` / ``_vjp_of_several``, made by
``_fast_vjp_of``) against ``_vjp_of``; and the VJP maker's own (a rule's
``pullback_given_output`` at autograd's output, for argument types seen before) against the
general maker it keeps as ``maker.general``. The general paths are the specification: the same
values, of the same types and dtypes, and the same errors, bad cotangents included.
"""

from __future__ import annotations

from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import pytest

from chainrules import NoTangent, Tangent, Thunk, ZeroTangent, not_implemented, read_cotangent, rrule
from chainrules.interop.autograd import use_chainrules, vjp_maker
from chainrules.interop.autograd.primitive import _fast_vjp_of, _vjp_of
from chainrules.testing import check_same_outcome, outcome
from chainrules_core.rules import RuleOverwriteWarning
from chainrules_core.scalar_rules import scalar_rule

RNG = np.random.default_rng(11)


def _cotangents_for(y: Any) -> list[Any]:
    shape = np.shape(y)
    return [np.ones(shape), np.full(shape, 0.5, np.float32), np.full(shape, 1 + 2j), np.full(shape, 2, np.int64),
            1.5, np.float64(-2.0), np.ones((*shape, 2)), None, "abc", ZeroTangent(), Tangent(tuple, 1.0),
            np.array(0.25), [1.0] * (shape[0] if shape else 1)]


# ---- _fast_vjp_of against _vjp_of ----------------------------------------------------------------------------------
def _pullback_giving(*cotangents: Any) -> Any:
    def pullback_giving(dy: Any) -> tuple[Any, ...]:
        read_cotangent(dy, np.ones(3), np.sin)
        return cotangents

    return pullback_giving


X3 = np.array([0.5, -1.0, 2.0])
PULLBACK_RESULTS = [
    (NoTangent(), np.ones(3), np.full(3, 2.0)),
    (NoTangent(), Thunk(lambda: np.ones(3)), Thunk(lambda: np.full(3, 3.0))),
    (NoTangent(), np.ones(3, np.complex128), ZeroTangent()),
    (NoTangent(), ZeroTangent(), NoTangent()),
    (NoTangent(), not_implemented("no derivative here"), np.ones(3)),
    (NoTangent(), np.ones(3, np.float32), Thunk(lambda: np.ones(3, np.complex64))),
    (NoTangent(), 2.0, np.float64(3.0)),
    (NoTangent(), Thunk(lambda: Thunk(lambda: np.ones(3))), Thunk(lambda: Thunk(lambda: 1j * np.ones(3)))),
    (NoTangent(), np.ones(3)),  # one cotangent too few
    (NoTangent(), np.ones(3), np.ones(3), np.ones(3), np.ones(3)),  # too many
]


@pytest.mark.parametrize("positions", [(0,), (1,), (0, 1), (1, 0), (2,), (0, 2), (0, 1, 2)])
@pytest.mark.parametrize("result", PULLBACK_RESULTS, ids=range(len(PULLBACK_RESULTS)))
def test_fast_vjp_is_the_general_vjp(positions: tuple[int, ...], result: tuple[Any, ...]) -> None:
    args: tuple[Any, ...] = (X3, X3 + 1.0)
    if max(positions) == 2:  # a function of three arguments: the pullback gives one more cotangent
        args = (*args, 2.0)
        result = (*result, Thunk(lambda: 4.0)) if len(result) == 3 else result
    pullback = _pullback_giving(*result)
    ans = np.sin(X3)
    fast = _fast_vjp_of(np.add, pullback, ans, args, {}, positions, None)
    general = _vjp_of(np.add, pullback, ans, args, {}, positions, None, None, None)
    for g in _cotangents_for(ans):
        check_same_outcome(outcome(lambda g=g: fast(g)), outcome(lambda g=g: general(g)))


# ---- the VJP maker's shortcut against its general path ---------------------------------------------------------------
def _compare_makers(maker: Any, argnums: tuple[int, ...], args: tuple[Any, ...], ans: Any) -> None:
    with np.errstate(all="ignore"):  # the general path computes the primal again: its warnings are not the rule's
        general = outcome(lambda: maker.general(argnums, ans, args, {}))  # (also remembers the argument types)
        fast = outcome(lambda: maker(argnums, ans, args, {}))
    assert fast[0] == general[0], (fast, general)
    if fast[0] == "error":
        assert fast[1:] == general[1:]
        return
    for g in _cotangents_for(ans):
        check_same_outcome(outcome(lambda g=g: fast[1](g)), outcome(lambda g=g: general[1](g)))


UNARY_CASES = [(np.sin, X3), (np.exp, np.array([0.5, 1.0], np.float32)), (np.log, np.array([0.0, -1.0, 2.0])),
               (np.sqrt, 0.25), (np.tanh, np.float64(0.5)), (np.negative, np.array(2.0)), (np.sin, np.array([1 + 1j])),
               (np.sum, X3), (np.cos, np.arange(3))]


@pytest.mark.parametrize("f, x", UNARY_CASES, ids=lambda v: getattr(v, "__name__", type(v).__name__))
def test_vjp_maker_shortcut_is_the_general_maker_for_one_argument(f: Any, x: Any) -> None:
    with np.errstate(all="ignore"):
        ans = f(x)
    _compare_makers(vjp_maker(f), (0,), (x,), ans)


BINARY_CASES = [(np.multiply, X3, X3 + 1.0), (np.add, 1.0, X3), (np.divide, X3, 30.0), (np.subtract, X3, X3[::-1]),
                (np.divide, np.float64(2.0), 3.0), (np.multiply, np.ones(3, np.float32), X3),
                (np.multiply, RNG.standard_normal((2, 3)), X3), (np.add, np.array([1j]), X3), (np.add, 2, X3),
                (np.divide, X3, np.zeros(3))]


@pytest.mark.parametrize("argnums", [(0,), (1,), (0, 1)])
@pytest.mark.parametrize("case", BINARY_CASES, ids=range(len(BINARY_CASES)))
def test_vjp_maker_shortcut_is_the_general_maker_for_two_arguments(case: Any, argnums: tuple[int, ...]) -> None:
    f, a, b = case
    with np.errstate(all="ignore"):
        ans = f(a, b)
    _compare_makers(vjp_maker(f), argnums, (a, b), ans)


# ---- when the shortcut is taken --------------------------------------------------------------------------------------
class _Tripled:
    """``tripled(x) = 3 x`` with a rule giving ``pullback_given_output``, counting what is computed."""

    def __init__(self) -> None:
        self.primal_calls = 0
        self.given_calls = 0

        def tripled(x: Any) -> Any:
            self.primal_calls += 1
            return 3.0 * x

        def tripled_pullback_given_output(y: Any, x: Any) -> Any:
            self.given_calls += 1

            def tripled_pullback(dy: Any) -> tuple[Any, Any]:
                return NoTangent(), 3.0 * read_cotangent(dy, y, tripled)

            return tripled_pullback

        def tripled_rrule(x: Any) -> Any:
            y = tripled(x)
            return y, tripled_pullback_given_output(y, x)

        tripled_rrule.pullback_given_output = tripled_pullback_given_output  # type: ignore[attr-defined]
        rrule.register(tripled, np.ndarray)(tripled_rrule)
        self.f = tripled


def test_the_maker_pulls_back_at_autograds_output_without_computing_it_again() -> None:
    tripled = _Tripled()
    maker = vjp_maker(tripled.f)
    x = np.array([1.0, 2.0])
    ans = 3.0 * x
    first = maker((0,), ans, (x,), {})  # the general path: the rule computes the output (and the types are kept)
    assert (tripled.primal_calls, tripled.given_calls) == (1, 1)
    second = maker((0,), ans, (x,), {})  # the shortcut: the output is autograd's
    assert (tripled.primal_calls, tripled.given_calls) == (1, 2)
    np.testing.assert_array_equal(first(np.ones(2))[0], np.full(2, 3.0))
    check_same_outcome(("value", second(np.ones(2))), ("value", first(np.ones(2))))
    with pytest.raises(Exception, match="tripled"):  # a bad cotangent: the rule's own error, through the shortcut
        second(np.ones(5))


def test_a_rule_with_an_optional_argument_not_given_is_not_shortcut() -> None:
    def scaled_by(x: Any, c: Any = 2.0) -> Any:
        return c * x

    given_calls = []

    def scaled_by_pullback_given_output(y: Any, x: Any, c: Any = 2.0) -> Any:
        given_calls.append(c)

        def scaled_by_pullback(dy: Any) -> tuple[Any, Any, Any]:
            return NoTangent(), c * dy, np.sum(x * dy)

        return scaled_by_pullback

    def scaled_by_rrule(x: np.ndarray, c: float = 2.0) -> Any:
        y = scaled_by(x, c)
        return y, scaled_by_pullback_given_output(y, x, c)

    scaled_by_rrule.pullback_given_output = scaled_by_pullback_given_output  # type: ignore[attr-defined]
    rrule.register(scaled_by)(scaled_by_rrule)
    maker = vjp_maker(scaled_by)
    x = np.array([1.0, 2.0])
    for _ in range(2):  # without c: the registry's adapter drops c's cotangent, the given-output pullback would not
        assert maker((0,), 2.0 * x, (x,), {})(np.ones(2))[0].tolist() == [2.0, 2.0]
    assert given_calls == [2.0, 2.0]  # (through the rule, both times)
    for _ in range(2):  # with c: the shortcut the second time
        cotangents = maker((0, 1), 3.0 * x, (x, 3.0), {})(np.ones(2))
        assert cotangents[0].tolist() == [3.0, 3.0] and float(cotangents[1]) == 3.0
    assert given_calls == [2.0, 2.0, 3.0, 3.0]


def test_containers_are_never_shortcut() -> None:
    tripled = _Tripled()

    @rrule.register(tripled.f, list)
    def tripled_list_rrule(x: Any) -> Any:
        def tripled_list_pullback(dy: Any) -> tuple[Any, Any]:
            return NoTangent(), [3.0 * d for d in dy]

        return tripled.f(np.asarray(x)), tripled_list_pullback

    maker = vjp_maker(tripled.f)
    for _ in range(2):
        vjp = maker((0,), np.array([3.0]), ([1.0],), {})
    assert tripled.given_calls == 0 and tripled.primal_calls == 2
    assert vjp(np.ones(1)) == ([3.0],)


def test_a_rule_added_later_replaces_the_remembered_one() -> None:
    def doubled(x: Any) -> Any:
        return 2.0 * x

    scalar_rule(doubled, 2.0)
    maker = vjp_maker(doubled)
    x = np.array([1.0, 2.0])
    for _ in range(2):
        np.testing.assert_array_equal(maker((0,), doubled(x), (x,), {})(np.ones(2))[0], np.full(2, 2.0))

    def doubled_rrule(x: Any) -> Any:  # a deliberately different derivative, to see which rule answers
        def doubled_pullback(dy: Any) -> tuple[Any, Any]:
            return NoTangent(), 5.0 * dy

        return doubled(x), doubled_pullback

    with pytest.warns(RuleOverwriteWarning):
        rrule.register(doubled, np.ndarray)(doubled_rrule)
    np.testing.assert_array_equal(maker((0,), doubled(x), (x,), {})(np.ones(2))[0], np.full(2, 5.0))
    with pytest.warns(RuleOverwriteWarning):
        rrule.opt_out(doubled, np.ndarray)
    assert rrule(doubled, x) is None
    with pytest.raises(Exception, match="doubled"):
        maker((0,), doubled(x), (x,), {})


def test_the_bridge_model_gradient_through_the_shortcut_is_autograds() -> None:
    def model(w: Any, x: Any) -> Any:
        h = anp.sin(w * x)
        h = anp.exp(-h * h) + anp.cos(x)
        h = anp.tanh(h / (1.0 + w * w))
        h = anp.log(1.0 + h * h)
        h = anp.sqrt(h + 0.5) - w
        return anp.sum(h * h) / 30.0

    w, x = RNG.standard_normal(5), RNG.standard_normal(5)
    expected = autograd.grad(model)(w, x)
    with use_chainrules(replace=True):
        for _ in range(2):  # the second time through the shortcut
            np.testing.assert_allclose(autograd.grad(model)(w, x), expected, rtol=1e-13)
