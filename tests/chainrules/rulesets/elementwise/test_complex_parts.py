"""Rules of chainrules/rulesets/elementwise/complex_parts.py, checked against finite differences.

None of these functions is holomorphic: ``test_scalar`` checks each along the real and the
imaginary direction of complex inputs, and with real and imaginary output cotangents.
"""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule

UNARY = [
    (np.abs, (0.2, 2.0), (-2.0, 2.0)),
    (np.conj, (-2.0, 2.0), (-2.0, 2.0)),
    (np.real, (-2.0, 2.0), (-2.0, 2.0)),
    (np.imag, (-2.0, 2.0), (-2.0, 2.0)),
    (np.angle, (0.2, 2.0), (-2.0, 2.0)),
    (np.real_if_close, (-2.0, 2.0), (-2.0, 2.0)),
    (np.fabs, (0.2, 2.0), None),
]


def test_unary(unary_case, check_unary):
    f, real_range, complex_range, dtype = unary_case
    check_unary(f, *real_range, dtype, complex_range=complex_range)


@pytest.mark.parametrize("f", [np.abs, np.fabs, np.angle])
def test_negative_reals(f, sample):
    test_rrule(f, sample((2, 3), low=-2.0, high=-0.2))
    test_frule(f, sample((2, 3), np.float32, low=-2.0, high=-0.2))


def test_aliases_are_the_same_objects():
    assert np.abs is np.absolute and np.conj is np.conjugate


def test_at_zero_the_derivatives_are_zero():
    for f in (np.abs, np.angle):
        _, pullback = rrule(f, np.array([0j, 1 + 1j]))
        assert pullback(np.ones(2))[1][0] == 0
    _, pullback = rrule(np.abs, np.array([0.0, -2.0]))
    assert np.array_equal(pullback(np.ones(2))[1], [0.0, -1.0])


def test_abs_of_complex_takes_the_real_part_of_a_complex_cotangent():
    _, pullback = rrule(np.abs, 3 + 4j)
    assert pullback(1.0 + 5j)[1] == pullback(1.0)[1]


def test_angle_in_degrees(sample):
    z = sample((2, 3), np.complex128)
    test_rrule(np.angle, z, True)
    test_rrule(np.angle, z, fkwargs={"deg": True})
    test_frule(np.angle, z, True)
    _, pullback = rrule(np.angle, z, True)
    assert pullback(np.ones((2, 3)))[2] == NoTangent()


def test_real_if_close(sample):
    nearly_real = sample((2, 3)) + 1e-20j
    y, _ = rrule(np.real_if_close, nearly_real)
    assert y.dtype == np.float64
    test_rrule(np.real_if_close, nearly_real)
    test_frule(np.real_if_close, nearly_real)
    # tol only decides whether to drop the imaginary part: held fixed, it gets NoTangent().
    test_rrule(np.real_if_close, sample((2, 3), np.complex128), PrimalAndTangent(1000.0, NoTangent()))
    test_rrule(np.real_if_close, nearly_real, fkwargs={"tol": 10})


@pytest.mark.parametrize("method", [np.ndarray.conj, np.ndarray.conjugate])
def test_conj_methods(method, sample):
    z = sample((2, 3), np.complex128)
    test_rrule(method, z)
    test_frule(method, z)
    test_rrule(method, sample((2, 3), np.float32))
    _, pullback = rrule(z.conj)
    assert np.array_equal(pullback(np.ones((2, 3)))[1], np.ones((2, 3)))


def test_imag_of_a_real_input_is_a_dense_zero(sample):
    x = sample((2, 3), np.float32)
    _, pullback = rrule(np.imag, x)
    dx = pullback(np.ones((2, 3), np.float32))[1]
    assert dx.dtype == np.float32 and not np.any(dx)


def test_integer_input_has_no_tangent():
    for f in (np.abs, np.real, np.conj):
        _, pullback = rrule(f, np.arange(-1, 2))
        assert pullback(np.ones(3))[1] == NoTangent()
