"""ZeroTangent and NoTangent: singletons, arithmetic with numbers and ndarrays, NumPy interop."""

import copy
import pickle

import numpy as np
import pytest

from chainrules_core import AbstractTangent, AbstractZero, NoTangent, ZeroTangent, iszero

ZEROS = [ZeroTangent(), NoTangent()]


@pytest.mark.parametrize("cls", [ZeroTangent, NoTangent])
def test_singleton(cls):
    z = cls()
    assert z is cls()
    assert isinstance(z, AbstractZero)
    assert isinstance(z, AbstractTangent)
    assert copy.copy(z) is z
    assert copy.deepcopy(z) is z
    assert pickle.loads(pickle.dumps(z)) is z
    assert repr(z) == f"{cls.__name__}()"


def test_the_two_zeros_are_distinct():
    assert ZeroTangent() is not NoTangent()
    assert not isinstance(ZeroTangent(), NoTangent)
    assert not isinstance(NoTangent(), ZeroTangent)


@pytest.mark.parametrize("z", ZEROS)
def test_zero_is_falsy_and_iszero(z):
    assert not z
    assert iszero(z)
    assert not iszero(0.0)
    assert not iszero(np.zeros(3))


@pytest.mark.parametrize("z", ZEROS)
@pytest.mark.parametrize("x", [2.5, 3, 1 + 2j, np.float32(1.5)])
def test_zero_is_the_additive_identity_for_numbers(z, x):
    assert (z + x) is x
    assert (x + z) is x
    assert (x - z) is x
    assert z - x == -x


@pytest.mark.parametrize("z", ZEROS)
@pytest.mark.parametrize("x", [2.5, np.float32(1.5), 1 + 2j, np.ones(3)])
def test_zero_absorbs_products(z, x):
    assert (z * x) is z
    assert (x * z) is z
    assert (z / 2.0) is z
    assert (-z) is z
    assert (+z) is z


@pytest.mark.parametrize("z", ZEROS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_ndarray_plus_zero_is_the_ndarray(z, dtype):
    a = np.arange(3).astype(dtype)
    for result in (a + z, z + a, np.add(a, z), np.add(z, a), a - z):
        assert type(result) is np.ndarray
        assert result.dtype == dtype  # never an object array
        np.testing.assert_array_equal(result, a)
    np.testing.assert_array_equal(z - a, -a)
    assert (a * z) is z
    assert np.multiply(a, z) is z
    assert (np.ones((2, 2)) @ z) is z
    assert (z @ np.ones((2, 2))) is z


@pytest.mark.parametrize("z", ZEROS)
def test_inplace_add_of_a_zero_keeps_the_array(z):
    a = np.arange(3.0)
    alias = a
    a += z
    assert a is alias
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0])
    out = np.empty(3)
    assert np.add(a, z, out=out) is out
    np.testing.assert_array_equal(out, a)
    a *= z  # a zero times anything is zero
    np.testing.assert_array_equal(alias, np.zeros(3))


def test_no_tangent_wins_where_two_zeros_meet():
    Z, N = ZeroTangent(), NoTangent()
    assert Z + Z is Z
    assert N + N is N
    assert N + Z is N
    assert Z + N is N
    assert Z * N is N
    assert N * Z is N


@pytest.mark.parametrize("z", ZEROS)
def test_structural_operations_return_the_zero(z):
    assert z[3] is z
    assert z[1:, None] is z
    assert z.T is z
    assert z.mT is z
    assert z.conj() is z
    assert z.conjugate() is z
    assert z.real is z
    assert z.imag is z
    assert z.sum(axis=0) is z
    assert z.reshape(2, 3) is z
    assert z.transpose() is z
    assert np.conj(z) is z
    assert np.sum(z) is z


@pytest.mark.parametrize("z", ZEROS)
def test_as_an_array_a_zero_is_a_broadcastable_zero(z):
    arr = np.asarray(z)
    assert arr.shape == ()
    assert arr == 0
    assert np.asarray(z, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("z", ZEROS)
def test_wrong_use_gets_a_clear_error(z):
    with pytest.raises(TypeError, match="not iterable"):
        list(z)  # would never end if iteration fell back on indexing
    with pytest.raises(TypeError, match="not iterable"):
        _, _ = z
    with pytest.raises(TypeError, match="cannot divide"):
        1.0 / z
    with pytest.raises(TypeError):
        np.sin(z)  # a non-linear function of a tangent has no meaning
