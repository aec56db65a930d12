"""Rules of chainrules/rulesets/fft/complex_transforms.py: the conventions the module docstring states.

The finite-difference checks at every sample (odd/even lengths, every norm, padding and
truncation, axes by position and keyword, float32, complex) run in
tests/chainrules/test_every_rule.py; here each claim is tested on its own.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft

import chainrules
from chainrules import NoTangent, ProjectionError, UnsupportedKeywordError, frule, rrule, unthunk
from chainrules.testing import test_frule, test_rrule


def jacobian_of_linear(f, shape, dtype=np.complex128):
    """The matrix of a complex-linear f, column by column from the primal alone."""
    n = int(np.prod(shape))
    cols = [np.ravel(f(np.eye(n, dtype=dtype)[k].reshape(shape))) for k in range(n)]
    return np.stack(cols, axis=1)


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
@pytest.mark.parametrize("f", [np.fft.fft, scipy.fft.fft, np.fft.ifft, scipy.fft.ifft])
def test_pullback_is_the_conjugate_transpose(f, norm):
    # The project's convention: x_bar = J^H y_bar, J the (complex-linear) transform's matrix.
    rng = np.random.default_rng(0)
    x = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    dy = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    J = jacobian_of_linear(lambda v: f(v, norm=norm), (5,))
    _, pullback = rrule(f, x, norm=norm)
    np.testing.assert_allclose(pullback(dy)[1], J.conj().T @ dy, atol=1e-12)


def test_fft_pullback_is_n_times_ifft_not_autograds_fft():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    dy = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    dx = rrule(np.fft.fft, x)[1](dy)[1]
    np.testing.assert_allclose(dx, 6 * np.fft.ifft(dy), atol=1e-12)
    assert not np.allclose(dx, np.fft.fft(dy))          # autograd's fft(g) is the conjugate convention
    np.testing.assert_allclose(dx, np.conj(np.fft.fft(np.conj(dy))), atol=1e-12)


def test_real_input_gets_the_real_part():
    x = np.array([1.0, -2.0, 0.5])
    dx = rrule(np.fft.fft, x)[1](np.array([1j, 2.0, -1.0 + 1j]))[1]
    assert dx.dtype == np.float64
    test_rrule(np.fft.fft, x, output_tangent=np.array([1j, 2.0, -1.0 + 1j]))


def test_float32_stays_single_precision():
    x = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    y, pullback = rrule(scipy.fft.fftn, x)
    assert y.dtype == np.complex64
    assert pullback(np.ones(4, np.complex128))[1].dtype == np.float32
    assert frule((NoTangent(), np.ones(4, np.float32)), scipy.fft.fftn, x)[1].dtype == np.complex64


def test_integer_input_is_not_differentiated():
    _y, pullback = rrule(np.fft.fft, np.arange(4))
    assert pullback(np.ones(4, complex)) == (NoTangent(), NoTangent())
    assert frule((NoTangent(), NoTangent()), np.fft.fft, np.arange(4))[1] == chainrules.ZeroTangent()


def test_scipy_overwrite_x_and_workers_never_mutate():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))
    x0 = x.copy()
    y, pullback = rrule(scipy.fft.fft2, x, None, (-2, -1), "ortho", True, 2)   # overwrite_x, workers by position
    dy = rng.standard_normal(y.shape) + 1j * rng.standard_normal(y.shape)
    dy0 = dy.copy()
    dx = pullback(dy)[1]
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(dy, dy0)
    np.testing.assert_allclose(dx, scipy.fft.ifft2(dy, norm="ortho"), atol=1e-12)
    test_rrule(scipy.fft.fftn, x, fkwargs={"overwrite_x": True, "workers": 2})
    test_frule(scipy.fft.fftn, x, fkwargs={"overwrite_x": True, "workers": -1})


def test_plan_is_refused_by_scipy_and_out_by_the_rule():
    x = np.ones(4)
    with pytest.raises(NotImplementedError, match="plan"):
        rrule(scipy.fft.fft, x, plan=object())
    with pytest.raises(UnsupportedKeywordError, match="out="):
        rrule(np.fft.fft, x, out=np.zeros(4, complex))


def test_scipy_repeated_axes_error_passes_through():
    with pytest.raises(ValueError, match="unique"):
        rrule(scipy.fft.fftn, np.ones((3, 4)), axes=(0, 0))


def test_numpy_repeated_axis_transforms_twice():
    rng = np.random.default_rng(3)
    z = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    test_rrule(np.fft.ifftn, z, (5, 2, 3), (1, 1, 0))
    test_frule(np.fft.fftn, z, fkwargs={"s": (2, 6), "axes": (0, 0)})


def test_wrong_cotangent_names_the_function():
    _, pullback = rrule(scipy.fft.fft, np.ones(4))
    with pytest.raises(ProjectionError, match=r"scipy\.fft\.fft pullback"):
        pullback(np.ones(5))
    assert unthunk(pullback(chainrules.ZeroTangent())[1]) == chainrules.ZeroTangent()
