"""Rules of chainrules/rulesets/linalg/real_eigen_form.py, checked against finite differences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules  # registers the rules
import chainrules.rulesets.linalg.real_eigen_form  # noqa: F401
from chainrules import ProjectionError, Tangent, ZeroTangent, rrule, unthunk
from chainrules.testing import test_frule, test_rrule


def check(f: Any, *args: Any, **kwargs: Any) -> None:
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def pairs(rand, n_pairs: int, batch: tuple[int, ...] = ()) -> np.ndarray:
    """Eigenvalues in complex-conjugate pairs, each pair's first member first (none real)."""
    z = rand(batch + (n_pairs,), np.complex128) + 0.5j
    return np.stack([z, np.conj(z)], axis=-1).reshape(batch + (2 * n_pairs,))


@pytest.mark.parametrize("n_pairs", [1, 2])
def test_cdf2rdf_complex_pairs(n_pairs, rand):
    w = pairs(rand, n_pairs)
    check(sla.cdf2rdf, w, rand((2 * n_pairs, 2 * n_pairs), np.complex128))


def test_cdf2rdf_stacked(rand):
    w = pairs(rand, 1, (2,))
    check(sla.cdf2rdf, w, rand((2, 2, 2), np.complex128))


def test_cdf2rdf_real_eigenvalues_only(rand):
    """Real ``w`` (a real dtype): no pairs, ``wr = diag(w)`` and ``vr = Re(v)``."""
    check(sla.cdf2rdf, rand((3,)), rand((3, 3)))
    check(sla.cdf2rdf, rand((3,)), rand((3, 3), np.complex128))


def test_cdf2rdf_of_a_real_eigendecomposition(rand, composite):
    """``cdf2rdf(*eig(A))`` for a real ``A`` with real and complex eigenvalues: along real ``A``, real stay real."""
    p = np.eye(4) + rand((4, 4)) / 4
    a = p @ sla.block_diag([[1.0, -2.0], [2.0, 1.0]], 3.0, -1.0) @ np.linalg.inv(p)   # 1 +- 2i, 3, -1
    w = np.linalg.eigvals(a)
    assert np.sum(np.iscomplex(w)) == 2 and np.sum(np.isreal(w)) == 2
    f = composite(lambda call, x: call(sla.cdf2rdf, *call(sla.eig, x))[0], "cdf2rdf_of_eig")
    check(f, a)


def test_cdf2rdf_real_eigenvalues_get_real_cotangents():
    w = np.array([1 + 1j, 1 - 1j, 3 + 0j])
    _, pullback = rrule(sla.cdf2rdf, w, np.eye(3, dtype=complex))
    dw = unthunk(pullback((np.ones((3, 3)), ZeroTangent()))[1])
    assert dw[2] == 1.0 and dw[0] == 1 + 1j and dw[1] == 1 + 1j


def test_cdf2rdf_cotangent_kinds(rand):
    w, v = pairs(rand, 1), rand((2, 2), np.complex128)
    _, pullback = rrule(sla.cdf2rdf, w, v)
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(), ZeroTangent())
    cotangents = pullback(Tangent(tuple, ZeroTangent(), rand((2, 2))))
    assert cotangents[1] == ZeroTangent() and unthunk(cotangents[2]).shape == (2, 2)
    with pytest.raises(ProjectionError, match="cdf2rdf"):
        pullback((np.ones((3, 3)), ZeroTangent()))


def test_cdf2rdf_errors_pass_through():
    with pytest.raises(ValueError, match="conjugate pairs"):
        rrule(sla.cdf2rdf, np.array([1 + 1j, 2.0]), np.eye(2, dtype=complex))
