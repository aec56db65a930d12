"""The multivariate t distribution: ``multivariate_t.logpdf``, ``.pdf`` and ``.entropy``, in ``x``, ``loc``,
``shape`` and ``df``.

The maths
---------
With ``r = x - loc``, ``m = r^T S^+ r`` (``S`` the shape matrix, factored as SciPy does,
see :mod:`chainrules.rulesets.stats._psd`), ``d`` the dimension and ``t = (df + d) / 2``::

    log p = lgamma(t) - lgamma(df/2) - (d/2) log(df pi) - (1/2) log pdet(S) - t log(1 + m/df)

so ``d log p / dm = -(df + d) / (2 (df + m))`` and, through ``m``,
``d/dx = -(df + d)/(df + m) S^+ r``, ``d/dloc = -d/dx``,
``d/dS = ((df + d)/(df + m) S^+ r r^T S^+ - S^+) / 2`` (symmetric; Kotz & Nadarajah,
*Multivariate t Distributions*, 2004, 1.1). In the degrees of freedom::

    d log p / d df = (psi(t) - psi(df/2) - d/df + u/(1 + u) - log1p(u) + (d/df) u/(1 + u)) / 2,  u = m/df

where ``psi(t) - psi(df/2)`` is formed without cancellation (``psi_increment`` of the
special-function rules) and ``u/(1 + u) - log1p(u) = -u^2/(1 + u) - log1pmx(u)``, so both
brackets keep their relative accuracy as ``df`` grows (the derivative is ``O(df^-2)``).
At ``df = inf`` SciPy evaluates the normal density; the derivative in ``df`` is then its
limit, 0.

``entropy = -lgamma(t) + lgamma(df/2) + (d/2) log(df pi) + t (psi(t) - psi(df/2)) + log pdet(S)/2``:
``d/dS = S^+ / 2``, ``d/d df = d/(2 df) + (t/2) (psi'(t) - psi'(df/2))``; for large ``df``
SciPy switches to an asymptotic series in ``1/df``, whose derivative is taken term by term
(the derivative of the function SciPy computes). The location does not enter (cotangent 0).

Conventions as for :mod:`chainrules.rulesets.stats.multivariate_normal`: a scalar, vector
or (symmetric) matrix ``shape``; arguments by position are differentiated, keywords are
constants; ``allow_singular`` (``pdf``) gets ``NoTangent()``. ``logpdf`` accepts a singular
``shape`` without a support check (SciPy's behaviour), with the rank-preserving derivative.

Examples
--------
>>> import numpy as np
>>> from scipy.stats import multivariate_t
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(multivariate_t.logpdf, np.array([1.0, 0.0]), np.zeros(2), np.eye(2), 3.0)
>>> unthunk(pullback(1.0)[2])  # -(df + d)/(df + m) S^-1 r = -5/4 r
array([-1.25, -0.  ])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import multivariate_t
from scipy.stats._multivariate import multivariate_t_gen

from chainrules.rulesets._samples import spd
from chainrules.rulesets.special._gamma_tools import log1pmx, psi_increment, trigamma
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

__all__ = ["entropy_frule", "entropy_rrule", "logpdf_frule", "logpdf_rrule", "pdf_frule", "pdf_rrule"]

_PARAMS = ("x", "loc", "shape", "df", "allow_singular")
_DEFAULTS = {"loc": None, "shape": 1, "df": 1, "allow_singular": False}


def _form(x: Any, loc: Any, shape: Any) -> QuadraticForm:
    if loc is None and shape is None:
        return QuadraticForm(x, None, 1.0, 1)
    return QuadraticForm(x, loc, np.eye(int(np.size(loc))) if shape is None else shape)


def _dlogp_ddf(m: np.ndarray, df: float, d: int) -> np.ndarray:
    """``d log p / d df`` at each point (0 at ``df = inf``)."""
    if np.isinf(df):
        return np.zeros_like(m)
    u = m / df
    digamma_part = psi_increment(df / 2.0, d / 2.0) - d / df
    with np.errstate(invalid="ignore", divide="ignore"):
        quad_part = -u * u / (1.0 + u) - log1pmx(u) + (d / df) * u / (1.0 + u)
    return 0.5 * (digamma_part + quad_part)


class _Density:
    """The rules of ``logpdf`` and ``pdf`` (``exp_output``)."""

    def __init__(self, method: Callable[..., Any], short: str, exp_output: bool, names: tuple[str, ...]) -> None:
        self.method, self.short, self.exp_output, self.names = method, short, exp_output, names

    def _bound(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return bind(self.names, _DEFAULTS, args, kwargs)

    def rrule(self, dist: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Callable[..., Any]]:
        method, exp_output, names = self.method, self.exp_output, self.names
        x = args[0]
        y = method(dist, x, *primal_args(*args[1:]), **kwargs)
        b = self._bound(args, kwargs)
        given = {n: (b[n] if b.by_position(n) else None) for n in ("loc", "shape", "df")}
        live = {"x": differentiable(x), **{n: differentiable(v) for n, v in given.items()}}

        def multivariate_t_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            out: list[Any] = [NO] * (len(names) + 2)
            values = {"x": x, **given}
            if passes_through(dy):
                for i, n in enumerate(("x", "loc", "shape", "df")):
                    if live[n]:
                        out[2 + i] = dy if isinstance(dy, NotImplementedTangent) else zero_like(values[n])
                return tuple(out)
            q = _form(x, b["loc"], b["shape"])
            df = float(b["df"])
            w = q.restrict(q.layout.weights(np.asarray(dy) * y if exp_output else dy))
            m = q.maha
            with np.errstate(invalid="ignore", divide="ignore"):
                a = -0.5 * w * (1.0 if np.isinf(df) else (df + q.dim) / (df + m))

            makers = {"x": lambda: argument_cotangent(x, q.x_cotangent(a)),
                      "loc": lambda: argument_cotangent(given["loc"], q.loc_cotangent(a)),
                      "shape": lambda: argument_cotangent(given["shape"], q.matrix_cotangent(a, -0.5 * float(w.sum()))),
                      "df": lambda: argument_cotangent(given["df"], np.sum(w * _dlogp_ddf(m, df, q.dim)))}
            several = sum(live.values()) > 1
            for i, n in enumerate(("x", "loc", "shape", "df")):
                if live[n]:
                    out[2 + i] = Thunk(makers[n]) if several else makers[n]()
            return tuple(out)

        multivariate_t_pullback.__name__ = f"{self.short}_pullback"
        return y, multivariate_t_pullback

    def frule(self, tangents: tuple[Any, ...], dist: Any, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[Any, Any]:
        x = args[0]
        y = self.method(dist, x, *primal_args(*args[1:]), **kwargs)
        b = self._bound(args, kwargs)
        dot: dict[str, Any] = {"x": tangent_value(tangents[2]) if differentiable(x) else None}
        for i, n in enumerate(("loc", "shape", "df")):
            dot[n] = tangent_value(tangents[3 + i]) if b.by_position(n) and differentiable(b[n]) else None
        if all(v is None for v in dot.values()):
            return y, fit_output(None, y)
        for v in dot.values():
            if isinstance(v, NotImplementedTangent):
                return y, v
        q = _form(x, b["loc"], b["shape"])
        df = float(b["df"])
        m = q.maha
        dm, dlogdet = q.tangents(dot["x"], dot["loc"], dot["shape"])
        with np.errstate(invalid="ignore", divide="ignore"):
            dlog = -0.5 * dm * (1.0 if np.isinf(df) else (df + q.dim) / (df + m)) - 0.5 * dlogdet
        if dot["df"] is not None:
            dlog = dlog + _dlogp_ddf(m, df, q.dim) * float(np.real(dot["df"]))
        dlog = q.restrict(dlog)
        return y, fit_output(dlog * np.reshape(y, -1) if self.exp_output else dlog, y)


_LOGPDF = _Density(multivariate_t_gen.logpdf, "multivariate_t_logpdf", False, _PARAMS[:4])
_PDF = _Density(multivariate_t_gen.pdf, "multivariate_t_pdf", True, _PARAMS)


def logpdf_rrule(dist: multivariate_t_gen, x: Any, loc: Any = ABSENT, shape: Any = ABSENT, df: Any = ABSENT, /,
                 **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``multivariate_t.logpdf`` (see the module docstring)."""
    return _LOGPDF.rrule(dist, (x, loc, shape, df), kwargs)


def logpdf_frule(tangents: tuple[Any, ...], dist: multivariate_t_gen, x: Any, loc: Any = ABSENT, shape: Any = ABSENT,
                 df: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_t.logpdf``."""
    return _LOGPDF.frule(tangents, dist, (x, loc, shape, df), kwargs)


def pdf_rrule(dist: multivariate_t_gen, x: Any, loc: Any = ABSENT, shape: Any = ABSENT, df: Any = ABSENT,
              allow_singular: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``multivariate_t.pdf`` (``exp(logpdf)``)."""
    return _PDF.rrule(dist, (x, loc, shape, df, allow_singular), kwargs)


def pdf_frule(tangents: tuple[Any, ...], dist: multivariate_t_gen, x: Any, loc: Any = ABSENT, shape: Any = ABSENT,
              df: Any = ABSENT, allow_singular: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_t.pdf``."""
    return _PDF.frule(tangents, dist, (x, loc, shape, df, allow_singular), kwargs)


# ---- entropy ---------------------------------------------------------------------------------------------
def _entropy_ddf(dim: int, df: float) -> float:
    """``d entropy / d df`` of the expression SciPy evaluates (its regular form or its asymptotic series)."""
    if np.isinf(df):
        return 0.0
    threshold = dim * 100 * 4 / (np.log(dim) + 1)
    if df >= threshold:
        d = float(dim)
        return float(-d * df ** -2.0 + d * (d - 2) * df ** -3.0 / 2 - d ** 2 * (d - 2) * df ** -4.0 / 2
                     - d * (-3 * d ** 3 + 8 * d ** 2 - 8) * df ** -5.0 / 6
                     - d ** 2 * (3 * d ** 3 - 10 * d ** 2 + 16) * df ** -6.0 / 6)
    t = 0.5 * (df + dim)
    return float(dim / (2 * df) + 0.5 * t * (trigamma(np.float64(t)) - trigamma(np.float64(df / 2))))


def _entropy_setup(loc: Any, shape: Any, df: Any, kwargs: dict[str, Any]) -> tuple[Any, MatrixArgument]:
    b = bind(("loc", "shape", "df"), {"loc": None, "shape": 1, "df": 1}, (loc, shape, df), kwargs)
    s = b["shape"]
    dim = 1 if s is None or np.ndim(s) < 2 else np.shape(s)[0]
    return b, MatrixArgument(1.0 if s is None else s, dim)


def entropy_rrule(dist: multivariate_t_gen, loc: Any = ABSENT, shape: Any = ABSENT, df: Any = ABSENT, /,
                  **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``multivariate_t.entropy``: ``shape_bar = S^+ / 2`` and the ``df`` derivative."""
    y = dist.entropy(*primal_args(loc, shape, df), **kwargs)
    b, matrix = _entropy_setup(loc, shape, df, kwargs)
    loc_arg = b["loc"] if b.by_position("loc") else None
    shape_arg = b["shape"] if b.by_position("shape") else None
    df_arg = b["df"] if b.by_position("df") else None

    def multivariate_t_entropy_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, multivariate_t_gen.entropy)
        dloc = zero_like(loc_arg) if differentiable(loc_arg) else NO
        if passes_through(dy):
            fill = [dy if isinstance(dy, NotImplementedTangent) else zero_like(v) for v in (shape_arg, df_arg)]
            return (NO, NO, dloc, *(f if differentiable(v) else NO for f, v in zip(fill, (shape_arg, df_arg))))
        dshape = (argument_cotangent(shape_arg, matrix.cotangent(0.5 * float(dy) * PsdFactor(matrix.full).pinv))
                  if differentiable(shape_arg) else NO)
        ddf = (argument_cotangent(df_arg, float(dy) * _entropy_ddf(matrix.dim, float(b["df"])))
               if differentiable(df_arg) else NO)
        return NO, NO, dloc, dshape, ddf

    return y, multivariate_t_entropy_pullback


def entropy_frule(tangents: tuple[Any, ...], dist: multivariate_t_gen, loc: Any = ABSENT, shape: Any = ABSENT,
                  df: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``multivariate_t.entropy``."""
    y = dist.entropy(*primal_args(loc, shape, df), **kwargs)
    b, matrix = _entropy_setup(loc, shape, df, kwargs)
    dshape = tangent_value(tangents[3]) if b.by_position("shape") and differentiable(b["shape"]) else None
    ddf = tangent_value(tangents[4]) if b.by_position("df") and differentiable(b["df"]) else None
    if dshape is None and ddf is None:
        return y, fit_output(None, y)
    for t in (dshape, ddf):
        if isinstance(t, NotImplementedTangent):
            return y, t
    total = 0.0
    if dshape is not None:
        total += 0.5 * float(np.sum(PsdFactor(matrix.full).pinv * matrix.tangent(dshape)))
    if ddf is not None:
        total += _entropy_ddf(matrix.dim, float(b["df"])) * float(np.real(ddf))
    return y, fit_output(total, y)


for _method, _r, _f in ((multivariate_t_gen.logpdf, logpdf_rrule, logpdf_frule),
                        (multivariate_t_gen.pdf, pdf_rrule, pdf_frule),
                        (multivariate_t_gen.entropy, entropy_rrule, entropy_frule)):
    rrule.register(_method, multivariate_t_gen)(_r)
    frule.register(_method, multivariate_t_gen)(_f)


# ---- sample inputs --------------------------------------------------------------------------------------
@sample_inputs(multivariate_t_gen.logpdf, multivariate_t_gen.pdf)
def _density_samples(rng: np.random.Generator) -> list[Sample]:
    d = 3
    shape = Symmetric(spd(d, rng))
    x = rng.standard_normal((4, d))
    loc = rng.standard_normal(d)
    mvt = multivariate_t
    return [Sample(mvt, x, loc, shape, 2.5), Sample(mvt, x[0], loc, shape, 4.0, label="one point"),
            Sample(mvt, x, loc, np.diag(shape.data), 1.5, label="shape a vector (diagonal)"),
            Sample(mvt, x, loc, 0.7, 6.0, label="shape a scalar (times I)"),
            Sample(mvt, x, loc, shape, 60.0, label="larger df"),
            Sample(mvt, x[:, 0], 0.5, 2.0, 5.0, label="one dimension, x a vector of points"),
            Sample(mvt, x, loc, fkwargs={"shape": shape, "df": 3.0}, label="shape, df by keyword (constants)"),
            Sample(mvt, x.astype(np.float32), loc.astype(np.float32), np.diag(shape.data).astype(np.float32),
                   np.float32(3.0), label="float32", rtol=1e-3)]


@sample_inputs(multivariate_t_gen.logpdf)
def _logpdf_samples(rng: np.random.Generator) -> list[Sample]:
    # (SciPy's pdf fails at df = inf: it calls the normal log density without its covariance object)
    return [Sample(multivariate_t, rng.standard_normal((4, 2)), np.zeros(2), Symmetric(spd(2, rng)), np.inf,
                   label="df = inf (the normal limit)")]


@sample_inputs(multivariate_t_gen.entropy)
def _entropy_samples(rng: np.random.Generator) -> list[Sample]:
    shape = Symmetric(spd(3, rng))
    return [Sample(multivariate_t, None, shape, 2.5), Sample(multivariate_t, np.zeros(3), shape, 5e3,
                                                               label="large df: SciPy's asymptotic series"),
            Sample(multivariate_t, None, 2.5, 4.0, label="one dimension, a scalar shape")]

