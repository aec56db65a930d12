"""Continuous distributions (chainrules/rulesets/stats/_continuous.py and its family modules): every distribution
issue 12 names has a rule for every method, and the derivatives in the tails, where the rules work in log space,
agree with mpmath's derivatives of the exact functions (computed here from the definitions, not from the rules).

Every (distribution, method) pair is also checked against finite differences at its declared samples by
``tests/chainrules/test_every_rule.py`` (``python -m chainrules check``), including the tails.
"""

from __future__ import annotations

import mpmath as mp
import pytest
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import rrule, unthunk
from chainrules.rulesets.stats._continuous import METHODS


@pytest.fixture(autouse=True)
def _forty_digits():
    with mp.workdps(40):  # not a global setting: other tests' mpmath precision stays theirs
        yield

ISSUE_12 = (
    "norm", "lognorm", "expon", "gamma", "beta", "t", "chi2", "chi", "cauchy", "laplace", "logistic", "uniform",
    "weibull_min", "weibull_max", "invgamma", "invgauss", "halfnorm", "halfcauchy", "halflogistic", "pareto",
    "lomax", "gumbel_r", "gumbel_l", "genextreme", "genpareto", "f", "skewnorm", "vonmises", "rayleigh", "rice",
    "nakagami", "levy", "truncnorm", "triang", "powerlaw", "gennorm", "betaprime", "fisk", "burr", "burr12",
    "loggamma", "dweibull", "foldnorm", "maxwell", "wald", "erlang", "exponnorm", "loglaplace"
)


def _gradient(f, *args):
    y, pullback = rrule(f, *args)
    return y, [unthunk(c) for c in pullback(1.0)[2:]]


@pytest.mark.filterwarnings("ignore:The shape parameter of the erlang")
@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")  # pareto(0.7) has no moments: SciPy's own
@pytest.mark.parametrize("name", ISSUE_12)
def test_every_method_of_the_named_distributions_has_a_rule(name):
    dist = getattr(st, name)
    shapes = tuple(0.7 + 0.1 * i for i in range(dist.numargs))
    lead = {"median": (), "mean": (), "var": (), "std": (), "entropy": (), "moment": (2,), "interval": (0.5,)}
    for method, (fn, _, _) in METHODS.items():
        args = lead.get(method, (0.4,))
        assert rrule(fn, dist, *args, *shapes, 0.1, 1.5) is not None, f"{name}.{method}"


def test_norm_logcdf_far_left_tail():
    # Phi(-40) = 4e-350 underflows; d/dx log Phi(x) = phi/Phi
    x = -40.0
    _, (dx, dloc, dscale) = _gradient(st.norm.logcdf, x, 0.0, 1.0)
    exact = mp.npdf(x) / mp.ncdf(x)
    assert float(dx) == pytest.approx(float(exact), rel=1e-13)
    assert float(dloc) == pytest.approx(-float(exact), rel=1e-13)
    assert float(dscale) == pytest.approx(float(-x * exact), rel=1e-13)


def test_norm_logsf_at_thirty_standard_deviations():
    x, loc, scale = 61.0, 1.0, 2.0  # z = 30
    _, (dx, _, dscale) = _gradient(st.norm.logsf, x, loc, scale)
    z = mp.mpf(30)
    ratio = mp.npdf(z) / mp.ncdf(-z)
    assert float(dx) == pytest.approx(-float(ratio / scale), rel=1e-13)
    assert float(dscale) == pytest.approx(float(z * ratio / scale), rel=1e-13)


def test_gamma_logsf_right_tail_in_the_shape():
    a, x = 2.5, 240.0  # Q(2.5, 240) ~ 1e-100
    _, (_, da, _, _) = _gradient(st.gamma.logsf, x, a, 0.0, 1.0)
    exact = mp.diff(lambda s: mp.log(mp.gammainc(s, x, mp.inf, regularized=True)), a)
    assert float(da) == pytest.approx(float(exact), rel=1e-9)


def test_gamma_ppf_near_zero_in_the_shape():
    a, q = 2.5, 1e-12
    y, (_, da, _, _) = _gradient(st.gamma.ppf, q, a, 0.0, 1.0)
    # implicit function theorem on P(a, x) = q, with mpmath's partials of P
    p_a = mp.diff(lambda s: mp.gammainc(s, 0, y, regularized=True), a)
    p_x = mp.diff(lambda t: mp.gammainc(a, 0, t, regularized=True), y)
    assert float(da) == pytest.approx(float(-p_a / p_x), rel=1e-8)


def test_beta_logcdf_left_tail_in_both_shapes():
    a, b, x = 3.0, 2.5, 1e-30
    _, (_, da, db, _, _) = _gradient(st.beta.logcdf, x, a, b, 0.0, 1.0)
    def log_cdf(s, t):
        return mp.log(mp.betainc(s, t, 0, x, regularized=True))
    assert float(da) == pytest.approx(float(mp.diff(lambda s: log_cdf(s, b), a)), rel=1e-9)
    assert float(db) == pytest.approx(float(mp.diff(lambda t: log_cdf(a, t), b)), rel=1e-9)


def test_exponweib_logsf_right_tail_in_the_shapes():
    # S = 1 - (1 - e^-(z^c))^a at S ~ 1e-100: F is 1 to rounding, so the derivative lives in log(1 - e^-w)
    a, c, x = 2.5, 1.5, 37.5
    value, (_, da, dc, _, _) = _gradient(st.exponweib.logsf, x, a, c, 0.0, 1.0)
    assert -240 < float(value) < -200

    def log_sf(s, t):
        return mp.log(1 - (1 - mp.exp(-mp.mpf(x) ** t)) ** s)
    with mp.workdps(150):  # 1 - F needs 100 digits more than F
        assert float(da) == pytest.approx(float(mp.diff(lambda s: log_sf(s, c), a)), rel=1e-9)
        assert float(dc) == pytest.approx(float(mp.diff(lambda t: log_sf(a, t), c)), rel=1e-9)


def test_t_logcdf_left_tail_in_x_and_scale():
    df, x = 4.0, -1e20  # F ~ 1e-78: the ratio f/F = df/|x| asymptotically, from logpdf - logcdf
    _, (dx, _, _, dscale) = _gradient(st.t.logcdf, x, df, 0.0, 1.0)
    assert float(dx) == pytest.approx(-df / x, rel=1e-12)
    assert float(dscale) == pytest.approx(df, rel=1e-12)  # -z f/F


def test_vonmises_cdf_in_kappa_against_the_integral_of_the_density():
    kappa, x = 2.0, 0.7
    _, (_, dkappa, _, _) = _gradient(st.vonmises.cdf, x, kappa, 0.0, 1.0)

    def cdf(k):
        return mp.quad(lambda u: mp.exp(k * mp.cos(u)), [-mp.pi, x]) / (2 * mp.pi * mp.besseli(0, k))
    assert float(dkappa) == pytest.approx(float(mp.diff(cdf, kappa)), rel=1e-12)


def test_truncweibull_min_moment_in_every_shape_against_the_integral():
    c, a, b = 1.8, 0.3, 2.0
    _, (_, dc, da, db, _, _) = _gradient(st.truncweibull_min.moment, 2, c, a, b, 0.0, 1.0)

    def moment(cc, aa, bb):
        density = lambda z: cc * z ** (cc - 1) * mp.exp(-z ** cc)  # noqa: E731
        return mp.quad(lambda z: z * z * density(z), [aa, bb]) / mp.quad(density, [aa, bb])
    assert float(dc) == pytest.approx(float(mp.diff(lambda s: moment(s, a, b), c)), rel=1e-10)
    assert float(da) == pytest.approx(float(mp.diff(lambda s: moment(c, s, b), a)), rel=1e-10)
    assert float(db) == pytest.approx(float(mp.diff(lambda s: moment(c, a, s), b)), rel=1e-10)



@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")  # SciPy's own var (its 4th moment)
def test_kappa4_moments_in_both_shapes_against_the_integral():
    # SciPy integrates kappa4's moments over its quantile function (too slow for finite differences in the samples)
    h, k = 0.4, 0.3
    _, (dh, dk, _, _) = _gradient(st.kappa4.mean, h, k, 0.0, 1.0)
    _, (vh, vk, _, _) = _gradient(st.kappa4.var, h, k, 0.0, 1.0)

    def moments(hh, kk):
        def density(x):
            return (1 - kk * x) ** (1 / kk - 1) * (1 - hh * (1 - kk * x) ** (1 / kk)) ** (1 / hh - 1)
        ends = [(1 - hh ** -kk) / kk, 1 / kk]
        m1 = mp.quad(lambda x: x * density(x), ends)
        return m1, mp.quad(lambda x: x * x * density(x), ends) - m1 * m1

    with mp.workdps(20):
        for i, (d_mean, d_var) in enumerate(((dh, vh), (dk, vk))):
            def mean(v, i=i):
                return moments(v, k)[0] if i == 0 else moments(h, v)[0]

            def var(v, i=i):
                return moments(v, k)[1] if i == 0 else moments(h, v)[1]
            point = (h, k)[i]
            assert float(d_mean) == pytest.approx(float(mp.re(mp.diff(mean, point))), rel=1e-8)
            assert float(d_var) == pytest.approx(float(mp.re(mp.diff(var, point))), rel=1e-8)
