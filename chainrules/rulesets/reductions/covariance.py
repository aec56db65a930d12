"""Covariance and correlation: ``np.cov`` and ``np.corrcoef``.

The maths
---------
NumPy stacks the variables as the rows of ``X`` (``m``, then ``y``; ``rowvar=False``
transposes them), centres each row on its (weighted) mean and returns
``C = Xc W Xc^H / f`` with ``W = diag(w)``, ``w = fweights * aweights`` and ``f`` the
normalisation (``n - ddof`` unweighted). Because ``Xc w = 0``, the centring drops out of
the derivative: ``dC = (dX W Xc^H + Xc W dX^H) / f``, so the cotangent of ``X`` is
``(C̄ + C̄^H) Xc W / f`` (the rules-inventory formula, here for complex data and weights).
A change of the analytic weights moves ``C`` by ``(dw_k Xc_k Xc_k^H - C df) / f`` (the
mean's change drops out again); ``fweights`` are frequencies, integers by NumPy's own
check, and get ``NoTangent()``, as do ``rowvar``, ``bias`` and ``ddof``.

``corrcoef`` is ``R = C / (s s^T)`` with ``s = sqrt(Re diag C)``:
``C̄ = R̄ / (s s^T)`` minus, on the diagonal, ``a_i / (2 s_i^2)`` with
``a_i = sum_j Re(conj(R̄_ij) R_ij + conj(R̄_ji) R_ji)``; then the ``cov`` pullback. NumPy
clips ``R`` to ``[-1, 1]`` to hide rounding; the rule treats that clip as the identity.
A single variable has ``R = 1`` (or NaN): zero derivative.

``dtype=`` is honoured (cotangents keep their inputs' precision).

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule, unthunk
>>> x = np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])
>>> y, pb = rrule(np.cov, x)
>>> y
array([[ 1., -1.],
       [-1.,  1.]])
>>> unthunk(pb(np.array([[1.0, 0.0], [0.0, 0.0]]))[1])
array([[-1.,  0.,  1.],
       [ 0.,  0.,  0.]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.rulesets.reductions._registration import name_pullback, register_rules
from chainrules.rulesets.reductions._tangent_values import output_tangent, passed_on, tangent_value
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    passes_through,
    read_cotangent,
    sample_inputs,
)

_NO = NoTangent()


class Covariance:
    """NumPy's covariance of ``m`` (and ``y``), kept for its derivatives.

    Parameters are those of ``np.cov``; NumPy validates them when the primal is computed.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.reductions.covariance import Covariance
    >>> cov = Covariance(np.array([0.0, 1.0, 2.0]), None, True, False, None, None, None, None)
    >>> cov.value()
    array([[1.]])
    """

    __slots__ = ("aweights", "centred", "ddof", "fact", "fweights", "m_shape", "m_transposed", "rows", "v1", "w",
                 "weighted", "y_shape", "y_transposed")

    def __init__(self, m: Any, y: Any, rowvar: Any, bias: Any, ddof: Any, fweights: Any, aweights: Any,
                 dtype: Any) -> None:
        m_arr = np.asarray(m)
        y_arr = None if y is None else np.asarray(y)
        if dtype is None:
            dtype = np.result_type(m_arr, np.float64) if y_arr is None else np.result_type(m_arr, y_arr, np.float64)
        X = np.array(m_arr, ndmin=2, dtype=dtype)
        self.m_shape = m_arr.shape
        self.m_transposed = not rowvar and m_arr.ndim != 1
        if self.m_transposed:
            X = X.T
        self.rows = X.shape[0]
        self.y_shape: Any = None
        self.y_transposed = False
        if y_arr is not None:
            Y = np.array(y_arr, ndmin=2, dtype=dtype)
            self.y_shape = y_arr.shape
            self.y_transposed = not rowvar and Y.shape[0] != 1
            X = np.concatenate((X, Y.T if self.y_transposed else Y), axis=0)
        n = X.shape[1]
        self.ddof = (0 if bias else 1) if ddof is None else int(ddof)
        self.fweights = None if fweights is None else np.asarray(fweights, dtype=float)
        self.aweights = None if aweights is None else np.asarray(aweights, dtype=float)
        self.weighted = self.fweights is not None or self.aweights is not None
        w = np.ones(n)
        if self.fweights is not None:
            w = w * self.fweights
        if self.aweights is not None:
            w = w * self.aweights
        self.w = w
        self.v1 = float(np.sum(w))
        if not self.weighted:
            fact = n - self.ddof
        elif self.ddof == 0:
            fact = self.v1
        elif self.aweights is None:
            fact = self.v1 - self.ddof
        else:
            fact = self.v1 - self.ddof * float(np.sum(w * self.aweights)) / self.v1
        self.fact = fact if fact > 0 else 0.0
        self.centred = X - (X @ w / self.v1)[:, None]

    def value(self) -> np.ndarray:
        """``C = Xc W Xc^H / f`` (not squeezed)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return (self.centred * self.w) @ self.centred.conj().T / self.fact


    def _stack(self, dm: Any, dy: Any) -> np.ndarray:
        """Tangents of ``m`` and ``y`` stacked like ``X`` (zeros for ``None``)."""
        parts = []
        for d, shape, transposed, rows in ((dm, self.m_shape, self.m_transposed, self.rows),
                                           (dy, self.y_shape, self.y_transposed, None)):
            if shape is None:
                continue
            if d is None:
                rows_here = rows if rows is not None else self.centred.shape[0] - self.rows
                parts.append(np.zeros((rows_here, self.centred.shape[1]), self.centred.dtype))
                continue
            d2 = np.array(d, ndmin=2)
            parts.append(d2.T if transposed else d2)
        return np.concatenate(parts, axis=0)

    def data_cotangent(self, dC: np.ndarray, of_y: bool) -> np.ndarray:
        """The cotangent of ``m`` (or of ``y``) for the cotangent ``dC`` of the (unsqueezed) covariance:
        its rows of ``(dC + dC^H) Xc W / f``, in its own shape."""
        rows = slice(self.rows, None) if of_y else slice(None, self.rows)
        symmetric = dC[rows] + dC.conj().T[rows]
        with np.errstate(divide="ignore", invalid="ignore"):
            g = symmetric @ (self.centred * self.w) / self.fact
        transposed, shape = (self.y_transposed, self.y_shape) if of_y else (self.m_transposed, self.m_shape)
        return np.reshape(g.T if transposed else g, shape)

    def _fact_derivative(self) -> np.ndarray:
        """``df/daw`` of the normalisation with respect to the analytic weights."""
        fw = np.ones_like(self.w) if self.fweights is None else self.fweights
        if self.ddof == 0:
            return fw
        aw = self.aweights
        assert aw is not None
        s = float(np.sum(self.w * aw))
        return fw - self.ddof * (2 * fw * aw / self.v1 - s * fw / self.v1 ** 2)

    def aweights_cotangent(self, dC: np.ndarray, c: np.ndarray) -> np.ndarray:
        """The cotangent of ``aweights``."""
        fw = np.ones_like(self.w) if self.fweights is None else self.fweights
        t = np.conj(dC) @ np.conj(self.centred)
        spread = np.real(np.sum(self.centred * t, axis=0))
        with np.errstate(divide="ignore", invalid="ignore"):
            return (fw * spread - np.real(np.sum(np.conj(dC) * c)) * self._fact_derivative()) / self.fact

    def tangent(self, dm: Any, dy: Any, daw: Any, c: np.ndarray) -> np.ndarray:
        """The pushforward (unsqueezed) of tangents of ``m``, ``y`` and ``aweights`` (``None``: zero)."""
        total = np.zeros(c.shape, np.result_type(c, self.centred))
        with np.errstate(divide="ignore", invalid="ignore"):
            if dm is not None or dy is not None:
                dX = self._stack(dm, dy)
                half = (dX * self.w) @ self.centred.conj().T / self.fact
                total = total + half + half.conj().T
            if daw is not None:
                fw = np.ones_like(self.w) if self.fweights is None else self.fweights
                dw = fw * np.asarray(daw)
                moved = (self.centred * dw) @ self.centred.conj().T
                total = total + (moved - c * float(np.sum(self._fact_derivative() * np.asarray(daw)))) / self.fact
        return total


def _cov_cotangents(cov: Covariance, dC: np.ndarray, project_m: Any, project_y: Any,
                    project_aweights: Any) -> tuple[Any, Any, Any]:
    """Thunked cotangents of ``m``, ``y`` and ``aweights`` (``None`` projector: not differentiated)."""
    dm = Thunk(lambda: project_m(cov.data_cotangent(dC, of_y=False))) if project_m is not None else _NO
    dy = Thunk(lambda: project_y(cov.data_cotangent(dC, of_y=True))) if project_y is not None else _NO
    daw: Any = _NO
    if project_aweights is not None:
        daw = Thunk(lambda: project_aweights(cov.aweights_cotangent(dC, cov.value())))
    return dm, dy, daw


def project_if(x: Any, projector: Any) -> Any:
    """``projector`` if ``x`` is differentiable, else ``None``."""
    return projector if differentiable(x) else None


def cov_rrule(m: Any, y: Any = None, rowvar: Any = True, bias: Any = False, ddof: Any = None, fweights: Any = None,
              aweights: Any = None, *, dtype: Any = None) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    out = np.cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype=dtype)
    cov = Covariance(m, y, rowvar, bias, ddof, fweights, aweights, dtype)
    p = cov.centred.shape[0]
    project_m = cotangent_projector(m)
    project_y = cotangent_projector(y) if y is not None else None
    project_aweights = cotangent_projector(aweights) if differentiable(aweights) else None

    def cov_pullback(dC: Any) -> tuple[Any, ...]:
        dC = read_cotangent(dC, out, np.cov)
        if passes_through(dC):
            zero = passed_on(dC)
            return (_NO, project_m(zero), project_y(zero) if project_y else _NO, _NO, _NO, _NO, _NO,
                    project_aweights(zero) if project_aweights else _NO)
        dC = np.reshape(dC, (p, p))
        dm, dy, daw = _cov_cotangents(cov, dC, project_if(m, project_m), project_if(y, project_y),
                                      project_aweights)
        return _NO, dm, dy, _NO, _NO, _NO, _NO, daw

    return out, name_pullback(cov_pullback, "cov")


def cov_frule(tangents: tuple[Any, ...], m: Any, y: Any = None, rowvar: Any = True, bias: Any = False,
              ddof: Any = None, fweights: Any = None, aweights: Any = None, *, dtype: Any = None) -> tuple[Any, Any]:
    out = np.cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype=dtype)
    dm = tangent_value(tangents[1]) if differentiable(m) else None
    dy = tangent_value(tangents[2]) if differentiable(y) else None
    daw = tangent_value(tangents[7]) if differentiable(aweights) else None
    for t in (dm, dy, daw):
        if isinstance(t, NotImplementedTangent):
            return out, t
    if dm is None and dy is None and daw is None:
        return out, output_tangent(None, out)
    cov = Covariance(m, y, rowvar, bias, ddof, fweights, aweights, dtype)
    dC = cov.tangent(dm, dy, daw, cov.value())
    return out, output_tangent(np.reshape(dC, np.shape(out)), out)


register_rules(np.cov, "cov", cov_rrule, cov_frule)


def _correlation_cotangent(dR: np.ndarray, r: np.ndarray, stddev: np.ndarray) -> np.ndarray:
    """The cotangent of the covariance from that of ``R = C / (s s^T)``, ``s = sqrt(Re diag C)``."""
    dC = dR / np.outer(stddev, stddev)
    weights = np.real(np.conj(dR) * r)
    a = np.sum(weights, axis=1) + np.sum(weights, axis=0)
    dC[np.diag_indices_from(dC)] -= a / (2 * stddev ** 2)
    return dC


def corrcoef_rrule(x: Any, y: Any = None, rowvar: Any = True, *,
                   dtype: Any = None) -> tuple[Any, Callable[[Any], tuple[Any, ...]]]:
    out = np.corrcoef(x, y, rowvar, dtype=dtype)
    cov = Covariance(x, y, rowvar, False, None, None, None, dtype)
    project_x = cotangent_projector(x)
    project_y = cotangent_projector(y) if y is not None else None

    def corrcoef_pullback(dR: Any) -> tuple[Any, ...]:
        dR = read_cotangent(dR, out, np.corrcoef)
        if passes_through(dR) or np.ndim(out) == 0:  # a single variable: R = 1 (or NaN), constant
            zero = passed_on(dR) if passes_through(dR) else ZeroTangent()
            return _NO, project_x(zero), project_y(zero) if project_y else _NO, _NO
        c = cov.value()
        stddev = np.sqrt(np.real(np.diag(c)))
        dC = _correlation_cotangent(np.asarray(dR), c / np.outer(stddev, stddev), stddev)
        dm, dy, _ = _cov_cotangents(cov, dC, project_if(x, project_x), project_if(y, project_y), None)
        return _NO, dm, dy, _NO

    return out, name_pullback(corrcoef_pullback, "corrcoef")


def corrcoef_frule(tangents: tuple[Any, ...], x: Any, y: Any = None, rowvar: Any = True, *,
                   dtype: Any = None) -> tuple[Any, Any]:
    out = np.corrcoef(x, y, rowvar, dtype=dtype)
    dx = tangent_value(tangents[1]) if differentiable(x) else None
    dy = tangent_value(tangents[2]) if differentiable(y) else None
    for t in (dx, dy):
        if isinstance(t, NotImplementedTangent):
            return out, t
    if (dx is None and dy is None) or np.ndim(out) == 0:
        return out, output_tangent(None, out)
    cov = Covariance(x, y, rowvar, False, None, None, None, dtype)
    c = cov.value()
    dC = cov.tangent(dx, dy, None, c)
    stddev = np.sqrt(np.real(np.diag(c)))
    scale = np.outer(stddev, stddev)
    r = c / scale
    ds = np.real(np.diag(dC)) / (2 * stddev)   # d s_i
    relative = ds / stddev
    dR = dC / scale - r * (relative[:, None] + relative[None, :])
    return out, output_tangent(dR, out)


register_rules(np.corrcoef, "corrcoef", corrcoef_rrule, corrcoef_frule)


# ---- sample inputs ----------------------------------------------------------------------------------
_FREQUENCIES = np.array([1, 2, 1, 3, 1])


@sample_inputs(np.cov)
def _cov_samples(rng: np.random.Generator) -> list[Sample]:
    x, y = rng.standard_normal((3, 5)), rng.standard_normal((2, 5))
    aweights = rng.uniform(0.5, 2.0, 5)
    return [Sample(x, label="rows are variables"), Sample(x, y, label="y stacked under m"),
            Sample(x.T.copy(), y.T.copy(), False, label="rowvar=False by position"),
            Sample(x.T.copy(), fkwargs={"rowvar": False}, label="rowvar=False by keyword"),
            Sample(x[0], label="one variable: a 0-d output"),
            Sample(x, None, True, True, label="bias=True"), Sample(x, None, True, False, 2, label="ddof=2"),
            Sample(x, None, True, False, None, None, aweights, label="analytic weights (differentiated)"),
            Sample(x, None, True, False, 1, _FREQUENCIES, aweights, label="frequency and analytic weights, ddof"),
            Sample(x.astype(np.float32), label="float32"),
            Sample(x.astype(np.float32), fkwargs={"dtype": np.float64}, label="float32, dtype="),
            Sample(x + 1j * rng.standard_normal((3, 5)), label="complex")]


@sample_inputs(np.corrcoef)
def _corrcoef_samples(rng: np.random.Generator) -> list[Sample]:
    x, y = rng.standard_normal((3, 5)), rng.standard_normal((2, 5))
    return [Sample(x), Sample(x, y, label="y stacked under x"),
            Sample(x.T.copy(), None, False, label="rowvar=False by position"),
            Sample(x[0], y[0], label="two 1-d variables"),
            Sample(x[0], label="one variable: R = 1, constant"), Sample(x.astype(np.float32), label="float32"),
            Sample(x + 1j * rng.standard_normal((3, 5)), label="complex")]
