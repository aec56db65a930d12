"""The hypothesis strategies produce what they claim, and drive test_rrule as property tests."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import chainrules  # noqa: F401  (registers the library's rules)
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
from chainrules.testing import strategies as st
from chainrules_core import NoTangent, ProjectTo, frule, rrule, unthunk

FAST = settings(max_examples=25, deadline=None)


@FAST
@given(st.shapes(min_dims=1, max_dims=3, max_side=4))
def test_shapes(shape):
    assert 1 <= len(shape) <= 3 and all(1 <= n <= 4 for n in shape)


@FAST
@given(st.dtypes(), st.dtypes(complex_=True))
def test_dtypes(real, any_kind):
    assert real in (np.float32, np.float64)
    assert any_kind in (np.float32, np.float64, np.complex64, np.complex128)


@FAST
@given(st.arrays(st.dtypes(complex_=True), st.shapes(max_dims=2), bound=3.0, min_magnitude=0.5))
def test_arrays(x):
    assert x.dtype.kind in "fc" and x.ndim <= 2 and np.all(np.isfinite(x))
    parts = [x.real, x.imag] if x.dtype.kind == "c" else [x]
    for part in parts:
        assert np.all(np.abs(part) <= 3.0) and np.all(np.abs(part) >= 0.5)


@FAST
@given(st.arrays(np.float32, (2, 3)))
def test_arrays_of_a_fixed_dtype_and_shape(x):
    assert x.dtype == np.float32 and x.shape == (2, 3)


@FAST
@given(st.broadcastable_shapes(3))
def test_broadcastable_shapes(shapes):
    assert len(shapes) == 3
    np.broadcast_shapes(*shapes)


@FAST
@given(st.primal_and_tangent(st.arrays(st.dtypes(complex_=True), st.shapes(max_dims=2))))
def test_primal_and_tangent(pair):
    assert isinstance(pair, PrimalAndTangent)
    assert pair.tangent.shape == pair.primal.shape and pair.tangent.dtype == pair.primal.dtype


@FAST
@given(st.well_conditioned_matrices(3, st.dtypes(complex_=True), max_condition=5.0))
def test_well_conditioned_matrices(A):
    assert A.shape == (3, 3) and np.linalg.cond(A.astype(np.complex128)) <= 5.0 * (1 + 1e-4)


@FAST
@given(st.spd_matrices(3, st.dtypes(complex_=True), max_condition=8.0))
def test_spd_matrices(A):
    A = A.astype(np.complex128)
    np.testing.assert_allclose(A, A.conj().T, atol=1e-6)
    eigenvalues = np.linalg.eigvalsh(A)
    assert np.all(eigenvalues > 0.99) and np.all(eigenvalues < 8.01)


# ---- property tests ---------------------------------------------------------------------------------
@FAST
@given(st.arrays(st.dtypes(complex_=True), st.shapes(max_dims=2), bound=2.0))
def test_rules_hold_on_drawn_inputs(x):
    test_rrule(np.tanh, x)
    test_frule(np.tanh, x)


@FAST
@given(st.well_conditioned_matrices(3), st.arrays(np.float64, (3,)))
def test_matrix_vector_product_on_drawn_matrices(A, v):
    test_rrule(np.matmul, A, v)


def cube_missing_conj(x):
    return x ** 3


@rrule.register(cube_missing_conj, np.ndarray)
def cube_missing_conj_rrule(x):
    project_x = ProjectTo(x)

    def cube_missing_conj_pullback(dy):
        return NoTangent(), project_x(3 * x ** 2 * unthunk(dy))

    return cube_missing_conj(x), cube_missing_conj_pullback


@frule.register(cube_missing_conj, np.ndarray)
def cube_missing_conj_frule(tangents, x):
    return cube_missing_conj(x), 3 * x ** 2 * tangents[1]


@FAST
@given(st.arrays(hs.sampled_from([np.complex64, np.complex128]), st.shapes(max_dims=2), bound=2.0,
                 min_magnitude=0.25))
def test_a_broken_rule_fails_on_every_drawn_complex_input(x):
    with pytest.raises(AssertionError, match=r"cube_missing_conj\).*argument 1 \('x'\)"):
        test_rrule(cube_missing_conj, x)
