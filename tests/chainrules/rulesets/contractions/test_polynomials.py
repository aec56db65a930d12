"""Rules of chainrules/rulesets/contractions/polynomials.py, checked against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, ProjectionError, rrule, unthunk
from chainrules.testing import test_frule, test_rrule


@pytest.mark.parametrize(("n", "x_shape"), [(4, (3,)), (4, ()), (1, (3,)), (3, (2, 2)), (5, (1,))])
def test_polyval(n, x_shape, dtype, rand):
    p, x = rand(n, dtype), rand(x_shape, dtype)
    test_rrule(np.polyval, p, x)
    test_frule(np.polyval, p, x)


def test_polyval_scalars_and_mixed(rand):
    test_rrule(np.polyval, rand(4), 0.7)
    test_frule(np.polyval, rand(4), 0.7)
    test_rrule(np.polyval, rand(3, np.complex128), rand(3))
    test_rrule(np.polyval, rand(3), rand(3, np.complex128))
    test_rrule(np.polyval, rand((3, 2)), rand(2))          # one polynomial per column


def test_polyval_integer_arguments(rand):
    test_rrule(np.polyval, rand(3), 2)
    test_rrule(np.polyval, np.array([1, 2, 3]), rand(2))
    assert rrule(np.polyval, np.array([1, 2, 3]), rand(2))[1](np.ones(2))[1] == NoTangent()


def test_polyval_wrong_cotangent(rand):
    _, pullback = rrule(np.polyval, rand(3), rand(2))
    with pytest.raises(ProjectionError, match=r"numpy\.polyval pullback: output cotangent"):
        pullback(np.ones(3))


@pytest.mark.parametrize("f", [np.polyadd, np.polysub, np.polymul], ids=["polyadd", "polysub", "polymul"])
@pytest.mark.parametrize(("n1", "n2"), [(3, 2), (2, 4), (3, 3), ((), 3), (3, ())])
def test_polynomial_arithmetic(f, n1, n2, dtype, rand):
    a1, a2 = rand(n1, dtype), rand(n2, dtype)
    test_rrule(f, a1, a2)
    test_frule(f, a1, a2)


def test_polynomial_arithmetic_python_scalars(rand):
    for f in (np.polyadd, np.polysub, np.polymul):
        test_rrule(f, 2.0, rand(3))
        test_frule(f, rand(2), 0.5)


def test_polymul_stripped_leading_zeros(rand):
    # np.polymul drops leading zero coefficients (np.poly1d): those get a zero cotangent, the
    # others the cotangent of the product of the kept coefficients
    a1, a2 = np.array([0.0, 1.0, 2.0]), rand(2)
    y, pullback = rrule(np.polymul, a1, a2)
    da1 = unthunk(pullback(np.ones(y.shape))[1])
    assert da1.shape == a1.shape and da1[0] == 0
    test_rrule(lambda kept, b: np.polymul(np.concatenate([[0.0], kept]), b), a1[1:], a2,
               rrule_f=lambda f, kept, b: _through_padding(kept, b), check_frule_consistency=False)


def _through_padding(kept, b):
    """The rrule of ``(kept, b) -> polymul([0, *kept], b)``, built from the polymul rule."""
    padded = np.concatenate([[0.0], kept])
    y, pullback = rrule(np.polymul, padded, b)

    def padding_pullback(dy):
        _, da, db = pullback(dy)
        return NoTangent(), unthunk(da)[1:], db

    return y, padding_pullback


@pytest.mark.parametrize(("n", "m"), [(4, 1), (4, 2), (4, 0), (3, 2), (5, 3)])
def test_polyder(n, m, dtype, rand):
    p = rand(n, dtype)
    test_rrule(np.polyder, p, m)
    test_frule(np.polyder, p, m)


def test_polyder_keyword_default_and_2d(rand):
    test_rrule(np.polyder, rand(4))
    test_rrule(np.polyder, rand(4), fkwargs={"m": 2})
    assert rrule(np.polyder, rand((2, 3))) is None       # not a polynomial: no rule


@pytest.mark.parametrize(("m", "k"), [(1, None), (1, "scalar"), (2, None), (3, (3,)), (2, "scalar"), (0, None),
                                      (2, (4,))])
def test_polyint(m, k, dtype, rand):
    p = rand(3, dtype)
    constants = None if k is None else rand((), dtype)[()] if k == "scalar" else rand(k, dtype)
    test_rrule(np.polyint, p, m, constants)
    test_frule(np.polyint, p, m, constants)


def test_polyint_keywords(rand):
    test_rrule(np.polyint, rand(3))
    test_rrule(np.polyint, rand(3), fkwargs={"m": 2, "k": rand(2)})
    test_frule(np.polyint, rand(3), fkwargs={"k": 1.5})


@pytest.mark.parametrize(("args", "kwargs"), [((), {}), ((4,), {}), ((), {"increasing": True}), ((2, True), {}),
                                              ((1,), {})])
def test_vander(args, kwargs, dtype, rand):
    x = rand(3, dtype)
    test_rrule(np.vander, x, *args, fkwargs=kwargs)
    test_frule(np.vander, x, *args, fkwargs=kwargs)
