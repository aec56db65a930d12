"""Arithmetic between tangent kinds follows one precedence order.

NotImplementedTangent > NoTangent > ZeroTangent > thunks > Tangent > anything else, for ``+``;
for ``*`` and ``@`` the zeros win even over NotImplementedTangent.
"""

import numpy as np
import pytest

from chainrules_core import NoTangent, NotImplementedTangent, Tangent, Thunk, ZeroTangent, not_implemented
from chainrules_core.arithmetic import add, conj, matmul, mul, neg, truediv

NI = not_implemented("test")
KINDS = {
    "not_implemented": NI,
    "NoTangent": NoTangent(),
    "ZeroTangent": ZeroTangent(),
    "Thunk": Thunk(lambda: 2.0),
    "number": 3.0,
}
ORDER = list(KINDS)  # highest precedence first


def kind_of(x):
    if isinstance(x, NotImplementedTangent):
        return "not_implemented"
    if isinstance(x, NoTangent):
        return "NoTangent"
    if isinstance(x, ZeroTangent):
        return "ZeroTangent"
    if isinstance(x, Thunk):
        return "Thunk"
    return "number"


@pytest.mark.parametrize("a", ORDER)
@pytest.mark.parametrize("b", ORDER)
def test_addition_follows_the_precedence_order(a, b):
    x, y = KINDS[a], KINDS[b]
    for result in (add(x, y), x + y):
        winner = ORDER[min(ORDER.index(a), ORDER.index(b))]
        zeros = {"NoTangent", "ZeroTangent"}
        if winner == "not_implemented" or {a, b} <= zeros:  # NI wins; between zeros NoTangent wins
            assert kind_of(result) == winner
        elif {a, b} & zeros:
            assert result is (y if a in ("ZeroTangent", "NoTangent") else x)  # identity: not evaluated
        else:  # thunks are evaluated, then added
            assert result == sum(2.0 if k == "Thunk" else 3.0 for k in (a, b))
    assert kind_of(add(x, y)) == kind_of(add(y, x))  # one order, whichever side


@pytest.mark.parametrize("a", ORDER)
@pytest.mark.parametrize("b", ORDER)
def test_multiplication_follows_the_precedence_order(a, b):
    x, y = KINDS[a], KINDS[b]
    for result in (mul(x, y), x * y):
        kinds = {a, b}
        if kinds & {"NoTangent", "ZeroTangent"}:
            expected = "NoTangent" if "NoTangent" in kinds else "ZeroTangent"  # zeros win, even over NI
            assert kind_of(result) == expected
        elif "not_implemented" in kinds:
            assert result is NI
        else:
            assert result == np.prod([2.0 if k == "Thunk" else 3.0 for k in (a, b)])
    assert kind_of(mul(x, y)) == kind_of(mul(y, x))


@pytest.mark.parametrize("a", ORDER)
@pytest.mark.parametrize("b", ORDER)
def test_matmul_follows_the_order_of_multiplication(a, b):
    x = {"Thunk": Thunk(lambda: np.eye(2)), "number": np.eye(2)}.get(a, KINDS[a])
    y = {"Thunk": Thunk(lambda: np.eye(2)), "number": np.eye(2)}.get(b, KINDS[b])
    result = matmul(x, y)
    kinds = {a, b}
    if kinds & {"NoTangent", "ZeroTangent"}:
        assert kind_of(result) == ("NoTangent" if "NoTangent" in kinds else "ZeroTangent")
    elif "not_implemented" in kinds:
        assert result is NI
    else:
        np.testing.assert_array_equal(result, np.eye(2))


def test_negation_and_conjugation():
    for z in (ZeroTangent(), NoTangent(), NI):
        assert neg(z) is z and conj(z) is z
    assert neg(Thunk(lambda: 2.0)) == -2.0
    assert conj(Thunk(lambda: 1 + 2j)) == 1 - 2j
    assert neg(Tangent(tuple, 1.0, -2.0)) == Tangent(tuple, -1.0, 2.0)
    assert conj(Tangent(tuple, 1j, 2.0)) == Tangent(tuple, -1j, 2.0)
    assert conj(1 + 2j) == 1 - 2j and conj(2.0) == 2.0
    np.testing.assert_array_equal(conj(np.array([1j])), [-1j])


def test_division():
    assert truediv(ZeroTangent(), 2.0) is ZeroTangent()
    assert truediv(NI, 2.0) is NI
    assert truediv(Thunk(lambda: 3.0), 2.0) == 1.5
    assert truediv(Tangent(tuple, 3.0), 2.0) == Tangent(tuple, 1.5)
    assert truediv(1.0, NI) is NI
    with pytest.raises(TypeError, match="cannot divide by a ZeroTangent"):
        truediv(1.0, ZeroTangent())
    with pytest.raises(TypeError, match="cannot divide by a Tangent"):
        truediv(1.0, Tangent(tuple, 1.0))


@pytest.mark.parametrize("z", [ZeroTangent(), NoTangent()])
def test_ndarray_operands_are_never_wrapped_in_object_arrays(z):
    a = np.arange(4.0).reshape(2, 2)
    t = Thunk(lambda: a.copy())
    for result in (a + z, z + a, np.add(a, z), a + t, np.add(t, a), 2.0 * t, t @ a, a - t):
        assert type(result) is np.ndarray and result.dtype == np.float64
    assert np.multiply(a, z) is z
    assert np.matmul(a, z) is z


def test_structural_tangent_arithmetic_with_numbers():
    t = Tangent(tuple, 1.0, ZeroTangent())
    assert 2.0 * t == Tangent(tuple, 2.0, ZeroTangent())
    assert t * np.float32(2.0) == Tangent(tuple, 2.0, ZeroTangent())
    assert t + t == Tangent(tuple, 2.0, ZeroTangent())
    assert (t - t)[0] == 0.0
