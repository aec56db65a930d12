"""Rules of chainrules/rulesets/linalg/banded_spectral.py, checked against finite differences."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.banded_spectral  # noqa: F401
from chainrules import NoTangent, ProjectionError, rrule
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def band(rand: Callable[..., np.ndarray], shape: tuple[int, ...], dtype: Any, lower: bool) -> np.ndarray:
    """LAPACK band storage of a Hermitian matrix with well separated eigenvalues (junk in the unused corner)."""
    ab = rand(shape, dtype)
    row = 0 if lower else -1
    ab[..., row, :] = np.real(ab[..., row, :]) + 3 * np.arange(shape[-1])
    return ab


# ---- eigvals_banded -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("shape", [(2, 4), (3, 4), (2, 2, 4)], ids=["tridiagonal", "pentadiagonal", "stacked"])
def test_eigvals_banded(lower, shape, dtype, rand):
    ab = band(rand, shape, dtype, lower)
    check(sla.eigvals_banded, ab, lower)
    check(sla.eigvals_banded, ab, fkwargs={"lower": lower})


@pytest.mark.parametrize("select", [("i", [1, 2]), ("v", [2.0, 20.0])], ids=["index", "value"])
def test_eigvals_banded_select(select, rand):
    ab = band(rand, (2, 4), np.float64, False)
    check(sla.eigvals_banded, ab, False, False, *select)
    check(sla.eigvals_banded, ab, fkwargs={"select": select[0], "select_range": select[1]})


def test_eigvals_banded_repeated_eigenvalue_symmetric_loss():
    ab = np.array([[0.0, 0.0, 0.0], [2.0, 2.0, 5.0]])        # diag(2, 2, 5): a repeated eigenvalue
    test_rrule(sla.eigvals_banded, ab, output_tangent=np.array([1.0, 1.0, 0.5]))    # symmetric in the cluster
    _, pullback = rrule(sla.eigvals_banded, ab)
    np.testing.assert_allclose(pullback(np.array([1.0, 1.0, 0.0]))[1], [[0, 0, 0], [1, 1, 0]], atol=1e-14)


def test_eigvals_banded_fixed_arguments(rand):
    ab = band(rand, (2, 3), np.float64, False)
    test_rrule(sla.eigvals_banded, ab, PrimalAndTangent(False, NoTangent()), False, "a", None, True)


# ---- eigvalsh_tridiagonal -------------------------------------------------------------------------------------
@pytest.mark.parametrize("batch", [(), (2,)])
def test_eigvalsh_tridiagonal(batch, rand):
    d, e = rand(batch + (4,)) + 2 * np.arange(4), rand(batch + (3,))
    check(sla.eigvalsh_tridiagonal, d, e)
    check(sla.eigvalsh_tridiagonal, d, PrimalAndTangent(e, np.zeros(batch + (3,))))


def test_eigvalsh_tridiagonal_float32_options_and_select(rand):
    d, e = rand((4,)) + 2 * np.arange(4), rand((3,))
    check(sla.eigvalsh_tridiagonal, d.astype(np.float32), e.astype(np.float32))
    check(sla.eigvalsh_tridiagonal, d, e, fkwargs={"lapack_driver": "stebz"})
    check(sla.eigvalsh_tridiagonal, d, e, "i", [0, 1])
    check(sla.eigvalsh_tridiagonal, d, e, fkwargs={"select": "v", "select_range": [1.0, 10.0], "tol": 0.0})


def test_eigvalsh_tridiagonal_decoupled_blocks():
    d, e = np.array([1.0, 1.0, 3.0]), np.array([0.0, 0.0])    # a repeated eigenvalue, zero couplings
    test_rrule(sla.eigvalsh_tridiagonal, d, e, output_tangent=np.array([1.0, 1.0, 2.0]))


def test_cotangent_shape_is_checked(rand):
    _, pullback = rrule(sla.eigvalsh_tridiagonal, rand((3,)), rand((2,)))
    with pytest.raises(ProjectionError, match=r"scipy\.linalg\.eigvalsh_tridiagonal pullback: output cotangent"):
        pullback(np.ones(2))
