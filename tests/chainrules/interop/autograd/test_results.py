"""SciPy's result objects traced by autograd (chainrules/interop/autograd/results.py)."""

from __future__ import annotations

import autograd
import numpy as np
import pytest
import scipy.integrate
import scipy.optimize
from autograd.extend import vspace

from chainrules.interop.autograd import primitive
from chainrules.interop.autograd.results import ResultVSpace


def test_the_vector_space_of_a_result_is_its_floating_fields():
    res = scipy.optimize.OptimizeResult(x=np.ones(2), fun=0.5, nit=3, success=True, message="ok")
    vs = vspace(res)
    assert isinstance(vs, ResultVSpace) and vs.size == 3
    zero = vs.zeros()
    assert set(zero) == {"x", "fun"} and not np.any(zero["x"]) and zero["fun"] == 0.0
    a, b = vs.randn(), vs.randn()
    assert vs.inner_prod(a, b) == pytest.approx(a["x"] @ b["x"] + a["fun"] * b["fun"])
    assert len(list(vs.standard_basis())) == 3


def test_non_floating_fields_read_as_plain_values():
    minimize = primitive(scipy.optimize.minimize)

    def f(b):
        res = minimize(lambda x, b: np.sum((x - b) ** 2), np.zeros(2), (b,), tol=1e-12)
        assert isinstance(res.success, bool) and isinstance(res.nit, int) and "x" in res
        return res.x[1] + res["fun"]

    np.testing.assert_allclose(autograd.grad(f)(np.array([1.0, 2.0])), [0.0, 1.0], atol=1e-6)


def test_solve_ivp_result_through_autograd():
    # the integrate area's rule, end to end now that OdeResult is traced: d exp(-p) / dp
    solve_ivp = primitive(scipy.integrate.solve_ivp)

    def final(p):
        return solve_ivp(lambda t, y, p: -p * y, (0.0, 1.0), np.array([1.0]), args=(p,), rtol=1e-10,
                         atol=1e-12).y[0, -1]

    assert autograd.grad(final)(0.7) == pytest.approx(-np.exp(-0.7), rel=1e-6)
