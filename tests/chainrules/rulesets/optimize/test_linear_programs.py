"""Rules of chainrules/rulesets/optimize/linear_programs.py: linprog at a nondegenerate vertex, milp.

Closed forms: the vertex solves its active constraints, ``M x = r``; the optimal value's
derivatives with respect to the right-hand sides are HiGHS's own marginals (LP duality), and
with respect to ``c`` the solution itself. The rest against finite differences of the whole call.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.optimize as so

from chainrules.rulesets.optimize import ImplicitDerivativeError
from chainrules_core import NoTangent, NotImplementedTangent, Tangent, ZeroTangent, frule, rrule

from .conftest import check

C = np.array([-1.0, -2.0, 0.5])
A_UB, B_UB = np.array([[1.0, 1.0, 1.0], [1.0, -1.0, 2.0]]), np.array([4.0, 1.0])
A_EQ, B_EQ = np.array([[1.0, 0.0, 1.0]]), np.array([1.5])
BOUNDS = [(0, 3), (0, 2.5), (0, None)]


def fields(res):
    return res.x, res.fun, res.slack


def test_linprog_vertex_closed_form_and_duality():
    res, pullback = rrule(so.linprog, C, A_UB, B_UB, A_EQ, B_EQ, bounds=(0, None))
    assert res.success
    # the optimal value's derivatives are the dual solution (LP duality) and, for c, the solution
    cotangents = pullback(Tangent(type(res), {"fun": 1.0}))
    np.testing.assert_allclose(cotangents[1], res.x, atol=1e-12)
    np.testing.assert_allclose(cotangents[3], res.ineqlin.marginals, atol=1e-12)
    np.testing.assert_allclose(cotangents[5], res.eqlin.marginals, atol=1e-12)
    # the vertex solves its active constraints: dx = M^{-1} dr
    xbar = np.array([1.0, -2.0, 0.5])
    db_ub = pullback(Tangent(type(res), {"x": xbar}))[3]
    eps = 1e-6
    moved = [so.linprog(C, A_UB, B_UB + eps * e, A_EQ, B_EQ, bounds=(0, None)).x for e in np.eye(2)]
    np.testing.assert_allclose(db_ub, [(m - res.x) @ xbar / eps for m in moved], atol=1e-8)


def test_linprog_finite_differences():
    check(so.linprog, C, A_UB, B_UB, A_EQ, B_EQ, fkwargs={"bounds": (0, None)}, gauge_invariant=fields)
    check(so.linprog, C, A_UB, B_UB, fkwargs={"bounds": BOUNDS, "method": "highs-ds"}, gauge_invariant=fields)


def test_linprog_x_does_not_move_with_c():
    _, dres = frule((NoTangent(), np.ones(3), ZeroTangent(), ZeroTangent()), so.linprog, C, A_UB, B_UB,
                    bounds=BOUNDS)
    np.testing.assert_array_equal(dres["x"], 0.0)


def test_linprog_degenerate_vertex_raises():
    # three constraints through the optimal vertex (1, 1) of a two-variable problem
    a = np.array([[1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    res, pullback = rrule(so.linprog, np.array([-1.0, -1.0]), a, np.array([2.0, 1.0, 1.0]), bounds=(0, None))
    np.testing.assert_allclose(res.x, [1.0, 1.0])
    with pytest.raises(ImplicitDerivativeError, match=r"active|degenerate"):
        pullback(Tangent(type(res), {"x": np.ones(2)}))


def test_linprog_optimum_on_a_face_raises():
    # c parallel to the constraint x0 + x1 <= 2: every point of that edge is optimal
    res, pullback = rrule(so.linprog, np.array([-1.0, -1.0]), np.array([[1.0, 1.0]]), np.array([2.0]),
                          bounds=(0, None))
    with pytest.raises(ImplicitDerivativeError):
        pullback(Tangent(type(res), {"x": np.ones(2)}))


def test_linprog_multipliers_are_not_differentiated():
    res, pullback = rrule(so.linprog, C, A_UB, B_UB, bounds=BOUNDS)
    marginals = Tangent(type(res.ineqlin), {"marginals": np.ones(2)})
    dc = pullback(Tangent(type(res), {"x": np.ones(3), "ineqlin": marginals}))[1]
    assert isinstance(dc, NotImplementedTangent) and "multipliers" in dc.info


def test_milp_value_moves_with_c_and_the_solution_does_not():
    kw = {"integrality": np.ones(3), "bounds": so.Bounds(0, [3.0, 2.5, 10.0]),
          "constraints": so.LinearConstraint(A_UB, -np.inf, B_UB)}
    res, pullback = rrule(so.milp, C, **kw)
    np.testing.assert_allclose(pullback(Tangent(type(res), {"fun": 2.0, "x": np.ones(3)}))[1], 2.0 * res.x)
    _, dres = frule((NoTangent(), np.array([1.0, 0.0, 0.0])), so.milp, C, **kw)
    assert dres["fun"] == res.x[0] and not np.any(dres["x"])


def test_linprog_dual_degenerate_vertex_raises():
    # with the equality and these bounds the first inequality is active with a zero multiplier
    res, pullback = rrule(so.linprog, C, A_UB, B_UB, A_EQ, B_EQ, bounds=BOUNDS)
    with pytest.raises(ImplicitDerivativeError, match="zero multiplier"):
        pullback(Tangent(type(res), {"x": np.ones(3)}))
