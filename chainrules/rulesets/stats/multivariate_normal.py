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
>>> x, mean, cov = np.array([1.0, 0.0]), np.zeros(2), np.diag([1.0, 4.0])
>>> y, pullback = rrule(multivariate_normal.logpdf, x, mean, cov)
>>> [unthunk(c) for c in pullback(1.0)[2:5]]  # x, mean, cov
[array([-1., -0.]), array([1., 0.]), array([[ 0.   ,  0.   ],
       [ 0.   , -0.125]])]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import multivariate_normal
from scipy.stats._multivariate import multivariate_normal_gen

from chainrules.rulesets._samples import spd
from chainrules.rulesets.stats._calls import ABSENT, bind, primal_args
from chainrules.rulesets.stats._psd import MatrixArgument, PsdFactor, QuadraticForm
from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
from chainrules.structured import Symmetric
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["entropy_frule", "entropy_rrule", "logpdf_frule", "logpdf_rrule", "pdf_frule",
           "pdf_rrule"]


_PARAMS = ("x", "mean", "cov", "allow_singular")
_DEFAULTS = {"mean": None, "cov": 1, "allow_singular": False}


class _Density:
    """The rules of ``logpdf`` (``exp_output=False``) and ``pdf`` (``True``)."""

    def __init__(self, method: Callable[..., Any], short: str, exp_output: bool) -> None:
        self.method, self.short, self.exp_output = method, short, exp_output

    def rrule(self, dist: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Callable[..., Any]]:
        method, exp_output = self.method, self.exp_output
        x = args[0]
        y = method(dist, x, *primal_args(*args[1:]), **kwargs)
        b = bind(_PARAMS, _DEFAULTS, args, kwargs)
        mean_arg = b["mean"] if b.by_position("mean") else None
        cov_arg = b["cov"] if b.by_position("cov") else None
        diff = (differentiable(x), differentiable(mean_arg), differentiable(cov_arg))

        def multivariate_normal_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                fill = [dy if isinstance(dy, NotImplementedTangent) else zero_like(v) for v in (x, mean_arg, cov_arg)]
                return (NO, NO, *(f if d else NO for f, d in zip(fill, diff)), NO)
            q = QuadraticForm(x, b["mean"], b["cov"])
            w = q.restrict(q.layout.weights(np.asarray(dy) * y if exp_output else dy))
            a = -0.5 * w  # d log p / dm = -1/2, and -1/2 log pdet

            def cot_x() -> Any:
                return argument_cotangent(x, q.x_cotangent(a))

            def cot_mean() -> Any:
                return argument_cotangent(mean_arg, q.loc_cotangent(a))

            def cot_cov() -> Any:
                return argument_cotangent(cov_arg, q.matrix_cotangent(a, float(np.sum(a))))

            several = sum(diff) > 1
            makers = (cot_x, cot_mean, cot_cov)
            return (NO, NO, *((Thunk(m) if several else m()) if d else NO for m, d in zip(makers, diff)), NO)

        multivariate_normal_pullback.__name__ = f"{self.short}_pullback"
        return y, multivariate_normal_pullback

    def frule(self, tangents: tuple[Any, ...], dist: Any, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[Any, Any]:
        x = args[0]
        y = self.method(dist, x, *primal_args(*args[1:]), **kwargs)
        b = bind(_PARAMS, _DEFAULTS, args, kwargs)
        dx = tangent_value(tangents[2]) if differentiable(x) else None
        dmean = tangent_value(tangents[3]) if b.by_position("mean") and differentiable(b["mean"]) else None
        dcov = tangent_value(tangents[4]) if b.by_position("cov") and differentiable(b["cov"]) else None
        if dx is None and dmean is None and dcov is None:
            return y, fit_output(None, y)
        for t in (dx, dmean, dcov):
            if isinstance(t, NotImplementedTangent):
                return y, t
        q = QuadraticForm(x, b["mean"], b["cov"])
        dm, dlogdet = q.tangents(dx, dmean, dcov)
        dlog = q.restrict(-0.5 * (dm + dlogdet))
        return y, fit_output(dlog * np.reshape(y, -1) if self.exp_output else dlog, y)


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
        if not differentiable(cov_arg):
            return NO, NO, dmean, NO
        if passes_through(dy):
            return NO, NO, dmean, dy if isinstance(dy, NotImplementedTangent) else zero_like(cov_arg)
        dim = int(np.size(b["mean"])) if b["mean"] is not None else (
            1 if np.ndim(b["cov"]) < 2 else np.shape(b["cov"])[0])
        matrix = MatrixArgument(b["cov"], dim)
        pinv = PsdFactor(matrix.full).pinv
        return NO, NO, dmean, argument_cotangent(cov_arg, matrix.cotangent(0.5 * float(dy) * pinv))

    return y, multivariate_normal_entropy_pullback


def entropy_frule(tangents: tuple[Any, ...], dist: multivariate_normal_gen, mean: Any = ABSENT, cov: Any = ABSENT,
                  /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_normal.entropy``: ``tr(S^+ dS) / 2``."""
    y = dist.entropy(*primal_args(mean, cov), **kwargs)
    b = bind(("mean", "cov"), {"mean": None, "cov": 1}, (mean, cov), kwargs)
    dcov = tangent_value(tangents[3]) if b.by_position("cov") and differentiable(b["cov"]) else None
    if dcov is None or isinstance(dcov, NotImplementedTangent):
        return y, fit_output(dcov, y)
    dim = int(np.size(b["mean"])) if b["mean"] is not None else (1 if np.ndim(b["cov"]) < 2 else np.shape(b["cov"])[0])
    matrix = MatrixArgument(b["cov"], dim)
    return y, fit_output(0.5 * np.sum(PsdFactor(matrix.full).pinv * matrix.tangent(dcov)), y)


for _method, _r, _f in ((multivariate_normal_gen.logpdf, logpdf_rrule, logpdf_frule),
                        (multivariate_normal_gen.pdf, pdf_rrule, pdf_frule),
                        (multivariate_normal_gen.entropy, entropy_rrule, entropy_frule)):
    rrule.register(_method, multivariate_normal_gen)(_r)
    frule.register(_method, multivariate_normal_gen)(_f)


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
