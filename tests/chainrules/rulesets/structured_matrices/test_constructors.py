"""The constructors of the structured types, ``to_dense``, ``np.asarray`` and ``np.array``."""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import NoTangent, ProjectTo, Tangent, rrule
from chainrules.structured import (
    Bidiagonal,
    Diagonal,
    Hermitian,
    StructuredMatrix,
    Symmetric,
)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules.testing.structured import random_structured


def _arguments(A):
    """The constructor's positional arguments that rebuild ``A``, and its ``lower`` flag if any."""
    return A._arrays(), A._flags()


def test_constructor(make, dtype):
    A = make(dtype)
    arrays, flags = _arguments(A)
    test_rrule(type(A), *arrays, *flags)
    test_frule(type(A), *arrays, *flags)


def test_constructor_flag_by_keyword(make):
    A = make()
    arrays, flags = _arguments(A)
    if flags:
        test_rrule(type(A), *arrays, fkwargs={"lower": flags[0]})
        test_frule(type(A), *arrays, fkwargs={"lower": flags[0]})
    else:
        assert rrule(type(A), *arrays) is not None


def test_constructor_with_a_dense_output_cotangent(make, rand):
    A = make()
    test_rrule(type(A), *A._arrays(), *A._flags(), output_tangent=rand((3, 3)))


@pytest.mark.parametrize("cls", [Diagonal, Bidiagonal])
def test_constructor_with_a_structural_output_cotangent(cls):
    A = random_structured(cls, 3, rng=0)
    rng = np.random.default_rng(1)
    fields = {name: rng.standard_normal(np.shape(a)) for name, a in zip(cls._fields, A._arrays())}
    test_rrule(cls, *A._arrays(), output_tangent=Tangent(cls, **fields))


def test_symmetric_structural_output_cotangent_is_its_natural_cotangent():
    """``Tangent(Symmetric, data=G)`` (derivatives with respect to the wrapped array) pulls back as the
    natural cotangent it stands for. (The finite differences read a structural ``Tangent`` by its raw
    fields, so the natural form is what ``test_rrule`` checks.)"""
    A = random_structured(Symmetric, 3, rng=0)
    G = np.triu(np.random.default_rng(1).standard_normal((3, 3)))
    structural = Tangent(Symmetric, data=G)
    natural = ProjectTo(A)(structural)
    test_rrule(Symmetric, A.data, output_tangent=natural)
    _, pullback = rrule(Symmetric, A.data)
    np.testing.assert_allclose(pullback(structural)[1], pullback(natural)[1])


def test_hermitian_ignores_the_imaginary_diagonal():
    data = np.array([[1.0 + 2j, 3.0 - 1j], [0.5j, 2.0 - 1j]])
    _, pullback = rrule(Hermitian, data)
    assert np.all(np.diagonal(pullback(np.full((2, 2), 1j))[1]) == 0)  # the diagonal's imaginary part is unused
    test_rrule(Hermitian, data)
    test_rrule(Hermitian, data, True)


def test_flags_get_no_tangent(make):
    A = make()
    arrays, flags = _arguments(A)
    if flags:
        test_rrule(type(A), *arrays, PrimalAndTangent(flags[0], NoTangent()))


def test_leaving_the_structure(make, dtype):
    A = make(dtype)
    for f in (np.asarray, np.array, StructuredMatrix.to_dense):
        test_rrule(f, A)
        test_frule(f, A)
    test_rrule(np.asarray, A, np.complex128)  # the dtype by position
    test_rrule(np.asarray, A, fkwargs={"dtype": np.complex128})
    test_rrule(np.array, A, fkwargs={"ndmin": 3})


def test_method_call_finds_the_rule(make):
    A = make()
    _y, pullback = rrule(A.to_dense)
    assert type(pullback(np.ones((3, 3)))[1]) is type(A)
