"""The matrix normal distribution: ``matrix_normal.logpdf``, ``.pdf`` and ``.entropy``, in ``X``, ``mean``,
``rowcov`` and ``colcov``.

The maths
---------
For ``m x n`` matrices, ``R = X - M``, row covariance ``U`` (``m x m``) and column
covariance ``V`` (``n x n``)::

    log p = -(m n log(2 pi) + n log|U| + m log|V| + tr(V^-1 R^T U^-1 R)) / 2
    X_bar = -U^-1 R V^-1,   M_bar = -X_bar,
    U_bar = (U^-1 R V^-1 R^T U^-1 - n U^-1) / 2,   V_bar = (V^-1 R^T U^-1 R V^-1 - m V^-1) / 2

(Gupta & Nagar, *Matrix Variate Distributions*, 2000, 2.2.1; it is the normal
distribution of ``vec(X)`` with covariance ``V (x) U``.) Several matrices stacked along
leading axes give one log density each; the cotangents of the parameters sum over them.
``entropy = (m n (1 + log 2 pi) + n log|U| + m log|V|) / 2`` has ``U_bar = n U^-1 / 2``
and ``V_bar = m V^-1 / 2``. As for ``multivariate_normal``: a scalar covariance is ``c I``
(its cotangent the trace), a vector a diagonal, a matrix is symmetric (its cotangent a
symmetric matrix; SciPy factors it with ``eigh`` of one triangle); arguments by position
are differentiated, keywords are constants.

Examples
--------
>>> import numpy as np
>>> from scipy.stats import matrix_normal
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(matrix_normal.logpdf, np.ones((2, 3)), np.zeros((2, 3)), 2.0, 1.0)
>>> unthunk(pullback(1.0)[2])  # -U^-1 R V^-1 = -R / 2
array([[-0.5, -0.5, -0.5],
       [-0.5, -0.5, -0.5]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import matrix_normal
from scipy.stats._multivariate import matrix_normal_gen

from chainrules.rulesets._samples import spd
from chainrules.rulesets.stats._calls import ABSENT, bind, primal_args
from chainrules.rulesets.stats._psd import MatrixArgument, PsdFactor
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


def _dims(mean: Any, rowcov: Any, colcov: Any) -> tuple[int, int]:
    if mean is not None:
        shape = np.shape(mean)
        return int(shape[0]), int(shape[1])

    def size(c: Any) -> int:
        return 1 if np.ndim(c) == 0 else int(np.shape(c)[0])

    return size(rowcov), size(colcov)


class _MatrixNormal:
    """The deviations ``R_k = X_k - M`` and the inverse covariances, for the partials."""

    def __init__(self, x: Any, mean: Any, rowcov: Any, colcov: Any) -> None:
        self.m, self.n = _dims(mean, rowcov, colcov)
        self.rows = MatrixArgument(rowcov, self.m)
        self.cols = MatrixArgument(colcov, self.n)
        self.u_inv = PsdFactor(self.rows.full).pinv
        self.v_inv = PsdFactor(self.cols.full).pinv
        xa = np.asarray(x, dtype=np.float64)
        self.x_shape = xa.shape
        mean_arr = np.zeros((self.m, self.n)) if mean is None else np.asarray(mean, dtype=np.float64)
        self.r = np.reshape(xa - mean_arr, (-1, self.m, self.n))
        self.a = self.u_inv @ self.r @ self.v_inv  # U^-1 R V^-1

    def x_partials(self) -> np.ndarray:
        return -self.a

    def rowcov_partial(self, w: np.ndarray) -> np.ndarray:
        inner = np.einsum("k,kij,klj->il", w, self.a, self.r)  # sum_k w_k (U^-1 R V^-1) R^T
        return 0.5 * (inner @ self.u_inv - self.n * np.sum(w) * self.u_inv)

    def colcov_partial(self, w: np.ndarray) -> np.ndarray:
        inner = np.einsum("k,kji,kjl->il", w, self.a, self.r)  # sum_k w_k (U^-1 R V^-1)^T R
        return 0.5 * (inner @ self.v_inv - self.m * np.sum(w) * self.v_inv)

    def tangent(self, dx: Any, dmean: Any, drow: Any, dcol: Any) -> np.ndarray:
        """``d log p_k`` for the given input tangents (``None``: zero)."""
        out = np.zeros(self.r.shape[0])
        dr = None
        if dx is not None:
            dr = np.reshape(np.asarray(dx, dtype=np.float64), self.r.shape)
        if dmean is not None:
            dm = np.asarray(dmean, dtype=np.float64)
            dr = -dm if dr is None else dr - dm
        if dr is not None:
            out -= np.einsum("kij,kij->k", self.a, np.broadcast_to(dr, self.a.shape))
        if drow is not None:
            du = self.rows.tangent(drow)
            out += 0.5 * (np.einsum("kij,il,klj->k", self.a, du, self.a @ self.cols.full)
                          - self.n * np.sum(self.u_inv * du))
        if dcol is not None:
            dv = self.cols.tangent(dcol)
            out += 0.5 * (np.einsum("kji,il,kjl->k", self.a, dv, self.rows.full @ self.a)
                          - self.m * np.sum(self.v_inv * dv))
        return out


_NAMES = ("X", "mean", "rowcov", "colcov")
_DEFAULTS = {"mean": None, "rowcov": 1, "colcov": 1}


def _density_rules(method: Callable[..., Any], short: str, exp_output: bool) -> tuple[Callable[..., Any], ...]:
    def density_rrule(dist: matrix_normal_gen, X: Any, mean: Any = ABSENT, rowcov: Any = ABSENT,
                      colcov: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
        y = method(dist, X, *primal_args(mean, rowcov, colcov), **kwargs)
        b = bind(_NAMES, _DEFAULTS, (X, mean, rowcov, colcov), kwargs)
        given = [X] + [b[n] if b.by_position(n) else None for n in _NAMES[1:]]
        live = [differentiable(v) for v in given]

        def matrix_normal_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, method)
            if passes_through(dy):
                return (NO, NO, *((dy if isinstance(dy, NotImplementedTangent) else zero_like(v)) if lv else NO
                                  for v, lv in zip(given, live)))
            d = _MatrixNormal(X, b["mean"], b["rowcov"], b["colcov"])
            w = np.reshape(np.asarray(dy, dtype=np.float64) * (y if exp_output else 1.0), -1)
            weighted = d.x_partials() * w[:, None, None]
            mean_shape = (d.m, d.n) if b["mean"] is None else np.shape(b["mean"])
            makers = (lambda: argument_cotangent(X, np.reshape(weighted, d.x_shape)),
                      lambda: argument_cotangent(given[1], np.reshape(-np.sum(weighted, axis=0), mean_shape)),
                      lambda: argument_cotangent(given[2], d.rows.cotangent(d.rowcov_partial(w))),
                      lambda: argument_cotangent(given[3], d.cols.cotangent(d.colcov_partial(w))))
            several = sum(live) > 1
            return (NO, NO, *((Thunk(mk) if several else mk()) if lv else NO for mk, lv in zip(makers, live)))

        matrix_normal_pullback.__name__ = f"{short}_pullback"
        return y, matrix_normal_pullback

    def density_frule(tangents: tuple[Any, ...], dist: matrix_normal_gen, X: Any, mean: Any = ABSENT,
                      rowcov: Any = ABSENT, colcov: Any = ABSENT, /, **kwargs: Any) -> tuple[Any, Any]:
        y = method(dist, X, *primal_args(mean, rowcov, colcov), **kwargs)
        b = bind(_NAMES, _DEFAULTS, (X, mean, rowcov, colcov), kwargs)
        dots = [tangent_value(tangents[2]) if differentiable(X) else None]
        dots += [tangent_value(tangents[3 + i]) if b.by_position(n) and differentiable(b[n]) else None
                 for i, n in enumerate(_NAMES[1:])]
        if all(t is None for t in dots):
            return y, fit_output(None, y)
        for t in dots:
            if isinstance(t, NotImplementedTangent):
                return y, t
        d = _MatrixNormal(X, b["mean"], b["rowcov"], b["colcov"])
        dlog = d.tangent(*dots)
        return y, fit_output(dlog * (np.reshape(y, -1) if exp_output else 1.0), y)

    density_rrule.__name__ = density_rrule.__qualname__ = f"{short}_rrule"
    density_frule.__name__ = density_frule.__qualname__ = f"{short}_frule"
    rrule.register(method, matrix_normal_gen)(density_rrule)
    frule.register(method, matrix_normal_gen)(density_frule)
    return density_rrule, density_frule


logpdf_rrule, logpdf_frule = _density_rules(matrix_normal_gen.logpdf, "matrix_normal_logpdf", False)
pdf_rrule, pdf_frule = _density_rules(matrix_normal_gen.pdf, "matrix_normal_pdf", True)


def _entropy_setup(rowcov: Any, colcov: Any, kwargs: dict[str, Any]) -> tuple[Any, MatrixArgument, MatrixArgument]:
    b = bind(("rowcov", "colcov"), {"rowcov": 1, "colcov": 1}, (rowcov, colcov), kwargs)
    m, n = _dims(None, b["rowcov"], b["colcov"])
    return b, MatrixArgument(b["rowcov"], m), MatrixArgument(b["colcov"], n)


def entropy_rrule(dist: matrix_normal_gen, rowcov: Any = ABSENT, colcov: Any = ABSENT, /,
                  **kwargs: Any) -> tuple[Any, Callable[..., Any]]:
    """Reverse rule of ``matrix_normal.entropy``: ``U_bar = n U^-1 / 2``, ``V_bar = m V^-1 / 2``."""
    y = dist.entropy(*primal_args(rowcov, colcov), **kwargs)
    b, rows, cols = _entropy_setup(rowcov, colcov, kwargs)
    given = [b[n] if b.by_position(n) else None for n in ("rowcov", "colcov")]

    def matrix_normal_entropy_pullback(dy: Any) -> tuple[Any, ...]:
        dy = read_cotangent(dy, y, matrix_normal_gen.entropy)
        if passes_through(dy):
            return (NO, NO, *((dy if isinstance(dy, NotImplementedTangent) else zero_like(v)) if differentiable(v)
                              else NO for v in given))
        g = float(dy)
        out = [NO, NO]
        if differentiable(given[0]):
            out.append(argument_cotangent(given[0], rows.cotangent(0.5 * g * cols.dim * PsdFactor(rows.full).pinv)))
        else:
            out.append(NO)
        if differentiable(given[1]):
            out.append(argument_cotangent(given[1], cols.cotangent(0.5 * g * rows.dim * PsdFactor(cols.full).pinv)))
        else:
            out.append(NO)
        return tuple(out)

    return y, matrix_normal_entropy_pullback


def entropy_frule(tangents: tuple[Any, ...], dist: matrix_normal_gen, rowcov: Any = ABSENT, colcov: Any = ABSENT, /,
                  **kwargs: Any) -> tuple[Any, Any]:
    """Forward rule of ``matrix_normal.entropy``."""
    y = dist.entropy(*primal_args(rowcov, colcov), **kwargs)
    b, rows, cols = _entropy_setup(rowcov, colcov, kwargs)
    du = tangent_value(tangents[2]) if b.by_position("rowcov") and differentiable(b["rowcov"]) else None
    dv = tangent_value(tangents[3]) if b.by_position("colcov") and differentiable(b["colcov"]) else None
    if du is None and dv is None:
        return y, fit_output(None, y)
    for t in (du, dv):
        if isinstance(t, NotImplementedTangent):
            return y, t
    total = 0.0
    if du is not None:
        total += 0.5 * cols.dim * float(np.sum(PsdFactor(rows.full).pinv * rows.tangent(du)))
    if dv is not None:
        total += 0.5 * rows.dim * float(np.sum(PsdFactor(cols.full).pinv * cols.tangent(dv)))
    return y, fit_output(total, y)


rrule.register(matrix_normal_gen.entropy, matrix_normal_gen)(entropy_rrule)
frule.register(matrix_normal_gen.entropy, matrix_normal_gen)(entropy_frule)


# ---- sample inputs --------------------------------------------------------------------------------------
@sample_inputs(matrix_normal_gen.logpdf, matrix_normal_gen.pdf)
def _density_samples(rng: np.random.Generator) -> list[Sample]:
    m, n = 3, 2
    u, v = Symmetric(spd(m, rng)), Symmetric(spd(n, rng))
    x = rng.standard_normal((4, m, n))
    mean = rng.standard_normal((m, n))
    mn = matrix_normal
    return [Sample(mn, x[0], mean, u, v), Sample(mn, x, mean, u, v, label="four matrices (stacked first)"),
            Sample(mn, x[0], mean, np.diag(u.data), 1.5, label="diagonal rowcov, scalar colcov"),
            Sample(mn, x[0], None, u, v, label="mean None"),
            Sample(mn, x[0], fkwargs={"mean": mean, "rowcov": u, "colcov": v}, label="parameters by keyword"),
            Sample(mn, x[0].astype(np.float32), mean.astype(np.float32), np.diag(u.data).astype(np.float32),
                   np.float32(1.5), label="float32", rtol=1e-3)]


@sample_inputs(matrix_normal_gen.entropy)
def _entropy_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(matrix_normal, Symmetric(spd(3, rng)), Symmetric(spd(2, rng))),
            Sample(matrix_normal, np.array([1.0, 2.0, 0.5]), np.array([1.5, 0.5]), label="diagonals")]
