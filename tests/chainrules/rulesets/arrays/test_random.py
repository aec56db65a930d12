"""Rules of chainrules/rulesets/arrays/random.py: pathwise derivatives of samplers.

Three kinds of checks, none using a derivative written by hand:

* finite differences of the draw from plain copies of a generator, all in the state it had
  before the draw (independently of the fixed-state generators the sample inputs use);
* the rules draw exactly what the sampler draws and leave the generator where it would be;
* the pathwise derivative is an unbiased estimator of the gradient of an expectation: the
  mean of ``dy/dθ`` over many draws matches the derivative of a moment known in closed form.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
import scipy.special

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
    ("vonmises", (0.5, 3.0), (0,), (4,)), ("noncentral_chisquare", (3.0, 1.5), (1,), (4,)),
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
                       ("noncentral_chisquare", (3.0, 1.5, 3)), ("multivariate_normal", (np.zeros(2), np.eye(2)))]:
        plain, ruled = copy.deepcopy(source), copy.deepcopy(source)
        expected = getattr(cls, name)(plain, *args)
        y, pullback = rrule(getattr(cls, name), ruled, *args)
        pullback(np.ones_like(y))  # the pullback's replays leave the generator alone
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
    ("beta", (2.0, 3.0), (0, 1)), ("gamma", (2.0, 3.0), (0,)), ("standard_gamma", (2.0,), (0,)),
    ("chisquare", (3.0,), (0,)), ("standard_t", (4.0,), (0,)), ("f", (3.0, 4.0), (0, 1)),
    ("dirichlet", (np.array([1.0, 2.0]),), (0,)), ("wald", (1.0, 2.0), (0, 1)), ("vonmises", (0.0, 2.0), (1,)),
    ("noncentral_chisquare", (3.0, 1.0), (0,)), ("noncentral_chisquare", (0.5, 1.0), (0, 1)),
    ("noncentral_f", (3.0, 4.0, 0.0), (0, 1, 2)), ("weibull", (0.0,), (0,)),
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
