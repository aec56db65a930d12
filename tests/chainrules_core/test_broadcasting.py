"""unbroadcast is the adjoint of NumPy broadcasting: <unbroadcast(dy), dx> == <dy, broadcast(dx)>."""

import numpy as np
import pytest

from chainrules_core import NoTangent, ZeroTangent, not_implemented, unbroadcast

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("shape, out_shape", [
    ((3,), (2, 3)),
    ((2, 1), (2, 3)),
    ((1, 3), (4, 2, 3)),
    ((), (2, 3)),
    ((2, 3), (2, 3)),
    ((1,), (3,)),
    ((2, 1, 3), (4, 2, 5, 3)),
])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_adjoint_of_broadcasting(shape, out_shape, dtype):
    dx = RNG.standard_normal(shape).astype(dtype)
    dy = RNG.standard_normal(out_shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        dx = dx + 1j * RNG.standard_normal(shape)
        dy = dy + 1j * RNG.standard_normal(out_shape)
    back = unbroadcast(dy, shape)
    assert np.shape(back) == shape
    assert np.asarray(back).dtype == dtype
    lhs = np.vdot(back, dx).real
    rhs = np.vdot(dy, np.broadcast_to(dx, out_shape)).real
    tol = 1e-4 if dtype == np.float32 else 1e-10
    assert abs(lhs - rhs) <= tol * (1 + abs(rhs))


def test_same_shape_is_returned_unchanged():
    dy = np.ones((2, 3))
    assert unbroadcast(dy, (2, 3)) is dy


def test_zeros_and_not_implemented_pass_through():
    for t in (ZeroTangent(), NoTangent(), not_implemented("x")):
        assert unbroadcast(t, (2, 3)) is t


def test_smaller_cotangent_is_left_for_the_projector_to_reject():
    dy = np.ones(3)
    assert unbroadcast(dy, (2, 3)) is dy
