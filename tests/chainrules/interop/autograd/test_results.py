"""SciPy's result objects (and outputs with constant parts) traced by autograd (chainrules/interop/autograd/results.py).

Every derivative is checked end to end, against finite differences of the whole SciPy call
(the solvers run at tight tolerances so that their error stays below the differences' own).
"""

from __future__ import annotations

import autograd
import autograd.numpy as anp
import autograd.tracer
import numpy as np
import pytest
import scipy.integrate
import scipy.optimize
from autograd import make_jvp
from autograd.extend import vspace

from chainrules.interop.autograd import primitive
from chainrules.interop.autograd.results import ConstantParts, ResultVSpace, UntracedFieldError
from chainrules.testing import central_fdm, grad

FDM = central_fdm(5, 1)


def fd_jvp(f, x, dx):
    return FDM(lambda t: float(f(x + t * dx)), 0.0)


def test_the_vector_space_of_a_result_is_its_floating_fields():
    res = scipy.optimize.OptimizeResult(x=np.ones(2), fun=0.5, nit=3, success=True, message="ok")
    vs = vspace(res)
    assert isinstance(vs, ResultVSpace) and vs.size == 3
    zero = vs.zeros()
    assert set(zero) == {"x", "fun"} and not np.any(zero["x"]) and zero["fun"] == 0.0
    a, b = vs.randn(), vs.randn()
    assert vs.inner_prod(a, b) == pytest.approx(a["x"] @ b["x"] + a["fun"] * b["fun"])
    assert len(list(vs.standard_basis())) == 3


def test_the_vector_space_of_a_tuple_with_constant_parts_is_its_traceable_positions():
    vs = vspace(ConstantParts((np.ones(2), {"nst": np.array([3])}, 1, "ok", 0.5)))
    assert isinstance(vs, ResultVSpace) and set(vs.shape) == {0, 4} and vs.size == 3


def test_a_list_of_arrays_is_a_traced_field_and_objects_are_not():
    res = scipy.optimize.OptimizeResult(x=np.ones(2), t_events=[np.ones(1), np.zeros(0)], nit=3, sol=len)
    assert set(vspace(res).shape) == {"x", "t_events"}


def test_constant_fields_read_as_plain_values():
    minimize = primitive(scipy.optimize.minimize)

    def f(b):
        res = minimize(lambda x, b: anp.sum((x - b) ** 2), np.zeros(2), (b,), tol=1e-12)
        assert isinstance(res.success, bool) and isinstance(res.nit, int) and "x" in res
        return res.x[1] + res["fun"]

    np.testing.assert_allclose(autograd.grad(f)(np.array([1.0, 2.0])), [0.0, 1.0], atol=1e-6)


# ---- solve_ivp: a loss on the whole of res.y, with respect to y0 and to args --------------------------
_W = np.array([0.5, -1.0, 2.0, 0.3, 1.1])
_T = np.linspace(0.0, 1.0, 5)


def _rhs(t, y, k):
    return anp.array([-k[0] * y[0] + y[1], -k[1] * y[1] * y[0]])


def _ivp_loss(solve_ivp, y0, k):
    res = solve_ivp(_rhs, (0.0, 1.0), y0, args=(k,), t_eval=_T, rtol=1e-11, atol=1e-12)
    return anp.sum(anp.dot(res.y ** 2, _W)) + anp.sum(res["y"][:, -1])


_Y0, _K = np.array([1.0, 0.5]), np.array([0.7, 1.3])


@pytest.mark.parametrize("wrt", ["y0", "args"])
def test_solve_ivp_gradient_of_a_loss_on_res_y(wrt):
    traced, plain = primitive(scipy.integrate.solve_ivp), scipy.integrate.solve_ivp
    if wrt == "y0":
        got = autograd.grad(lambda y0: _ivp_loss(traced, y0, _K))(_Y0)
        expected = grad(FDM, lambda y0: _ivp_loss(plain, y0, _K), _Y0)
    else:
        got = autograd.grad(lambda k: _ivp_loss(traced, _Y0, k))(_K)
        expected = grad(FDM, lambda k: _ivp_loss(plain, _Y0, k), _K)
    np.testing.assert_allclose(got, expected, rtol=1e-7, atol=1e-9)


def test_solve_ivp_forward_mode():
    dy0 = np.array([1.0, -2.0])
    _, got = make_jvp(lambda y0: _ivp_loss(primitive(scipy.integrate.solve_ivp), y0, _K))(_Y0)(dy0)
    expected = fd_jvp(lambda y0: _ivp_loss(scipy.integrate.solve_ivp, y0, _K), _Y0, dy0)
    assert got == pytest.approx(expected, rel=1e-7)


def _event(t, y, k):
    return y[0] - 0.5


def _event_loss(solve_ivp, k):
    res = solve_ivp(lambda t, y, k: -k * y, (0.0, 3.0), np.array([1.0]), args=(k,), events=_event, rtol=1e-11,
                    atol=1e-12)
    return res.t_events[0][0] + 2 * res.y_events[0][0, 0] ** 3 + anp.sum(res.y[:, -1])


def test_solve_ivp_events_are_traced():
    # t_events and y_events are lists of arrays: traced fields, not constants (a silent zero if they were)
    got = autograd.grad(lambda k: _event_loss(primitive(scipy.integrate.solve_ivp), k))(0.7)
    assert got == pytest.approx(float(grad(FDM, lambda k: _event_loss(scipy.integrate.solve_ivp, k), 0.7)), rel=1e-7)


def test_solve_ivp_dense_output_cannot_be_read_from_a_traced_result():
    solve_ivp = primitive(scipy.integrate.solve_ivp)

    def final(k, read_sol):
        res = solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]), args=(k,), dense_output=True,
                        rtol=1e-10, atol=1e-12)
        if read_sol:
            res.sol(0.5)  # its derivative would be lost: refused
        plain = autograd.tracer.getval(res).sol(0.5)  # read plainly, on purpose
        assert isinstance(plain, np.ndarray)
        return res.y[0, -1]

    assert autograd.grad(final)(0.7, False) == pytest.approx(-np.exp(-0.7), rel=1e-6)
    with pytest.raises(UntracedFieldError, match=r"'sol'.*t_eval"):
        autograd.grad(final)(0.7, True)


def test_solve_ivp_scalar_parameter():
    # the integrate area's rule: d exp(-p) / dp
    solve_ivp = primitive(scipy.integrate.solve_ivp)

    def final(p):
        return solve_ivp(lambda t, y, p: -p * y, (0.0, 1.0), np.array([1.0]), args=(p,), rtol=1e-10,
                         atol=1e-12).y[0, -1]

    assert autograd.grad(final)(0.7) == pytest.approx(-np.exp(-0.7), rel=1e-6)


# ---- odeint: its array output, and (y, infodict) with full_output -------------------------------------
def _rhs_odeint(y, t, k):
    return anp.array([-k[0] * y[0] + y[1], -k[1] * y[1] * y[0]])


def _odeint_loss(odeint, y0, k, full_output=False):
    out = odeint(_rhs_odeint, y0, _T, args=(k,), rtol=1e-11, atol=1e-12, full_output=full_output)
    if full_output:
        y, info = out
        assert isinstance(info, dict) and isinstance(info["message"], str)  # the diagnostics, plain
    else:
        y = out
    return anp.sum(anp.dot(_W, y ** 2))


@pytest.mark.parametrize("full_output", [False, True], ids=["y", "full_output"])
def test_odeint_gradient_with_respect_to_y0_and_args(full_output):
    traced, plain = primitive(scipy.integrate.odeint), scipy.integrate.odeint
    got = autograd.grad(lambda y0, k: _odeint_loss(traced, y0, k, full_output), (0, 1))(_Y0, _K)
    np.testing.assert_allclose(got[0], grad(FDM, lambda y0: _odeint_loss(plain, y0, _K), _Y0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(got[1], grad(FDM, lambda k: _odeint_loss(plain, _Y0, k), _K), rtol=1e-6, atol=1e-8)


def test_odeint_full_output_forward_mode():
    dk = np.array([0.3, 1.0])
    _, got = make_jvp(lambda k: _odeint_loss(primitive(scipy.integrate.odeint), _Y0, k, True))(_K)(dk)
    assert got == pytest.approx(fd_jvp(lambda k: _odeint_loss(scipy.integrate.odeint, _Y0, k), _K, dk), rel=1e-6)


# ---- scipy.optimize: minimize, root and fsolve's (x, infodict, ier, mesg) -----------------------------
def _objective(x, b):
    return anp.sum((x - b) ** 2) + anp.sum(x ** 4) / 4 + x[0] * x[1]


def _objective_gradient(x, b):
    return 2 * (x - b) + x ** 3 + anp.array([x[1], x[0]])


def _argmin_loss(minimize, b):
    res = minimize(_objective, np.zeros(2), (b,), method="BFGS", jac=_objective_gradient, options={"gtol": 1e-13})
    return anp.sum(res.x ** 2) + res.fun


_B = np.array([1.0, 2.0])


def test_minimize_gradient_of_x_and_fun():
    got = autograd.grad(lambda b: _argmin_loss(primitive(scipy.optimize.minimize), b))(_B)
    np.testing.assert_allclose(got, grad(FDM, lambda b: _argmin_loss(scipy.optimize.minimize, b), _B), rtol=1e-6)


def test_minimize_forward_mode():
    db = np.array([1.0, -0.5])
    _, got = make_jvp(lambda b: _argmin_loss(primitive(scipy.optimize.minimize), b))(_B)(db)
    assert got == pytest.approx(fd_jvp(lambda b: _argmin_loss(scipy.optimize.minimize, b), _B, db), rel=1e-6)


def _system(x, b):
    return anp.array([x[0] + 0.5 * (x[0] - x[1]) ** 3 - b[0], 0.5 * (x[1] - x[0]) ** 3 + x[1] - b[1]])


def test_root_gradient():
    def loss(root, b):
        return anp.sum(root(_system, np.zeros(2), (b,), tol=1e-14).x ** 3)

    got = autograd.grad(lambda b: loss(primitive(scipy.optimize.root), b))(_B)
    np.testing.assert_allclose(got, grad(FDM, lambda b: loss(scipy.optimize.root, b), _B), rtol=1e-7)


def test_fsolve_full_output_gradient():
    def loss(fsolve, b):
        x, info, ier, mesg = fsolve(_system, np.zeros(2), (b,), full_output=True, xtol=1e-14)
        assert isinstance(info, dict) and isinstance(ier, int) and isinstance(mesg, str)
        return anp.sum(x ** 3)

    got = autograd.grad(lambda b: loss(primitive(scipy.optimize.fsolve), b))(_B)
    np.testing.assert_allclose(got, grad(FDM, lambda b: loss(scipy.optimize.fsolve, b), _B), rtol=1e-7)


class _Subclassed(scipy.optimize.OptimizeResult):
    pass


def _doubled(a):
    return _Subclassed(x=2 * a, nit=1)


def test_a_subclass_of_a_result_type_is_registered_when_first_returned():
    from chainrules import NoTangent, rrule

    def doubled_rrule(a):
        def doubled_pullback(dy):
            return NoTangent(), 2 * dy["x"]

        return _doubled(a), doubled_pullback

    rrule.register(_doubled, object)(doubled_rrule)
    g = autograd.grad(lambda a: anp.sum(primitive(_doubled)(a).x ** 2))(np.array([1.0, -3.0]))
    np.testing.assert_allclose(g, [8.0, -24.0])  # d/da sum (2a)^2 = 8a


def test_a_second_derivative_through_a_result_raises_rather_than_giving_zero():
    from chainrules.interop.autograd import HigherOrderDerivativeError

    solve_ivp, odeint = primitive(scipy.integrate.solve_ivp), primitive(scipy.integrate.odeint)

    def final(p):
        return solve_ivp(lambda t, y, p: -p * y, (0.0, 1.0), np.array([1.0]), args=(p,)).y[0, -1]

    def final_full_output(p):
        y, _ = odeint(lambda y, t, p: -p * y, np.array([1.0]), [0.0, 1.0], (p,), full_output=True)
        return y[-1, 0]

    for f in (final, final_full_output):
        with pytest.raises(HigherOrderDerivativeError, match=r"scipy\.integrate\.(solve_ivp|odeint)"):
            autograd.grad(autograd.grad(f))(0.7)
        with pytest.raises(HigherOrderDerivativeError):
            make_jvp(autograd.grad(f))(0.7)(1.0)
