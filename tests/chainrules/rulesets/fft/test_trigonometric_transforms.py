"""Rules of chainrules/rulesets/fft/trigonometric_transforms.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule
from chainrules.rulesets.fft.trigonometric_transforms import complex_input_ignores_orthogonalize
from chainrules.testing import test_frule, test_rrule

SWAPPED = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def matrix(f, n, **kw):
    return np.stack([f(np.eye(n)[k], **kw) for k in range(n)], axis=1)


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
@pytest.mark.parametrize("orthogonalize", [False, True])
@pytest.mark.parametrize("kind", [1, 2, 3, 4])
def test_inverse_is_the_transposed_type_with_the_swapped_norm(kind, norm, orthogonalize):
    # the identity the rules of idct/idst/idctn/idstn rest on
    t = {1: 1, 2: 3, 3: 2, 4: 4}[kind]
    for forward, inverse in ((scipy.fft.dct, scipy.fft.idct), (scipy.fft.dst, scipy.fft.idst)):
        np.testing.assert_allclose(matrix(inverse, 5, type=kind, norm=norm, orthogonalize=orthogonalize),
                                   matrix(forward, 5, type=t, norm=SWAPPED[norm], orthogonalize=orthogonalize),
                                   atol=1e-12)


@pytest.mark.parametrize("kind", [1, 2, 3, 4])
@pytest.mark.parametrize("f", [scipy.fft.dct, scipy.fft.dst, scipy.fft.idct, scipy.fft.idst])
def test_pullback_is_the_transpose(f, kind):
    rng = np.random.default_rng(kind)
    for norm, orthogonalize in (("backward", False), ("ortho", True), ("forward", True), ("ortho", False)):
        M = matrix(f, 6, type=kind, norm=norm, orthogonalize=orthogonalize)
        dy = rng.standard_normal(6)
        dx = rrule(f, rng.standard_normal(6), kind, norm=norm, orthogonalize=orthogonalize)[1](dy)[1]
        np.testing.assert_allclose(dx, M.T @ dy, atol=1e-12)


def test_orthonormal_transforms_pull_back_by_their_inverse():
    rng = np.random.default_rng(7)
    x, dy = rng.standard_normal((4, 5)), rng.standard_normal((4, 5))
    for kind in (1, 2, 3, 4):
        dx = rrule(scipy.fft.dctn, x, kind, norm="ortho")[1](dy)[1]
        np.testing.assert_allclose(dx, scipy.fft.idctn(dy, kind, norm="ortho"), atol=1e-12)


def test_complex_input_follows_what_scipy_computes():
    z = np.array([1.0 + 2j, -0.5j, 3.0, 1.0 - 1j])
    by_parts = scipy.fft.dct(z.real, norm="ortho", orthogonalize=False) + 1j * scipy.fft.dct(
        z.imag, norm="ortho", orthogonalize=False)
    assert complex_input_ignores_orthogonalize() == (not np.allclose(
        scipy.fft.dct(z, norm="ortho", orthogonalize=False), by_parts))
    test_rrule(scipy.fft.dct, z, fkwargs={"norm": "ortho", "orthogonalize": False})
    test_rrule(scipy.fft.idstn, z.reshape(2, 2), 3, fkwargs={"norm": "ortho", "orthogonalize": False})


def test_overwrite_x_never_mutates():
    x = np.random.default_rng(8).standard_normal(6)
    x0 = x.copy()
    _y, pullback = rrule(scipy.fft.dct, x, 2, None, -1, None, True)
    pullback(np.ones(6))
    np.testing.assert_array_equal(x, x0)
    test_frule(scipy.fft.dst, x, 1, fkwargs={"overwrite_x": True})
