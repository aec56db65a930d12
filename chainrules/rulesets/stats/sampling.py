"""Random variates: ``rvs`` of the continuous distributions of ``scipy.stats`` (and their frozen forms) and
``dirichlet.rvs``, differentiated along the sampling path.

What is differentiated
----------------------
A draw is a deterministic function of the random state and of the parameters. SciPy draws a
continuous variate as ``y = loc + scale z`` with ``z`` a *standard* draw (``loc = 0``,
``scale = 1``) that does not depend on ``loc`` and ``scale``, so with the random state held
fixed::

    dy/dloc = 1,   dy/dscale = z

the pathwise (reparameterisation) derivative (Kingma & Welling, ICLR 2014). The pullback
draws ``z`` again from a copy of the random state taken before the primal draw (an integer
``random_state`` is a fresh generator each call; ``None`` is the distribution's own
generator), rather than recovering it as ``(y - loc) / scale`` (``0/0`` at ``scale = 0``,
digits lost when ``|loc| >> scale``). Every ``rv_continuous`` has these rules.

**Shape parameters** by implicit reparameterisation (Figurnov, Mohamed & Mnih, "Implicit
reparameterization gradients", NeurIPS 2018): the draw is read as the quantile of its own
probability level, ``z = F^-1(u; theta)`` with ``u = F(z; theta)`` held fixed, so
``dz/dtheta = -(dF/dtheta)(z) / f(z)``. This is the gradient estimator PyTorch's
``rsample`` and JAX's ``random.gamma`` use for the gamma family:

* ``gamma(a)`` (and ``erlang``): ``dF/da`` of ``P(a, z)`` by the incomplete gamma rules;
  ``chi2(df)``: ``P(df/2, z/2)``;
* ``beta(a, b)``: ``dF/da``, ``dF/db`` of ``I_z(a, b)`` by the incomplete beta rules;
* ``dirichlet(alpha)``: through its stick-breaking representation, ``v_i = x_i / (1 - x_1 -
  ... - x_(i-1)) ~ Beta(alpha_i, alpha_(i+1) + ... + alpha_K)`` independent, each ``v_i``
  held at its own probability level; ``x`` follows from the ``v`` by the chain rule.

NumPy draws these by rejection (Marsaglia & Tsang 2000; ratios of gammas), so this
derivative is **not** the derivative of NumPy's draw at a fixed seed, which jumps where an
accept/reject decision flips and whose pathwise derivative is biased (Naesseth et al.,
AISTATS 2017): it is the derivative of the inverse-CDF path through the same draw, an
unbiased estimator of ``d/dtheta E[g(y)]``. (Finite differences of ``rvs`` at a fixed seed
therefore do not check it; the samples draw with a generator that samples by inversion,
:class:`~chainrules.rulesets.stats._inversion.InversionGenerator`, and the tests compare with
finite differences of ``ppf`` at the draw's probability level.)

The shape parameters of every other continuous distribution are ``not_implemented``, with
the workaround: draw ``u`` uniform and call ``dist.ppf(u, *shapes)``, whose rules give the
shape derivatives (SciPy's own default sampler is that inversion). The integer draws of
discrete distributions are not differentiable (``NoTangent()``). For ``multivariate_normal.rvs``
use NumPy's ``Generator.multivariate_normal``, whose rules (the pathwise derivative in the
mean and the covariance, :mod:`chainrules.rulesets.arrays.random`) this module does not
duplicate.

``size`` and ``random_state`` are never differentiated.

Examples
--------
>>> import numpy as np, scipy.stats as st
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(st.norm.rvs, 1.0, 2.0, 3, random_state=0)
>>> z = st.norm.rvs(size=3, random_state=0)
>>> bool(np.allclose(unthunk(pullback(np.ones(3))[3]), z.sum()))  # dy/dscale = z
True
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.stats as st
from scipy._lib._util import check_random_state
from scipy.stats._distn_infrastructure import rv_continuous, rv_continuous_frozen, rv_discrete, rv_frozen, rv_generic
from scipy.stats._multivariate import dirichlet_gen

from chainrules.rulesets.special.incomplete_beta import betainc_dab, log_betainc_dx
from chainrules.rulesets.special.incomplete_gamma import gammainc_da, log_gammainc_dx
from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    Varargs,
    ZeroTangent,
    differentiable,
    frule,
    non_differentiable,
    not_implemented,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["implicit_shape_partials", "standard_draw"]


def _shape_reason(name: str) -> str:
    return (f"scipy.stats.{name}.rvs: the derivative of a draw in the shape parameters is given (by implicit "
            "reparameterisation) for gamma, erlang, chi2, beta and dirichlet only; draw u = uniform(size) and call "
            f"scipy.stats.{name}.ppf(u, *shapes), whose rules differentiate the shapes")


def implicit_shape_partials(dist: Any, z: np.ndarray, shapes: Sequence[Any]) -> tuple[Any, ...]:
    """``dz/dtheta = -(dF/dtheta)(z) / f(z)`` at standard draws ``z``, one per shape parameter.

    Examples
    --------
    >>> import numpy as np, scipy.stats as st
    >>> from chainrules.rulesets.stats.sampling import implicit_shape_partials
    >>> (dz,) = implicit_shape_partials(st.gamma, np.array([1.5]), (1.0,))  # a = 1: z = -log(1 - u)
    >>> dz.round(6)  # d/da of the Gamma(a) quantile at u = 1 - e^-1.5 (finite differences: 1.4309374)
    array([1.430937])
    """
    z = np.asarray(z, dtype=np.float64)
    with np.errstate(all="ignore"):
        if isinstance(dist, type(st.gamma)):  # gamma, erlang
            (a,) = (np.asarray(s, dtype=np.float64) for s in shapes)
            da = gammainc_da(a, z)
            if isinstance(da, NotImplementedTangent):
                return (da,)
            return (-np.asarray(da) * np.exp(-log_gammainc_dx(a, z)),)  # the density, accurate for large a
        if isinstance(dist, type(st.chi2)):
            (df,) = (np.asarray(s, dtype=np.float64) for s in shapes)
            da = gammainc_da(df / 2, z / 2)
            if isinstance(da, NotImplementedTangent):
                return (da,)
            return (-np.asarray(da) * np.exp(-log_gammainc_dx(df / 2, z / 2)),)  # dF/ddf = P_a / 2, f = P_x / 2
        if isinstance(dist, type(st.beta)):
            a, b = (np.asarray(s, dtype=np.float64) for s in shapes)
            dab = betainc_dab(a, b, z)
            if isinstance(dab, NotImplementedTangent):
                return dab, dab
            inv_density = np.exp(-log_betainc_dx(a, b, z))
            return -np.asarray(dab[0]) * inv_density, -np.asarray(dab[1]) * inv_density
    missing = not_implemented(_shape_reason(dist.name))
    return (missing,) * int(dist.numargs)


class _RvsCall:
    """A call ``dist.rvs(*args, **kwargs)`` parsed as SciPy parses it, with a copy of the random state."""

    def __init__(self, dist: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.dist = dist
        n = int(dist.numargs)
        names = [*(f"shape{i}" for i in range(n)), "loc", "scale", "size"]
        values = dict(zip(names, args))
        self.positional = set(values)
        self.shapes = tuple(values.get(f"shape{i}", kwargs.get(s)) for i, s in enumerate(self._shape_names()))
        self.loc = values.get("loc", kwargs.get("loc", 0.0))
        self.scale = values.get("scale", kwargs.get("scale", 1.0))
        self.size = values.get("size", kwargs.get("size"))
        seed = kwargs.get("random_state")
        source = dist._random_state if seed is None else seed
        self.state = copy.deepcopy(source) if not isinstance(source, (int, np.integer)) else source

    def _shape_names(self) -> list[str]:
        return [s.strip() for s in self.dist.shapes.split(",")] if self.dist.shapes else []

    def standard(self, shape: tuple[int, ...]) -> np.ndarray:
        """The standard draw ``z`` behind the output (of the output's ``shape``), from the saved state."""
        state = check_random_state(copy.deepcopy(self.state) if not isinstance(self.state, (int, np.integer))
                                   else self.state)
        z = rv_generic.rvs(self.dist, *self.shapes, loc=0.0, scale=1.0, size=shape, random_state=state)
        return np.asarray(z, dtype=np.float64).reshape(shape)


def standard_draw(dist: Any, args: tuple[Any, ...], kwargs: dict[str, Any], shape: tuple[int, ...]) -> np.ndarray:
    """The standard draw ``z`` of ``dist.rvs(*args, **kwargs)`` (call before the draw itself)."""
    return _RvsCall(dist, args, kwargs).standard(shape)


def _rvs_rules() -> tuple[Callable[..., Any], Callable[..., Any]]:
    def rvs_rrule(dist: rv_continuous, *args: Any, **kwargs: Any) -> Any:
        call = _RvsCall(dist, args, kwargs)
        y = rv_generic.rvs(dist, *args, **kwargs)  # the function the rule is for (wrapcauchy overrides dist.rvs)
        n = int(dist.numargs)
        live = [differentiable(a) and i < n + 2 for i, a in enumerate(args)]

        def rvs_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, rv_generic.rvs)
            if passes_through(dy):
                return (NO, NO, *((dy if isinstance(dy, NotImplementedTangent) else zero_like(a)) if ok else NO
                                  for a, ok in zip(args, live)))
            cache: dict[str, Any] = {}

            def z() -> np.ndarray:
                if "z" not in cache:
                    cache["z"] = call.standard(np.shape(y))
                return cache["z"]

            def shape_partials() -> tuple[Any, ...]:
                if "shapes" not in cache:
                    cache["shapes"] = implicit_shape_partials(dist, z(), call.shapes)
                return cache["shapes"]

            def cotangent(i: int) -> Any:
                arg = args[i]
                if i == n:  # loc
                    return argument_cotangent(arg, np.asarray(dy, dtype=np.float64))
                if i == n + 1:  # scale
                    return argument_cotangent(arg, np.asarray(dy, dtype=np.float64) * z())
                partial = shape_partials()[i]
                if isinstance(partial, NotImplementedTangent):
                    return partial
                return argument_cotangent(arg, np.asarray(dy, dtype=np.float64) * np.asarray(call.scale) * partial)

            several = sum(live) > 1
            out = [(Thunk(functools.partial(cotangent, i)) if several else cotangent(i)) if ok else NO
                   for i, ok in enumerate(live)]
            return (NO, NO, *out)

        rvs_pullback.__name__ = rvs_pullback.__qualname__ = "rvs_pullback"
        return y, rvs_pullback

    def rvs_frule(tangents: Any, dist: rv_continuous, *args: Any, **kwargs: Any) -> Any:
        call = _RvsCall(dist, args, kwargs)
        y = rv_generic.rvs(dist, *args, **kwargs)  # the function the rule is for (wrapcauchy overrides dist.rvs)
        n = int(dist.numargs)
        moving = []
        for i, (a, t) in enumerate(zip(args, tangents[2:])):
            t = tangent_value(t)
            if i < n + 2 and differentiable(a) and t is not None:
                if isinstance(t, NotImplementedTangent):
                    return y, t
                moving.append((i, np.asarray(t, dtype=np.float64)))
        if not moving:
            return y, fit_output(None, y)
        total: Any = 0.0
        z: Any = call.standard(np.shape(y)) if any(i != n for i, _ in moving) else None
        partials = implicit_shape_partials(dist, z, call.shapes) if any(i < n for i, _ in moving) else ()
        for i, t in moving:
            if i == n:
                total = total + t
            elif i == n + 1:
                total = total + z * t
            else:
                if isinstance(partials[i], NotImplementedTangent):
                    return y, partials[i]
                total = total + np.asarray(call.scale) * partials[i] * t
        return y, fit_output(np.broadcast_to(total, np.shape(y)), y)

    rvs_rrule.__doc__ = "Reverse rule of ``rv_continuous.rvs`` (see the module docstring)."
    rvs_frule.__doc__ = "Forward rule of ``rv_continuous.rvs``."
    return rvs_rrule, rvs_frule


rvs_rrule, rvs_frule = _rvs_rules()
rrule.register(rv_generic.rvs, rv_continuous, Varargs(object))(rvs_rrule)
frule.register(rv_generic.rvs, rv_continuous, Varargs(object))(rvs_frule)
# rv_generic.rvs called with a discrete distribution (rv_discrete.rvs itself is declared with the discrete models)
non_differentiable(rv_generic.rvs, rv_discrete, Varargs(object))


# ---- frozen distributions ---------------------------------------------------------------------------------
def frozen_rvs_rrule(frozen: rv_continuous_frozen, size: Any = None, random_state: Any = None) -> Any:
    """Reverse rule of ``frozen.rvs(size, random_state)``: the rule of ``frozen.dist.rvs(*frozen.args, ...)``."""
    from chainrules.rulesets.stats.frozen import frozen_tangent

    y, pullback = rvs_rrule(frozen.dist, *frozen.args, **frozen.kwds, size=size, random_state=random_state)

    def frozen_rvs_pullback(dy: Any) -> tuple[Any, ...]:
        cotangents = pullback(dy)[2:]
        dfrozen = frozen_tangent(frozen, cotangents)
        return NO, dfrozen, NO, NO

    return y, frozen_rvs_pullback


def frozen_rvs_frule(tangents: Any, frozen: rv_continuous_frozen, size: Any = None, random_state: Any = None) -> Any:
    """Forward rule of ``frozen.rvs(size, random_state)``."""
    from chainrules.rulesets.stats.frozen import read_frozen_tangent

    dfrozen = ZeroTangent() if tangents[1] is None else tangents[1]
    dargs = read_frozen_tangent(dfrozen, frozen, rv_frozen.rvs, what="tangent")
    return rvs_frule((NO, NO, *dargs), frozen.dist, *frozen.args, **frozen.kwds, size=size, random_state=random_state)


rrule.register(rv_frozen.rvs, rv_continuous_frozen)(frozen_rvs_rrule)
frule.register(rv_frozen.rvs, rv_continuous_frozen)(frozen_rvs_frule)


# ---- dirichlet ----------------------------------------------------------------------------------------------
class _StickBreaking:
    """The stick-breaking coordinates of Dirichlet draws and their implicit derivatives in ``alpha``.

    ``v_i = x_i / r_i`` with ``r_i = 1 - x_1 - ... - x_(i-1)`` is ``Beta(alpha_i, beta_i)``,
    ``beta_i = alpha_(i+1) + ... + alpha_K``; at fixed levels ``I_(v_i)(alpha_i, beta_i)``,
    ``dv_i/dalpha_i = -I_a / f`` and ``dv_i/dalpha_m = -I_b / f`` for every ``m > i``.
    """

    def __init__(self, x: np.ndarray, alpha: np.ndarray) -> None:
        self.x = x  # (..., K)
        k = alpha.shape[-1]
        self.remaining = 1.0 - np.concatenate([np.zeros(x.shape[:-1] + (1,)), np.cumsum(x[..., :-1], axis=-1)],
                                              axis=-1)  # r_i
        with np.errstate(all="ignore"):
            v = x[..., :-1] / self.remaining[..., :-1]
        a = np.broadcast_to(alpha[:-1], v.shape)
        b = np.broadcast_to(np.cumsum(alpha[::-1])[::-1][1:], v.shape)  # beta_i = sum_(m > i) alpha_m
        dab = betainc_dab(a, b, v)
        self.missing = dab if isinstance(dab, NotImplementedTangent) else None
        if self.missing is None:
            with np.errstate(all="ignore"):
                inv_density = np.exp(-np.asarray(st.beta.logpdf(v, a, b)))
                self.dv_da = -np.asarray(dab[0]) * inv_density
                self.dv_db = -np.asarray(dab[1]) * inv_density
        self.v = v
        self.k = k

    def pullback(self, xbar: np.ndarray) -> np.ndarray:
        """``alpha_bar`` (summed over the draws) from the cotangent of the draws."""
        x, r, v = self.x, self.remaining, self.v
        # dx_i/dv_j = r_i [i = j] - x_i / (1 - v_j) [i > j], the last component x_K = r_K included
        tail = np.cumsum((xbar * x)[..., ::-1], axis=-1)[..., ::-1]  # sum_(i >= j) xbar_i x_i
        with np.errstate(all="ignore"):
            vbar = xbar[..., :-1] * r[..., :-1] - tail[..., 1:] / (1.0 - v)
        through_a = vbar * self.dv_da  # alpha_j through its own v_j
        through_b = np.cumsum(vbar * self.dv_db, axis=-1)  # alpha_m through every v_j with j < m
        abar = np.zeros(x.shape)
        abar[..., :-1] += through_a
        abar[..., 1:] += through_b
        return abar.reshape(-1, self.k).sum(axis=0)

    def pushforward(self, dalpha: np.ndarray) -> np.ndarray:
        """The tangent of the draws for a tangent ``dalpha``."""
        x, r, v = self.x, self.remaining, self.v
        dbeta = np.cumsum(dalpha[::-1])[::-1][1:]
        dv = self.dv_da * dalpha[:-1] + self.dv_db * dbeta
        with np.errstate(all="ignore"):
            # dx_i = r_i dv_i - x_i sum_(j < i) dv_j / (1 - v_j)
            decay = np.cumsum(dv / (1.0 - v), axis=-1)
        dx = np.zeros(x.shape)
        dx[..., :-1] = r[..., :-1] * dv
        dx[..., 1:] -= x[..., 1:] * decay
        return dx


def dirichlet_rvs_rrule(dist: dirichlet_gen, alpha: Any, size: Any = 1, random_state: Any = None) -> Any:
    """Reverse rule of ``dirichlet.rvs``: the implicit stick-breaking derivative in ``alpha``."""
    y = dist.rvs(alpha, size, random_state)

    def dirichlet_rvs_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, dirichlet_gen.rvs)
        if not differentiable(alpha):
            return NO, NO, NO, NO, NO
        if passes_through(dy):
            return NO, NO, dy if isinstance(dy, NotImplementedTangent) else zero_like(alpha), NO, NO
        sticks = _StickBreaking(np.asarray(y, dtype=np.float64), np.asarray(alpha, dtype=np.float64))
        if sticks.missing is not None:
            return NO, NO, sticks.missing, NO, NO
        return NO, NO, argument_cotangent(alpha, sticks.pullback(np.asarray(dy, dtype=np.float64))), NO, NO

    return y, dirichlet_rvs_pullback


def dirichlet_rvs_frule(tangents: Any, dist: dirichlet_gen, alpha: Any, size: Any = 1,
                        random_state: Any = None) -> Any:
    """Forward rule of ``dirichlet.rvs``."""
    y = dist.rvs(alpha, size, random_state)
    da = tangent_value(tangents[2]) if differentiable(alpha) else None
    if da is None or isinstance(da, NotImplementedTangent):
        return y, fit_output(da, y)
    sticks = _StickBreaking(np.asarray(y, dtype=np.float64), np.asarray(alpha, dtype=np.float64))
    if sticks.missing is not None:
        return y, sticks.missing
    return y, fit_output(sticks.pushforward(np.asarray(da, dtype=np.float64)), y)


rrule.register(dirichlet_gen.rvs, dirichlet_gen)(dirichlet_rvs_rrule)
frule.register(dirichlet_gen.rvs, dirichlet_gen)(dirichlet_rvs_frule)


# ---- sample inputs --------------------------------------------------------------------------------------
# An integer random_state is a fresh generator each call, so the testers' calls all see the same draws. For the
# shape parameters the samples pass an InversionGenerator (_inversion.py): it draws gamma, beta and Dirichlet
# variates by inversion of fixed uniform numbers, so finite differences of rvs follow the inverse-CDF path the
# rules differentiate (NumPy's rejection samplers follow another one).
@sample_inputs(rv_generic.rvs)
def _rvs_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.rulesets.stats._inversion import InversionGenerator

    inversion = InversionGenerator(11)
    return [Sample(st.norm, 1.0, 2.0, 4, fkwargs={"random_state": 7}, label="norm(loc, scale), 4 draws"),
            Sample(st.norm, np.array([0.0, 1.0]), 0.5, fkwargs={"random_state": 3}, label="norm, loc an array"),
            Sample(st.laplace, 0.5, np.array([1.0, 3.0]), fkwargs={"size": 2, "random_state": 5},
                   label="laplace, scale an array"),
            Sample(st.gamma, 2.5, 0.3, 1.5, 3, fkwargs={"random_state": inversion},
                   label="gamma(a, loc, scale) drawn by inversion"),
            Sample(st.gamma, 0.4, 0.0, 1.0, 3, fkwargs={"random_state": inversion}, label="gamma, a < 1"),
            Sample(st.chi2, 3.5, 0.0, 2.0, 3, fkwargs={"random_state": inversion}, label="chi2(df) by inversion"),
            Sample(st.beta, 2.0, 0.7, 0.0, 2.0, 3, fkwargs={"random_state": inversion},
                   label="beta(a, b, loc, scale) by inversion"),
            Sample(st.gamma, 3, 0.3, 1.5, 3, fkwargs={"random_state": 11}, label="gamma, an integer a (NoTangent)"),
            Sample(st.weibull_min, 1.7, 0.0, 2.0, 3, fkwargs={"random_state": 4},
                   label="weibull_min: its shape is not implemented"),
            Sample(st.norm, np.float32(1.0), np.float32(2.0), 3, fkwargs={"random_state": 7}, label="float32"),
            Sample(st.poisson, 3.0, 4, fkwargs={"random_state": 1}, label="poisson: integer draws (NoTangent)"),
            *_every_distribution_rvs_samples()]


def _every_distribution_rvs_samples() -> list[Sample]:
    """loc and scale's pathwise derivative at a sample of every continuous distribution with rules; the shapes held
    fixed (NumPy's samplers draw some by rejection, which finite differences cannot follow: the shape derivatives
    are checked above with draws by inversion, where they are implemented)."""
    from chainrules.rulesets.stats._continuous import all_models
    from chainrules.testing import PrimalAndTangent

    implicit = (type(st.gamma), type(st.chi2), type(st.beta))  # erlang is a gamma: shapes differentiated above
    samples = []
    for model in all_models():
        if isinstance(model.dist, implicit) or type(model.dist).rvs is not rv_generic.rvs:
            continue  # (wrapcauchy has an rvs of its own, which wraps the draws: no rule)
        shapes = [PrimalAndTangent(s, NO) for s in (model.shape_samples[0] if model.shape_samples else ())]
        samples.append(Sample(model.dist, *shapes, 0.25, 1.5, 3, fkwargs={"random_state": 7},
                              label=f"{model.name}: loc and scale, the shapes held fixed"))
    return samples


@sample_inputs(rv_frozen.rvs)
def _frozen_rvs_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.rulesets.stats._inversion import InversionGenerator
    from chainrules.rulesets.stats.frozen import register_for_testing

    register_for_testing()
    return [Sample(st.norm(1.0, 2.0), 3, 7, label="frozen norm(1, 2).rvs(3, 7)"),
            Sample(st.gamma(2.5, 0.0, 1.5), 3, InversionGenerator(2), label="frozen gamma(2.5, 0, 1.5), by inversion")]


@sample_inputs(dirichlet_gen.rvs)
def _dirichlet_rvs_samples(rng: np.random.Generator) -> list[Sample]:
    from chainrules.rulesets.stats._inversion import InversionGenerator

    inversion = InversionGenerator(5)
    return [Sample(st.dirichlet, np.array([1.5, 2.0, 0.7]), 2, inversion, label="two draws, stick-breaking inversion"),
            Sample(st.dirichlet, np.array([0.6, 3.0, 1.2, 2.5]), 1, inversion, label="K = 4, one draw")]
