"""Finite-difference methods with an adaptive step, a range bound and Richardson extrapolation.

A method is a grid of integer offsets ``g_i`` and weights ``c_i`` such that

    f^{(q)}(x) ~= sum_i c_i f(x + h g_i) / h^q

is exact for polynomials of degree below ``p = len(grid)``. The error of such an estimate
has two parts: truncation, about ``C2 h^(p-q)`` with ``C2 = M sum|c_i g_i^p| / p!`` where
``M`` bounds ``|f^{(p)}|`` near ``x``; and round-off, about ``C1 h^(-q)`` with
``C1 = condition * eps(|f|) * sum|c_i|``. The step minimising their sum is

    h = (q / (p - q) * C1 / C2) ^ (1 / p),

which needs ``M`` and ``|f|``: both are estimated by a second method of derivative order
``p`` (the *bound estimator*), applied once with its own default step. This is the scheme of
FiniteDifferences.jl (Wesselink et al.), itself after the classical analysis in
Sauer, *Numerical Analysis*, section 5.1. Steps never exceed ``max_range / max|g_i|``, so
the evaluation points stay within ``max_range`` of ``x`` (log near 0, a kink nearby); if an
evaluation is not finite, the step is halved until it is.

:func:`extrapolate` adds Richardson extrapolation on a geometric sequence of steps
(Richardson 1911; see also Press et al., *Numerical Recipes*, section 5.7).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

_EPS64 = float(np.finfo(np.float64).eps)
_MAX_HALVINGS = 60
_TINY = float(np.finfo(np.float64).tiny)


def _eps_of(values: list[Any]) -> float:
    """Machine epsilon of the values' precision (float64 for integer or object values)."""
    dtype = np.result_type(*[np.asarray(v).dtype for v in values])
    return float(np.finfo(dtype).eps) if dtype.kind in "fc" else _EPS64


def _coefficients(grid: np.ndarray, q: int) -> np.ndarray:
    """Weights c with sum_i c_i g_i^k / k! = [k == q] for k < p (exact for low-degree polynomials)."""
    p = len(grid)
    vander = np.vander(grid, p, increasing=True).T  # row k: g_i ** k
    rhs = np.zeros(p)
    rhs[q] = math.factorial(q)
    return np.linalg.solve(vander, rhs)


class FiniteDifferenceMethod:
    """A finite-difference estimate of the ``q``-th derivative on an integer grid.

    Parameters
    ----------
    grid : sequence of int
        Offsets of the evaluation points, in units of the step.
    q : int
        Order of the derivative.
    adapt : int
        How many levels of bound estimation choose the step (0: a default step).
    condition : float
        How many ULPs of error to expect in ``f``'s values (scales the round-off term).
    max_range : float
        The furthest any evaluation point may be from ``x``.
    bound_estimator : FiniteDifferenceMethod, optional
        Method of derivative order ``p`` used to bound ``|f^{(p)}|``; built by default.
    kind : str
        ``"central"``, ``"forward"``, ``"backward"`` or ``"custom"`` (used in ``repr`` and
        by :func:`extrapolate` to know the error expansion).

    Notes
    -----
    Points whose weight is zero (the centre of a central first derivative) are not
    evaluated. Points are evaluated outermost first, so that a step crossing the edge of
    ``f``'s domain is detected after one evaluation and halved at once.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import central_fdm
    >>> m = central_fdm(5, 1)
    >>> bool(abs(m(np.sin, 1.0) - np.cos(1.0)) < 1e-11)
    True
    >>> m.coefs.round(6).tolist()   # (f(x-2h) - 8 f(x-h) + 8 f(x+h) - f(x+2h)) / 12h
    [0.083333, -0.666667, 0.0, 0.666667, -0.083333]
    """

    def __init__(self, grid: Any, q: int, *, adapt: int = 1, condition: float = 10.0,
                 max_range: float = math.inf, bound_estimator: FiniteDifferenceMethod | None = None,
                 kind: str = "custom") -> None:
        self.grid = np.asarray(grid, dtype=np.float64)
        self.q = int(q)
        p = len(self.grid)
        if not 0 <= self.q < p:
            raise ValueError(f"a {p}-point method cannot estimate a derivative of order {q}")
        if len(set(self.grid.tolist())) != p:
            raise ValueError("the grid points must be distinct")
        if not max_range > 0:
            raise ValueError(f"max_range must be positive, got {max_range}")
        self.coefs = _coefficients(self.grid, self.q)
        # Weights that vanish in exact arithmetic come out of the solve as round-off.
        self.coefs[np.abs(self.coefs) < 1e-12 * np.max(np.abs(self.coefs))] = 0.0
        self._needed = [int(i) for i in np.argsort(-np.abs(self.grid), kind="stable") if self.coefs[i] != 0.0]
        self._roundoff_factor = float(np.sum(np.abs(self.coefs)))
        self._truncation_factor = float(np.sum(np.abs(self.coefs * self.grid ** p))) / math.factorial(p)
        self.adapt = int(adapt)
        self.condition = float(condition)
        self.max_range = float(max_range)
        self.kind = kind
        self.bound_estimator = bound_estimator

    @property
    def p(self) -> int:
        """Number of grid points (the order of accuracy is ``p - q``)."""
        return len(self.grid)

    def __repr__(self) -> str:
        return (f"FiniteDifferenceMethod({self.kind}, grid={self.grid.astype(int).tolist()}, q={self.q}, "
                f"adapt={self.adapt}, max_range={self.max_range})")

    # ---- step choice ------------------------------------------------------------------------------
    def _max_step(self) -> float:
        return self.max_range / float(np.max(np.abs(self.grid)))

    def _step_from_bounds(self, deriv_bound: float, f_magnitude: float,
                          eps: float = _EPS64) -> tuple[float, float]:
        p, q = self.p, self.q
        c1 = self.condition * eps * max(f_magnitude, _TINY) * self._roundoff_factor
        c2 = deriv_bound * self._truncation_factor
        if q == 0:
            step = 1.0
        else:
            step = (q / (p - q) * c1 / c2) ** (1.0 / p)
        step = min(step, self._max_step())
        accuracy = c1 * step ** (-q) + c2 * step ** (p - q)
        return step, accuracy

    def default_step(self) -> float:
        """The step for ``|f| ~ 1`` and ``|f^{(p)}| ~ 1`` (used without adaptation)."""
        return self._step_from_bounds(1.0, 1.0)[0]

    def estimate_step(self, f: Callable[[float], Any], x: float = 0.0) -> tuple[float, float]:
        """Choose the step for ``f`` at ``x``; return ``(step, estimated accuracy)``.

        The bound estimator (a method for the ``p``-th derivative) estimates ``|f^{(p)}|``
        near ``x``, and ``f``'s values give its magnitude and its precision (a function
        returning float32 has float32 round-off).

        Examples
        --------
        >>> import numpy as np
        >>> from chainrules.testing import central_fdm
        >>> step, acc = central_fdm(5, 1).estimate_step(np.exp, 0.0)
        >>> 1e-4 < step < 1e-1 and acc < 1e-10
        True
        """
        if self.adapt <= 0 or self.bound_estimator is None:
            return self._step_from_bounds(1.0, 1.0)
        estimator = self.bound_estimator
        step = estimator.estimate_step(f, x)[0]
        values, step = estimator._evaluate(f, x, step, all_points=True)
        present = [v for v in values if v is not None]
        if not present or not all(np.isfinite(v).all() for v in present):
            return self._step_from_bounds(1.0, 1.0)
        eps = _eps_of(present)
        bound = float(np.max(np.abs(estimator._combine(values, step))))
        magnitude = float(max(np.max(np.abs(v)) for v in present))
        if not (np.isfinite(bound) and np.isfinite(magnitude)) or bound == 0.0 or magnitude == 0.0:
            return self._step_from_bounds(1.0, max(magnitude, 1.0) if np.isfinite(magnitude) else 1.0, eps)
        return self._step_from_bounds(bound, magnitude, eps)

    # ---- evaluation ---------------------------------------------------------------------------------
    def _evaluate(self, f: Callable[[float], Any], x: float, step: float, *,
                  all_points: bool = False) -> tuple[list[Any], float]:
        """Evaluate ``f`` on the grid, halving the step until every value is finite.

        Returns the values (``None`` at points of weight zero, unless ``all_points``) and
        the step used. If ``f`` is not finite at ``x`` itself, no step helps: the values of
        the first attempt are returned as they are.
        """
        order = range(self.p) if all_points else self._needed
        if all_points:
            order = sorted(order, key=lambda i: -abs(self.grid[i]))
        checked_centre = False
        values: list[Any] = [None] * self.p
        for _ in range(_MAX_HALVINGS):
            values = [None] * self.p
            finite = True
            with np.errstate(all="ignore"):  # a point outside the domain is retried closer in
                for i in order:
                    v = np.asarray(f(x + step * self.grid[i]))
                    values[i] = v
                    if not np.isfinite(v).all():
                        finite = False
                        break
            if finite:
                return values, step
            if not checked_centre:
                checked_centre = True
                with np.errstate(all="ignore"):
                    if not np.all(np.isfinite(np.asarray(f(x)))):
                        break
            step /= 2.0
        # Not finite however small the step: let the non-finite values through.
        with np.errstate(all="ignore"):
            values = [np.asarray(f(x + step * self.grid[i])) if (all_points or i in self._needed) else None
                      for i in range(self.p)]
        return values, step

    def _combine(self, values: list[Any], step: float) -> Any:
        total: Any = 0.0
        for c, v in zip(self.coefs, values):
            if c != 0.0 and v is not None:
                total = total + c * v
        return total / step ** self.q

    def __call__(self, f: Callable[[float], Any], x: float = 0.0, step: float | None = None) -> Any:
        """Estimate the ``q``-th derivative of ``f`` at ``x`` (``f`` may return an array).

        ``step`` fixes the step (still capped by ``max_range``); by default it is chosen by
        :meth:`estimate_step`.
        """
        if step is None:
            step = self.estimate_step(f, x)[0]
        values, step = self._evaluate(f, x, min(step, self._max_step()))
        result = self._combine(values, step)
        return result[()] if isinstance(result, np.ndarray) and result.ndim == 0 else result


def _make(kind: str, grid: list[int], q: int, *, adapt: int, condition: float, max_range: float,
          estimator_points: int, constructor: Callable[..., FiniteDifferenceMethod]) -> FiniteDifferenceMethod:
    estimator = None
    if adapt > 0:
        estimator = constructor(estimator_points, len(grid), adapt=adapt - 1, condition=condition,
                                max_range=max_range)
    return FiniteDifferenceMethod(grid, q, adapt=adapt, condition=condition, max_range=max_range,
                                  bound_estimator=estimator, kind=kind)


def central_fdm(p: int, q: int, *, adapt: int = 1, condition: float = 10.0,
                max_range: float = math.inf) -> FiniteDifferenceMethod:
    """A ``p``-point central method for the ``q``-th derivative (``p`` odd is symmetric).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import central_fdm
    >>> central_fdm(5, 1).grid.astype(int).tolist()
    [-2, -1, 0, 1, 2]
    >>> bool(abs(central_fdm(5, 1)(np.exp, 30.0) / np.exp(30.0) - 1) < 1e-9)
    True
    """
    half = p // 2
    grid = list(range(-half, half + 1)) if p % 2 else [g for g in range(-half, half + 1) if g != 0]
    return _make("central", grid, q, adapt=adapt, condition=condition, max_range=max_range,
                 estimator_points=p + 2, constructor=central_fdm)


def forward_fdm(p: int, q: int, *, adapt: int = 1, condition: float = 10.0,
                max_range: float = math.inf) -> FiniteDifferenceMethod:
    """A ``p``-point forward method (points ``0..p-1``): for functions defined only right of ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import forward_fdm
    >>> bool(abs(forward_fdm(5, 1)(np.sqrt, 0.0 + 1e-3) - 0.5 / np.sqrt(1e-3)) < 1e-6)
    True
    """
    return _make("forward", list(range(p)), q, adapt=adapt, condition=condition, max_range=max_range,
                 estimator_points=p + 1, constructor=forward_fdm)


def backward_fdm(p: int, q: int, *, adapt: int = 1, condition: float = 10.0,
                 max_range: float = math.inf) -> FiniteDifferenceMethod:
    """A ``p``-point backward method (points ``1-p..0``): for functions defined only left of ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import backward_fdm
    >>> bool(abs(backward_fdm(5, 1)(lambda t: np.sqrt(-t), -1.0) + 0.5) < 1e-9)
    True
    """
    return _make("backward", list(range(1 - p, 1)), q, adapt=adapt, condition=condition,
                 max_range=max_range, estimator_points=p + 1, constructor=backward_fdm)


def extrapolate(fdm: FiniteDifferenceMethod, f: Callable[[float], Any], x: float = 0.0, *,
                initial_step: float | None = None, contract: float = 0.125, max_steps: int = 10,
                rtol: float = 0.0, atol: float = 0.0) -> tuple[Any, float]:
    """Richardson extrapolation of ``fdm`` over the steps ``h, h*contract, h*contract^2, ...``.

    The estimate ``A(h) = D + a h^e + b h^(e+s) + ...`` (``e = p - q`` and ``s = 1``; on a
    symmetric grid only even ``e`` and ``s = 2``) is extrapolated to ``h -> 0`` with a Neville table; it
    stops when the error estimate stops decreasing or falls below ``atol + rtol * |D|``.
    The initial step (``min(0.1, max_range / max|grid|)`` by default) is first halved until
    ``f`` is finite on the whole grid, so that the table's steps stay in ratio ``contract``.

    Returns
    -------
    estimate, error : the extrapolated derivative and an estimate of its error.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing import central_fdm, extrapolate
    >>> d, err = extrapolate(central_fdm(3, 1, adapt=0), np.sin, 1.0)
    >>> bool(abs(d - np.cos(1.0)) < 1e-12)
    True
    >>> d, err = extrapolate(central_fdm(3, 1, adapt=0), np.log, 1e-3)   # the domain ends at 0
    >>> bool(abs(d - 1e3) < 1e-6)
    True
    """
    if not 0.0 < contract < 1.0:
        raise ValueError(f"contract must be in (0, 1), got {contract}")
    if initial_step is None:
        initial_step = min(0.1, fdm._max_step())
    values, step = fdm._evaluate(f, x, min(initial_step, fdm._max_step()))
    # On a symmetric grid the error has only the powers h^(k - q) with k - q even.
    symmetric = bool(np.array_equal(np.sort(fdm.grid), -np.sort(fdm.grid)[::-1]))
    exponent, stride = fdm.p - fdm.q, 1
    if symmetric:
        exponent, stride = exponent + exponent % 2, 2
    table: list[list[Any]] = []
    best: Any = None
    best_err = math.inf
    for k in range(max_steps):
        if k > 0:
            values, used = fdm._evaluate(f, x, step)
            if used != step:  # not finite any more this close: keep what the table has
                break
        row = [np.asarray(fdm._combine(values, step))]
        for j in range(1, k + 1):
            factor = contract ** (-(exponent + stride * (j - 1)))
            row.append(row[j - 1] + (row[j - 1] - table[k - 1][j - 1]) / (factor - 1.0))
        table.append(row)
        if k > 0:
            err = float(np.max(np.abs(row[-1] - table[k - 1][-1])))
            if err < best_err:
                best, best_err = row[-1], err
            elif err > 2 * best_err:
                break
            if best_err <= atol + rtol * float(np.max(np.abs(best))):
                break
        step *= contract
    if best is None:
        best = table[0][0]
    return (best if np.ndim(best) else best[()]), best_err
