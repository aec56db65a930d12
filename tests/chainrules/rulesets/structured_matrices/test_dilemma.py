"""The array dilemma (ChainRules documentation): one rule for every matrix kind, made correct by
``ProjectTo``, and an opt-out that sends the AD to the specialised path for ``Diagonal``.

``matrix_sum`` sums the entries of any matrix. Its rule is written once, generically: the
cotangent is ``np.full(A.shape, dy)``. For a ``Diagonal`` that dense matrix is the wrong
kind of cotangent (and ``n^2`` numbers); ``ProjectTo(A)`` maps it to a ``Diagonal``. Better
still, ``opt_out`` tells the AD not to use the generic rule for a ``Diagonal``: it then
differentiates through ``matrix_sum``'s body, ``A.sum()``, whose rule for structured
matrices builds the ``Diagonal`` cotangent directly in ``O(n)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import OPTED_OUT, NoTangent, ProjectTo, opt_out, rrule, unthunk
from chainrules.structured import Diagonal, StructuredMatrix, UpperTriangular
from chainrules.testing import test_rrule


def matrix_sum(A):
    """The sum of the entries of a matrix of any kind."""
    return A.sum()


def dense_matrix_sum(A):
    """The same function, for the rule that forgets to project."""
    return A.sum()


def _generic_pullback_value(A, dy):
    return np.full(A.shape, unthunk(dy))  # one rule for every kind of matrix


@rrule.register(matrix_sum, (np.ndarray, StructuredMatrix))
def matrix_sum_rrule(A):
    project_A = ProjectTo(A)

    def matrix_sum_pullback(dy):
        return NoTangent(), project_A(_generic_pullback_value(A, dy))

    return matrix_sum(A), matrix_sum_pullback


@rrule.register(dense_matrix_sum, (np.ndarray, StructuredMatrix))
def dense_matrix_sum_rrule(A):
    def dense_matrix_sum_pullback(dy):
        return NoTangent(), _generic_pullback_value(A, dy)

    return dense_matrix_sum(A), dense_matrix_sum_pullback


opt_out(rrule, matrix_sum, Diagonal)


class Traced:
    """A value a (tiny) reverse-mode AD is tracing, with the pullback back to the function's input."""

    def __init__(self, value, pullback=None):
        self.value, self.pullback = value, pullback

    def __getattr__(self, name):
        method = getattr(self.value, name)

        def traced_method(*args):
            y, pullback = rrule(method, *args)  # a bound method: the rule of type(value).<name>
            return Traced(y, lambda dy: pullback(dy)[1])

        return traced_method


def gradient(f, x):
    """What an AD does: use the rule for ``f`` if there is one, else differentiate ``f``'s body."""
    result = rrule(f, x)
    if result is not None:
        return unthunk(result[1](1.0)[1])
    return unthunk(f(Traced(x)).pullback(1.0))


def test_the_generic_rule_without_projection_returns_a_dense_cotangent():
    D = Diagonal(np.arange(1.0, 4.0))
    _, pullback = rrule(dense_matrix_sum, D)
    assert type(pullback(1.0)[1]) is np.ndarray
    with pytest.raises(AssertionError, match="ProjectTo"):
        test_rrule(dense_matrix_sum, D)


def test_projection_makes_the_generic_rule_correct():
    U = UpperTriangular(np.arange(1.0, 10.0).reshape(3, 3))
    test_rrule(matrix_sum, U)
    test_rrule(matrix_sum, np.arange(4.0).reshape(2, 2))
    # the opted-out Diagonal: what the generic rule would give, projected
    D = Diagonal(np.arange(1.0, 4.0))
    _, pullback = matrix_sum_rrule(D)
    assert pullback(1.0)[1] == Diagonal(np.ones(3))


def test_opt_out_sends_the_ad_through_the_specialised_path():
    D = Diagonal(np.arange(1.0, 4.0))
    assert rrule(matrix_sum, D) is None
    assert rrule.find(matrix_sum, Diagonal) is OPTED_OUT
    assert rrule.find(matrix_sum, UpperTriangular) is matrix_sum_rrule
    dD = gradient(matrix_sum, D)
    assert type(dD) is Diagonal and dD == Diagonal(np.ones(3))
    # both paths agree, and agree with the finite differences of matrix_sum
    assert dD == matrix_sum_rrule(D)[1](1.0)[1]
    test_rrule(StructuredMatrix.sum, D)


def test_the_specialised_path_scales_with_the_structure():
    n = 200_000  # np.full((n, n)) would need 320 GB: only the structured path can run
    D = Diagonal(np.ones(n))
    dD = gradient(matrix_sum, D)
    assert type(dD) is Diagonal and dD.d.shape == (n,)
