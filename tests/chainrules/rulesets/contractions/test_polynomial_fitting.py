"""Rules of chainrules/rulesets/contractions/polynomial_fitting.py, checked against finite differences."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import chainrules  # registers the rules
import chainrules.rulesets.contractions.polynomial_fitting  # noqa: F401  (until registration discovery lands)
from chainrules import NoTangent, NotImplementedTangent, ProjectionError, Tangent, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.contractions.polynomial_fitting import RepeatedRootError
from chainrules.testing import PrimalAndTangent, test_frule, test_rrule


# ---- np.poly -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 3, 4])
def test_poly_of_roots(n, dtype, rand):
    r = rand(n, dtype)
    test_rrule(np.poly, r)
    test_frule(np.poly, r)


def test_poly_repeated_roots_are_smooth():
    r = np.array([1.0, 1.0, -0.5])      # the coefficients are polynomials in the roots
    test_rrule(np.poly, r)
    test_frule(np.poly, r)


def test_poly_conjugate_roots_give_real_coefficients():
    # NumPy drops the (zero) imaginary part when the roots are closed under conjugation;
    # along a tangent that keeps them so, the coefficients stay real
    r = np.array([1 + 2j, 1 - 2j, 0.5 + 0j])
    assert np.poly(r).dtype == np.float64
    test_frule(np.poly, PrimalAndTangent(r, np.array([0.3 + 0.1j, 0.3 - 0.1j, -0.2])))
    test_rrule(np.poly, r)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_poly_of_matrix(n, dtype, rand):
    a = rand((n, n), dtype)
    test_rrule(np.poly, a)
    test_frule(np.poly, a)


def test_poly_of_defective_matrix():
    # the characteristic polynomial is smooth where the eigenvalues are not
    a = np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]])
    test_rrule(np.poly, a)
    test_frule(np.poly, a)


def test_poly_integer_and_empty():
    test_rrule(np.poly, np.array([1, 2, 3]))
    assert rrule(np.poly, np.array([1, 2]))[1](np.ones(3))[1] == NoTangent()
    y, pullback = rrule(np.poly, np.zeros(0))
    assert y == 1.0 and isinstance(unthunk(pullback(1.0)[1]), ZeroTangent)


def test_poly_wrong_cotangent(rand):
    _, pullback = rrule(np.poly, rand(2))
    with pytest.raises(ProjectionError, match=r"numpy\.poly pullback: output cotangent"):
        pullback(np.ones(2))


# ---- np.roots ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roots", [[2.0, -1.0, 0.5], [1.5, -0.75], [3.0], [0.5 + 1j, 0.5 - 1j, -2.0]])
def test_roots_of_real_polynomials(roots, rand):
    for dtype in (np.float64, np.float32):
        p = (2.5 * np.poly(roots)).astype(dtype)
        test_rrule(np.roots, p)
        test_frule(np.roots, p)


def test_roots_of_complex_polynomials(rand):
    p = rand(4, np.complex128)
    test_rrule(np.roots, p)
    test_frule(np.roots, p)


def test_roots_trailing_zero_gives_a_root_at_zero():
    p = np.array([1.0, -0.5, -2.0, 0.0])
    assert np.roots(p)[-1] == 0
    test_rrule(np.roots, p)
    test_frule(np.roots, p)


def _nearest(found, reference):
    """The roots in ``found`` nearest to each of ``reference`` (the roots that exist at the point)."""
    return np.array([found[np.argmin(np.abs(found - r))] for r in reference])


def test_roots_leading_zero_differentiates_the_existing_roots():
    # a nonzero leading coefficient adds a root near infinity; the rule differentiates the
    # roots that exist, which is what the nearest-root function below computes
    p = np.array([0.0, 1.0, -3.0, 2.0])
    r0 = np.roots(p)

    def existing_roots(q):
        return _nearest(np.roots(q), r0)

    test_rrule(existing_roots, p, rrule_f=lambda f, q: rrule(np.roots, q), frule_f=lambda t, f, q: frule(
        (NoTangent(), t[1]), np.roots, q))
    test_frule(existing_roots, p, frule_f=lambda t, f, q: frule((NoTangent(), t[1]), np.roots, q),
               check_rrule_consistency=False)


def test_roots_repeated_root_raises_only_when_differentiated():
    p = np.poly([1.0, 1.0, 3.0])
    r, pullback = rrule(np.roots, p)
    simple = int(np.argmin(np.abs(r - 3.0)))
    repeated = [i for i in range(3) if i != simple]
    with pytest.raises(RepeatedRootError, match="repeated to working precision"):
        pullback(np.eye(3)[repeated[0]])
    with pytest.raises(RepeatedRootError):
        frule((NoTangent(), np.array([0.0, 0.0, 0.0, 1.0])), np.roots, p)
    # the simple root alone is differentiable (no nan from the repeated ones; checked against
    # finite differences in the next test)
    assert np.all(np.isfinite(unthunk(pullback(np.eye(3)[simple])[1])))
    assert isinstance(unthunk(pullback(ZeroTangent())[1]), ZeroTangent)


def test_roots_simple_root_next_to_a_double_one_against_finite_differences():
    # the cotangent reaches only the simple root; finite differences of that root alone
    p = np.poly([1.0, 1.0, 3.0])

    def simple_root(q):
        return _nearest(np.roots(q), [3.0])

    def simple_root_rrule(f, q):
        r, pullback = rrule(np.roots, q)
        k = int(np.argmin(np.abs(r - 3.0)))

        def simple_root_pullback(dy):
            dy = unthunk(dy)
            if isinstance(dy, ZeroTangent):
                return pullback(dy)
            full = np.zeros(r.shape, dtype=np.result_type(r, dy))
            full[k] = np.asarray(dy).ravel()[0]
            return pullback(full)

        return r[[k]], simple_root_pullback

    test_rrule(simple_root, p, rrule_f=simple_root_rrule, check_frule_consistency=False)


def test_roots_integer_and_zero_polynomial():
    test_rrule(np.roots, np.array([1, -3, 2]))
    y, pullback = rrule(np.roots, np.zeros(3))
    assert y.size == 0 and np.array_equal(unthunk(pullback(np.zeros(0))[1]), np.zeros(3))


def test_roots_wrong_cotangent():
    _, pullback = rrule(np.roots, np.array([1.0, -3.0, 2.0]))
    with pytest.raises(ProjectionError, match=r"numpy\.roots pullback: output cotangent"):
        pullback(np.ones(3))


# ---- np.polydiv --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("nu", "nv"), [(5, 3), (4, 4), (3, 5), (4, 2), ((), 3)])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_polydiv(nu, nv, dtype, rand):
    u, v = rand(nu, dtype), rand(nv, dtype)
    test_rrule(np.polydiv, u, v)
    test_frule(np.polydiv, u, v)


@pytest.mark.parametrize(("nu", "nv"), [(5, 3), (4, 2), (3, 5)])
def test_polydiv_float32(nu, nv, rand):
    # At float32 the leading entries of NumPy's remainder are rounding noise (about 1e-7), kept
    # or stripped (below 1e-8) by chance, so the remainder's length is not a smooth function of
    # the inputs and finite differences do not apply. The rules stay float32 and agree with the
    # float64 rules (checked against finite differences above) on the entries both return.
    u, v = rand(nu), rand(nv)
    (_, r32), pullback32 = rrule(np.polydiv, u.astype(np.float32), v.astype(np.float32))
    (q64, r64), pullback64 = rrule(np.polydiv, u, v)
    kept = min(r32.shape[0], r64.shape[0])
    dq, dr = rand(q64.shape), rand(kept)
    pad = np.zeros(r32.shape[0] - kept)
    got = [unthunk(c) for c in pullback32((dq.astype(np.float32), np.concatenate([pad, dr]).astype(np.float32)))[1:]]
    want = [unthunk(c) for c in pullback64((dq, np.concatenate([np.zeros(r64.shape[0] - kept), dr])))[1:]]
    for g, e in zip(got, want):
        if isinstance(g, ZeroTangent):          # v when deg u < deg v: the remainder is u
            assert isinstance(e, ZeroTangent)
            continue
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, e, rtol=1e-3, atol=1e-4)
    tangent = frule((NoTangent(), rand(nu).astype(np.float32), rand(nv).astype(np.float32)), np.polydiv,
                    u.astype(np.float32), v.astype(np.float32))[1]
    assert all(isinstance(unthunk(t), ZeroTangent) or unthunk(t).dtype == np.float32 for t in tangent)


@pytest.mark.parametrize(("nu", "nv"), [(4, 1), (3, ()), ((), ())])
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_polydiv_by_a_constant(nu, nv, dtype, rand):
    # Dividing by a constant leaves a remainder of rounding noise, which NumPy strips below
    # 1e-8: at float64 always (r = [0.]); at float32 the noise (about 6e-8, or exactly 0)
    # decides the remainder's length, which is then not a smooth function of the inputs.
    u, v = rand(nu, dtype), rand(nv, dtype) + 1.0
    test_rrule(np.polydiv, u, v)
    test_frule(np.polydiv, u, v)


def test_polydiv_python_scalars_and_integers(rand):
    test_rrule(np.polydiv, rand(4), 2.0)
    test_rrule(np.polydiv, 3.0, rand(2))
    test_rrule(np.polydiv, np.array([1, 2, 3]), rand(2))
    assert rrule(np.polydiv, np.array([1, 2, 3]), np.array([1.0, 1.0]))[1]((np.ones(2), np.ones(1)))[1] == NoTangent()


def test_polydiv_structural_and_zero_cotangents(rand):
    u, v = rand(4), rand(2)
    (q, r), pullback = rrule(np.polydiv, u, v)
    du_tangent = unthunk(pullback(Tangent(tuple, ZeroTangent(), np.ones(r.shape)))[1])
    du_tuple = unthunk(pullback((np.zeros(q.shape), np.ones(r.shape)))[1])
    np.testing.assert_allclose(du_tangent, du_tuple)
    with pytest.raises(ProjectionError, match=r"numpy\.polydiv pullback: cotangent of output 0 has shape \(5,\)"):
        pullback((np.ones(5), np.ones(r.shape)))


# ---- np.polyfit --------------------------------------------------------------------------------------------
@pytest.fixture
def fit_data(rand):
    x = np.linspace(-1.0, 1.0, 7) + 0.05 * rand(7)
    return x, rand(7), np.linspace(0.5, 2.0, 7), rand((7, 2))


@pytest.mark.parametrize("deg", [0, 1, 2, 3])
def test_polyfit(deg, fit_data):
    x, y, _, ys = fit_data
    for dtype in (np.float64, np.float32):
        test_rrule(np.polyfit, x.astype(dtype), y.astype(dtype), deg)
        test_frule(np.polyfit, x.astype(dtype), y.astype(dtype), deg)
    test_rrule(np.polyfit, x, ys, deg)
    test_frule(np.polyfit, x, ys, deg)


def test_polyfit_complex(fit_data, rand):
    x, y, _, _ = fit_data
    xc, yc = x + 0.3j * rand(7), y + 1j * rand(7)
    test_rrule(np.polyfit, xc, yc, 2)
    test_frule(np.polyfit, xc, yc, 2)
    test_rrule(np.polyfit, x, yc, 1)


def test_polyfit_weights_by_position_and_by_keyword(fit_data):
    x, y, w, ys = fit_data
    test_rrule(np.polyfit, x, y, 2, None, False, w)
    test_frule(np.polyfit, x, y, 2, None, False, w)
    test_rrule(np.polyfit, x, ys, 1, None, False, w)
    test_rrule(np.polyfit, x, y, 2, fkwargs={"w": w})          # used, not differentiated
    _, pullback = rrule(np.polyfit, x, y, 2, w=w)
    assert len(pullback(np.ones(3))) == 4                       # f, x, y, deg: no slot for w
    test_rrule(np.polyfit, x, y, fkwargs={"deg": 2, "w": w})


def test_polyfit_rcond_by_position(fit_data):
    x, y, _, _ = fit_data
    test_rrule(np.polyfit, x, y, 2, 1e-12)
    test_frule(np.polyfit, x, y, 2, 1e-12)


@pytest.mark.parametrize("rcond", [None, 1e-12])
def test_polyfit_full(rcond, fit_data):
    x, y, w, ys = fit_data
    test_rrule(np.polyfit, x, y, 2, rcond, True, w)
    test_frule(np.polyfit, x, y, 2, rcond, True, w)
    test_rrule(np.polyfit, x, ys, 1, rcond, True)
    test_rrule(np.polyfit, x, y, 2, fkwargs={"full": True, "rcond": rcond})


@pytest.mark.parametrize("cov", [True, "unscaled"])
def test_polyfit_covariance(cov, fit_data, rand):
    x, y, w, ys = fit_data
    test_rrule(np.polyfit, x, y, 2, None, False, w, cov)
    test_frule(np.polyfit, x, y, 2, None, False, w, cov)
    test_rrule(np.polyfit, x, ys, 1, None, False, None, cov)
    test_frule(np.polyfit, x, ys, 1, None, False, None, cov)
    test_rrule(np.polyfit, x + 0.3j * rand(7), y + 1j * rand(7), 1, fkwargs={"cov": cov})


def test_polyfit_complex_full(fit_data, rand):
    x, y, _, _ = fit_data
    test_rrule(np.polyfit, x + 0.3j * rand(7), y + 1j * rand(7), 2, None, True)
    test_frule(np.polyfit, x + 0.3j * rand(7), y + 1j * rand(7), 2, None, True)


def test_polyfit_rank_deficient(rand):
    # x takes two values: a quadratic is not determined. The fit is linear in y (checked);
    # its derivative with respect to x is not implemented
    x, y = np.array([0.0, 0.0, 1.0, 1.0, 0.0, 1.0]), rand(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        test_rrule(np.polyfit, PrimalAndTangent(x, NoTangent()), y, 2)
        test_frule(np.polyfit, PrimalAndTangent(x, NoTangent()), y, 2)
        _, pullback = rrule(np.polyfit, x, y, 2)
        assert isinstance(unthunk(pullback(np.ones(3))[1]), NotImplementedTangent)
        _, dc = frule((NoTangent(), np.ones(6), ZeroTangent(), NoTangent()), np.polyfit, x, y, 2)
        assert isinstance(dc, NotImplementedTangent)


def test_polyfit_integer_data_and_wrong_cotangent(fit_data):
    x, y, _, _ = fit_data
    test_rrule(np.polyfit, np.arange(6), y[:6], 1)
    _, pullback = rrule(np.polyfit, x, y, 2)
    with pytest.raises(ProjectionError, match=r"numpy\.polyfit pullback: output cotangent has shape \(2,\), "
                                              r"expected shape \(3,\)"):
        pullback(np.ones(2))
