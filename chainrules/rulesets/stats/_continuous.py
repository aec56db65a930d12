"""The location-scale engine: every method of a continuous distribution from its standardized partials.

A continuous distribution of ``scipy.stats`` with shape parameters ``theta``, location ``loc``
and scale ``s`` has the density ``f(x) = f0(z; theta) / s`` with ``z = (x - loc) / s``, where
``f0`` is the standardized density (``loc = 0``, ``s = 1``). A :class:`ContinuousModel`
describes ``f0`` by its partial derivatives, written once per distribution:

* ``dlogpdf_dz(z, *theta)``: ``l_z = d log f0 / dz`` (every distribution);
* ``dlogpdf_dshapes(z, *theta)``: ``l_theta = d log f0 / d theta_i``;
* ``dcdf_dshapes(z, *theta)``: ``F_theta = d F0 / d theta_i`` (the derivative of the
  distribution function in the shapes, usually through the special-function rules:
  incomplete gamma and beta in their parameters, Owen's T, ...); optionally its log-space
  forms ``dlogcdf_dshapes`` / ``dlogsf_dshapes`` (``F_theta / F`` and ``-F_theta / S``)
  where ``F`` or ``S`` underflows before their logarithms do;
* ``dmean``, ``dvar``, ``dentropy``, ``dmunp(n, ...)``: the shape partials of the
  standardized mean, variance, entropy and raw moments, closed forms in ``theta``.

Everything else is generic (this module), from the chain rule through ``z``:

=======  =============  ==============  ======================  ==========================
method   d/dx (or q)    d/dloc          d/dscale                d/dtheta
=======  =============  ==============  ======================  ==========================
logpdf   ``l_z / s``    ``-l_z / s``    ``-(1 + z l_z) / s``    ``l_theta``
pdf      ``f l_z / s``  ``-f l_z / s``  ``-f (1 + z l_z) / s``  ``f l_theta``
cdf      ``f(x)``       ``-f(x)``       ``-z f(x)``             ``F_theta``
sf       ``-f(x)``      ``f(x)``        ``z f(x)``              ``-F_theta``
logcdf   ``f(x) / F``   ``-f(x) / F``   ``-z f(x) / F``         ``F_theta / F``
logsf    ``-f(x) / S``  ``f(x) / S``    ``z f(x) / S``          ``-F_theta / S``
ppf      ``1 / f(y)``   ``1``           ``zeta``                ``-F_theta(zeta) / f(y)``
isf      ``-1 / f(y)``  ``1``           ``zeta``                ``-F_theta(zeta) / f(y)``
mean     .              ``1``           ``m``                   ``s m_theta``
var      .              ``0``           ``2 s v``               ``s^2 v_theta``
std      .              ``0``           ``sqrt(v)``             ``s v_theta / (2 sqrt v)``
entropy  .              ``0``           ``1 / s``               ``h_theta``
=======  =============  ==============  ======================  ==========================

where ``f(x) = exp(logpdf(x))`` is SciPy's density at the point (for ``ppf``/``isf`` at the
output ``y``, ``zeta = (y - loc)/s``: the implicit function theorem on ``F0(zeta) = q``), and
``m``, ``v``, ``h`` are the standardized mean, variance and entropy. ``median`` is ``ppf(1/2)``;
``interval(c)`` is ``(ppf((1 - c)/2), ppf((1 + c)/2))`` with ``d/dc = (-1/2, 1/2) / f``;
``moment(n) = E[(loc + s Z)^n] = sum_k C(n, k) loc^(n-k) s^k mu'_k`` gives
``d/dloc = n M_(n-1)``, ``d/ds = n (M_n - loc M_(n-1)) / s`` (``M_j`` SciPy's moments) and
``d/dtheta = sum_k C(n, k) loc^(n-k) s^k dmu'_k/dtheta``.

The ratios ``f/F`` and ``f/S`` are ``exp(logpdf - logcdf)`` and ``exp(logpdf - logsf)``: finite
and accurate wherever SciPy's logarithms are finite, far in the tails where ``f`` and ``F``
both underflow (``norm.logcdf(-40)``: ``f/F = 40.02...``). Likewise ``1/f`` of ``ppf`` is
``exp(-logpdf)``.

Where SciPy's value is NaN (parameters outside the domain) every partial is NaN. Where it
is ``-inf`` in a log method (``x`` outside the support) or 0 in ``pdf``, the function is
constant near ``x`` and the partials are 0. Where ``ppf``/``isf``, a moment or the entropy
is infinite, the partials are NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
from scipy.stats._distn_infrastructure import rv_continuous, rv_generic

from chainrules.rulesets.stats._distribution_methods import MethodCall, register_method
from chainrules_core import NotImplementedTangent, Sample, not_implemented, rrule, sample_inputs, unthunk

__all__ = ["METHODS", "ContinuousModel", "added", "f64", "raw_moment_from_cumulants", "register_models", "scaled",
           "special_partials"]

_RV = rv_continuous
_GEN = rv_generic


def f64(x: Any) -> np.ndarray:
    """``x`` as a float64 array (partials are computed in double precision)."""
    return np.asarray(x, dtype=np.float64)


def special_partials(f: Callable[..., Any], *args: Any) -> list[Any]:
    """The elementwise partial derivatives of a special function with rules, at broadcast ``args``.

    Calls the library's own rule (``rrule(f, *args)`` with a cotangent of ones): the
    derivatives written once in ``chainrules.rulesets.special`` (``owens_t``, ``stdtr``,
    ``chndtr``, ...) are never written twice. Entries are float64 arrays of the broadcast
    shape, or a ``NotImplementedTangent`` where the rule has none.

    Examples
    --------
    >>> import scipy.special as sc
    >>> from chainrules.rulesets.stats._continuous import special_partials
    >>> [round(float(p), 10) for p in special_partials(sc.stdtr, 3.5, 1.2)]  # d/ddf, d/dt
    [0.0097886697, 0.1712160778]
    """
    arrays = np.broadcast_arrays(*(f64(a) for a in args))
    y, pullback = rrule(f, *(np.array(a) for a in arrays))
    cotangents = pullback(np.ones(np.shape(y)))[1:]
    out = []
    for c in cotangents:
        c = unthunk(c)
        out.append(c if isinstance(c, NotImplementedTangent) else f64(c))
    return out


# ---- the models -------------------------------------------------------------------------------------------
Partials = tuple[Any, ...]


class ContinuousModel:
    """The standardized partial derivatives of one continuous distribution (see the module docstring).

    Subclass it per distribution: set :attr:`dist` and override the partials the
    distribution has; the defaults cover distributions without shape parameters
    completely (given ``dlogpdf_dz``) and answer ``not_implemented`` for a shape partial
    nobody has written.

    Attributes
    ----------
    dist : rv_continuous
        The SciPy distribution (``scipy.stats.gamma``); its class is what the rules dispatch on.
    shape_samples : tuple of tuples
        Shape parameter values at which the rules are checked (one per regime).
    tail_q : float or None
        The tail probability at which ``logcdf``/``logsf`` are checked (``None``: not in the
        tails).
    moments_exist : bool
        ``False`` for a distribution without mean and variance (cauchy): no samples for
        ``mean``, ``var``, ``std``, ``moment`` (their partials are NaN, as their values).
    slow_moments : str
        Why ``var`` and ``std`` have no samples, if they have none: SciPy's numerical variance of
        some distributions takes most of a second (vonmises: 0.7 s), and the finite differences
        need ten of them; their derivative is the quadrature that ``moment`` checks.
    moment_order : int
        The order of the ``moment`` samples (3; 2 for a law whose third moment is infinite).
    slow_all_moments : str
        Why ``mean``, ``var``, ``std`` and ``moment`` have no samples, if they have none: SciPy
        integrates the quantile function for each (kappa4: most of a minute per finite-difference
        check on a loaded machine); their rules are checked in the tests against an independent
        quadrature.
    numeric_moment : bool
        ``True`` where SciPy integrates ``moment(3)`` numerically although its ``_stats`` gives the mean
        and variance in closed form (no skewness): that sample is checked in the shapes only, as for
        the distributions whose moments are all numerical.
    sample_options : dict
        Options of the samples (``rtol``, ``fdm``, ...) by method name, ``"*"`` for all.
    """

    dist: ClassVar[Any] = None
    shape_samples: ClassVar[tuple[tuple[float, ...], ...]] = ((),)
    tail_q: ClassVar[float | None] = 1e-100
    moments_exist: ClassVar[bool] = True
    slow_moments: ClassVar[str] = ""
    slow_all_moments: ClassVar[str] = ""
    numeric_moment: ClassVar[bool] = False
    moment_order: ClassVar[int] = 3
    sample_options: ClassVar[dict[str, Any]] = {}

    @property
    def name(self) -> str:
        return str(self.dist.name)

    @property
    def nshapes(self) -> int:
        return int(self.dist.numargs)

    def _missing(self, what: str) -> tuple[Any, ...]:
        reason = (f"scipy.stats.{self.name}.{what}: the derivative in the shape parameters is not implemented "
                  "(no closed form written)")
        return (not_implemented(reason),) * self.nshapes

    def kinks(self, *shapes: Any) -> tuple[float, ...]:
        """Points of the standardized support where the density is not smooth (the quadratures split there)."""
        return ()

    def ends_vanish(self, *shapes: Any) -> bool | None:
        """Whether the density is 0 at every end of the support that moves with the shapes (``None``: SciPy's
        log-density at the ends decides, which rounding can hide: ``1 - h t`` a rounding error away from 0)."""
        return None

    def _overrides(self, method: str) -> bool:
        return getattr(type(self), method) is not getattr(ContinuousModel, method)

    # -- the density and the distribution function (z inside the support) --
    def dlogpdf_dz(self, *args: Any, **kwargs: Any) -> Any:
        """``d log f0 / dz`` at ``(z, *shapes)``."""
        raise NotImplementedError

    def dlogpdf_dshapes(self, *args: Any, **kwargs: Any) -> Partials:
        """``d log f0 / d theta_i`` at ``(z, *shapes)``, one per shape parameter."""
        return self._missing("logpdf")

    def dcdf_dshapes(self, *args: Any, **kwargs: Any) -> Partials:
        """``d F0 / d theta_i`` at ``(z, *shapes)``, one per shape parameter."""
        return self._missing("cdf")

    def dlogcdf_dshapes(self, z: Any, logcdf: Any, *shapes: Any) -> Partials:
        """``d log F0 / d theta_i`` (default ``F_theta / F``)."""
        cdf = np.exp(logcdf)
        return tuple(d if isinstance(d, NotImplementedTangent) else d / cdf for d in self.dcdf_dshapes(z, *shapes))

    def dlogsf_dshapes(self, z: Any, logsf: Any, *shapes: Any) -> Partials:
        """``d log S0 / d theta_i`` (default ``-F_theta / S``)."""
        sf = np.exp(logsf)
        return tuple(d if isinstance(d, NotImplementedTangent) else -d / sf for d in self.dcdf_dshapes(z, *shapes))

    # -- moments and entropy of the standardized distribution --
    def standardized_mean(self, *shapes: Any) -> np.ndarray:
        return f64(self.dist.mean(*shapes))

    def dmean(self, *shapes: Any) -> Partials:
        """``d m / d theta_i`` (default: from ``dmunp(1)``, else by quadrature)."""
        if self._overrides("dmunp"):
            return self.dmunp(1, *shapes)
        return self._by_quadrature("mean", lambda z, theta: z, shapes)

    def dvar(self, *shapes: Any) -> Partials:
        """``d v / d theta_i`` (default: ``d mu'_2 - 2 m d m`` from ``dmunp``, else by quadrature)."""
        if self._overrides("dmunp"):
            m = self.standardized_mean(*shapes)
            return tuple(_combine(lambda d1, d2: d2 - 2 * m * d1, a, b)
                         for a, b in zip(self.dmunp(1, *shapes), self.dmunp(2, *shapes)))
        return self._by_quadrature("var", lambda z, theta: (z - self.dist.mean(*theta)) ** 2, shapes)

    def dentropy(self, *shapes: Any) -> Partials:
        """``d h / d theta_i`` (default: by quadrature)."""
        return self._by_quadrature("entropy", lambda z, theta: -_logpdf0(self.dist, z, theta), shapes)

    def dmunp(self, n: int, *shapes: Any) -> Partials:
        """``d mu'_n / d theta_i`` of the raw moment ``mu'_n = E[Z^n]`` (default: from ``dmean``/``dvar``, else
        by quadrature)."""
        if n == 0:
            return (0.0,) * self.nshapes
        if n == 1 and self._overrides("dmean"):
            return self.dmean(*shapes)
        if n == 2 and self._overrides("dmean") and self._overrides("dvar"):
            m = self.standardized_mean(*shapes)
            return tuple(_combine(lambda dv, dm: dv + 2 * m * dm, a, b)
                         for a, b in zip(self.dvar(*shapes), self.dmean(*shapes)))
        return self._by_quadrature(f"moment (order {n})", lambda z, theta: z ** n, shapes)

    def _by_quadrature(self, what: str, weight: Callable[[Any, tuple[float, ...]], Any],
                       shapes: tuple[Any, ...]) -> Partials:
        """``d/dtheta_i E[w(Z)] = E[w(Z) dlog f0/dtheta_i]`` by quadrature, where the support does not move
        with the shapes (see :func:`expectation_partials`)."""
        if not self.nshapes:
            return ()
        from chainrules.rulesets.stats._expectations import expectation_partials

        return expectation_partials(self, what, weight, shapes)


def _logpdf0(dist: Any, z: Any, theta: tuple[float, ...]) -> Any:
    """The standardized log-density (SciPy's own, without argument checks: inside quadrature)."""
    return dist._logpdf(z, *theta)


def _combine(fn: Callable[..., Any], *parts: Any) -> Any:
    for p in parts:
        if isinstance(p, NotImplementedTangent):
            return p
    return fn(*parts)


def scaled(p: Any, factor: Any) -> Any:
    """``p * factor``; a ``NotImplementedTangent`` ``p`` passes through."""
    return p if isinstance(p, NotImplementedTangent) else p * factor


def raw_moment_from_cumulants(n: int, k: tuple[Any, ...], d: tuple[Any, ...]) -> Any:
    """``d mu'_n`` (n <= 4) from the cumulants ``k = (k1, ..., k4)`` and their derivatives ``d`` in one parameter.

    ``mu'_2 = k2 + k1^2``, ``mu'_3 = k3 + 3 k2 k1 + k1^3``, ``mu'_4 = k4 + 4 k3 k1 + 3 k2^2 + 6 k2 k1^2 + k1^4``.
    """
    k1, k2, k3, _ = k
    d1, d2, d3, d4 = d
    if n == 1:
        return d1
    if n == 2:
        return d2 + 2 * k1 * d1
    if n == 3:
        return d3 + 3 * (d2 * k1 + k2 * d1) + 3 * k1 * k1 * d1
    if n == 4:
        return (d4 + 4 * (d3 * k1 + k3 * d1) + 6 * k2 * d2 + 6 * (d2 * k1 * k1 + 2 * k2 * k1 * d1)
                + 4 * k1 ** 3 * d1)
    raise ValueError(f"moments from the first four cumulants: order {n} > 4")


def added(*parts: Any) -> Any:
    """The sum of partials; the first ``NotImplementedTangent`` among them is the answer."""
    return _combine(lambda *ps: sum(ps[1:], ps[0]), *parts)


# ---- registry of models -----------------------------------------------------------------------------------
_MODELS: dict[type, ContinuousModel] = {}


CONTINUOUS_MODULES = ("beta_family", "bounded", "circular", "extreme_value", "gamma_family", "location_scale",
                      "noncentral", "normal_family", "pareto_family", "skewed_and_folded")
"""The modules of :mod:`chainrules.rulesets.stats` that register continuous distributions."""


def all_models() -> list[ContinuousModel]:
    """Every continuous distribution's model, by name, after importing the modules that register them
    (for sample generators of the generic methods: freezing, ``rvs``)."""
    import importlib

    for name in CONTINUOUS_MODULES:
        importlib.import_module(f"chainrules.rulesets.stats.{name}")
    return sorted(_MODELS.values(), key=lambda m: m.name)


def model_of(dist: Any) -> ContinuousModel:
    for klass in type(dist).__mro__:
        model = _MODELS.get(klass)
        if model is not None:
            return model
    raise KeyError(type(dist).__name__)  # never: the rules are registered for the models' classes only


# ---- the generic kernels ----------------------------------------------------------------------------------
def _parts(call: MethodCall) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    return f64(call.loc), f64(call.scale), [f64(s) for s in call.shapes]


def _nan_where(p: Any, bad: np.ndarray) -> Any:
    """``p`` with NaN where ``bad`` (a zero partial too); not-implemented partials pass through."""
    if isinstance(p, NotImplementedTangent) or not np.any(bad):
        return p
    return np.where(bad, np.nan, 0.0 if p is None else p)


def _zero_where(p: Any, mask: np.ndarray) -> Any:
    if isinstance(p, NotImplementedTangent) or p is None or not np.any(mask):
        return p
    return np.where(mask, 0.0, p)


def _shape_names(call: MethodCall) -> tuple[str, ...]:
    return tuple(n.strip() for n in call.dist.shapes.split(",")) if call.dist.shapes else ()


def _assign_shapes(out: dict[str, Any], names: Sequence[str], call: MethodCall, partials: Iterable[Any]) -> None:
    for shape, p in zip(_shape_names(call), partials):
        if shape in names:
            out[shape] = p


def _wants_shapes(call: MethodCall, names: Sequence[str]) -> bool:
    return any(n in names for n in _shape_names(call))


def _logpdf_partials(call: MethodCall, y: Any, names: Sequence[str], density: bool = False) -> dict[str, Any]:
    model = model_of(call.dist)
    loc, scale, shapes = _parts(call)
    x = f64(call.lead())
    y = f64(y)
    with np.errstate(all="ignore"):
        z = (x - loc) / scale
        out: dict[str, Any] = {}
        if density:  # pdf: f times the partials of log f; 0 where f is (outside the support, underflow)
            weight = y
            constant = y == 0
        else:
            weight = None
            constant = y == -np.inf
        bad = np.isnan(y) | (y == np.inf)
        if {"x", "loc", "scale"} & set(names):
            lz = f64(model.dlogpdf_dz(z, *shapes))
            if weight is not None:
                lz = weight * lz
            if "x" in names:
                out["x"] = lz / scale
            if "loc" in names:
                out["loc"] = -lz / scale
            if "scale" in names:
                out["scale"] = -((1.0 if weight is None else weight) + z * lz) / scale
        if _wants_shapes(call, names):
            dshapes = model.dlogpdf_dshapes(z, *shapes)
            if weight is not None:
                dshapes = tuple(d if isinstance(d, NotImplementedTangent) else weight * d for d in dshapes)
            _assign_shapes(out, names, call, dshapes)
        return {k: _nan_where(_zero_where(v, constant), bad) for k, v in out.items()}


def _pdf_partials(call: MethodCall, y: Any, names: Sequence[str]) -> dict[str, Any]:
    return _logpdf_partials(call, y, names, density=True)


def _density_at(call: MethodCall, point: Any) -> np.ndarray:
    """``log f(point)``: SciPy's log-density at ``point`` with the call's parameters."""
    return f64(call.dist.logpdf(point, *call.shapes, loc=call.loc, scale=call.scale))


def _distribution_partials(call: MethodCall, y: Any, names: Sequence[str], kind: str) -> dict[str, Any]:
    """cdf, sf, logcdf, logsf."""
    model = model_of(call.dist)
    loc, scale, shapes = _parts(call)
    x = f64(call.lead())
    y = f64(y)
    sign = 1.0 if kind in ("cdf", "logcdf") else -1.0
    with np.errstate(all="ignore"):
        z = (x - loc) / scale
        out: dict[str, Any] = {}
        bad = np.isnan(y)
        if {"x", "loc", "scale"} & set(names):
            logf = _density_at(call, x)
            if kind.startswith("log"):
                ratio = np.exp(logf - y)  # f/F or f/S, without forming either
                ratio = np.where(np.isneginf(logf), 0.0, ratio)  # outside the support: constant
            else:
                ratio = np.exp(logf)
            ratio = sign * ratio
            if "x" in names:
                out["x"] = ratio
            if "loc" in names:
                out["loc"] = -ratio
            if "scale" in names:
                out["scale"] = np.where(ratio == 0, 0.0, -z * ratio)
        if _wants_shapes(call, names):
            if kind == "logcdf":
                dshapes = model.dlogcdf_dshapes(z, y, *shapes)
            elif kind == "logsf":
                dshapes = model.dlogsf_dshapes(z, y, *shapes)
            else:
                dshapes = tuple(d if isinstance(d, NotImplementedTangent) else sign * f64(d)
                                for d in model.dcdf_dshapes(z, *shapes))
            _assign_shapes(out, names, call, dshapes)
        return {k: _nan_where(v, bad) for k, v in out.items()}


def _quantile_partials(call: MethodCall, y: Any, names: Sequence[str], q_sign: float | None,
                       q_name: str = "q", q_factor: float = 1.0) -> dict[str, Any]:
    """ppf, isf (``q_sign`` 1 or -1), median (``None``): the implicit function theorem at the output."""
    model = model_of(call.dist)
    loc, scale, shapes = _parts(call)
    y = f64(y)
    with np.errstate(all="ignore"):
        zeta = (y - loc) / scale
        out: dict[str, Any] = {}
        bad = ~np.isfinite(y)
        logf = None
        if q_sign is not None and q_name in names:
            logf = _density_at(call, y)
            out[q_name] = q_sign * q_factor * np.exp(-logf)
        if "loc" in names:
            out["loc"] = np.ones_like(zeta)
        if "scale" in names:
            out["scale"] = zeta
        if _wants_shapes(call, names):
            if logf is None:
                logf = _density_at(call, y)
            inv_density = np.exp(-logf)
            # F_theta = 0 where F does not move with theta (the median of a symmetric law): 0 even where f = 0
            dshapes = tuple(d if isinstance(d, NotImplementedTangent) else
                            np.where(f64(d) == 0, 0.0, -f64(d) * inv_density)
                            for d in model.dcdf_dshapes(zeta, *shapes))
            _assign_shapes(out, names, call, dshapes)
        return {k: _nan_where(v, bad) for k, v in out.items()}


def _moment_partials(call: MethodCall, y: Any, names: Sequence[str], kind: str) -> dict[str, Any]:
    model = model_of(call.dist)
    loc, scale, shapes = _parts(call)
    y = f64(y)
    with np.errstate(all="ignore"):
        out: dict[str, Any] = {}
        bad = ~np.isfinite(y)
        if kind == "mean":
            if "loc" in names:
                out["loc"] = np.ones_like(y)
            if "scale" in names:
                out["scale"] = (y - loc) / scale
            if _wants_shapes(call, names):
                _assign_shapes(out, names, call, (_combine(lambda d: scale * f64(d), d) for d in model.dmean(*shapes)))
        elif kind in ("var", "std"):
            if "loc" in names:
                out["loc"] = None
            if "scale" in names:
                out["scale"] = (2.0 if kind == "var" else 1.0) * y / scale
            if _wants_shapes(call, names):
                factor = scale * scale if kind == "var" else scale * scale / (2.0 * y)
                _assign_shapes(out, names, call, (_combine(lambda d: factor * f64(d), d) for d in model.dvar(*shapes)))
        elif kind == "entropy":
            if "loc" in names:
                out["loc"] = None
            if "scale" in names:
                out["scale"] = np.broadcast_to(1.0 / scale, y.shape)
            if _wants_shapes(call, names):
                _assign_shapes(out, names, call, model.dentropy(*shapes))
        return {k: _nan_where(v, bad) for k, v in out.items()}


def _raw_moment_partials(call: MethodCall, y: Any, names: Sequence[str]) -> dict[str, Any]:
    """moment(n): ``M_n = sum_k C(n, k) loc^(n-k) s^k mu'_k``."""
    model = model_of(call.dist)
    loc, scale, shapes = _parts(call)
    n = int(call.lead())
    y = f64(y)
    with np.errstate(all="ignore"):
        out: dict[str, Any] = {}
        bad = ~np.isfinite(y)
        if n == 0:
            return {k: None for k in names}
        if "loc" in names or "scale" in names:
            previous = f64(call.dist.moment(n - 1, *call.shapes, loc=call.loc, scale=call.scale))
            if "loc" in names:
                out["loc"] = n * previous
            if "scale" in names:
                out["scale"] = n * (y - loc * previous) / scale
        if _wants_shapes(call, names):
            total: list[Any] = [0.0] * model.nshapes
            for k in range(1, n + 1):
                coefficient = math.comb(n, k) * loc ** (n - k) * scale ** k
                for i, d in enumerate(model.dmunp(k, *shapes)):
                    if isinstance(total[i], NotImplementedTangent):
                        continue
                    total[i] = d if isinstance(d, NotImplementedTangent) else total[i] + coefficient * f64(d)
            _assign_shapes(out, names, call, total)
        return {k: _nan_where(v, bad) for k, v in out.items()}


def _interval_partials(call: MethodCall, y: Any, names: Sequence[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    lower, upper = y
    return (_quantile_partials(call, lower, names, 1.0, "confidence", -0.5),
            _quantile_partials(call, upper, names, 1.0, "confidence", 0.5))


KernelFn = Callable[[MethodCall, Any, Sequence[str]], Any]

METHODS: dict[str, tuple[Callable[..., Any], KernelFn, int]] = {
    "pdf": (rv_continuous.pdf, _pdf_partials, 1),
    "logpdf": (rv_continuous.logpdf, _logpdf_partials, 1),
    "cdf": (rv_continuous.cdf, lambda c, y, n: _distribution_partials(c, y, n, "cdf"), 1),
    "logcdf": (rv_continuous.logcdf, lambda c, y, n: _distribution_partials(c, y, n, "logcdf"), 1),
    "sf": (rv_continuous.sf, lambda c, y, n: _distribution_partials(c, y, n, "sf"), 1),
    "logsf": (rv_continuous.logsf, lambda c, y, n: _distribution_partials(c, y, n, "logsf"), 1),
    "ppf": (rv_continuous.ppf, lambda c, y, n: _quantile_partials(c, y, n, 1.0), 1),
    "isf": (rv_continuous.isf, lambda c, y, n: _quantile_partials(c, y, n, -1.0), 1),
    "median": (rv_generic.median, lambda c, y, n: _quantile_partials(c, y, n, None), 1),
    "interval": (rv_generic.interval, _interval_partials, 2),
    "mean": (rv_generic.mean, lambda c, y, n: _moment_partials(c, y, n, "mean"), 1),
    "var": (rv_generic.var, lambda c, y, n: _moment_partials(c, y, n, "var"), 1),
    "std": (rv_generic.std, lambda c, y, n: _moment_partials(c, y, n, "std"), 1),
    "entropy": (rv_generic.entropy, lambda c, y, n: _moment_partials(c, y, n, "entropy"), 1),
    "moment": (rv_generic.moment, _raw_moment_partials, 1),
}
"""Method name -> (the method's function, its generic kernel, its number of outputs)."""


def register_models(*models: ContinuousModel) -> None:
    """Register the rules of every method for the models' distributions, and their samples.

    Called once per module of models (one registration per method for the union of the
    classes, see :func:`~chainrules.rulesets.stats._distribution_methods.register_method`).
    """
    classes = []
    for model in models:
        cls = type(model.dist)
        _MODELS[cls] = model
        classes.append(cls)
    for method, kernel, nout in METHODS.values():
        register_method(method, {cls: kernel for cls in classes}, nout=nout)
    for name, (method, _, _) in METHODS.items():
        sample_inputs(method)(_sample_generator(models, name))


# ---- samples ----------------------------------------------------------------------------------------------
_LOC, _SCALE = 0.25, 1.5
_QUANTILES = np.array([0.1, 0.45, 0.85])


def _sample_generator(models: Sequence[ContinuousModel], method: str) -> Callable[[np.random.Generator], Any]:
    def distribution_samples(rng: np.random.Generator) -> Iterable[Sample]:
        for model in models:
            yield from model_samples(model, method)

    distribution_samples.__name__ = f"{method}_samples"
    return distribution_samples


def model_samples(model: ContinuousModel, method: str) -> Iterable[Sample]:
    """The samples of one method of one distribution: one per regime of the shapes, and the tails."""
    dist = model.dist
    options = dict(model.sample_options.get(method, model.sample_options.get("*", {})))
    if method in ("mean", "var", "std", "moment") and not model.moments_exist:
        return
    if method in ("var", "std") and model.slow_moments:
        return
    if method in ("mean", "var", "std", "moment") and model.slow_all_moments:
        return
    numeric = method in ("mean", "var", "std", "moment", "entropy") and not _own(
        dist, "_entropy" if method == "entropy" else "_stats") and not (method != "entropy" and _own(dist, "_munp"))
    numeric = numeric or (method == "moment" and model.numeric_moment)
    if numeric and "fdm" not in options:
        # SciPy integrates numerically (tens of ms a call, a quarter of a second for moment(3) with loc != 0):
        # finite differences without the step search, in the shapes only (loc and scale by keyword, loc = 0;
        # the rules' generic loc/scale parts are checked on the closed-form distributions)
        from chainrules.testing import central_fdm

        options["fdm"] = central_fdm(5, 1, adapt=0)
    for shapes in model.shape_samples:
        label = f"{model.name}{tuple(shapes) if shapes else ''}"
        params = (*shapes, _LOC, _SCALE)
        if method in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"):
            x = f64(dist.ppf(_QUANTILES, *params))
            yield Sample(dist, x, *params, label=f"{label} {method}", **options)
        elif method in ("ppf", "isf"):
            yield Sample(dist, np.array([0.2, 0.6]), *params, label=f"{label} {method}", **options)
        elif numeric and shapes:
            lead = (model.moment_order,) if method == "moment" else ()
            yield Sample(dist, *lead, *shapes, fkwargs={"loc": 0.0, "scale": _SCALE},
                         label=f"{label} {method}{f'({lead[0]})' if lead else ''} (in the shapes; SciPy integrates)",
                         **options)
        elif method == "moment":
            yield Sample(dist, model.moment_order, *params, label=f"{label} moment({model.moment_order})", **options)
        elif method == "interval":
            yield Sample(dist, 0.8, *params, label=f"{label} interval(0.8)", **options)
        else:
            yield Sample(dist, *params, label=f"{label} {method}", **options)
    if model.tail_q is not None and method in ("logcdf", "logsf", "ppf", "isf") and model.shape_samples:
        yield from _tail_samples(model, method, options)


def _own(dist: Any, method: str) -> bool:
    """Whether the distribution's class defines ``method`` (not inherited from ``rv_continuous``)."""
    return any(method in vars(k) for k in type(dist).__mro__ if k is not rv_continuous and issubclass(k, rv_continuous))


def _tail_samples(model: ContinuousModel, method: str, options: dict[str, Any]) -> Iterable[Sample]:
    """Samples in the tails, where SciPy's own value is accurate there.

    ``logcdf``/``logsf`` where the probability is ``tail_q`` (1e-100: ``F`` and ``f`` tiny, their
    logarithms not), on a side where the support is unbounded; ``ppf``/``isf`` at ``q = 1e-12`` where
    SciPy's inverse is accurate to 1e-11 there (``F(ppf(q)) = q``; SciPy's ``halfnorm.ppf`` solves
    ``Phi(x) = (1 + q)/2`` and keeps four digits of ``q``): ``q`` checked with steps below ``1e-12``
    (the parameters given by keyword: constants), the shape parameters apart with their own steps.
    """
    from chainrules.testing import PrimalAndTangent, central_fdm

    dist = model.dist
    shapes = model.shape_samples[0]
    params = (*shapes, 0.0, _SCALE)  # loc = 0: x - loc does not cancel near a finite end of the support
    label = f"{model.name}{tuple(shapes) if shapes else ''}"
    low, high = (float(b) for b in dist.support(*shapes))
    with np.errstate(all="ignore"):
        if method in ("logcdf", "logsf"):
            q = model.tail_q
            x = f64(dist.ppf(q, *params) if method == "logcdf" else dist.isf(q, *params))
            value = f64(getattr(dist, method)(x, *params))
            unbounded = low == -np.inf if method == "logcdf" else high == np.inf
            if unbounded and np.isfinite(x) and np.isfinite(value):
                side = "left tail (F" if method == "logcdf" else "right tail (S"
                yield Sample(dist, x, *params, label=f"{label} {method}, {side} = {q:g})", **options)
            return
        small = 1e-12
        y = f64(getattr(dist, method)(small, *params))
        back = f64(dist.cdf(y, *params) if method == "ppf" else dist.sf(y, *params))
        if not (np.isfinite(y) and abs(back - small) <= 1e-11 * small):
            return
        names = [n.strip() for n in dist.shapes.split(",")] if dist.shapes else []
        constants = {"loc": params[-2], "scale": params[-1]}
        yield Sample(dist, small, fkwargs={**dict(zip(names, shapes)), **constants},
                     label=f"{label} {method}({small:g}) in q", fdm=central_fdm(5, 1, max_range=small / 4), **options)
        if shapes:  # q moves in the reverse check only (its own steps), not in the forward direction
            yield Sample(dist, PrimalAndTangent(small, 0.0), *shapes, fkwargs=constants,
                         label=f"{label} {method}({small:g}) in the shapes", **options)
