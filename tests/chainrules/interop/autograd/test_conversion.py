"""Tangent conversion between chainrules and autograd (``chainrules.interop.autograd.conversion``)."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import autograd
import autograd.numpy as anp
import numpy as np
import pytest
import scipy.sparse

from chainrules import (
    InplaceableThunk,
    NoTangent,
    Tangent,
    Thunk,
    ZeroTangent,
    not_implemented,
)
from chainrules.interop.autograd import (
    HigherOrderDerivativeError,
    NotImplementedDerivativeError,
    argument_label,
    cotangent_from_autograd,
    cotangent_to_autograd,
    function_name,
    tangent_from_autograd,
    tangent_to_autograd,
    zeros_like_primal,
)
from chainrules.structured import Diagonal, UpperTriangular
from chainrules.testing import check_approx

Point = namedtuple("Point", "x y")


def _same(a: Any, b: Any) -> None:
    """Exact equality of nested containers of arrays, types included."""
    assert type(a) is type(b), (type(a), type(b))
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for u, v in zip(a, b):
            _same(u, v)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


# ---- zeros -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("zero", [ZeroTangent(), NoTangent()], ids=["ZeroTangent", "NoTangent"])
@pytest.mark.parametrize("primal", [
    np.ones((2, 3)), np.ones(3, dtype=np.float32), np.ones(2, dtype=complex), 2.5, np.float32(1.0),
], ids=["float64", "float32", "complex128", "float", "np.float32"])
def test_zeros_have_the_primal_shape_and_dtype(zero: Any, primal: Any) -> None:
    out = cotangent_to_autograd(zero, primal)
    assert np.shape(out) == np.shape(primal)
    assert np.result_type(out) == np.result_type(primal)
    assert not np.any(out)
    _same(tangent_to_autograd(zero, primal), out)


def test_zeros_of_containers_follow_their_structure() -> None:
    primal = (np.ones(2), [1.5, np.ones(3, dtype=np.float32)], {"a": np.ones(1)}, Point(1.0, np.ones(2)))
    out = cotangent_to_autograd(ZeroTangent(), primal)
    _same(out, (np.zeros(2), [np.zeros(()), np.zeros(3, dtype=np.float32)], {"a": np.zeros(1)},
                Point(np.zeros(()), np.zeros(2))))


def test_values_autograd_has_no_space_for_are_none_inside_containers() -> None:
    assert zeros_like_primal((np.ones(2), 3, "label")) [1:] == (None, None)
    assert zeros_like_primal({"n": 3}) == {"n": None}
    assert zeros_like_primal(7) is None


# ---- arrays, numbers, complex conjugation ------------------------------------------------------------------
def test_real_arrays_pass_through_unchanged() -> None:
    x = np.array([1.0, -2.0])
    assert cotangent_to_autograd(x, np.zeros(2)) is x
    assert cotangent_from_autograd(x, np.zeros(2)) is x
    assert tangent_to_autograd(x, np.zeros(2)) is x


def test_complex_cotangents_are_conjugated_and_tangents_are_not() -> None:
    z = np.array([1.0 + 2.0j, -3.0j])
    np.testing.assert_array_equal(cotangent_to_autograd(z, z), np.conj(z))
    np.testing.assert_array_equal(cotangent_from_autograd(z, z), np.conj(z))
    np.testing.assert_array_equal(tangent_to_autograd(z, z), z)
    np.testing.assert_array_equal(tangent_from_autograd(z, z), z)
    assert cotangent_to_autograd(1.0 + 2.0j, 0j) == 1.0 - 2.0j
    assert cotangent_from_autograd(np.complex64(1.0 + 2.0j), 0j) == np.complex64(1.0 - 2.0j)


def test_the_conjugation_matches_autograds_convention() -> None:
    # autograd's gradient of a real loss of z is the conjugate of chainrules' cotangent
    # (dL/dRe z + 1j dL/dIm z); checked on autograd's own gradient against finite differences.
    from chainrules.testing import vjp

    z = np.array([0.3 + 0.7j, -1.2 + 0.4j])

    def loss(w: Any) -> Any:
        return anp.sum(anp.abs(anp.exp(w)) ** 2 + anp.real(w * w))

    expected = vjp(None, lambda w: np.sum(np.abs(np.exp(w)) ** 2 + np.real(w * w)), 1.0, z)[0]
    check_approx(cotangent_from_autograd(autograd.grad(loss)(z), z), expected)


# ---- thunks ------------------------------------------------------------------------------------------------
def test_thunks_are_unthunked() -> None:
    x = np.array([1.0, 2.0])
    _same(cotangent_to_autograd(Thunk(lambda: 2 * x), x), 2 * x)
    inplaceable = InplaceableThunk(lambda acc: acc.__iadd__(x), Thunk(lambda: x.copy()))
    _same(cotangent_to_autograd(inplaceable, x), x)
    _same(cotangent_to_autograd(Thunk(lambda: ZeroTangent()), x), np.zeros(2))
    _same(tangent_to_autograd(Thunk(lambda: 3.0), 1.0), 3.0)


# ---- structural tangents -----------------------------------------------------------------------------------
def test_structural_tangents_become_autograds_containers() -> None:
    primal = (np.ones(2), 2.0)
    _same(cotangent_to_autograd(Tangent(tuple, np.array([1.0, 2.0]), 3.0), primal), (np.array([1.0, 2.0]), 3.0))
    _same(cotangent_to_autograd(Tangent(list, np.ones(1), ZeroTangent()), [np.ones(1), np.ones(2)]),
          [np.ones(1), np.zeros(2)])
    _same(cotangent_to_autograd(Tangent(dict, {"b": 2.0}), {"a": np.ones(2), "b": 1.0}),
          {"a": np.zeros(2), "b": 2.0})
    _same(cotangent_to_autograd(Tangent(Point, y=np.ones(2)), Point(1.0, np.zeros(2))),
          Point(np.zeros(()), np.ones(2)))


def test_nested_structural_tangents_with_thunks_and_complex_fields() -> None:
    primal = (np.zeros(1, dtype=complex), (1.0, {"k": np.zeros(2)}))
    ct = Tangent(tuple, Thunk(lambda: np.array([1j])), Tangent(tuple, ZeroTangent(), Tangent(dict, k=np.ones(2))))
    _same(cotangent_to_autograd(ct, primal), (np.array([-1j]), (np.zeros(()), {"k": np.ones(2)})))


def test_autograd_containers_become_structural_tangents() -> None:
    out = cotangent_from_autograd((np.ones(2), np.zeros(3)), (np.ones(2), np.ones(3)))
    assert out == Tangent(tuple, np.ones(2), ZeroTangent())
    eigh = np.linalg.eigh(np.eye(2))
    out = cotangent_from_autograd(type(eigh)(np.ones(2), np.zeros((2, 2))), eigh)
    assert isinstance(out, Tangent) and out.eigenvalues is not None
    check_approx(out, Tangent(type(eigh), np.ones(2), ZeroTangent()))
    out = tangent_from_autograd({"a": np.ones(1), "b": [np.zeros(1), 2.0]}, {"a": np.ones(1), "b": [np.ones(1), 1.0]})
    check_approx(out, Tangent(dict, {"a": np.ones(1), "b": Tangent(list, ZeroTangent(), 2.0)}))


@pytest.mark.parametrize("primal", [
    (np.ones(2), 1.5), [np.ones(2), np.ones((1, 2))], {"a": np.ones(2), "b": 0.5}, Point(1.0, np.ones(3)),
], ids=["tuple", "list", "dict", "namedtuple"])
def test_round_trip(primal: Any) -> None:
    rng = np.random.default_rng(0)
    g = autograd.extend.vspace(primal).randn() if not isinstance(primal, Point) else Point(
        rng.standard_normal(), rng.standard_normal(3))
    back = cotangent_to_autograd(cotangent_from_autograd(g, primal), primal)
    check_approx(tangent_from_autograd(back, primal), tangent_from_autograd(g, primal))
    assert type(back) is type(primal)


def test_a_structural_tangent_for_an_object_autograd_cannot_hold_is_an_error() -> None:
    class Thing:
        def __init__(self) -> None:
            self.a = 1.0

    with pytest.raises(TypeError, match="structural tangent"):
        cotangent_to_autograd(Tangent(Thing, a=1.0), Thing())


# ---- structured matrices and sparse arrays -----------------------------------------------------------------
def test_structured_cotangents_of_dense_primals_become_dense() -> None:
    D = Diagonal(np.array([1.0, 2.0]))
    _same(cotangent_to_autograd(D, np.zeros((2, 2))), np.diag([1.0, 2.0]))
    U = UpperTriangular(np.array([[1.0, 2.0j], [3.0, 4.0]]))
    _same(cotangent_to_autograd(U, np.zeros((2, 2), dtype=complex)), np.conj(U.to_dense()))
    _same(tangent_to_autograd(U, np.zeros((2, 2), dtype=complex)), U.to_dense())


def test_structured_cotangents_of_structured_primals_keep_their_type() -> None:
    D = Diagonal(np.array([1.0 + 1j, 2.0]))
    out = cotangent_to_autograd(D, Diagonal(np.ones(2, dtype=complex)))
    assert isinstance(out, Diagonal)
    np.testing.assert_array_equal(out.d, np.conj(D.d))
    assert cotangent_to_autograd(Diagonal(np.ones(2)), Diagonal(np.ones(2))).d.tolist() == [1.0, 1.0]


def test_sparse_cotangents_of_dense_primals_become_dense() -> None:
    s = scipy.sparse.csr_array(np.array([[0.0, 1.0], [2.0, 0.0]]))
    _same(cotangent_to_autograd(s, np.zeros((2, 2))), np.array([[0.0, 1.0], [2.0, 0.0]]))


# ---- not implemented: an error naming the function and the argument ----------------------------------------
def test_not_implemented_raises_naming_function_and_argument() -> None:
    def bessel(nu: float, x: float) -> float:
        return x

    with pytest.raises(NotImplementedDerivativeError) as info:
        cotangent_to_autograd(not_implemented("d/dnu of J_nu"), 1.5, f=bessel, argnum=0)
    message = str(info.value)
    assert "bessel" in message and "argument 0 ('nu')" in message and "d/dnu of J_nu" in message
    assert "zero" in message  # says it is never silently zero


def test_not_implemented_inside_a_structure_raises_too() -> None:
    with pytest.raises(NotImplementedDerivativeError, match="inner field"):
        cotangent_to_autograd(Tangent(tuple, 1.0, Thunk(lambda: not_implemented("inner field"))), (1.0, 2.0),
                              f=np.add, argnum=1)
    with pytest.raises(NotImplementedDerivativeError, match="forward mode"):
        tangent_to_autograd(not_implemented("no pushforward"), 1.0, f=np.sin)


def test_the_bridge_errors_are_not_not_implemented_errors() -> None:
    # autograd reads a NotImplementedError raised in ``ndarray * box`` as "try the other operand" and
    # replaces the message by NumPy's "operand type(s) all returned NotImplemented"
    # (test_higher_order.py reproduces it); the bridge's errors are answers.
    from chainrules.interop.autograd import KeywordArgumentError, NoRuleError

    for error in (NotImplementedDerivativeError, HigherOrderDerivativeError, NoRuleError, KeywordArgumentError):
        assert not issubclass(error, NotImplementedError), error


# ---- boxes: a second derivative ----------------------------------------------------------------------------
def test_a_boxed_cotangent_is_a_higher_order_error() -> None:
    def probe(x: Any) -> Any:
        with pytest.raises(HigherOrderDerivativeError):
            cotangent_from_autograd((x, x), (1.0, 1.0))
        return x * 2.0

    autograd.grad(probe)(1.0)


# ---- names -------------------------------------------------------------------------------------------------
def test_function_names_and_argument_labels() -> None:
    import scipy.linalg

    assert function_name(np.linalg.eigh) == "numpy.linalg.eigh"
    assert function_name(np.add) == "numpy.add"
    assert function_name(scipy.linalg.expm) == "scipy.linalg.expm"
    assert function_name(anp.sin) == "numpy.sin"  # an autograd primitive: the function it wraps
    assert argument_label(np.add, 1) == "argument 1 ('x2')"
    assert argument_label(np.sin, 0) == "argument 0 ('x')"

    def star(a: Any, *rest: Any) -> None:
        pass

    assert argument_label(star, 2) == "argument 2 ('rest[1]')"
    assert argument_label(print, 0).startswith("argument 0")
