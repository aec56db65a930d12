"""The testers' ``gauge_invariant=`` option: outputs defined only up to a gauge (eigenvector phases).

A complex Hermitian eigendecomposition is checked through the projectors ``v_k v_k^H``;
a rule that is right passes, and a rule whose eigenvector part is wrong is caught.
"""

import numpy as np
import pytest

import chainrules  # noqa: F401  (registers the eigh rule)
from chainrules.testing import test_frule, test_rrule
from chainrules_core import NoTangent, Tangent, backing, frule, rrule, unthunk


def projectors(result):
    """Eigenvalues and the projectors onto the eigenvectors: unchanged by any phase of the vectors."""
    w, v = result
    return w, np.einsum("ik,jk->kij", v, v.conj())


@pytest.fixture
def hermitian():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    return a + a.conj().T


def test_a_right_rule_passes_through_the_projectors(hermitian):
    test_rrule(np.linalg.eigh, hermitian, gauge_invariant=projectors)
    test_frule(np.linalg.eigh, hermitian, gauge_invariant=projectors)


def test_without_the_option_the_phase_makes_the_comparison_meaningless(hermitian):
    with pytest.raises(AssertionError, match="cotangent of argument 1"):
        test_rrule(np.linalg.eigh, hermitian)


def eigh_with_wrong_vectors(a):
    w, v = np.linalg.eigh(a)
    return w, v


@rrule.register(eigh_with_wrong_vectors, np.ndarray)
def eigh_with_wrong_vectors_rrule(a):
    (w, v), pullback = rrule(np.linalg.eigh, a)

    def eigh_with_wrong_vectors_pullback(dy):
        parts = backing(unthunk(dy)) if isinstance(unthunk(dy), Tangent) else dy
        dw, dv = parts.values() if isinstance(parts, dict) else parts
        return NoTangent(), unthunk(pullback(Tangent(tuple, dw, 1.5 * unthunk(dv)))[1])

    return (w, v), eigh_with_wrong_vectors_pullback


@frule.register(eigh_with_wrong_vectors, np.ndarray)
def eigh_with_wrong_vectors_frule(tangents, a):
    (w, v), dy = frule((NoTangent(), tangents[1]), np.linalg.eigh, a)
    parts = backing(dy)
    dw, dv = parts.values() if isinstance(parts, dict) else parts
    return (w, v), Tangent(tuple, dw, 1.5 * unthunk(dv))


def test_a_wrong_eigenvector_derivative_is_caught(hermitian):
    with pytest.raises(AssertionError, match="cotangent of argument 1"):
        test_rrule(eigh_with_wrong_vectors, hermitian, gauge_invariant=projectors, check_frule_consistency=False)
    with pytest.raises(AssertionError, match="output tangent"):
        test_frule(eigh_with_wrong_vectors, hermitian, gauge_invariant=projectors, check_rrule_consistency=False)
