"""The engine of the discrete distributions: every method from the distribution's score and moment partials.

A discrete distribution of ``scipy.stats`` (an ``rv_discrete``) has a probability mass
function ``p_k(theta)`` on the integers ``k`` of its support, shifted by an integer ``loc``.
The data ``k``, ``loc`` and the integer shape parameters (``binom``'s ``n``...) are counts:
their cotangents are ``NoTangent()``. The continuous shape parameters ``theta`` are
differentiated. A :class:`DiscreteModel` gives, once per distribution:

* ``dlogpmf(k, *theta)``: the score ``s_k = d log p_k / d theta`` (every distribution);
* optionally ``dlogcdf(k, *theta)`` and ``dlogsf(k, *theta)``: ``d log F / d theta`` and
  ``d log S / d theta`` in closed form (``F(k) = P(K <= k)``, ``S(k) = P(K > k)``), written
  in log space so that they stay finite and accurate far in the tails where ``F`` or ``S``
  underflow but their logarithms do not;
* ``dmean(*theta)``, ``dvar(*theta)``: the partials of the mean and the variance;
* optionally ``dentropy(*theta)``.

The generic parts (this module), for a distribution without a closed form:

* **Distribution functions**: ``dF/dtheta = sum_(j <= k) p_j s_j`` and ``dS/dtheta = -dF/dtheta
  = sum_(j > k) p_j s_j`` (the scores have mean zero). The side whose mass is at most one
  half is summed, with weights ``exp(log p_j - log M)`` normalised by that side's own mass
  ``M`` (a log-sum-exp of the same terms), so ``d log F`` and ``d log S`` never divide two
  underflowed numbers; the other side follows from ``F dlogF = -S dlogS``. An infinite
  right tail is summed in blocks until the terms fall below ``e^-40`` of the sum (at most
  :data:`MAX_TAIL_TERMS` terms; a heavy tail that needs more is summed on the left side,
  losing ``log10(F/S)`` digits to cancellation, and is ``not_implemented`` beyond
  :data:`MAX_CANCELLATION`).
* **Entropy**: ``H = -sum p_k log p_k`` has ``dH/dtheta = -sum p_k s_k (log p_k + 1)``. SciPy
  truncates the infinite sums (``_expect``: blocks of 32 terms from the median outwards
  until a block adds less than ``1e-10`` per term, at most 1000 terms); the derivative
  is summed over exactly the terms SciPy summed, so it is the derivative of the value
  SciPy returns.
* ``std = sqrt(var)``: ``dvar / (2 std)``.

Where SciPy's value is constant in the parameters (``k`` outside the support: ``pmf = 0``,
``cdf`` 0 or 1, ``logpmf = -inf``) the partials are 0; where it is NaN (parameters outside
their domain) they are NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
from scipy.special import logsumexp
from scipy.stats._distn_infrastructure import rv_discrete, rv_discrete_frozen, rv_frozen, rv_generic

from chainrules.rulesets.stats._distribution_methods import MethodCall, register_method
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Varargs,
    non_differentiable,
    not_implemented,
    sample_inputs,
)

__all__ = ["MAX_CANCELLATION", "MAX_TAIL_TERMS", "DiscreteModel", "f64", "register_discrete_models"]

MAX_TAIL_TERMS = 1 << 17
"""The most terms summed in an infinite right tail (131072, about 10 ms per element)."""

MAX_CANCELLATION = 1e8
"""The largest ``F / S`` for which ``dS = -dF`` is taken from the left sum when the right tail does not converge:
beyond it the cancellation costs more than 8 digits and the derivative is ``not_implemented``."""

_NO = NoTangent()
_TAIL_GAP = 40.0  # stop a tail sum when a block's largest term is below e^-40 of the sum so far


def f64(x: Any) -> np.ndarray:
    """``x`` as a float64 array."""
    return np.asarray(x, dtype=np.float64)


class DiscreteModel:
    """The partials of one discrete distribution (see the module docstring).

    Attributes
    ----------
    dist : rv_discrete
        The distribution (``scipy.stats.poisson``); its class is what the rules dispatch on.
    integer_shapes : frozenset of str
        Shape parameters that are counts (``NoTangent()``).
    shape_samples : tuple of tuples
        Shape values at which the rules are checked.
    tail_samples : tuple of (method, k, shapes) tuples
        Points far in a tail (``logcdf`` at a small ``k``, ``logsf`` at a large one).
    moment_shape_samples : tuple of tuples or None
        Shape values for ``mean``, ``var``, ``std`` (default ``shape_samples``; where a
        moment is infinite its partials are NaN, as its value).
    sample_options : dict
        Tester options by method name (``"*"``: all).
    """

    dist: ClassVar[Any] = None
    integer_shapes: ClassVar[frozenset[str]] = frozenset()
    shape_samples: ClassVar[tuple[tuple[Any, ...], ...]] = ()
    tail_samples: ClassVar[tuple[tuple[str, int, tuple[Any, ...]], ...]] = ()
    moment_shape_samples: ClassVar[tuple[tuple[Any, ...], ...] | None] = None
    sample_options: ClassVar[dict[str, Any]] = {}

    @property
    def name(self) -> str:
        return str(self.dist.name)

    @property
    def shape_names(self) -> tuple[str, ...]:
        return tuple(s.strip() for s in self.dist.shapes.split(",")) if self.dist.shapes else ()

    def dlogpmf(self, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """``d log p_k / d theta_i``, one per shape (anything for the integer shapes)."""
        raise NotImplementedError

    def dlogcdf(self, *args: Any, **kwargs: Any) -> tuple[Any, ...] | None:
        """``d log F(k) / d theta_i`` in closed form, or ``None`` (the generic sums)."""
        return None

    def dlogsf(self, *args: Any, **kwargs: Any) -> tuple[Any, ...] | None:
        """``d log S(k) / d theta_i`` in closed form, or ``None`` (the generic sums)."""
        return None

    def dmean(self, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """The partials of the mean, one per shape."""
        raise NotImplementedError

    def dvar(self, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """The partials of the variance, one per shape."""
        raise NotImplementedError

    def dentropy(self, *args: Any, **kwargs: Any) -> tuple[Any, ...] | None:
        """``d H / d theta_i`` in closed form, or ``None`` (the sum over SciPy's terms)."""
        return None

    # -- the generic sums, one parameter point at a time --
    def _scores(self, j: np.ndarray, shapes: tuple[float, ...]) -> np.ndarray:
        """The scores at the points ``j``: shape ``(nshapes, len(j))`` (0 for the integer shapes)."""
        out = []
        for name, s in zip(self.shape_names, self.dlogpmf(j.astype(np.float64), *(np.float64(v) for v in shapes))):
            out.append(np.zeros(j.shape) if name in self.integer_shapes or s is None else
                       np.broadcast_to(f64(s), j.shape))
        return np.array(out)

    def _logpmf(self, j: np.ndarray, shapes: tuple[float, ...]) -> np.ndarray:
        with np.errstate(all="ignore"):
            return f64(self.dist.logpmf(j, *shapes))

    def _side(self, lo: float, hi: float, shapes: tuple[float, ...]) -> tuple[float, np.ndarray, bool]:
        """``(log M, sum_j w_j s_j / M, converged)`` over ``j`` in ``[lo, hi]`` (``hi`` may be infinite)."""
        if np.isfinite(hi):
            j = np.arange(lo, hi + 1)
            lp = self._logpmf(j, shapes)
            log_mass = float(logsumexp(lp))
            with np.errstate(all="ignore"):
                w = np.exp(lp - log_mass)
            return log_mass, np.sum(w * self._scores(j, shapes), axis=1), True
        log_mass, acc, start, block = -np.inf, np.zeros(len(self.shape_names)), lo, 64
        total_terms = 0
        while total_terms < MAX_TAIL_TERMS:
            j = np.arange(start, start + block)
            lp = self._logpmf(j, shapes)
            top = float(np.max(lp))
            new_mass = float(np.logaddexp(log_mass, logsumexp(lp)))
            with np.errstate(all="ignore"):
                acc = acc * np.exp(log_mass - new_mass) if np.isfinite(log_mass) else acc
                acc = acc + np.sum(np.exp(lp - new_mass) * self._scores(j, shapes), axis=1)
            log_mass = new_mass
            total_terms += block
            if top < log_mass - _TAIL_GAP and lp[-1] <= lp[0]:
                return log_mass, acc, True
            start += block
            block = min(2 * block, 1 << 14)
        return log_mass, acc, False

    def _missing(self, k: float, why: str) -> NotImplementedTangent:
        return not_implemented(f"scipy.stats.{self.name}: the distribution function's derivative at k = {k:g} {why}")

    def distribution_partials(self, k: float, shapes: tuple[float, ...]) -> tuple[Any, Any]:
        """``(d log F, d log S)`` per shape at one point ``k`` of the support (generic sums)."""
        lo, hi = (float(v) for v in self.dist.support(*shapes))
        with np.errstate(all="ignore"):
            log_f = float(self.dist.logcdf(k, *shapes))

        def from_left() -> tuple[Any, Any]:
            if k - lo > MAX_TAIL_TERMS:
                missing = self._missing(k, f"needs a sum of more than {MAX_TAIL_TERMS} terms")
                return missing, missing
            log_mass, dlog_f, _ = self._side(lo, k, shapes)
            log_s = float(np.log1p(-np.exp(log_mass)))
            if math.exp(log_mass - log_s) > MAX_CANCELLATION:
                return dlog_f, self._missing(k, f"(S = {math.exp(log_s):.3g}) needs a tail sum of more than "
                                                f"{MAX_TAIL_TERMS} terms (a heavy tail), and the complement loses "
                                                "more than 8 digits")
            return dlog_f, -dlog_f * math.exp(log_mass - log_s)

        def from_right(log_s: float, dlog_s: np.ndarray) -> tuple[Any, Any]:
            log_mass = float(np.log1p(-np.exp(log_s)))
            return -dlog_s * math.exp(log_s - log_mass), dlog_s

        if log_f <= math.log(0.5):
            return from_left()
        if np.isfinite(hi) and hi - k <= MAX_TAIL_TERMS:
            log_s, dlog_s, _ = self._side(k + 1, hi, shapes)
            return from_right(log_s, dlog_s)
        if not np.isfinite(hi):
            log_s, dlog_s, converged = self._side(k + 1, hi, shapes)
            if converged:
                return from_right(log_s, dlog_s)
        return from_left()

    def entropy_partials(self, shapes: tuple[float, ...]) -> np.ndarray:
        """``dH/dtheta = -sum p_k s_k (log p_k + 1)`` over the terms SciPy's ``_expect`` sums."""
        j = _expect_points(self.dist, shapes)
        lp = self._logpmf(j, shapes)
        p = np.exp(lp)
        with np.errstate(all="ignore"):
            weights = np.where(p > 0, -p * (lp + 1.0), 0.0)
        return np.sum(weights * self._scores(j, shapes), axis=1)


def _expect_points(dist: Any, shapes: tuple[float, ...], chunksize: int = 32, maxcount: int = 1000,
                   tolerance: float = 1e-10) -> np.ndarray:
    """The support points SciPy's ``rv_discrete._entropy`` sums (its ``_expect`` helper, replayed).

    Blocks of ``chunksize`` points from the median up, then from below the median down,
    each side stopping after a block adding less than ``tolerance`` per point (or beyond
    ``maxcount`` points); a support of at most ``chunksize`` points is summed whole.
    """
    lo, hi = (float(v) for v in dist.support(*shapes))
    if hi - lo <= chunksize:
        return np.arange(lo, hi + 1)
    with np.errstate(all="ignore"):
        x0 = float(dist.ppf(0.5, *shapes))
    x0 = min(max(x0, lo), hi)

    def entr_sum(x: np.ndarray) -> float:
        with np.errstate(all="ignore"):
            p = f64(dist.pmf(x, *shapes))
            return float(np.sum(np.where(p > 0, -p * np.log(p), 0.0)))

    points: list[np.ndarray] = []
    count = 0
    start = x0
    while start < hi + 1:
        x = np.arange(start, min(start + chunksize, hi + 1))
        count += x.size
        points.append(x)
        if abs(entr_sum(x)) < tolerance * x.size or count > maxcount:
            break
        start += chunksize
    if count <= maxcount:
        start = x0 - 1
        while start > lo - 1:
            x = np.arange(start, max(start - chunksize, lo - 1), -1)
            count += x.size
            points.append(x)
            if abs(entr_sum(x)) < tolerance * x.size or count > maxcount:
                break
            start -= chunksize
    return np.concatenate(points)


# ---- the kernels -------------------------------------------------------------------------------------------
_MODELS: dict[type, DiscreteModel] = {}


def _model(dist: Any) -> DiscreteModel:
    for klass in type(dist).__mro__:
        if klass in _MODELS:
            return _MODELS[klass]
    raise KeyError(type(dist).__name__)


def _fill(out: dict[str, Any], call: MethodCall, names: Sequence[str], partials: Iterable[Any],
          model: DiscreteModel) -> None:
    for shape, p in zip(model.shape_names, partials):
        if shape in names:
            out[shape] = _NO if shape in model.integer_shapes else p
    for name in names:
        out.setdefault(name, _NO)  # k, loc


def _finish(p: Any, constant: np.ndarray, bad: np.ndarray) -> Any:
    if isinstance(p, (NotImplementedTangent, NoTangent)) or p is None:
        return p
    p = np.where(constant, 0.0, p) if np.any(constant) else p
    return np.where(bad, np.nan, p) if np.any(bad) else p


def _shapes_of(call: MethodCall) -> tuple[np.ndarray, ...]:
    return tuple(f64(s) for s in call.shapes)


def _mass_partials(call: MethodCall, y: Any, names: Sequence[str], log: bool) -> dict[str, Any]:
    model = _model(call.dist)
    shapes = _shapes_of(call)
    k = f64(call.lead()) - f64(call.loc)
    y = f64(y)
    out: dict[str, Any] = {}
    with np.errstate(all="ignore"):
        scores = model.dlogpmf(k, *shapes)
        if not log:
            scores = tuple(s if isinstance(s, NotImplementedTangent) or s is None else y * f64(s) for s in scores)
        constant = (y == -np.inf) if log else (y == 0)
        bad = np.isnan(y)
        _fill(out, call, names, (_finish(s, constant, bad) for s in scores), model)
    return out


def _generic_distribution(model: DiscreteModel, k: np.ndarray, shapes: tuple[np.ndarray, ...],
                          which: int) -> tuple[Any, ...]:
    """``d log F`` (``which = 0``) or ``d log S`` (1) per shape, by the generic sums, element by element."""
    arrays = np.broadcast_arrays(k, *shapes)
    n = len(model.shape_names)
    out = np.full((n,) + arrays[0].shape, np.nan)
    missing: NotImplementedTangent | None = None
    for index in np.ndindex(*arrays[0].shape):
        kk = float(np.floor(arrays[0][index]))
        point = tuple(float(a[index]) for a in arrays[1:])
        if not np.isfinite(kk) or not bool(np.all(model.dist._argcheck(*point))):
            continue
        lo, hi = (float(v) for v in model.dist.support(*point))
        if kk < lo or kk >= hi:
            out[(slice(None),) + index] = 0.0
            continue
        part = model.distribution_partials(kk, point)[which]
        if isinstance(part, NotImplementedTangent):
            missing = part
            continue
        out[(slice(None),) + index] = part
    if missing is not None:
        return (missing,) * n
    return tuple(out[i] for i in range(n))


def _distribution_partials(call: MethodCall, y: Any, names: Sequence[str], kind: str) -> dict[str, Any]:
    """cdf, sf, logcdf, logsf."""
    model = _model(call.dist)
    shapes = _shapes_of(call)
    k = np.floor(f64(call.lead()) - f64(call.loc))
    y = f64(y)
    out: dict[str, Any] = {}
    lower = kind in ("cdf", "logcdf")
    with np.errstate(all="ignore"):
        closed = model.dlogcdf(k, *shapes) if lower else model.dlogsf(k, *shapes)
        dlog = closed if closed is not None else _generic_distribution(model, k, shapes, 0 if lower else 1)
        if kind in ("cdf", "sf"):
            dlog = tuple(d if isinstance(d, NotImplementedTangent) or d is None else y * f64(d) for d in dlog)
            constant = (y == 0) | (y == 1)
        else:
            constant = (y == -np.inf) | (y == 0)
        bad = np.isnan(y)
        _fill(out, call, names, (_finish(d, constant, bad) for d in dlog), model)
    return out


def _moment_partials(call: MethodCall, y: Any, names: Sequence[str], kind: str) -> dict[str, Any]:
    model = _model(call.dist)
    shapes = _shapes_of(call)
    y = f64(y)
    out: dict[str, Any] = {}
    with np.errstate(all="ignore"):
        if kind == "mean":
            parts: Iterable[Any] = model.dmean(*shapes)
        elif kind == "var":
            parts = model.dvar(*shapes)
        elif kind == "std":
            parts = (d if isinstance(d, NotImplementedTangent) or d is None else f64(d) / (2.0 * y)
                     for d in model.dvar(*shapes))
        else:
            closed = model.dentropy(*shapes)
            parts = closed if closed is not None else _generic_entropy(model, shapes)
        bad = ~np.isfinite(y)
        _fill(out, call, names, (_finish(p, np.zeros(y.shape, bool), bad) for p in parts), model)
    return out


def _generic_entropy(model: DiscreteModel, shapes: tuple[np.ndarray, ...]) -> tuple[Any, ...]:
    arrays = np.broadcast_arrays(*shapes) if shapes else ()
    shape = arrays[0].shape if arrays else ()
    n = len(model.shape_names)
    out = np.full((n,) + shape, np.nan)
    for index in np.ndindex(*shape):
        point = tuple(float(a[index]) for a in arrays)
        if not bool(np.all(model.dist._argcheck(*point))):
            continue
        out[(slice(None),) + index] = model.entropy_partials(point)
    return tuple(out[i] for i in range(n))


KernelFn = Callable[[MethodCall, Any, Sequence[str]], Any]

METHODS: dict[str, tuple[Callable[..., Any], KernelFn]] = {
    "pmf": (rv_discrete.pmf, lambda c, y, n: _mass_partials(c, y, n, False)),
    "logpmf": (rv_discrete.logpmf, lambda c, y, n: _mass_partials(c, y, n, True)),
    "cdf": (rv_discrete.cdf, lambda c, y, n: _distribution_partials(c, y, n, "cdf")),
    "logcdf": (rv_discrete.logcdf, lambda c, y, n: _distribution_partials(c, y, n, "logcdf")),
    "sf": (rv_discrete.sf, lambda c, y, n: _distribution_partials(c, y, n, "sf")),
    "logsf": (rv_discrete.logsf, lambda c, y, n: _distribution_partials(c, y, n, "logsf")),
    "mean": (rv_generic.mean, lambda c, y, n: _moment_partials(c, y, n, "mean")),
    "var": (rv_generic.var, lambda c, y, n: _moment_partials(c, y, n, "var")),
    "std": (rv_generic.std, lambda c, y, n: _moment_partials(c, y, n, "std")),
    "entropy": (rv_generic.entropy, lambda c, y, n: _moment_partials(c, y, n, "entropy")),
}
"""Method name -> (the method's function, its kernel)."""

STEP_METHODS = {
    "ppf": rv_discrete.ppf,
    "isf": rv_discrete.isf,
    "median": rv_generic.median,
    "interval": rv_generic.interval,
    "rvs": rv_discrete.rvs,
}
"""The integer-valued methods of a discrete distribution (quantiles and draws): piecewise constant in every
argument, declared non-differentiable, as ``numpy.floor_divide`` is (and ChainRules.jl's ``fld``)."""


def register_discrete_models(*models: DiscreteModel) -> None:
    """Register the rules of every method of :data:`METHODS` for the models' distributions, and their samples."""
    from chainrules.rulesets.stats.frozen import register_frozen_method

    classes = []
    for model in models:
        cls = type(model.dist)
        _MODELS[cls] = model
        classes.append(cls)
    for method, kernel in METHODS.values():
        register_method(method, {cls: kernel for cls in classes})
    for name, (method, _) in METHODS.items():
        sample_inputs(method)(_sample_generator(models, name))
    for name, method in STEP_METHODS.items():
        for cls in classes:
            non_differentiable(method, cls, Varargs(object))
        sample_inputs(method)(_sample_generator(models, name))
    register_frozen_method(rv_discrete_frozen.pmf, "pmf")
    register_frozen_method(rv_discrete_frozen.logpmf, "logpmf")


# ---- samples ----------------------------------------------------------------------------------------------
def _sample_generator(models: Sequence[DiscreteModel], method: str) -> Callable[[np.random.Generator], Any]:
    def discrete_samples(rng: np.random.Generator) -> Iterable[Sample]:
        for model in models:
            yield from model_samples(model, method)

    discrete_samples.__name__ = f"discrete_{method}_samples"
    return discrete_samples


def model_samples(model: DiscreteModel, method: str) -> Iterable[Sample]:
    """The samples of one method of one distribution: the support's bulk at each shape sample, then the tails."""
    dist = model.dist
    options = dict(model.sample_options.get(method, model.sample_options.get("*", {})))
    moment_shapes = model.moment_shape_samples
    for shapes in moment_shapes if method in ("mean", "var", "std") and moment_shapes is not None \
            else model.shape_samples:
        label = f"{model.name}{tuple(shapes)}"
        if method in ("ppf", "isf"):  # levels away from the jumps: finite differences see nothing move either
            yield Sample(dist, np.array([0.37, 0.64]), *shapes, label=f"{label} {method}")
        elif method == "interval":
            yield Sample(dist, 0.8, *shapes, label=f"{label} {method}")
        elif method == "rvs":
            yield Sample(dist, *shapes, fkwargs={"size": 3, "random_state": 1}, label=f"{label} {method}")
        elif method in ("pmf", "logpmf", "cdf", "logcdf", "sf", "logsf"):
            k = np.unique(f64(dist.ppf(np.array([0.15, 0.5, 0.85]), *shapes)))
            high = float(dist.support(*shapes)[1])
            k = k[k < high].astype(np.int64)  # inside the support, where F < 1 (at its end S = 0: constant)
            yield Sample(dist, k, *shapes, label=f"{label} {method}", **options)
        else:
            yield Sample(dist, *shapes, label=f"{label} {method}", **options)
    for tail_method, point, shapes in model.tail_samples:
        if tail_method == method:
            yield Sample(dist, np.int64(point), *shapes, label=f"{model.name}{tuple(shapes)} {method} far in the tail",
                         **options)


def _frozen_samples(rng: np.random.Generator) -> Iterable[Sample]:
    """Frozen discrete distributions: ``poisson(mu)``, ``nbinom(n, p)``, ``binom(n, p)`` (``n`` a count)."""
    import scipy.stats as st

    from chainrules.rulesets.stats.frozen import register_for_testing

    register_for_testing()
    k = np.array([1, 3, 6])
    yield Sample(st.poisson(3.5), k, label="frozen poisson(3.5)")
    yield Sample(st.nbinom(2.5, 0.4), k, label="frozen nbinom(2.5, 0.4)")
    yield Sample(st.binom(10, 0.3), k, label="frozen binom(10, 0.3): n a count")


sample_inputs(rv_discrete_frozen.pmf, rv_discrete_frozen.logpmf, rv_frozen.cdf, rv_frozen.logsf)(_frozen_samples)


@sample_inputs(rv_frozen.mean, rv_frozen.var, rv_frozen.entropy)
def _frozen_moment_samples(rng: np.random.Generator) -> Iterable[Sample]:
    import scipy.stats as st

    from chainrules.rulesets.stats.frozen import register_for_testing

    register_for_testing()
    yield Sample(st.nbinom(2.5, 0.4), label="frozen nbinom(2.5, 0.4)")
