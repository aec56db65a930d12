"""Declarations of chainrules/rulesets/linalg/non_differentiable.py."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.non_differentiable  # noqa: F401
from chainrules import NoTangent, frule, rrule, unthunk
from chainrules.coverage import classify
from chainrules.rulesets.linalg.non_differentiable import BLAS_TOOLS, CONSTANT_MATRICES, STRUCTURE_TESTS
from chainrules.testing import test_frule, test_rrule

CALLS = [
    (sla.dft, (3,), {"scale": "sqrtn"}), (sla.hadamard, (4,), {}), (sla.helmert, (3,), {"full": True}),
    (sla.hilbert, (3,), {}), (sla.invhilbert, (3,), {"exact": True}), (sla.pascal, (3,), {"kind": "lower"}),
    (sla.invpascal, (3,), {}), (sla.bandwidth, (np.triu(np.ones((3, 3))),), {}),
    (sla.ishermitian, (np.array([[1.0, 2j], [-2j, 1.0]]),), {}), (sla.issymmetric, (np.eye(2),), {"atol": 1e-8}),
    (sla.find_best_blas_type, ((np.ones(2),),), {}), (sla.get_blas_funcs, ("gemm", (np.ones((2, 2)),)), {}),
    (sla.get_lapack_funcs, ("getrf",), {"dtype": np.float32}),
]


@pytest.mark.parametrize(("f", "args", "kwargs"), CALLS, ids=lambda v: getattr(v, "__name__", ""))
def test_declared_non_differentiable(f, args, kwargs):
    y, pullback = rrule(f, *args, **kwargs)
    expected = f(*args, **kwargs)
    assert type(y) is type(expected)
    assert all(c is NoTangent() for c in pullback(None))
    assert frule((NoTangent(),) * (len(args) + 1), f, *args, **kwargs)[1] is NoTangent()
    assert classify(f) == "non-differentiable"


def test_testers_accept_them():
    test_rrule(sla.issymmetric, np.array([[1.0, 2.0], [2.0, 1.0]]))
    test_frule(sla.bandwidth, np.array([[1.0, 2.0], [0.0, 1.0]]))


def test_declarations_are_listed():
    assert sla.hilbert in CONSTANT_MATRICES and sla.ishermitian in STRUCTURE_TESTS and sla.get_blas_funcs in BLAS_TOOLS
    assert sla.toeplitz not in CONSTANT_MATRICES            # a matrix of its arguments' values: it has rules


def test_matrix_rank_is_not_differentiable(rand):
    y, pullback = rrule(np.linalg.matrix_rank, rand((3, 3)))
    assert y == 3 and pullback(1.0) == (NoTangent(), NoTangent())
    assert unthunk(frule((NoTangent(), rand((3, 3))), np.linalg.matrix_rank, rand((3, 3)))[1]) == NoTangent()
