"""Rules of chainrules/rulesets/optimize/quadratic_assignment.py: quadratic_assignment.

``fun = sum_ij A_ij B_{p_i p_j}`` at the returned permutation ``p``: its cotangents are checked
against that closed form, and against finite differences at the samples (which also check that
``col_ind`` does not move).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

from chainrules_core import NoTangent, Tangent, ZeroTangent, frule, rrule

from .conftest import check

RNG = np.random.default_rng(5)
A, B = RNG.random((4, 4)), RNG.random((4, 4))


@pytest.mark.parametrize("method", ["faq", "2opt"])
def test_closed_form(method):
    options = {"rng": np.random.default_rng(2)} if method == "2opt" else None
    res, pullback = rrule(so.quadratic_assignment, A, B, method=method, options=options)
    p = res.col_ind
    _, da, db = pullback(Tangent(type(res), {"fun": 2.0}))
    np.testing.assert_allclose(da, 2.0 * B[np.ix_(p, p)], rtol=1e-14)
    np.testing.assert_allclose(db[np.ix_(p, p)], 2.0 * A, rtol=1e-14)
    assert res.fun == pytest.approx(np.sum(A * B[np.ix_(p, p)]), rel=1e-14)


def test_against_finite_differences_and_forward():
    check(so.quadratic_assignment, A, B, gauge_invariant=lambda res: (res.col_ind, res.fun))
    _, dres = frule((NoTangent(), np.ones((4, 4)), ZeroTangent()), so.quadratic_assignment, A, B)
    assert dres["fun"] == pytest.approx(np.sum(B), rel=1e-14)  # p permutes B's entries: their sum is unchanged
