"""The Wishart and inverse Wishart distributions: ``logpdf``, ``pdf`` (in the matrix ``X``, the ``scale`` matrix and
the degrees of freedom ``df``), ``mean``, ``mode``, ``var`` and ``entropy`` (in ``df`` and ``scale``).

The maths
---------
For ``p x p`` matrices, ``Gamma_p`` the multivariate gamma function and
``psi_p(a) = sum_(j=1..p) psi(a + (1 - j)/2)`` its log-derivative (DLMF 35.3.1)::

    wishart:     log p = (df - p - 1)/2 log|X| - tr(S^-1 X)/2 - (df p/2) log 2 - (df/2) log|S| - log Gamma_p(df/2)
      X_bar = ((df - p - 1) X^-1 - S^-1) / 2,   S_bar = (S^-1 X S^-1 - df S^-1) / 2,
      df_bar = (log|X| - p log 2 - log|S| - psi_p(df/2)) / 2
    invwishart:  log p = (df/2) log|S| - tr(S X^-1)/2 - (df p/2) log 2 - (df + p + 1)/2 log|X| - log Gamma_p(df/2)
      X_bar = (X^-1 S X^-1 - (df + p + 1) X^-1) / 2,   S_bar = (df S^-1 - X^-1) / 2,
      df_bar = (log|S| - p log 2 - log|X| - psi_p(df/2)) / 2

(Petersen & Pedersen, *The Matrix Cookbook*, 2012, eqs. 57, 61, 100 and 63; Gupta &
Nagar, *Matrix Variate Distributions*, 2000, 3.2.1 and 3.4.1.) ``X`` and ``S`` are
symmetric: their cotangents are symmetric matrices (SciPy's Cholesky factorisations read
one triangle of each; the gradient is taken in the symmetric matrices, as for
``multivariate_normal``'s ``cov``), and a tangent is symmetrised. Several matrices
``X`` stacked along SciPy's *last* axis (``(p, p, n)``) give one log density each. A
scalar ``scale`` is a ``1 x 1`` matrix and a vector a diagonal; a scalar ``X`` stands for
``x I``, a vector for a diagonal (or, when ``p = 1``, for ``n`` matrices of size 1). ``df``
given by position as a float is differentiated; an integer ``df`` gets ``NoTangent()``.

The moments are SciPy's closed forms, ``c S`` for the means and modes (``df S``,
``S / (df - p - 1)``; ``(df - p - 1) S``, ``S / (df + p + 1)``) and ``a S o S + b d d^T``
(``d = diag S``) for the variances (Gupta & Nagar 3.3.15, 3.4.3), differentiated entry by
entry and symmetrised. The entropies (SciPy's, after Gupta & Nagar and the inverse Wishart
reference of its eq. 17) have ``S_bar = (p + 1) S^-1 / 2``; in ``df`` the ``psi_p(df/2)`` of
``log Gamma_p`` cancels the digamma sum they contain, leaving
``dH/ddf = p/2 - (df - p - 1)/4 sum_i psi'((df + 1 - i)/2)`` (Wishart) and
``p/2 - (df + p + 1)/4 sum_i psi'((df - p + i)/2)`` (inverse Wishart). Where SciPy
returns ``None`` (a mean or variance that does not exist) the cotangents are zero.

Examples
--------
>>> import numpy as np
>>> from scipy.stats import wishart
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(wishart.logpdf, np.eye(2), 3.0, np.eye(2))
>>> unthunk(pullback(1.0)[2])  # ((df - p - 1) X^-1 - S^-1) / 2 at X = S = I: -I/2 for df = p + 1
array([[-0.5,  0. ],
       [ 0. , -0.5]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc
from scipy.stats import invwishart, wishart
from scipy.stats._multivariate import invwishart_gen, wishart_gen

from chainrules.rulesets._samples import spd
from chainrules.rulesets.stats._psd import symmetric
from chainrules.rulesets.stats._slices import NO, argument_cotangent, fit_output, tangent_value, zero_like
from chainrules.structured import Symmetric
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Thunk,
    ZeroTangent,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

__all__ = ["invwishart_logpdf_frule", "invwishart_logpdf_rrule", "invwishart_pdf_frule", "invwishart_pdf_rrule",
           "wishart_logpdf_frule", "wishart_logpdf_rrule", "wishart_pdf_frule", "wishart_pdf_rrule"]

_LOG_2 = float(np.log(2.0))


def _scale_matrix(scale: Any) -> np.ndarray:
    s = np.asarray(1.0 if scale is None else scale, dtype=np.float64)
    if s.ndim == 0:
        return s[np.newaxis, np.newaxis]
    if s.ndim == 1:
        return np.diag(s)
    return s


def _scale_cotangent(g: np.ndarray, scale: Any) -> np.ndarray:
    """The cotangent of the ``scale`` argument from that of the (symmetric) matrix."""
    s = np.asarray(scale)
    if s.ndim == 0:
        return np.reshape(np.trace(g), s.shape)
    if s.ndim == 1:
        return np.diagonal(g).copy()
    return g


def _scale_tangent(t: Any, scale: Any) -> np.ndarray:
    s = np.asarray(scale)
    ta = np.asarray(t, dtype=np.float64)
    if s.ndim == 0:
        return ta * np.eye(1)
    if s.ndim == 1:
        return np.diag(ta)
    return symmetric(ta)


class _Matrices:
    """The matrices ``X`` as SciPy reads them: an ``(n, p, p)`` stack, and the way back to the argument's shape."""

    def __init__(self, x: Any, dim: int) -> None:
        xa = np.asarray(x, dtype=np.float64)
        self.shape = xa.shape
        if xa.ndim == 0:
            stack = (xa * np.eye(dim))[np.newaxis]
            self.kind = "scalar"
        elif xa.ndim == 1:
            if dim == 1:
                stack, self.kind = xa[:, np.newaxis, np.newaxis], "points"
            else:
                stack, self.kind = np.diag(xa)[np.newaxis], "diagonal"
        elif xa.ndim == 2:
            stack, self.kind = xa[np.newaxis], "matrix"
        else:
            stack, self.kind = np.moveaxis(xa, -1, 0), "stack"
        self.stack = stack

    def cotangent(self, g: np.ndarray) -> np.ndarray:
        """From per-matrix (symmetric) cotangents ``(n, p, p)`` to the argument's shape."""
        if self.kind == "scalar":
            return np.reshape(np.trace(g[0]), self.shape)
        if self.kind == "points":
            return g[:, 0, 0].copy()
        if self.kind == "diagonal":
            return np.diagonal(g[0]).copy()
        if self.kind == "matrix":
            return g[0]
        return np.moveaxis(g, 0, -1)

    def tangent(self, t: Any) -> np.ndarray:
        """A tangent of the argument as ``(n, p, p)`` symmetric matrices."""
        ta = np.asarray(t, dtype=np.float64)
        dim = self.stack.shape[-1]
        if self.kind == "scalar":
            return (ta * np.eye(dim))[np.newaxis]
        if self.kind == "points":
            return ta[:, np.newaxis, np.newaxis]
        if self.kind == "diagonal":
            return np.diag(ta)[np.newaxis]
        if self.kind == "matrix":
            return symmetric(ta)[np.newaxis]
        return symmetric(np.moveaxis(ta, -1, 0))


def _psi_p(a: float, p: int) -> float:
    """``d log Gamma_p(a) / da = sum_(j=1..p) psi(a + (1 - j)/2)``."""
    return float(np.sum(sc.psi(a + (1.0 - np.arange(1, p + 1)) / 2.0)))


class _WishartLogDensity:
    """The partials of the (inverse) Wishart log density at each matrix of the stack."""

    def __init__(self, x: Any, df: Any, scale: Any, inverse: bool) -> None:
        self.s = _scale_matrix(scale)
        self.p = self.s.shape[0]
        self.xs = _Matrices(x, self.p)
        self.df = float(df if df is not None else self.p)
        self.inverse = inverse
        self.s_inv = np.linalg.inv(self.s)
        self.x_inv = np.linalg.inv(self.xs.stack)
        self.logdet_s = float(np.linalg.slogdet(self.s)[1])
        self.logdet_x = np.linalg.slogdet(self.xs.stack)[1]

    def x_partials(self) -> np.ndarray:
        p, df, xi = self.p, self.df, self.x_inv
        if self.inverse:
            return 0.5 * (xi @ self.s @ xi - (df + p + 1) * xi)
        return 0.5 * ((df - p - 1) * xi - self.s_inv)

    def scale_partial(self, w: np.ndarray) -> np.ndarray:
        """``sum_k w_k d log p_k / dS``."""
        if self.inverse:
            return 0.5 * (self.df * np.sum(w) * self.s_inv - np.einsum("k,kij->ij", w, self.x_inv))
        sxs = self.s_inv @ np.einsum("k,kij->ij", w, self.xs.stack) @ self.s_inv
        return 0.5 * (sxs - self.df * np.sum(w) * self.s_inv)

    def scale_tangent(self, ds: np.ndarray) -> np.ndarray:
        """``d log p_k`` for a (symmetric) tangent ``ds`` of the scale matrix, at each matrix."""
        trace = float(np.sum(self.s_inv * ds))
        if self.inverse:
            return 0.5 * (self.df * trace - np.einsum("kij,ij->k", self.x_inv, ds))
        return 0.5 * (np.einsum("kij,ij->k", self.xs.stack, self.s_inv @ ds @ self.s_inv) - self.df * trace)

    def df_partials(self) -> np.ndarray:
        base = -self.p * _LOG_2 - _psi_p(self.df / 2.0, self.p)
        if self.inverse:
            return 0.5 * (self.logdet_s - self.logdet_x + base)
        return 0.5 * (self.logdet_x - self.logdet_s + base)


_NAMES = ("x", "df", "scale")


def _density_rules(method: Callable[..., Any], cls: type, short: str, inverse: bool,
                   exp_output: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def density_rrule(dist: Any, x: Any, df: Any, scale: Any, /) -> tuple[Any, Callable[..., Any]]:
        y = method(dist, x, df, scale)
        values = (x, df, scale)
        live = tuple(differentiable(v) for v in values)

        def wishart_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                return (NO, NO, *((dy if isinstance(dy, NotImplementedTangent) else zero_like(v)) if lv else NO
                                  for v, lv in zip(values, live)))
            d = _WishartLogDensity(x, df, scale, inverse)
            w = np.reshape(np.asarray(dy, dtype=np.float64) * (y if exp_output else 1.0), -1)

            def cot_x() -> Any:
                return argument_cotangent(x, d.xs.cotangent(d.x_partials() * w[:, None, None]))

            def cot_df() -> Any:
                return argument_cotangent(df, float(np.sum(w * d.df_partials())))

            def cot_scale() -> Any:
                return argument_cotangent(scale, _scale_cotangent(d.scale_partial(w), scale))

            several = sum(live) > 1
            makers = (cot_x, cot_df, cot_scale)
            return (NO, NO, *((Thunk(m) if several else m()) if lv else NO for m, lv in zip(makers, live)))

        wishart_pullback.__name__ = f"{short}_pullback"
        return y, wishart_pullback

    def density_frule(tangents: tuple[Any, ...], dist: Any, x: Any, df: Any, scale: Any, /) -> tuple[Any, Any]:
        y = method(dist, x, df, scale)
        dots = [tangent_value(tangents[2 + i]) if differentiable(v) else None for i, v in enumerate((x, df, scale))]
        if all(t is None for t in dots):
            return y, fit_output(None, y)
        for t in dots:
            if isinstance(t, NotImplementedTangent):
                return y, t
        d = _WishartLogDensity(x, df, scale, inverse)
        total = np.zeros(d.xs.stack.shape[0])
        if dots[0] is not None:
            total += np.einsum("kij,kij->k", d.x_partials(), d.xs.tangent(dots[0]))
        if dots[1] is not None:
            total += d.df_partials() * float(np.real(dots[1]))
        if dots[2] is not None:
            total += d.scale_tangent(_scale_tangent(dots[2], scale))
        return y, fit_output(total * (np.reshape(y, -1) if exp_output else 1.0), y)

    density_rrule.__name__ = density_rrule.__qualname__ = f"{short}_rrule"
    density_frule.__name__ = density_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, cls)(density_rrule)
    frule.register(method, cls)(density_frule)
    return density_rrule, density_frule


wishart_logpdf_rrule, wishart_logpdf_frule = _density_rules(wishart_gen.logpdf, wishart_gen, "wishart_logpdf",
                                                            False, False)
wishart_pdf_rrule, wishart_pdf_frule = _density_rules(wishart_gen.pdf, wishart_gen, "wishart_pdf", False, True)
invwishart_logpdf_rrule, invwishart_logpdf_frule = _density_rules(invwishart_gen.logpdf, invwishart_gen,
                                                                  "invwishart_logpdf", True, False)
invwishart_pdf_rrule, invwishart_pdf_frule = _density_rules(invwishart_gen.pdf, invwishart_gen, "invwishart_pdf",
                                                            True, True)


# ---- mean, mode, var, entropy: functions of (df, scale) ------------------------------------------------------
def _trigamma_sum(points: np.ndarray) -> float:
    return float(np.sum(sc.polygamma(1, points)))


class _Moments:
    """``mean``, ``mode``, ``var`` and ``entropy`` of the (inverse) Wishart distribution and their partials.

    Each ``*_partials(g)`` returns ``(df_bar, S_bar)`` for the cotangent ``g`` of the output
    (``S_bar`` symmetric, in the full matrix); ``*_tangent(ddf, dS)`` the output's tangent.
    """

    def __init__(self, df: Any, scale: Any, inverse: bool) -> None:
        self.s = _scale_matrix(scale)
        self.p = self.s.shape[0]
        self.df = float(df)
        self.inverse = inverse
        self.d = np.diagonal(self.s)

    def _factor(self, kind: str) -> tuple[float, float]:
        """``(c, dc/ddf)`` of ``mean`` and ``mode``, which are ``c S``."""
        df, p = self.df, self.p
        if kind == "mean":
            return (1 / (df - p - 1), -1 / (df - p - 1) ** 2) if self.inverse else (df, 1.0)
        return (1 / (df + p + 1), -1 / (df + p + 1) ** 2) if self.inverse else (df - p - 1, 1.0)

    def _var_parts(self) -> tuple[float, float, float, float]:
        """``var = a S o S + b d d^T`` (``d = diag S``): ``(a, b, da/ddf, db/ddf)``."""
        df, p = self.df, self.p
        if not self.inverse:
            return df, df, 1.0, 1.0
        den = (df - p) * (df - p - 1) ** 2 * (df - p - 3)
        dlog_den = 1 / (df - p) + 2 / (df - p - 1) + 1 / (df - p - 3)
        a, b = (df - p + 1) / den, (df - p - 1) / den
        return a, b, 1 / den - a * dlog_den, 1 / den - b * dlog_den

    def partials(self, kind: str, g: np.ndarray) -> tuple[float, np.ndarray]:
        if kind in ("mean", "mode"):
            c, dc = self._factor(kind)
            return dc * float(np.sum(g * self.s)), c * g
        if kind == "var":
            a, b, da, db = self._var_parts()
            s, d = self.s, self.d
            ddf = da * float(np.sum(g * s * s)) + db * float(d @ g @ d)
            return ddf, 2 * a * g * s + b * np.diag((g + g.T) @ d)
        return self.entropy_df() * float(g), 0.5 * (self.p + 1) * float(g) * np.linalg.inv(self.s)

    def tangent(self, kind: str, ddf: float, ds: np.ndarray) -> Any:
        if kind in ("mean", "mode"):
            c, dc = self._factor(kind)
            return dc * ddf * self.s + c * ds
        if kind == "var":
            a, b, da, db = self._var_parts()
            s, d = self.s, self.d
            dd = np.diagonal(ds)
            return (da * ddf * s * s + db * ddf * np.outer(d, d) + 2 * a * s * ds
                    + b * (np.outer(dd, d) + np.outer(d, dd)))
        return self.entropy_df() * ddf + 0.5 * (self.p + 1) * float(np.sum(np.linalg.inv(self.s) * ds))

    def entropy_df(self) -> float:
        """``dH/ddf``: the ``psi_p`` terms cancel, leaving the trigamma sum (see the module docstring)."""
        df, p = self.df, self.p
        i = np.arange(1, p + 1)
        if self.inverse:
            return p / 2 - (df + p + 1) / 4 * _trigamma_sum((df - p + i) / 2)
        return p / 2 - (df - p - 1) / 4 * _trigamma_sum((df + 1 - i) / 2)


def _moment_rules(method: Callable[..., Any], cls: type, kind: str, inverse: bool) -> None:
    short = f"{'inv' if inverse else ''}wishart_{kind}"

    def moment_rrule(dist: Any, df: Any, scale: Any, /) -> Any:
        y = method(dist, df, scale)
        live = (differentiable(df), differentiable(scale))

        def wishart_moment_pullback(dy: Any) -> tuple[Any, ...]:
            if y is None:  # SciPy's "undefined" (a moment that does not exist): nothing to differentiate
                return NO, NO, *(ZeroTangent() if lv else NO for lv in live)
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                return (NO, NO, *((dy if isinstance(dy, NotImplementedTangent) else zero_like(v)) if lv else NO
                                  for v, lv in zip((df, scale), live)))
            m = _Moments(df, scale, inverse)
            g = np.asarray(dy, dtype=np.float64).reshape(() if kind == "entropy" else (m.p, m.p))
            ddf, ds = m.partials(kind, g)
            return (NO, NO, argument_cotangent(df, ddf) if live[0] else NO,
                    argument_cotangent(scale, _scale_cotangent(symmetric(ds), scale)) if live[1] else NO)

        wishart_moment_pullback.__name__ = f"{short}_pullback"
        return y, wishart_moment_pullback

    def moment_frule(tangents: Any, dist: Any, df: Any, scale: Any, /) -> Any:
        y = method(dist, df, scale)
        ddf = tangent_value(tangents[2]) if differentiable(df) else None
        ds = tangent_value(tangents[3]) if differentiable(scale) else None
        if y is None or (ddf is None and ds is None):
            return y, fit_output(None, y) if y is not None else NO
        for t in (ddf, ds):
            if isinstance(t, NotImplementedTangent):
                return y, t
        m = _Moments(df, scale, inverse)
        out = m.tangent(kind, 0.0 if ddf is None else float(np.real(ddf)),
                        np.zeros((m.p, m.p)) if ds is None else _scale_tangent(ds, scale))
        return y, fit_output(out, y)

    moment_rrule.__name__ = moment_rrule.__qualname__ = f"{short}_rrule"
    moment_frule.__name__ = moment_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, cls)(moment_rrule)
    frule.register(method, cls)(moment_frule)


for _cls, _inverse in ((wishart_gen, False), (invwishart_gen, True)):
    for _kind in ("mean", "mode", "var", "entropy"):
        _moment_rules(getattr(_cls, _kind), _cls, _kind, _inverse)


# ---- sample inputs --------------------------------------------------------------------------------------
def _samples(dist: Any, rng: np.random.Generator) -> list[Sample]:
    # Matrices are given as Symmetric (chainrules.structured), so the finite differences vary them in the
    # symmetric matrices, where their cotangents live; stacks of matrices are checked along symmetric
    # directions in tests/chainrules/rulesets/stats/test_wishart.py. (A scalar scale is a 1 x 1 matrix.)
    s = spd(3, rng)
    x = spd(3, rng) * 2.0
    return [Sample(dist, Symmetric(x), 5.5, Symmetric(s)), Sample(dist, Symmetric(x), 4, Symmetric(s),
                                                                     label="integer df (NoTangent)"),
            Sample(dist, Symmetric(x), 6.0, np.diag(s), label="diagonal scale"),
            Sample(dist, np.array([0.7, 1.3, 2.1]), 2.5, 1.2, label="p = 1: a vector of points"),
            Sample(dist, 1.7, 2.5, 0.8, label="p = 1, scalars"),
            Sample(dist, Symmetric(x.astype(np.float32)), np.float32(5.5), np.diag(s).astype(np.float32),
                   label="float32", rtol=1e-3)]


@sample_inputs(wishart_gen.logpdf, wishart_gen.pdf)
def _wishart_samples(rng: np.random.Generator) -> list[Sample]:
    return _samples(wishart, rng)


@sample_inputs(invwishart_gen.logpdf, invwishart_gen.pdf)
def _invwishart_samples(rng: np.random.Generator) -> list[Sample]:
    return _samples(invwishart, rng)


def _moment_samples(dist: Any, rng: np.random.Generator) -> list[Sample]:
    s = spd(3, rng)
    return [Sample(dist, 7.5, Symmetric(s)), Sample(dist, 8.5, np.diag(s), label="diagonal scale"),
            Sample(dist, 5.5, 1.3, label="p = 1")]


@sample_inputs(wishart_gen.mean, wishart_gen.mode, wishart_gen.var, wishart_gen.entropy)
def _wishart_moment_samples(rng: np.random.Generator) -> list[Sample]:
    return _moment_samples(wishart, rng)


@sample_inputs(invwishart_gen.mean, invwishart_gen.mode, invwishart_gen.var, invwishart_gen.entropy)
def _invwishart_moment_samples(rng: np.random.Generator) -> list[Sample]:
    return _moment_samples(invwishart, rng)

