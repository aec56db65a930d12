"""Rules of chainrules/rulesets/arrays/random.py: pathwise derivatives of samplers.

Four kinds of checks, none using a derivative written by hand:

* finite differences of the draw from plain copies of a generator, all in the state it had
  before the draw (independently of the fixed-state generators the sample inputs use);
* the rules draw exactly what the sampler draws and leave the generator where it would be;
* shape parameters (implicit reparameterisation): finite differences of the draw by inversion of
  its own probability levels (scipy.stats' CDFs and quantile functions), not of NumPy's
  rejection sampler, whose path the rules do not follow;
* the pathwise derivative is an unbiased estimator of the gradient of an expectation: the
  mean of ``dy/dθ`` over many draws matches the derivative of a moment known in closed form.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
import scipy.special
import scipy.stats as st

import chainrules  # noqa: F401  (registers the rules)
from chainrules import NoTangent, NotImplementedTangent, ProjectionError, ZeroTangent, frule, rrule, unthunk
from chainrules.rulesets.arrays._sample_arrays import fixed_state_generators
from chainrules.rulesets.arrays.mutation import InPlaceOperationError
from chainrules.rulesets.arrays.random import PATHWISE
from chainrules.testing import check_approx, jvp, rand_tangent, vjp
from chainrules.testing.checker import check_function

GENERATORS = [np.random.default_rng(5), np.random.RandomState(5)]


def check_draw(method, source, args, differentiated, extra=(), kwargs=None, rtol=1e-6):
    """The rrule and the frule of ``method(source, *args, *extra)`` against finite differences of the draw."""
    kwargs = kwargs or {}

    def draw(*params):
        full = list(args)
        for k, v in zip(differentiated, params):
            full[k] = v
        return method(copy.deepcopy(source), *full, *extra, **kwargs)

    inputs = [args[k] for k in differentiated]
    y, pullback = rrule(method, copy.deepcopy(source), *args, *extra, **kwargs)
    check_approx(y, draw(*inputs))
    dy = rand_tangent(y, 1)
    cotangents = pullback(dy)
    for k, expected in zip(differentiated, vjp(None, draw, dy, *inputs)):
        check_approx(unthunk(cotangents[2 + k]), expected, rtol=rtol, atol=rtol)
    tangents = [NoTangent()] * (len(args) + len(extra))
    directions = [rand_tangent(v, 2) for v in inputs]
    for k, d in zip(differentiated, directions):
        tangents[k] = d
    _, ydot = frule((NoTangent(), NoTangent(), *tangents), method, copy.deepcopy(source), *args, *extra, **kwargs)
    check_approx(ydot, jvp(None, draw, *zip(inputs, directions)), rtol=rtol, atol=rtol)


PATHWISE_CASES = [
    ("normal", (0.3, 1.5), (0, 1), ((3,),)), ("normal", (np.array([0.1, 0.2]), 2.0), (0, 1), ()),
    ("laplace", (1.0, 0.5), (0, 1), (4,)), ("gumbel", (1.0, 0.5), (0, 1), ()),
    ("logistic", (np.array([1.0, 2.0]), np.array([[0.5], [1.5]])), (0, 1), ()),
    ("uniform", (-1.0, 2.0), (0, 1), (5,)), ("lognormal", (0.2, 0.3), (0, 1), (3,)),
    ("exponential", (2.0,), (0,), (3,)), ("rayleigh", (np.array([1.0, 2.0]),), (0,), ()),
    ("gamma", (2.0, 3.0), (1,), (4,)), ("pareto", (3.0,), (0,), (4,)), ("weibull", (np.array([0.8, 2.5]),), (0,), ()),
    ("power", (1.5,), (0,), (4,)), ("triangular", (-1.0, 0.25, 2.0), (0, 1, 2), (8,)),
    ("vonmises", (0.5, 3.0), (0,), (4,)), ("vonmises", (0.5, 1e-9), (0,), (3,)),
    ("noncentral_chisquare", (3.0, 1.5), (1,), (4,)),
    ("noncentral_f", (3.0, 5.0, np.array([0.5, 2.0])), (2,), ()),
]


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
@pytest.mark.parametrize(("name", "args", "differentiated", "extra"), PATHWISE_CASES, ids=lambda v: str(v))
def test_pathwise_derivatives(source, name, args, differentiated, extra):
    check_draw(getattr(type(source), name), source, args, differentiated, extra)


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_keyword_parameters_are_used_not_differentiated(source):
    cls = type(source)
    y, pullback = rrule(cls.normal, copy.deepcopy(source), 1.0, scale=3.0, size=4)
    z = copy.deepcopy(source).standard_normal(4) if cls is np.random.Generator else None
    cotangents = pullback(np.ones(4))
    assert len(cotangents) == 3 and cotangents[2] != NoTangent()
    check_approx(unthunk(cotangents[2]), 4.0)
    if z is not None:
        check_approx(y, 1.0 + 3.0 * z)


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_scale_zero_gives_the_standard_draw(source):
    """At scale 0 the draw is the location; its derivative in the scale is the standard draw (not 0/0)."""
    cls = type(source)
    y, pullback = rrule(cls.normal, copy.deepcopy(source), 2.0, 0.0, 3)
    check_approx(y, np.full(3, 2.0))
    z = copy.deepcopy(source).normal(0.0, 1.0, 3)
    check_approx(unthunk(pullback(np.array([1.0, 2.0, 3.0]))[3]), z @ [1.0, 2.0, 3.0])
    _, pullback = rrule(cls.exponential, copy.deepcopy(source), 0.0, 2)
    assert np.all(np.isfinite(unthunk(pullback(np.ones(2))[2])))


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_generator(method):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 3))
    cov = a @ a.T + np.eye(3)
    mean = rng.standard_normal(3)
    kwargs = {"method": method, "check_valid": "ignore"}
    check_draw(np.random.Generator.multivariate_normal, np.random.default_rng(5), (mean, cov), (0, 1), (4,), kwargs)


def test_multivariate_normal_random_state():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 2))
    cov = a @ a.T + np.eye(2)
    check_draw(np.random.RandomState.multivariate_normal, np.random.RandomState(5), (rng.standard_normal(2), cov),
               (0, 1), ((2, 3), "ignore"))


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_multivariate_normal_at_a_repeated_eigenvalue(source):
    """cov = I: NumPy's SVD factor is not differentiable there; the mean still is, the cov is not_implemented."""
    y, pullback = rrule(type(source).multivariate_normal, copy.deepcopy(source), np.zeros(2), np.eye(2), 3)
    _, _, d_mean, d_cov, _ = pullback(np.ones_like(y))
    check_approx(unthunk(d_mean), np.full(2, 3.0))
    assert isinstance(d_cov, NotImplementedTangent) and "method='cholesky'" in d_cov.info
    if isinstance(source, np.random.Generator):  # the workaround the reason names
        _, pullback = rrule(type(source).multivariate_normal, copy.deepcopy(source), np.zeros(2), np.eye(2), 3,
                            method="cholesky")
        assert not isinstance(unthunk(pullback(np.ones_like(y))[3]), NotImplementedTangent)


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_rules_draw_what_the_sampler_draws_and_advance_the_generator_alike(source):
    cls = type(source)
    for name, args in [("normal", (1.0, 2.0, 3)), ("triangular", (0.0, 1.0, 2.0, 3)), ("gamma", (2.0, 1.5, 3)),
                       ("noncentral_chisquare", (3.0, 1.5, 3)), ("noncentral_f", (3.0, 5.0, 1.5, 3)),
                       ("beta", (2.0, 3.0, 3)), ("dirichlet", ([1.0, 2.0], 3)), ("wald", (1.0, 2.0, 3)),
                       ("multivariate_normal", (np.zeros(2), np.eye(2)))]:
        plain, ruled = copy.deepcopy(source), copy.deepcopy(source)
        expected = getattr(cls, name)(plain, *args)
        y, pullback = rrule(getattr(cls, name), ruled, *args)
        [unthunk(c) for c in pullback(np.ones_like(y))]  # the pullback's replays leave the generator alone
        check_approx(y, expected)
        check_approx(getattr(cls, "random" if cls is np.random.Generator else "random_sample")(ruled, 4),
                     getattr(cls, "random" if cls is np.random.Generator else "random_sample")(plain, 4))


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_choice_and_permutation_are_gathers(source):
    x = np.random.default_rng(0).standard_normal((5, 2))
    cls = type(source)
    check_draw(cls.permutation, source, (x,), (0,))
    check_draw(cls.choice, source, (x[:, 1],), (0,), (7,))
    check_draw(cls.choice, source, (x[:, 0],), (0,), ((2, 2), True, np.ones(5) / 5))
    if cls is np.random.Generator:
        check_draw(cls.choice, source, (x,), (0,), (2, False, None, 1))
        check_draw(cls.permutation, source, (x,), (0,), (1,))


def test_the_global_generator_reaches_the_rules():
    np.random.seed(3)
    y, pullback = rrule(np.random.normal, 1.0, 2.0, 3)
    np.random.seed(3)
    check_approx(y, np.random.normal(1.0, 2.0, 3))
    check_approx(unthunk(pullback(np.ones(3))[2]), 3.0)


@pytest.mark.parametrize(("name", "args", "which"), [
    ("noncentral_chisquare", (0.5, 0.0), (1,)),
    ("noncentral_chisquare", (3.0, 0.0), (1,)), ("noncentral_f", (3.0, 4.0, 0.0), (2,)),
("weibull", (0.0,), (0,)),
])
def test_missing_derivatives_are_not_implemented_with_a_reason(name, args, which):
    for source in (np.random.default_rng(0), np.random.RandomState(0)):
        y, pullback = rrule(getattr(type(source), name), source, *args)
        cotangents = pullback(np.ones_like(y))[2:]
        for k, c in enumerate(cotangents):
            if k in which:
                assert isinstance(c, NotImplementedTangent), (name, k, c)
                assert PATHWISE[name][0][k][0] in c.info
            else:
                assert not isinstance(unthunk(c), NotImplementedTangent), (name, k)
        assert all(c == ZeroTangent() for c in pullback(ZeroTangent())[2:])  # a zero cotangent: zero, whatever


def test_bad_cotangents_raise():
    _, pullback = rrule(np.random.Generator.normal, np.random.default_rng(0), 0.0, 1.0, 3)
    with pytest.raises(ProjectionError, match=r"Generator\.normal pullback"):
        pullback(None)
    with pytest.raises(ProjectionError, match=r"Generator\.normal pullback"):
        pullback(np.ones(4))


def test_parameter_free_and_discrete_samplers_are_non_differentiable():
    rng = np.random.default_rng(0)
    for method, args in [(rng.standard_normal, (3,)), (rng.poisson, (2.0, 3)), (rng.integers, (0, 5))]:
        y, pullback = rrule(method, *args)
        assert all(isinstance(c, NoTangent) for c in pullback(np.ones(np.shape(y))))


def test_shuffle_raises():
    with pytest.raises(InPlaceOperationError, match="shuffle"):
        rrule(np.random.default_rng(0).shuffle, np.ones(3))


# ---- the pathwise derivative is an unbiased gradient estimator ------------------------------------------------
def _mean_derivatives(method, source, args, n=200_000):
    """For each float parameter: the mean over ``n`` draws of ``dy/dparam`` (from the frule) and its standard error."""
    out = {}
    for k, a in enumerate(args):
        if not isinstance(a, float):
            continue
        tangents = [NoTangent()] * (len(args) + 1)  # the parameters and the size
        tangents[k] = 1.0
        _, d = frule((NoTangent(), NoTangent(), *tangents), method, copy.deepcopy(source), *args, n)
        d = np.asarray(d)
        out[k] = (d.mean(), d.std() / np.sqrt(n))
    return out


# Moments in closed form (NumPy's parameterisations): triangular E y = (left + mode + right) / 3; pareto (Lomax)
# E y = 1 / (a - 1); power E y = a / (a + 1); weibull E y = Γ(1 + 1/a); noncentral chi-square E y = df + nonc;
# gumbel E y = loc + euler_gamma scale. An integer parameter is held fixed.
MOMENT_GRADIENTS = [
    ("triangular", (-1.0, 0.5, 2.0), {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}),
    ("pareto", (3.0,), {0: -1 / (3.0 - 1) ** 2}),
    ("power", (1.5,), {0: 1 / (1.5 + 1) ** 2}),
    ("weibull", (1.7,), {0: -scipy.special.gamma(1 + 1 / 1.7) * scipy.special.digamma(1 + 1 / 1.7) / 1.7 ** 2}),
    ("noncentral_chisquare", (3, 1.5), {1: 1.0}),
    ("gumbel", (0.5, 2.0), {0: 1.0, 1: np.euler_gamma}),
]


@pytest.mark.parametrize(("name", "args", "expected"), MOMENT_GRADIENTS, ids=[c[0] for c in MOMENT_GRADIENTS])
@pytest.mark.parametrize("cls", [np.random.Generator, np.random.RandomState], ids=lambda c: c.__name__)
def test_mean_pathwise_derivative_is_the_gradient_of_the_mean(cls, name, args, expected):
    source = np.random.default_rng(11) if cls is np.random.Generator else np.random.RandomState(11)
    found = _mean_derivatives(getattr(cls, name), source, args)
    assert found.keys() == expected.keys()
    for k, (mean, error) in found.items():
        assert abs(mean - expected[k]) <= 5 * error, (name, k, mean, expected[k], error)


def test_mean_pathwise_derivative_of_the_covariance():
    """E[y^T W y] = tr(W cov) + mean^T W mean: along a symmetric dcov the mean derivative is tr(W dcov)."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 3))
    cov, w = a @ a.T + np.eye(3), np.diag([1.0, 2.0, 0.5])
    d_cov = rng.standard_normal((3, 3))
    d_cov = d_cov + d_cov.T
    for method in ("svd", "eigh", "cholesky"):
        n = 100_000
        y, d_y = frule((NoTangent(), NoTangent(), NoTangent(), d_cov, NoTangent()),
                       np.random.Generator.multivariate_normal, np.random.default_rng(7), np.zeros(3), cov, n,
                       method=method)
        samples = 2 * np.einsum("ni,ij,nj->n", y, w, d_y)    # d/dt of y^T W y along dcov, draw by draw
        assert abs(samples.mean() - np.trace(w @ d_cov)) <= 5 * samples.std() / np.sqrt(n), method


# ---- the fixed-state generators the sample inputs use -----------------------------------------------------
def test_fixed_state_generators_repeat_every_draw_and_compare_by_state():
    """They rely on NumPy drawing under ``bit_generator.lock``; if that changed, this test says so."""
    rng, legacy = fixed_state_generators(4)
    for source, names in [(rng, ["normal", "gamma", "triangular", "noncentral_f", "integers", "dirichlet"]),
                          (legacy, ["normal", "gamma", "triangular", "noncentral_f", "randint", "dirichlet"])]:
        arguments = {"normal": (0.0, 1.0, 3), "gamma": (2.0, 1.0, 3), "triangular": (0.0, 1.0, 2.0, 3),
                     "noncentral_f": (3.0, 4.0, 1.0, 3), "integers": (0, 9, 3), "randint": (0, 9, 3),
                     "dirichlet": ([1.0, 2.0], 2)}
        for name in names:
            first, second = getattr(source, name)(*arguments[name]), getattr(source, name)(*arguments[name])
            copied = getattr(copy.deepcopy(source), name)(*arguments[name])
            assert np.array_equal(first, second) and np.array_equal(first, copied), name
        assert copy.deepcopy(source) == source and type(copy.deepcopy(source)) is not type(source)


def test_checker_catches_a_wrong_pathwise_derivative(monkeypatch):
    """The samples do check derivatives: a 1% error in triangular's partial in ``mode`` fails the checker."""
    params, partials, reasons = PATHWISE["triangular"]

    def wrong(draw, k):
        return 1.01 * partials[k](draw, k)

    monkeypatch.setitem(PATHWISE, "triangular", (params, (partials[0], wrong, partials[2]), reasons))
    results = check_function(np.random.Generator.triangular)
    assert {r.status for r in results} == {"failed"}


# ---- shape parameters: implicit reparameterisation, checked along the inversion path -----------------------
# The rules differentiate a draw in its shape parameters along the path that keeps its CDF level fixed (Figurnov
# et al. 2018), not along NumPy's rejection sampler. Each check reads the probability levels of NumPy's draw with
# scipy.stats' CDFs and differentiates, by finite differences, the draw by inversion of those levels (scipy.stats'
# quantile functions): the path the rules claim to differentiate, computed by independent code.
def _level(dist, y, *shapes):
    """The probability level of ``y`` (the upper tail where it is the smaller, for accuracy) and which tail."""
    lower, upper = dist.cdf(y, *shapes), dist.sf(y, *shapes)
    return np.where(lower <= 0.5, lower, upper), lower <= 0.5


def _quantile(dist, level, *shapes):
    p, is_lower = level
    return np.where(is_lower, dist.ppf(p, *shapes), dist.isf(p, *shapes))


def _paths(name, source, args, y):
    """The draw ``y`` as a function of the parameters along its inversion path (levels fixed)."""
    if name in ("gamma", "standard_gamma"):
        scale = args[1] if name == "gamma" else 1.0
        level = _level(st.gamma, y / scale, args[0])
        return lambda shape, scale=scale: scale * _quantile(st.gamma, level, shape)
    if name == "wald":  # NumPy's wald(mean, scale) is scipy's invgauss(mean / scale, scale = scale)
        level = _level(st.invgauss, y / args[1], args[0] / args[1])
        return lambda mean, scale: scale * _quantile(st.invgauss, level, mean / scale)
    if name in ("chisquare", "beta", "f", "standard_t"):
        dist = {"chisquare": st.chi2, "beta": st.beta, "f": st.f, "standard_t": st.t}[name]
        level = _level(dist, y, *args)
        return lambda *params: _quantile(dist, level, *params)
    if name == "dirichlet":
        (alpha,) = args
        rest = np.cumsum(alpha[::-1])[::-1][1:]
        remaining = 1 - np.concatenate([np.zeros(y.shape[:-1] + (1,)), np.cumsum(y[..., :-1], axis=-1)], axis=-1)
        level = _level(st.beta, y[..., :-1] / remaining[..., :-1], alpha[:-1], rest)

        def dirichlet_path(alpha):
            v = _quantile(st.beta, level, alpha[:-1], np.cumsum(alpha[::-1])[::-1][1:])
            left = np.concatenate([np.ones(v.shape[:-1] + (1,)), np.cumprod(1 - v, axis=-1)], axis=-1)
            return left * np.concatenate([v, np.ones(v.shape[:-1] + (1,))], axis=-1)

        return dirichlet_path
    # noncentral: NumPy draws, element by element, X ~ chi2(df - 1), z, (noncentral_f: D ~ chi2(dfden)); a twin
    # generator draws them one by one (this also checks the rules' reading of NumPy's algorithm)
    twin = copy.deepcopy(source)
    df, second = (np.broadcast_to(a, np.shape(y)).ravel() for a in args[:2])
    parts = np.array([[twin.chisquare(df[i] - 1), twin.standard_normal(),
                       twin.chisquare(second[i]) if name == "noncentral_f" else 1.0] for i in range(np.size(y))]).T
    parts = parts.reshape((3, *np.shape(y)))
    df = args[0]
    x_level, z, d = _level(st.chi2, parts[0], df - 1), parts[1], parts[2]
    if name == "noncentral_chisquare":
        check_approx(y, parts[0] + (z + np.sqrt(args[1])) ** 2)
        return lambda df, nonc: _quantile(st.chi2, x_level, df - 1) + (z + np.sqrt(nonc)) ** 2
    d_level = _level(st.chi2, d, args[1])
    check_approx(y, (parts[0] + (z + np.sqrt(args[2])) ** 2) * args[1] / (d * df))
    return lambda dfnum, dfden, nonc: ((_quantile(st.chi2, x_level, dfnum - 1) + (z + np.sqrt(nonc)) ** 2) * dfden
                                       / (_quantile(st.chi2, d_level, dfden) * dfnum))


SHAPE_CASES = [
    ("gamma", (2.5, 1.5), 3), ("gamma", (0.4, 2.0), 3), ("gamma", (np.array([0.7, 30.0]), 1.5), None),
    ("standard_gamma", (2.5,), 3), ("standard_gamma", (0.3,), 3), ("chisquare", (3.5,), 3),
    ("chisquare", (np.array([0.8, 12.0]),), None), ("beta", (2.0, 0.7), 3), ("beta", (0.5, 40.0), 3),
    ("f", (3.0, 7.0), 3), ("f", (np.array([1.5, 25.0]), 4.0), None), ("standard_t", (4.0,), 4),
    ("standard_t", (np.array([0.8, 60.0]),), None), ("dirichlet", (np.array([1.5, 2.0, 0.7]),), 2),
    ("dirichlet", (np.array([0.3, 5.0, 1.2, 2.5]),), None), ("noncentral_chisquare", (3.0, 1.5), 3),
    ("noncentral_chisquare", (np.array([1.5, 8.0]), 0.04), None), ("noncentral_f", (3.0, 7.0, 1.5), 3),
    ("noncentral_f", (np.array([1.2, 6.0]), 5.0, 20.0), None), ("wald", (1.5, 2.0), 3),
    ("wald", (np.array([0.5, 4.0]), 30.0), None),
]


@pytest.mark.parametrize("cls", [np.random.Generator, np.random.RandomState], ids=lambda c: c.__name__)
@pytest.mark.parametrize(("name", "args", "size"), SHAPE_CASES, ids=lambda v: str(v))
def test_shape_derivatives_along_the_inversion_path(cls, name, args, size):
    source = np.random.default_rng(7) if cls is np.random.Generator else np.random.RandomState(7)
    method = getattr(cls, name)
    extra = () if size is None else (size,)
    y, pullback = rrule(method, copy.deepcopy(source), *args, *extra)
    check_approx(y, method(copy.deepcopy(source), *args, *extra))
    path = _paths(name, source, args, y)
    check_approx(path(*args), y, rtol=1e-9, atol=1e-12)  # the levels give the draw back
    dy = rand_tangent(y, 1)
    cotangents = pullback(dy)[2:2 + len(args)]
    tangents = [rand_tangent(a, 2 + k) for k, a in enumerate(args)]
    for k, expected in enumerate(vjp(None, path, dy, *args)):
        check_approx(unthunk(cotangents[k]), expected, rtol=1e-6, atol=1e-8)
    _, ydot = frule((NoTangent(), NoTangent(), *tangents, *(NoTangent(),) * len(extra)), method,
                    copy.deepcopy(source), *args, *extra)
    check_approx(ydot, jvp(None, path, *zip(args, tangents)), rtol=1e-6, atol=1e-8)


def test_a_large_shape_keeps_its_accuracy():
    """``shape = 1e6``: the naive gamma log-density ``(a - 1) log y - y - lgamma(a)`` would lose 1e-9 (relative) to
    cancellation. Reference: finite differences of the CDF ``P(a, y)`` in 40-digit arithmetic (mpmath), both
    partials of the primal, ``dy/da = -(dP/da) / (dP/dy)`` at a fixed level."""
    mpmath = pytest.importorskip("mpmath")
    for source in GENERATORS:
        y, pullback = rrule(type(source).standard_gamma, copy.deepcopy(source), 1e6)
        with mpmath.workdps(40):
            def cdf(a, x):
                return mpmath.gammainc(a, 0, x, regularized=True)

            a, x = mpmath.mpf(1e6), mpmath.mpf(float(y))
            expected = -mpmath.diff(lambda t, x=x: cdf(t, x), a) / mpmath.diff(lambda t, a=a: cdf(a, t), x)
        assert float(unthunk(pullback(1.0)[2])) == pytest.approx(float(expected), rel=1e-11)


@pytest.mark.parametrize("kappa", [1e-3, 4.0, 300.0])
def test_vonmises_kappa_against_the_cdf_in_high_precision(kappa):
    """``dy/dkappa = -(dF/dkappa) / (dF/dx)`` at NumPy's draws, both partials finite differences of the von Mises
    CDF ``F(x) = int_-pi^x e^(kappa cos t) dt / (2 pi I_0(kappa))`` in 30-digit arithmetic (mpmath); ``mu`` shifts
    the draw, so the level is that of ``y - mu``, wrapped."""
    mpmath = pytest.importorskip("mpmath")
    mu = 2.5  # draws wrap around pi
    for source in GENERATORS:
        y, pullback = rrule(type(source).vonmises, copy.deepcopy(source), mu, kappa, 2)
        got = [float(unthunk(pullback(np.eye(2)[i])[3])) for i in range(2)]
        with mpmath.workdps(30):
            def cdf(x, k):  # the lower tail, or the upper one above 0: -(dG/dkappa) / (dG/dx) is the same
                ends = [-mpmath.pi, x] if x <= 0 else [x, mpmath.pi]
                return mpmath.quad(lambda t: mpmath.exp(k * (mpmath.cos(t) - 1)), ends) / (
                    2 * mpmath.pi * mpmath.besseli(0, k) * mpmath.exp(-k))

            for i in range(2):
                w = mpmath.mpf(float((y[i] - mu + np.pi) % (2 * np.pi) - np.pi))
                k = mpmath.mpf(kappa)
                expected = -mpmath.diff(lambda v, w=w: cdf(w, v), k) / mpmath.diff(lambda v, k=k: cdf(v, k), w)
                assert got[i] == pytest.approx(float(expected), rel=1e-11, abs=1e-15), (kappa, i)


def test_vonmises_kappa_where_numpy_draws_a_wrapped_normal():
    """``kappa > 1e6``: ``Generator.vonmises`` draws ``mu + z / sqrt(kappa)`` (``RandomState`` keeps rejecting), smooth
    in ``kappa``; its central differences (step ``kappa / 1e4``) agree with the von Mises implicit derivative to
    ``O(1/kappa)``."""
    source, kappa, step, dy = np.random.default_rng(5), 1e7, 1e3, np.array([1.0, -2.0, 0.5])
    _, pullback = rrule(np.random.Generator.vonmises, copy.deepcopy(source), 0.3, kappa, 3)
    differences = (copy.deepcopy(source).vonmises(0.3, kappa + step, 3)
                   - copy.deepcopy(source).vonmises(0.3, kappa - step, 3)) / (2 * step)
    assert float(unthunk(pullback(dy)[3])) == pytest.approx(float(differences @ dy), rel=1e-6)


def test_vonmises_kappa_in_the_tails():
    """Draws far from ``mu`` (the tails, where a series in Bessel functions would cancel): the private partial at
    chosen offsets, against 30-digit finite differences of the CDF."""
    mpmath = pytest.importorskip("mpmath")
    from chainrules.rulesets.arrays.random import _Draw, _Snapshot, _vonmises_kappa

    offsets = np.array([-3.1, 0.05, 1.2, 3.0])
    for kappa in (8.0, 60.0):
        draw = _Draw(_Snapshot(np.random.default_rng(0)), "vonmises", 0.3 + offsets, (0.3, kappa))
        got = _vonmises_kappa(draw, 1)
        with mpmath.workdps(30):
            def cdf(x, k):  # the lower tail, or the upper one above 0 (no rounding to 1)
                ends = [-mpmath.pi, x] if x <= 0 else [x, mpmath.pi]
                return mpmath.quad(lambda t: mpmath.exp(k * (mpmath.cos(t) - 1)), ends) / (
                    2 * mpmath.pi * mpmath.besseli(0, k) * mpmath.exp(-k))

            for g, w in zip(got, offsets):
                wm, k = mpmath.mpf(float(w)), mpmath.mpf(kappa)
                expected = -mpmath.diff(lambda v, wm=wm: cdf(wm, v), k) / mpmath.diff(lambda v, k=k: cdf(v, k), wm)
                assert float(g) == pytest.approx(float(expected), rel=1e-10), (kappa, w)


def test_noncentral_chisquare_poisson_mixture_against_the_cdf_in_high_precision():
    """``df <= 1``: NumPy draws ``chisquare(df + 2i)``, ``i ~ Poisson(nonc / 2)``; the rules differentiate along the
    level of the noncentral chi-square CDF ``sum_i w_i P(df/2 + i, y/2)``: finite differences of it in 30-digit
    arithmetic (mpmath), ``dy/dtheta = -(dF/dtheta) / (dF/dy)``."""
    mpmath = pytest.importorskip("mpmath")
    df, nonc = np.array([0.2, 1.0]), 3.0
    for source in GENERATORS:
        y, pullback = rrule(type(source).noncentral_chisquare, copy.deepcopy(source), df, nonc)
        dfs = np.broadcast_to(df, y.shape)
        with mpmath.workdps(30):
            def cdf(y, d, n):
                def term(j):
                    return (mpmath.exp(-n / 2) * (n / 2) ** j / mpmath.factorial(j)
                            * mpmath.gammainc(d / 2 + j, 0, y / 2, regularized=True))

                return mpmath.fsum(term(j) for j in range(40))  # Poisson(1.5) weights beyond 40: below 1e-40

            for i in range(y.size):
                cotangents = pullback(np.eye(y.size)[i])
                got_df = np.asarray(unthunk(cotangents[2]))
                got = (float(got_df) if got_df.ndim == 0 else float(got_df[i]), float(unthunk(cotangents[3])))
                v, d, n = (mpmath.mpf(float(t)) for t in (y[i], dfs[i], nonc))
                density = mpmath.diff(lambda t, d=d, n=n: cdf(t, d, n), v)
                expected = (-mpmath.diff(lambda t, v=v, n=n: cdf(v, t, n), d) / density,
                            -mpmath.diff(lambda t, v=v, d=d: cdf(v, d, t), n) / density)
                for g, e in zip(got, expected):
                    assert g == pytest.approx(float(e), rel=1e-11), (i, got, expected)


def test_noncentral_f_poisson_mixture_against_the_cdf_in_high_precision():
    """``dfnum <= 1``: the rules differentiate along the level of the noncentral F CDF ``sum_i w_i I_v(dfnum/2 + i,
    dfden/2)``, ``v = dfnum y / (dfnum y + dfden)``: finite differences of it in 30-digit arithmetic (mpmath)."""
    mpmath = pytest.importorskip("mpmath")
    params = (0.6, 5.0, 2.0)
    for source in GENERATORS:
        y, pullback = rrule(type(source).noncentral_f, copy.deepcopy(source), *params, 2)
        with mpmath.workdps(30):
            def cdf(y, d1, d2, n):
                v = d1 * y / (d1 * y + d2)

                def term(j):
                    return (mpmath.exp(-n / 2) * (n / 2) ** j / mpmath.factorial(j)
                            * mpmath.betainc(d1 / 2 + j, d2 / 2, 0, v, regularized=True))

                return mpmath.fsum(term(j) for j in range(40))  # Poisson(1) weights beyond 40: below 1e-48

            for i in range(2):
                got = [float(unthunk(c)) for c in pullback(np.eye(2)[i])[2:5]]
                point = [mpmath.mpf(float(y[i])), *(mpmath.mpf(p) for p in params)]
                density = mpmath.diff(lambda t, point=point: cdf(t, *point[1:]), point[0])
                for k in range(3):
                    def moved(t, k=k, point=point):
                        return cdf(*point[:k + 1], t, *point[k + 2:])

                    expected = -mpmath.diff(moved, point[k + 1]) / density
                    assert got[k] == pytest.approx(float(expected), rel=1e-11), (i, k)


def test_draws_at_zero_stay_at_zero():
    """A draw that is exactly 0 (its CDF level is 0 whatever the parameters) gets 0, not NaN."""
    from chainrules.rulesets.arrays.random import _poisson_mixture_partials

    d_df, d_nonc = _poisson_mixture_partials(np.array([0.0, 2.0]), np.array([0.01, 0.01]), np.array([0.1, 0.1]))
    assert d_df[0] == 0 and d_nonc[0] == 0 and np.isfinite(d_df[1]) and d_nonc[1] > 0
    for source in GENERATORS:  # standard_gamma with a tiny shape underflows to 0
        y, pullback = rrule(type(source).standard_gamma, copy.deepcopy(source), 1e-3, 6)
        assert np.any(y == 0)
        assert np.isfinite(unthunk(pullback(np.ones(6))[2]))


def test_a_wrong_shape_derivative_is_caught(monkeypatch):
    """The inversion-path check can fail: a 1% error in beta's partial in ``b`` is seen."""
    params, partials, reasons = PATHWISE["beta"]

    def wrong(draw, k):
        return 1.01 * partials[k](draw, k) if k == 1 else partials[k](draw, k)

    monkeypatch.setitem(PATHWISE, "beta", (params, (partials[0], wrong), reasons))
    with pytest.raises(AssertionError):
        test_shape_derivatives_along_the_inversion_path(np.random.Generator, "beta", (2.0, 0.7), 3)


def test_noncentral_nonc_derivative_at_a_small_nonc():
    """``nonc`` below 1: the replays at ``(s + h)^2`` take ``h = 1`` (not ``h = s``); ``dy/dnonc`` still exact."""
    for source in GENERATORS:
        check_draw(type(source).noncentral_chisquare, source, (3.0, 0.05), (1,), (3,))
        check_draw(type(source).noncentral_f, source, (3.0, 7.0, 0.05), (2,), (3,))


@pytest.mark.parametrize("source", GENERATORS, ids=lambda g: type(g).__name__)
def test_central_draws_of_the_noncentral_samplers(source):
    """At ``nonc = 0`` NumPy draws a central chi-square (F): the df derivatives are chisquare's (f's)."""
    cls = type(source)
    for noncentral, central, args in [("noncentral_chisquare", "chisquare", (3.0,)), ("noncentral_f", "f", (3.0, 7.0))]:
        y, pullback = rrule(getattr(cls, noncentral), copy.deepcopy(source), *args, 0.0, 3)
        y_central, central_pullback = rrule(getattr(cls, central), copy.deepcopy(source), *args, 3)
        check_approx(y, y_central)
        dy = np.array([1.0, -2.0, 0.5])
        for got, expected in zip(pullback(dy)[2:2 + len(args)], central_pullback(dy)[2:2 + len(args)]):
            check_approx(unthunk(got), unthunk(expected))


def test_dirichlet_with_a_list_a_keyword_and_a_zero_cotangent():
    for source in GENERATORS:
        y, pullback = rrule(type(source).dirichlet, copy.deepcopy(source), alpha=np.ones(3), size=2)
        check_approx(y, copy.deepcopy(source).dirichlet(np.ones(3), 2))
        assert pullback(np.ones_like(y)) == (NoTangent(), NoTangent())  # a keyword: used, never differentiated
        y, pullback = rrule(type(source).dirichlet, copy.deepcopy(source), [1.0, 2.0, 3.0], 2)
        d_alpha = unthunk(pullback(np.ones_like(y))[2])
        assert np.allclose(np.asarray(d_alpha, dtype=float), 0.0, atol=1e-12)  # the components sum to 1
        assert pullback(ZeroTangent())[2] == ZeroTangent()


# E[g(y)] in closed form (NumPy's parameterisations), its gradient, and g'(y): the mean over draws of
# g'(y) dy/dθ from the frule must match (an unbiased estimator); a heavy-tailed draw gets a moment with finite
# variance. F: E log y = psi(d1/2) - psi(d2/2) + log(d2/d1); t: E y^2 = nu/(nu - 2); noncentral F:
# E y = d2 (d1 + nonc) / (d1 (d2 - 2)); wald: E 1/y = 1/mean + 1/scale; von Mises: E cos(y - mu) = A = I_1/I_0,
# dA/dkappa = 1 - A/kappa - A^2 (DLMF 10.29.2); Dirichlet: E x = alpha / sum(alpha).
def _bessel_ratio(kappa):
    return scipy.special.ive(1, kappa) / scipy.special.ive(0, kappa)


def _identity_slope(y):
    return np.ones_like(y)


SHAPE_MOMENTS = [
    ("gamma", (2.5, 1.5), _identity_slope, {0: 1.5, 1: 2.5}),
    ("standard_gamma", (0.6,), _identity_slope, {0: 1.0}),
    ("chisquare", (3.0,), _identity_slope, {0: 1.0}),
    ("beta", (2.0, 0.7), _identity_slope, {0: 0.7 / 2.7 ** 2, 1: -2.0 / 2.7 ** 2}),
    ("f", (3.0, 12.0), lambda y: 1 / y, {0: scipy.special.polygamma(1, 1.5) / 2 - 1 / 3.0,
                                        1: -scipy.special.polygamma(1, 6.0) / 2 + 1 / 12.0}),
    ("standard_t", (10.0,), lambda y: 2 * y, {0: -2 / 8.0 ** 2}),
    ("noncentral_chisquare", (3.0, 1.5), _identity_slope, {0: 1.0, 1: 1.0}),
    ("noncentral_chisquare", (0.6, 2.0), _identity_slope, {0: 1.0, 1: 1.0}),
    ("noncentral_f", (3.0, 12.0, 1.5), _identity_slope, {0: 12.0 / 10.0 * -1.5 / 9.0, 1: 4.5 / 3.0 * -2 / 100.0,
                                                          2: 12.0 / 30.0}),
    ("noncentral_f", (0.6, 12.0, 1.5), _identity_slope, {0: 12.0 / 10.0 * -1.5 / 0.36, 1: 2.1 / 0.6 * -2 / 100.0,
                                                          2: 12.0 / 6.0}),
    ("wald", (1.5, 2.0), lambda y: -1 / y ** 2, {0: -1 / 1.5 ** 2, 1: -1 / 2.0 ** 2}),
    ("vonmises", (0.0, 2.0), lambda y: -np.sin(y), {1: 1 - _bessel_ratio(2.0) / 2.0 - _bessel_ratio(2.0) ** 2}),
]


@pytest.mark.parametrize(("name", "args", "slope", "expected"), SHAPE_MOMENTS, ids=[c[0] for c in SHAPE_MOMENTS])
@pytest.mark.parametrize("cls", [np.random.Generator, np.random.RandomState], ids=lambda c: c.__name__)
def test_mean_implicit_derivative_is_the_gradient_of_a_moment(cls, name, args, slope, expected):
    n = 5_000 if name.startswith("noncentral") and args[0] <= 1 else 40_000  # the Poisson series: 50-100 us a draw
    source = np.random.default_rng(13) if cls is np.random.Generator else np.random.RandomState(13)
    for k, gradient in expected.items():
        tangents = [NoTangent()] * (len(args) + 1)
        tangents[k] = 1.0
        y, d = frule((NoTangent(), NoTangent(), *tangents), getattr(cls, name), copy.deepcopy(source), *args, n)
        samples = slope(y) * np.asarray(d)
        error = samples.std() / np.sqrt(n)
        assert abs(samples.mean() - gradient) <= 5 * error, (name, k, samples.mean(), gradient, error)


@pytest.mark.parametrize("cls", [np.random.Generator, np.random.RandomState], ids=lambda c: c.__name__)
def test_mean_dirichlet_derivative_is_the_gradient_of_the_mean(cls):
    alpha, n = np.array([1.5, 2.0, 0.7]), 20_000
    source = np.random.default_rng(17) if cls is np.random.Generator else np.random.RandomState(17)
    total = alpha.sum()
    for j in range(3):
        _, d = frule((NoTangent(), NoTangent(), np.eye(3)[j], NoTangent()), cls.dirichlet, copy.deepcopy(source),
                     alpha, n)
        expected = (np.eye(3)[j] * total - alpha) / total ** 2  # d/dalpha_j of alpha / total
        d = np.asarray(d)
        error = d.std(axis=0) / np.sqrt(n)
        assert np.all(np.abs(d.mean(axis=0) - expected) <= 5 * error + 1e-12), (j, d.mean(axis=0), expected)
