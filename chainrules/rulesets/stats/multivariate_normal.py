"""The multivariate normal distribution: ``multivariate_normal.logpdf``, ``.pdf`` and ``.entropy``, in ``x``,
``mean`` and ``cov`` (singular covariances included).

The maths
---------
For a point ``x`` with ``r = x - mean`` and a covariance ``S`` of rank ``k`` (``S^+`` its
pseudo-inverse, ``pdet`` its pseudo-determinant; ``S^+ = S^-1``, ``pdet = det`` when it is
nonsingular)::

    log p = -(k log(2 pi) + log pdet(S) + r^T S^+ r) / 2
    d log p / dx = -S^+ r,     d log p / dmean = S^+ r,
    d log p / dS = (S^+ r r^T S^+ - S^+) / 2                      (symmetric)

(Petersen & Pedersen, *The Matrix Cookbook*, 2012, eqs. 57 and 61 for the nonsingular
case.) For a singular ``S`` (``allow_singular=True``) these are the derivatives along
perturbations that keep the rank: the derivative of the log pseudo-determinant is
``tr(S^+ dS)`` (Holbrook, "Differentiating the pseudo determinant", *Linear Algebra Appl.*
548:293, 2018) and that of the pseudo-inverse is ``-S^+ dS S^+`` plus terms that vanish
against an ``r`` in the range of ``S`` (Golub & Pereyra, *SIAM J. Numer. Anal.* 10:413,
1973, Thm. 4.3). A perturbation that changes the rank (one with a part ``P0 dS P0`` in
the null space) changes SciPy's value by a jump: the function has no derivative there,
and the rule gives the rank-preserving one. A point outside the support (``r`` not in the
range of ``S``) has ``log p = -inf`` on a neighbourhood: its cotangents are 0. The
computation uses SciPy's own factorisation (``eigh`` and its cutoff, see
:mod:`chainrules.rulesets.stats._psd`), so the rank decisions are the same.

With ``w_k`` the output cotangent of point ``k``, ``Z = R U`` (the whitened deviations,
``S^+ = U U^T``) and ``W = Z U^T``: ``x_bar = -w W``, ``mean_bar = (w^T Z) U^T`` and
``S_bar = U (Z^T diag(w) Z - sum(w) I) U^T / 2``: two ``n d^2`` products for the
parameters, one more for ``x`` (computed only when its cotangent is used).
``pdf = exp(logpdf)`` multiplies the cotangent by the density;
``entropy = (k (log(2 pi) + 1) + log pdet) / 2`` has ``S_bar = S^+ / 2`` and does not
depend on the mean (its cotangent is 0).

Conventions
-----------
* ``cov`` may be a scalar (``c I``: its cotangent is the trace of ``S_bar``), a vector (a
  diagonal: the diagonal of ``S_bar``) or a matrix (``S_bar``, a symmetric matrix: SciPy
  reads only the lower triangle and a covariance is symmetric, so the cotangent is the
  gradient in the symmetric matrices; an frule symmetrises the tangent it is given).
* Arguments by position are differentiated (``x``, ``mean``, ``cov``); by keyword they are
  constants. ``mean=None`` and ``allow_singular`` get ``NoTangent()``.
* SciPy computes in float64; float32 arguments get float32 cotangents.

Examples
--------
>>> import numpy as np
>>> from scipy.stats import multivariate_normal
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> x, mean, cov = np.array([1.0, 2.0]), np.zeros(2), np.diag([1.0, 4.0])
>>> y, pullback = rrule(multivariate_normal.logpdf, x, mean, cov)
>>> [unthunk(c) for c in pullback(1.0)[2:5]]  # -S^-1 r, S^-1 r, (S^-1 r r^T S^-1 - S^-1) / 2
[array([-1. , -0.5]), array([1. , 0.5]), array([[0.  , 0.25],
       [0.25, 0.  ]])]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import multivariate_normal
from scipy.stats._multivariate import multivariate_normal_frozen, multivariate_normal_gen

from chainrules.rulesets._samples import spd
from chainrules.rulesets.stats._calls import ABSENT, bind, primal_args
from chainrules.rulesets.stats._psd import MatrixArgument, QuadraticForm, symmetric
from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
from chainrules.rulesets.stats.covariance import covariance_parameter, is_covariance, read_covariance_tangent
from chainrules.structured import Symmetric
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Sample,
    Tangent,
    Thunk,
    Varargs,
    ZeroTangent,
    backing,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)
from chainrules_core.projection import StructuralProjector
from chainrules_core.rules import _callable_name

__all__ = ["entropy_frule", "entropy_rrule", "frozen_entropy_frule", "frozen_entropy_rrule", "logpdf_frule",
           "logpdf_rrule", "pdf_frule", "pdf_rrule", "read_frozen_tangent", "register_for_testing"]


_PARAMS = ("x", "mean", "cov", "allow_singular")
_DEFAULTS = {"mean": None, "cov": 1, "allow_singular": False}


def _live(value: Any) -> bool:
    """Whether an argument is differentiated (a ``Covariance`` object is: through its arrays)."""
    return is_covariance(value) or differentiable(value)


def _cotangent(value: Any, g: Any) -> Any:
    """``g`` projected onto an argument: an array's shape, or a ``Covariance``'s structural tangent."""
    if is_covariance(value):
        return g if isinstance(g, NotImplementedTangent) else ProjectTo(value)(g)
    return argument_cotangent(value, g)


def _zero(value: Any, dy: Any) -> Any:
    if isinstance(dy, NotImplementedTangent):
        return dy
    return ZeroTangent() if is_covariance(value) else zero_like(value)


class _Density:
    """The rules of ``logpdf`` (``exp_output=False``) and ``pdf`` (``True``), on the generator or a frozen object."""

    def __init__(self, method: Callable[..., Any], short: str, exp_output: bool) -> None:
        self.method, self.short, self.exp_output = method, short, exp_output

    def cotangents(self, q: QuadraticForm, y: Any, dy: Any) -> tuple[Callable[[], Any], ...]:
        """Makers of the cotangents of ``(x, mean (its own shape), cov (its own form))``."""
        w = q.restrict(q.layout.weights(np.asarray(dy) * y if self.exp_output else dy))
        a = -0.5 * w  # d log p / dm = -1/2, and -1/2 for log pdet
        return (lambda: q.x_cotangent(a), lambda: q.loc_cotangent(a), lambda: q.matrix_cotangent(a, float(np.sum(a))))

    def rrule(self, dist: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Callable[..., Any]]:
        method = self.method
        x = args[0]
        y = method(dist, x, *primal_args(*args[1:]), **kwargs)
        b = bind(_PARAMS, _DEFAULTS, args, kwargs)
        values = (x, b["mean"] if b.by_position("mean") else None, b["cov"] if b.by_position("cov") else None)
        live = (differentiable(x), differentiable(values[1]), _live(values[2]))
        density = self

        def multivariate_normal_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                return (NO, NO, *(_zero(v, dy) if lv else NO for v, lv in zip(values, live)), NO)
            makers = density.cotangents(QuadraticForm(x, b["mean"], b["cov"]), y, dy)
            several = sum(live) > 1
            out: list[Any] = []
            for value, make, lv in zip(values, makers, live):
                if not lv:
                    out.append(NO)
                    continue

                def cotangent(value: Any = value, make: Callable[[], Any] = make) -> Any:
                    return _cotangent(value, make())

                out.append(Thunk(cotangent) if several else cotangent())
            return (NO, NO, *out, NO)

        multivariate_normal_pullback.__name__ = f"{self.short}_pullback"
        return y, multivariate_normal_pullback

    def tangent(self, q: QuadraticForm, y: Any, dx: Any, dmean: Any, dcov: Any) -> Any:
        dm, dlogdet = q.tangents(dx, dmean, dcov)
        dlog = q.restrict(-0.5 * (dm + dlogdet))
        return fit_output(dlog * np.reshape(y, -1) if self.exp_output else dlog, y)

    def frule(self, tangents: tuple[Any, ...], dist: Any, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[Any, Any]:
        x = args[0]
        y = self.method(dist, x, *primal_args(*args[1:]), **kwargs)
        b = bind(_PARAMS, _DEFAULTS, args, kwargs)
        dx = tangent_value(tangents[2]) if differentiable(x) else None
        dmean = tangent_value(tangents[3]) if b.by_position("mean") and differentiable(b["mean"]) else None
        dcov = tangent_value(tangents[4]) if b.by_position("cov") and _live(b["cov"]) else None
        if dx is None and dmean is None and dcov is None:
            return y, fit_output(None, y)
        for t in (dx, dmean, dcov):
            if isinstance(t, NotImplementedTangent):
                return y, t
        return y, self.tangent(QuadraticForm(x, b["mean"], b["cov"]), y, dx, dmean, dcov)


_LOGPDF = _Density(multivariate_normal_gen.logpdf, "multivariate_normal_logpdf", False)
_PDF = _Density(multivariate_normal_gen.pdf, "multivariate_normal_pdf", True)


def logpdf_rrule(dist: multivariate_normal_gen, x: Any, mean: Any = ABSENT, cov: Any = ABSENT,
                 allow_singular: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``multivariate_normal.logpdf`` (see the module docstring)."""
    return _LOGPDF.rrule(dist, (x, mean, cov, allow_singular), kwargs)


def logpdf_frule(tangents: tuple[Any, ...], dist: multivariate_normal_gen, x: Any, mean: Any = ABSENT,
                 cov: Any = ABSENT, allow_singular: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_normal.logpdf``."""
    return _LOGPDF.frule(tangents, dist, (x, mean, cov, allow_singular), kwargs)


def pdf_rrule(dist: multivariate_normal_gen, x: Any, mean: Any = ABSENT, cov: Any = ABSENT,
              allow_singular: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``multivariate_normal.pdf`` (``exp(logpdf)``)."""
    return _PDF.rrule(dist, (x, mean, cov, allow_singular), kwargs)


def pdf_frule(tangents: tuple[Any, ...], dist: multivariate_normal_gen, x: Any, mean: Any = ABSENT,
              cov: Any = ABSENT, allow_singular: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_normal.pdf``."""
    return _PDF.frule(tangents, dist, (x, mean, cov, allow_singular), kwargs)


def _entropy_parameter(mean: Any, cov: Any) -> Any:
    if is_covariance(cov):
        dim = int(cov.shape[-1])
    elif mean is not None:
        dim = int(np.size(mean))
    else:
        dim = 1 if np.ndim(cov) < 2 else int(np.shape(cov)[0])
    return covariance_parameter(cov, dim), dim


def _entropy_cotangent(parameter: Any, dim: int, dy: float) -> Any:
    """The cotangent of the covariance for ``entropy = (k (log 2 pi + 1) + log pdet) / 2``."""
    empty = np.zeros((0, dim))
    return parameter.cotangent(empty, empty, np.zeros(0), 0.5 * dy)


def entropy_rrule(dist: multivariate_normal_gen, mean: Any = ABSENT, cov: Any = ABSENT, /,
                  **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``multivariate_normal.entropy``: ``cov_bar = S^+ / 2``, the mean's 0."""
    y = dist.entropy(*primal_args(mean, cov), **kwargs)
    b = bind(("mean", "cov"), {"mean": None, "cov": 1}, (mean, cov), kwargs)
    cov_arg = b["cov"] if b.by_position("cov") else None
    mean_arg = b["mean"] if b.by_position("mean") else None

    def multivariate_normal_entropy_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, multivariate_normal_gen.entropy)
        dmean = zero_like(mean_arg) if differentiable(mean_arg) else NO
        if not _live(cov_arg):
            return NO, NO, dmean, NO
        if passes_through(dy):
            return NO, NO, dmean, _zero(cov_arg, dy)
        parameter, dim = _entropy_parameter(b["mean"], b["cov"])
        return NO, NO, dmean, _cotangent(cov_arg, _entropy_cotangent(parameter, dim, float(dy)))

    return y, multivariate_normal_entropy_pullback


def entropy_frule(tangents: tuple[Any, ...], dist: multivariate_normal_gen, mean: Any = ABSENT, cov: Any = ABSENT,
                  /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_normal.entropy``: ``tr(S^+ dS) / 2``."""
    y = dist.entropy(*primal_args(mean, cov), **kwargs)
    b = bind(("mean", "cov"), {"mean": None, "cov": 1}, (mean, cov), kwargs)
    dcov = tangent_value(tangents[3]) if b.by_position("cov") and _live(b["cov"]) else None
    if dcov is None or isinstance(dcov, NotImplementedTangent):
        return y, fit_output(dcov, y)
    parameter, dim = _entropy_parameter(b["mean"], b["cov"])
    empty = np.zeros((0, dim))
    return y, fit_output(0.5 * parameter.tangent(empty, empty, dcov)[1], y)


for _method, _r, _f in ((multivariate_normal_gen.logpdf, logpdf_rrule, logpdf_frule),
                        (multivariate_normal_gen.pdf, pdf_rrule, pdf_frule),
                        (multivariate_normal_gen.entropy, entropy_rrule, entropy_frule)):
    rrule.register(_method, multivariate_normal_gen)(_r)
    frule.register(_method, multivariate_normal_gen)(_f)


# ---- frozen distributions ---------------------------------------------------------------------------------
@ProjectTo.register(multivariate_normal_frozen)
def _project_frozen(x: Any) -> Any:
    """The tangent space of a frozen multivariate normal: its ``mean`` and its ``cov_object``."""
    return StructuralProjector(type(x), {"mean": cotangent_projector(x.mean),
                                         "cov_object": ProjectTo(x.cov_object)})


def read_frozen_tangent(d: Any, frozen: Any, f: Any, what: str = "output cotangent") -> tuple[Any, Any]:
    """``(mean, cov_object)`` (co)tangents of a frozen multivariate normal (``None`` for zeros)."""
    d = unthunk(d)
    if isinstance(d, AbstractZero):
        return None, None
    if isinstance(d, NotImplementedTangent):
        return d, d
    if not isinstance(d, Tangent) or not isinstance(backing(d), dict):
        raise ProjectionError(f"{_callable_name(f)} pullback: {what} is a {type(d).__name__}, expected a "
                              "Tangent(multivariate_normal_frozen, mean=..., cov_object=...) or a zero")
    stored = backing(d)
    for key in stored:
        if key not in ("mean", "cov_object") and not isinstance(unthunk(stored[key]), AbstractZero):
            raise ProjectionError(f"{_callable_name(f)} pullback: {what} has a field {key!r}; a frozen "
                                  "multivariate normal's tangent has the fields 'mean' and 'cov_object'")
    mean, cov = (unthunk(stored.get(k, ZeroTangent())) for k in ("mean", "cov_object"))
    return (None if isinstance(mean, AbstractZero) else mean), (None if isinstance(cov, AbstractZero) else cov)


def _freeze_rules(head: int) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``multivariate_normal(mean, cov)`` (``head = 0``: a functor rule) and ``.__call__`` (``head = 1``)."""

    def freeze_rrule(dist: Any, mean: Any = None, cov: Any = 1, *rest: Any, **kwargs: Any) -> Any:
        frozen = dist(mean, cov, *rest, **kwargs)
        dim = int(frozen.dim)

        def freeze_pullback(dfrozen: Any) -> tuple[Any, ...]:
            dmean, dcov = read_frozen_tangent(dfrozen, frozen, multivariate_normal_gen.__call__)
            out: list[Any] = [NO] * (head + 1)
            if not differentiable(mean):
                out.append(NO)
            elif dmean is None or isinstance(dmean, NotImplementedTangent):
                out.append(ZeroTangent() if dmean is None else dmean)
            else:
                g = np.asarray(dmean, dtype=np.float64)
                out.append(argument_cotangent(mean, g.reshape(np.shape(mean)) if np.size(mean) == dim else g))
            if not _live(cov):
                out.append(NO)
            elif dcov is None or isinstance(dcov, NotImplementedTangent):
                out.append(ZeroTangent() if dcov is None else dcov)
            elif is_covariance(cov):
                out.append(ProjectTo(cov)(dcov))
            else:
                matrix = read_covariance_tangent(dcov, frozen.cov_object,
                                                 multivariate_normal_gen.__call__)["covariance"]
                out.append(ZeroTangent() if matrix is None else
                           argument_cotangent(cov, MatrixArgument(cov, dim).cotangent(symmetric(np.asarray(matrix)))))
            out.extend(NO for _ in rest)
            return tuple(out)

        return frozen, freeze_pullback

    def freeze_frule(tangents: Any, dist: Any, mean: Any = None, cov: Any = 1, *rest: Any, **kwargs: Any) -> Any:
        frozen = dist(mean, cov, *rest, **kwargs)
        dmean = tangent_value(tangents[1 + head]) if len(tangents) > 1 + head and differentiable(mean) else None
        dcov = tangent_value(tangents[2 + head]) if len(tangents) > 2 + head and _live(cov) else None
        if dmean is None and dcov is None:
            return frozen, ZeroTangent() if _live(cov) or differentiable(mean) else NO
        fields: dict[str, Any] = {"mean": ZeroTangent(), "cov_object": ZeroTangent()}
        if dmean is not None:
            fields["mean"] = np.broadcast_to(np.asarray(dmean, dtype=np.float64).reshape(-1), (int(frozen.dim),)).copy()
        if dcov is not None:
            fields["cov_object"] = dcov if is_covariance(cov) else Tangent(
                type(frozen.cov_object), covariance=MatrixArgument(cov, int(frozen.dim)).tangent(dcov))
        return frozen, Tangent(type(frozen), **fields)

    return freeze_rrule, freeze_frule


_functor_rrule, _functor_frule = _freeze_rules(0)
rrule.register_functor(multivariate_normal_gen, Varargs(object))(_functor_rrule)
frule.register_functor(multivariate_normal_gen, Varargs(object))(_functor_frule)
_call_rrule, _call_frule = _freeze_rules(1)
rrule.register(multivariate_normal_gen.__call__, multivariate_normal_gen, Varargs(object))(_call_rrule)
frule.register(multivariate_normal_gen.__call__, multivariate_normal_gen, Varargs(object))(_call_frule)


def _frozen_density_rules(method: Callable[..., Any], density: _Density) -> None:
    def frozen_density_rrule(frozen: Any, x: Any) -> Any:
        y = method(frozen, x)

        def frozen_multivariate_normal_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                z = dy if isinstance(dy, NotImplementedTangent) else ZeroTangent()
                return NO, z, zero_like(x) if isinstance(z, AbstractZero) and differentiable(x) else (
                    z if differentiable(x) else NO)
            make_x, make_mean, make_cov = density.cotangents(QuadraticForm(x, frozen.mean, frozen.cov_object), y, dy)
            dfrozen = Thunk(lambda: Tangent(type(frozen), mean=make_mean(), cov_object=make_cov()))
            return NO, dfrozen, (Thunk(lambda: argument_cotangent(x, make_x())) if differentiable(x) else NO)

        frozen_multivariate_normal_pullback.__name__ = f"frozen_{method.__name__}_pullback"
        return y, frozen_multivariate_normal_pullback

    def frozen_density_frule(tangents: Any, frozen: Any, x: Any) -> Any:
        y = method(frozen, x)
        dmean, dcov = read_frozen_tangent(ZeroTangent() if tangents[1] is None else tangents[1], frozen, method,
                                          "tangent")
        dx = tangent_value(tangents[2]) if differentiable(x) else None
        if dx is None and dmean is None and dcov is None:
            return y, fit_output(None, y)
        for t in (dx, dmean, dcov):
            if isinstance(t, NotImplementedTangent):
                return y, t
        return y, density.tangent(QuadraticForm(x, frozen.mean, frozen.cov_object), y, dx, dmean, dcov)

    rrule.register(method, multivariate_normal_frozen)(frozen_density_rrule)
    frule.register(method, multivariate_normal_frozen)(frozen_density_frule)


_frozen_density_rules(multivariate_normal_frozen.logpdf, _LOGPDF)
_frozen_density_rules(multivariate_normal_frozen.pdf, _PDF)


def frozen_entropy_rrule(frozen: Any) -> Any:
    """Reverse rule of a frozen multivariate normal's ``entropy()``."""
    y = frozen.entropy()

    def frozen_multivariate_normal_entropy_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, multivariate_normal_frozen.entropy)
        if passes_through(dy):
            return NO, dy if isinstance(dy, NotImplementedTangent) else ZeroTangent()
        dim = int(frozen.dim)
        dcov = _entropy_cotangent(covariance_parameter(frozen.cov_object, dim), dim, float(dy))
        return NO, Tangent(type(frozen), mean=ZeroTangent(), cov_object=dcov)

    return y, frozen_multivariate_normal_entropy_pullback


def frozen_entropy_frule(tangents: Any, frozen: Any) -> Any:
    """Forward rule of a frozen multivariate normal's ``entropy()``."""
    y = frozen.entropy()
    _, dcov = read_frozen_tangent(ZeroTangent() if tangents[1] is None else tangents[1], frozen,
                                  multivariate_normal_frozen.entropy, "tangent")
    if dcov is None or isinstance(dcov, NotImplementedTangent):
        return y, fit_output(dcov, y)
    dim = int(frozen.dim)
    empty = np.zeros((0, dim))
    return y, fit_output(0.5 * covariance_parameter(frozen.cov_object, dim).tangent(empty, empty, dcov)[1], y)


rrule.register(multivariate_normal_frozen.entropy, multivariate_normal_frozen)(frozen_entropy_rrule)
frule.register(multivariate_normal_frozen.entropy, multivariate_normal_frozen)(frozen_entropy_frule)


def register_for_testing() -> None:
    """Teach the testers' finite differences the parameters of frozen multivariate normals (and Covariances)."""
    from chainrules.rulesets.stats.covariance import register_for_testing as covariance_nodes
    from chainrules.testing.tree import register_tree_node

    covariance_nodes()

    def flatten(x: Any) -> tuple[list[Any], Any]:
        return [np.asarray(x.mean, dtype=np.float64), x.cov_object], x.allow_singular

    def unflatten(allow_singular: Any, children: list[Any]) -> Any:
        return multivariate_normal_frozen(children[0], children[1], allow_singular=allow_singular)

    def flatten_tangent(dx: Any, aux: Any) -> list[Any]:
        if isinstance(dx, Tangent):
            stored = backing(dx)
            return [stored.get("mean", ZeroTangent()), stored.get("cov_object", ZeroTangent())]
        return [ZeroTangent(), ZeroTangent()]

    def unflatten_tangent(aux: Any, children: list[Any]) -> Any:
        return Tangent(multivariate_normal_frozen, mean=children[0], cov_object=children[1])

    register_tree_node(multivariate_normal_frozen, flatten, unflatten, flatten_tangent=flatten_tangent,
                       unflatten_tangent=unflatten_tangent)


# ---- sample inputs --------------------------------------------------------------------------------------
@sample_inputs(multivariate_normal_gen.logpdf, multivariate_normal_gen.pdf)
def _density_samples(rng: np.random.Generator) -> list[Sample]:
    # A matrix cov is given as a Symmetric (chainrules.structured): the finite differences then vary it in the
    # symmetric matrices, where its cotangent lives (SciPy reads one triangle of a plain array, whose entry-wise
    # finite differences are not symmetric). tests/chainrules/rulesets/stats/test_multivariate_normal.py checks
    # plain arrays and singular covariances along the directions where the derivative exists.
    d = 3
    cov = Symmetric(spd(d, rng))
    x = rng.standard_normal((4, d))
    mean = rng.standard_normal(d)
    mvn = multivariate_normal
    return [Sample(mvn, x, mean, cov), Sample(mvn, x[0], mean, cov, label="one point"),
            Sample(mvn, x.reshape(2, 2, d), mean, cov, label="a batch of points (2, 2, d)"),
            Sample(mvn, x, mean, np.diag(cov.data), label="cov a vector (diagonal)"),
            Sample(mvn, x, mean, 1.5, label="cov a scalar (times I)"),
            Sample(mvn, x[:, 0], 0.5, 2.0, label="one dimension, x a vector of points"),
            Sample(mvn, x, None, cov, label="mean None"),
            Sample(mvn, x, fkwargs={"mean": mean, "cov": cov}, label="mean and cov by keyword (constants)"),
            Sample(mvn, x.astype(np.float32), mean.astype(np.float32), np.diag(cov.data).astype(np.float32),
                   label="float32", rtol=1e-3)]


@sample_inputs(multivariate_normal_gen.entropy)
def _entropy_samples(rng: np.random.Generator) -> list[Sample]:
    cov = Symmetric(spd(3, rng))
    return [Sample(multivariate_normal, None, cov), Sample(multivariate_normal, rng.standard_normal(3), cov,
                                                             label="with a mean (no derivative)"),
            Sample(multivariate_normal, np.zeros(3), np.diag(cov.data), label="diagonal"),
            Sample(multivariate_normal, None, 2.5, label="a scalar: one dimension")]


def _covariance_objects(rng: np.random.Generator, d: int = 3) -> list[tuple[str, Any]]:
    from scipy.stats import Covariance

    from chainrules.rulesets.stats.covariance import register_for_testing as covariance_nodes

    covariance_nodes()
    s = spd(d, rng)
    w, v = np.linalg.eigh(s)
    return [("diagonal", Covariance.from_diagonal(np.diag(s).copy())),
            ("cholesky", Covariance.from_cholesky(np.linalg.cholesky(s))),
            ("precision", Covariance.from_precision(np.linalg.inv(s))),
            ("eigendecomposition", Covariance.from_eigendecomposition((w, v)))]


@sample_inputs(multivariate_normal_gen.entropy)
def _covariance_entropy_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(multivariate_normal, None, cov, label=f"Covariance.from_{name}")
            for name, cov in _covariance_objects(rng)]


@sample_inputs(multivariate_normal_gen.logpdf, multivariate_normal_gen.pdf)
def _covariance_samples(rng: np.random.Generator) -> list[Sample]:
    # cov a Covariance object: its tangent is that of the arrays it was built from (covariance.py)
    d = 3
    objects = _covariance_objects(rng, d)
    x = rng.standard_normal((4, d))
    mean = rng.standard_normal(d)
    out = []
    for name, cov in objects:
        out.append(Sample(multivariate_normal, x, mean, cov, label=f"Covariance.from_{name}"))
    out.append(Sample(multivariate_normal, x, 0.5, objects[0][1], label="a scalar mean broadcast (Covariance)"))
    return out


@sample_inputs(multivariate_normal_gen, multivariate_normal_gen.__call__)
def _freeze_samples(rng: np.random.Generator) -> list[Sample]:
    from scipy.stats import Covariance

    register_for_testing()
    cov = spd(3, rng)
    mean = rng.standard_normal(3)
    return [Sample(multivariate_normal, mean, Symmetric(cov), label="multivariate_normal(mean, cov)"),
            Sample(multivariate_normal, mean, np.diag(cov), label="multivariate_normal(mean, diagonal)"),
            Sample(multivariate_normal, mean, Covariance.from_cholesky(np.linalg.cholesky(cov)),
                   label="multivariate_normal(mean, Covariance.from_cholesky(L))")]


@sample_inputs(multivariate_normal_frozen.logpdf, multivariate_normal_frozen.pdf)
def _frozen_density_samples(rng: np.random.Generator) -> list[Sample]:
    from scipy.stats import Covariance

    register_for_testing()
    cov = spd(3, rng)
    mean = rng.standard_normal(3)
    x = rng.standard_normal((4, 3))
    return [Sample(multivariate_normal(mean, cov), x, label="frozen (mean, cov)"),
            Sample(multivariate_normal(mean, Covariance.from_diagonal(np.diag(cov).copy())), x[0],
                   label="frozen (mean, Covariance.from_diagonal)")]


@sample_inputs(multivariate_normal_frozen.entropy)
def _frozen_entropy_samples(rng: np.random.Generator) -> list[Sample]:
    register_for_testing()
    return [Sample(multivariate_normal(np.zeros(3), spd(3, rng)), label="frozen entropy")]

