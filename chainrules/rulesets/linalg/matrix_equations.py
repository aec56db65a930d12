"""Matrix equations: ``scipy.linalg.solve_sylvester``, ``solve_continuous_lyapunov``, ``solve_discrete_lyapunov``,
``solve_continuous_are`` and ``solve_discrete_are``, for stacks of real or complex matrices.

Each solution ``X`` is defined implicitly by ``F(X, params) = 0``; differentiating gives a
linear equation for ``dX`` of the same kind, and the pullback solves its adjoint, the same
equation with conjugate-transposed coefficients (implicit function theorem; Giles 2008, "An
extended collection of matrix derivative results", for Sylvester and Lyapunov; Kao &
Hennequin 2020, "Automatic differentiation of Sylvester, Lyapunov, and algebraic Riccati
equations", arXiv:2011.11430, for all five; ChainRules.jl's ``sylvester`` and ``lyap``):

* Sylvester ``A X + X B = Q``: ``A dX + dX B = dQ - dA X - X dB``; with ``A^H Y + Y B^H = dX_bar``:
  ``dQ = Y``, ``dA = -Y X^H``, ``dB = -X^H Y``.
* continuous Lyapunov ``A X + X A^H = Q``: the Sylvester case with ``B = A^H``: ``dQ = Y``,
  ``dA = -(Y X^H + Y^H X)`` with ``A^H Y + Y A = dX_bar``.
* discrete Lyapunov (Stein) ``A X A^H - X + Q = 0``: ``A dX A^H - dX + (dQ + dA X A^H + A X dA^H)
  = 0``; with ``A^H Y A - Y + dX_bar = 0``: ``dQ = Y``, ``dA = Y A X^H + Y^H A X``.
* continuous Riccati ``A^H X E + E^H X A - (E^H X B + S) R^{-1} (B^H X E + S^H) + Q = 0``:
  with the gain ``K = R^{-1} (B^H X E + S^H)`` and the closed-loop matrix ``Ac = A - B K``,
  the terms in ``dX`` collect to the Lyapunov operator ``Ac^H dX E + E^H dX Ac``, and the
  rest is ``C = h(E^H X dA) + h(Ac^H X dE) - h(E^H X dB K) - h(dS K) + K^H dR K + dQ``
  (``h(M) = M + M^H``). With ``P = E^{-1} Ac`` and ``Z = E^H dX E``: ``P^H Z + Z P + C = 0``.
  The pullback solves ``P Y + Y P^H + G' = 0``, ``G' = E^{-1} h(dX_bar)/2 E^{-H}``, and gives
  ``dQ = Y``, ``dR = K Y K^H``, ``dA = 2 X E Y``, ``dB = -2 X E Y K^H``, ``dS = -2 Y K^H``,
  ``dE = 2 X Ac Y``.
* discrete Riccati ``A^H X A - E^H X E - (A^H X B + S)(R + B^H X B)^{-1}(B^H X A + S^H) + Q = 0``:
  ``K = (R + B^H X B)^{-1} (B^H X A + S^H)``, ``Ac = A - B K``; the ``dX`` terms are ``Ac^H dX Ac
  - E^H dX E`` and ``C = h(Ac^H X dA) - h(Ac^H X dB K) - h(dS K) + K^H dR K + dQ - h(E^H X dE)``;
  the Stein equation ``P^H Z P - Z + C = 0`` and its adjoint ``P Y P^H - Y + G' = 0`` give
  ``dQ = Y``, ``dR = K Y K^H``, ``dA = 2 X Ac Y``, ``dB = -2 X Ac Y K^H``, ``dS = -2 Y K^H``,
  ``dE = -2 X E Y``.

The Riccati solvers require Hermitian ``q`` and ``r`` (SciPy raises ``ValueError`` otherwise) and
return a Hermitian ``X``: tangents of ``q`` and ``r`` are taken as their Hermitian parts, their
cotangents are Hermitian, and the output cotangent's Hermitian part is the one that counts.
Pass ``q`` and ``r`` as :class:`~chainrules.structured.Hermitian` (or ``Symmetric``) to keep the
structure. The closed-loop matrix is stable (SciPy returns the stabilizing solution), so the
Lyapunov and Stein equations of the derivatives are nonsingular.

Sylvester and continuous Lyapunov equations are solved by Bartels-Stewart
(:class:`~chainrules.rulesets.linalg._sylvester.Sylvester`), which raises ``LinAlgError`` where
the equation, and so the derivative, is singular. Primal outputs are SciPy's own (its errors
pass through); cotangents keep each input's dtype, and ``None`` for ``e``, ``s`` gets
``NoTangent()``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._sylvester import Sylvester, solve_stein
from chainrules.rulesets.linalg._utils import NO, hermitian_part, mH, not_implemented_in, tangent_value
from chainrules.structured import Hermitian, Symmetric
from chainrules_core import (
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unbroadcast,
)

__all__ = ["riccati_gain"]


def _dense(x: Any) -> np.ndarray:
    arr = np.asarray(x)
    return arr if arr.dtype.kind in "fc" else arr.astype(np.float64)


def _cotangent(project: Callable[[Any], Any], value: Callable[[], np.ndarray], shape: tuple[int, ...]) -> Thunk:
    """A thunk of ``project(unbroadcast(value(), shape))`` (the inputs' batch axes broadcast in SciPy)."""
    return Thunk(lambda: project(unbroadcast(value(), shape)))


def _zero_if_none(t: Any, like: np.ndarray) -> np.ndarray:
    return np.zeros(like.shape, dtype=like.dtype) if t is None else t


def _tangents(tangents: Any, count: int) -> tuple[list[Any], Any]:
    """The input tangents as arrays (``None`` for zeros), and the first not-implemented one."""
    values = [tangent_value(t) for t in tangents[1:1 + count]]
    return values, not_implemented_in(*values)


# ---- solve_sylvester ----------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.solve_sylvester, np.ndarray, np.ndarray, np.ndarray)
def solve_sylvester_rrule(a: np.ndarray, b: np.ndarray, q: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.solve_sylvester`` (``A X + X B = Q``): one adjoint Sylvester equation.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> a, b, q = np.diag([1.0, 2.0]), np.diag([3.0, 4.0]), np.ones((2, 2))
    >>> x, pullback = rrule(scipy.linalg.solve_sylvester, a, b, q)
    >>> unthunk(pullback(np.ones((2, 2)))[3])        # dQ = Y: A^H Y + Y B^H = dX_bar
    array([[0.25      , 0.2       ],
           [0.2       , 0.16666667]])
    """
    x = scipy.linalg.solve_sylvester(a, b, q)
    project_a, project_b, project_q = cotangent_projector(a), cotangent_projector(b), cotangent_projector(q)

    def solve_sylvester_pullback(dx: Any) -> tuple[Any, Any, Any, Any]:
        g = read_cotangent(dx, x, "scipy.linalg.solve_sylvester")
        if passes_through(g):
            return NO, project_a(g), project_b(g), project_q(g)
        y = functools.cache(lambda: Sylvester(_dense(a), _dense(b)).solve(g, adjoint=True))
        return (NO, _cotangent(project_a, lambda: -(y() @ mH(x)), a.shape),
                _cotangent(project_b, lambda: -(mH(x) @ y()), b.shape), _cotangent(project_q, y, q.shape))

    return x, solve_sylvester_pullback


@frule.register(scipy.linalg.solve_sylvester, np.ndarray, np.ndarray, np.ndarray)
def solve_sylvester_frule(tangents: Any, a: np.ndarray, b: np.ndarray, q: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.solve_sylvester``: ``A dX + dX B = dQ - dA X - X dB``."""
    x = scipy.linalg.solve_sylvester(a, b, q)
    (da, db, dq), missing = _tangents(tangents, 3)
    if missing is not None:
        return x, missing
    if da is None and db is None and dq is None:
        return x, ZeroTangent()
    rhs = _zero_if_none(dq, x) - (0 if da is None else da @ x) - (0 if db is None else x @ db)
    return x, ProjectTo(x)(Sylvester(_dense(a), _dense(b)).solve(rhs))


# ---- solve_continuous_lyapunov ------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.solve_continuous_lyapunov, np.ndarray, np.ndarray)
def solve_continuous_lyapunov_rrule(a: np.ndarray, q: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.solve_continuous_lyapunov`` (``A X + X A^H = Q``).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> x, pullback = rrule(scipy.linalg.solve_continuous_lyapunov, np.diag([1.0, 2.0]), np.eye(2))
    >>> unthunk(pullback(np.eye(2))[2])              # dQ = Y: A^H Y + Y A = dX_bar
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    x = scipy.linalg.solve_continuous_lyapunov(a, q)
    project_a, project_q = cotangent_projector(a), cotangent_projector(q)

    def solve_continuous_lyapunov_pullback(dx: Any) -> tuple[Any, Any, Any]:
        g = read_cotangent(dx, x, "scipy.linalg.solve_continuous_lyapunov")
        if passes_through(g):
            return NO, project_a(g), project_q(g)
        aw = _dense(a)
        y = functools.cache(lambda: Sylvester(aw, mH(aw)).solve(g, adjoint=True))
        return (NO, _cotangent(project_a, lambda: -(y() @ mH(x) + mH(y()) @ x), a.shape),
                _cotangent(project_q, y, q.shape))

    return x, solve_continuous_lyapunov_pullback


@frule.register(scipy.linalg.solve_continuous_lyapunov, np.ndarray, np.ndarray)
def solve_continuous_lyapunov_frule(tangents: Any, a: np.ndarray, q: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.solve_continuous_lyapunov``: ``A dX + dX A^H = dQ - dA X - X dA^H``."""
    x = scipy.linalg.solve_continuous_lyapunov(a, q)
    (da, dq), missing = _tangents(tangents, 2)
    if missing is not None:
        return x, missing
    if da is None and dq is None:
        return x, ZeroTangent()
    rhs = _zero_if_none(dq, x) - (0 if da is None else da @ x + x @ mH(da))
    aw = _dense(a)
    return x, ProjectTo(x)(Sylvester(aw, mH(aw)).solve(rhs))


# ---- solve_discrete_lyapunov --------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.solve_discrete_lyapunov, np.ndarray, np.ndarray)
def solve_discrete_lyapunov_rrule(a: np.ndarray, q: np.ndarray, method: Any = None) -> Any:
    """Reverse rule of ``scipy.linalg.solve_discrete_lyapunov`` (``A X A^H - X + Q = 0``): one adjoint Stein equation.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> x, pullback = rrule(scipy.linalg.solve_discrete_lyapunov, np.diag([0.5, 0.0]), np.eye(2))
    >>> np.round(unthunk(pullback(np.eye(2))[2]), 4)     # dQ = Y: A^H Y A - Y + dX_bar = 0
    array([[1.3333, 0.    ],
           [0.    , 1.    ]])
    """
    x = scipy.linalg.solve_discrete_lyapunov(a, q, method)
    project_a, project_q = cotangent_projector(a), cotangent_projector(q)

    def solve_discrete_lyapunov_pullback(dx: Any) -> tuple[Any, Any, Any, Any]:
        g = read_cotangent(dx, x, "scipy.linalg.solve_discrete_lyapunov")
        if passes_through(g):
            return NO, project_a(g), project_q(g), NO
        aw = _dense(a)
        y = functools.cache(lambda: solve_stein(mH(aw), g, method))
        return (NO, _cotangent(project_a, lambda: y() @ aw @ mH(x) + mH(y()) @ aw @ x, a.shape),
                _cotangent(project_q, y, q.shape), NO)

    return x, solve_discrete_lyapunov_pullback


@frule.register(scipy.linalg.solve_discrete_lyapunov, np.ndarray, np.ndarray)
def solve_discrete_lyapunov_frule(tangents: Any, a: np.ndarray, q: np.ndarray, method: Any = None) -> Any:
    """Forward rule of ``scipy.linalg.solve_discrete_lyapunov``: ``A dX A^H - dX + dQ + dA X A^H + A X dA^H = 0``."""
    x = scipy.linalg.solve_discrete_lyapunov(a, q, method)
    (da, dq), missing = _tangents(tangents, 2)
    if missing is not None:
        return x, missing
    if da is None and dq is None:
        return x, ZeroTangent()
    aw = _dense(a)
    rhs = _zero_if_none(dq, x) + (0 if da is None else da @ x @ mH(aw) + aw @ x @ mH(da))
    return x, ProjectTo(x)(solve_stein(aw, rhs, method))


# ---- the algebraic Riccati equations ------------------------------------------------------------------------------
def riccati_gain(kind: str, a: np.ndarray, b: np.ndarray, r: np.ndarray, x: np.ndarray, e: np.ndarray | None,
                 s: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The gain ``K`` and the closed-loop matrix ``Ac = A - B K`` of a Riccati solution ``X``.

    ``kind`` is ``"care"`` (``K = R^{-1} (B^H X E + S^H)``) or ``"dare"`` (``K = (R + B^H X B)^{-1}
    (B^H X A + S^H)``).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules.rulesets.linalg.matrix_equations import riccati_gain
    >>> a, b, q, r = np.array([[1.0]]), np.array([[1.0]]), np.array([[1.0]]), np.array([[1.0]])
    >>> x = scipy.linalg.solve_continuous_are(a, b, q, r)
    >>> k, ac = riccati_gain("care", a, b, r, x, None, None)
    >>> round(float(ac[0, 0]), 12)      # 1 - (1 + sqrt(2)): stable
    -1.414213562373
    """
    bh_x = mH(b) @ x
    if kind == "care":
        w = bh_x if e is None else bh_x @ e
        lhs = r
    else:
        w = bh_x @ a
        lhs = r + bh_x @ b
    if s is not None:
        w = w + mH(s)
    k = np.linalg.solve(lhs, w)
    return k, a - b @ k


class _Riccati:
    """What the rules of one Riccati solution share: the gain, the closed-loop matrix and ``E``'s solves."""

    def __init__(self, kind: str, args: list[Any], x: np.ndarray) -> None:
        a, b, r = _dense(args[0]), _dense(args[1]), _dense(args[3])
        e, s = (None if v is None else _dense(v) for v in args[4:])
        self.kind, self.a, self.b, self.e, self.s = kind, a, b, e, s
        self.x = np.asarray(x)
        self.k, self.ac = riccati_gain(kind, a, b, r, self.x, e, s)
        self.p = self.ac if e is None else np.linalg.solve(e, self.ac)

    def _from_z(self, z: np.ndarray) -> np.ndarray:
        """``E^{-H} Z E^{-1}``."""
        if self.e is None:
            return z
        eh = mH(self.e)
        return mH(np.linalg.solve(eh, mH(np.linalg.solve(eh, z))))

    def _to_adjoint(self, g: np.ndarray) -> np.ndarray:
        """``E^{-1} G E^{-H}``."""
        if self.e is None:
            return g
        return np.linalg.solve(self.e, mH(np.linalg.solve(self.e, mH(g))))

    def tangent(self, da: Any, db: Any, dq: Any, dr: Any, de: Any, ds: Any) -> np.ndarray:
        """``dX`` for input tangents (``None`` for zeros)."""
        x, k, ac = self.x, self.k, self.ac
        c = np.zeros(np.broadcast_shapes(x.shape, ac.shape), dtype=np.result_type(x, ac, *(
            t for t in (da, db, dq, dr, de, ds) if t is not None)))
        if self.kind == "care":
            ex = x if self.e is None else mH(self.e) @ x  # E^H X
            terms = [(ex, da), (mH(ac) @ x, de)]
            db_term = None if db is None else -(ex @ db @ k)
        else:
            ex = x if self.e is None else mH(self.e) @ x
            terms = [(mH(ac) @ x, da), (-ex, de)]
            db_term = None if db is None else -(mH(ac) @ x @ db @ k)
        for m, d in terms:
            if d is not None:
                c = c + _sym(m @ d)
        if db_term is not None:
            c = c + _sym(db_term)
        if ds is not None:
            c = c - _sym(ds @ k)
        if dr is not None:
            c = c + mH(k) @ hermitian_part(dr) @ k
        if dq is not None:
            c = c + hermitian_part(dq)
        p = self.p
        if self.kind == "care":
            z = Sylvester(mH(p), p).solve(-c)
        else:
            z = solve_stein(mH(p), c)
        return self._from_z(z)

    def adjoint(self, g: np.ndarray) -> np.ndarray:
        """``Y``: the adjoint Lyapunov (``care``) or Stein (``dare``) solution for the output cotangent ``g``."""
        g = self._to_adjoint(hermitian_part(g))
        if self.kind == "care":
            return Sylvester(mH(self.p), self.p).solve(-g, adjoint=True)
        return solve_stein(self.p, g)

    def cotangents(self, y: np.ndarray) -> dict[str, Callable[[], np.ndarray]]:
        """The cotangent of each input, from ``Y`` (as functions, to be thunked)."""
        x, k, ac = self.x, self.k, self.ac
        if self.kind == "care":
            xey = x @ y if self.e is None else x @ self.e @ y  # X E Y
            da = 2 * xey
            de = 2 * (x @ ac @ y)
        else:
            xey = x @ ac @ y  # dB, dA: X Ac Y
            da = 2 * xey
            de = -2 * (x @ (y if self.e is None else self.e @ y))
        return {"a": lambda: da, "b": lambda: -2 * (xey @ mH(k)), "q": lambda: y,
                "r": lambda: k @ y @ mH(k), "e": lambda: de, "s": lambda: -2 * (y @ mH(k))}


def _sym(m: np.ndarray) -> np.ndarray:
    """``M + M^H``."""
    return m + mH(m)


_ARE_NAMES = ("a", "b", "q", "r", "e", "s")


def _are_rrule(f: Callable[..., Any], kind: str, args: list[Any], balanced: bool) -> Any:
    x = f(*args, balanced=balanced)
    projectors = [cotangent_projector(v) for v in args]
    shapes = [np.shape(v) for v in args]
    name = f.__name__

    def are_pullback(dx: Any) -> tuple[Any, ...]:
        g = read_cotangent(dx, x, f"scipy.linalg.{name}")
        if passes_through(g):
            return (NO, *(NO if v is None else project(g) for v, project in zip(args, projectors)), NO)
        solved = functools.cache(lambda: _Riccati(kind, args, x))
        y = functools.cache(lambda: solved().adjoint(g))
        parts = functools.cache(lambda: solved().cotangents(y()))
        out: list[Any] = [NO]
        for arg_name, v, project, shape in zip(_ARE_NAMES, args, projectors, shapes):
            if v is None:
                out.append(NO)
                continue
            out.append(_cotangent(project, _part(parts, arg_name), shape))
        return (*out, NO)

    are_pullback.__name__ = are_pullback.__qualname__ = f"{name}_pullback"
    return x, are_pullback


def _part(parts: Callable[[], dict[str, Callable[[], np.ndarray]]], name: str) -> Callable[[], np.ndarray]:
    return lambda: parts()[name]()


def _are_frule(f: Callable[..., Any], kind: str, tangents: Any, args: list[Any], balanced: bool) -> Any:
    x = f(*args, balanced=balanced)
    values, missing = _tangents(tangents, 6)
    values = [None if v is None else t for v, t in zip(args, values)]
    if missing is not None:
        return x, missing
    if all(t is None for t in values):
        return x, ZeroTangent()
    return x, ProjectTo(x)(_Riccati(kind, args, x).tangent(*values))


@rrule.register(scipy.linalg.solve_continuous_are, np.ndarray, np.ndarray)
def solve_continuous_are_rrule(a: np.ndarray, b: np.ndarray, q: Any, r: Any, e: Any = None, s: Any = None,
                               balanced: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.solve_continuous_are``: the adjoint Lyapunov equation of the closed loop.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> one = np.array([[1.0]])
    >>> from chainrules import unthunk
    >>> x, pullback = rrule(scipy.linalg.solve_continuous_are, one, one, one, one)
    >>> round(float(unthunk(pullback(one)[3])[0, 0]), 6)     # 2x - x^2 + q = 0: dx/dq = 1 / (2 (x - 1))
    0.353553
    """
    return _are_rrule(scipy.linalg.solve_continuous_are, "care", [a, b, q, r, e, s], balanced)


@frule.register(scipy.linalg.solve_continuous_are, np.ndarray, np.ndarray)
def solve_continuous_are_frule(tangents: Any, a: np.ndarray, b: np.ndarray, q: Any, r: Any, e: Any = None,
                               s: Any = None, balanced: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.solve_continuous_are``: ``P^H Z + Z P + C = 0``, ``dX = E^{-H} Z E^{-1}``."""
    return _are_frule(scipy.linalg.solve_continuous_are, "care", tangents, [a, b, q, r, e, s], balanced)


@rrule.register(scipy.linalg.solve_discrete_are, np.ndarray, np.ndarray)
def solve_discrete_are_rrule(a: np.ndarray, b: np.ndarray, q: Any, r: Any, e: Any = None, s: Any = None,
                             balanced: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.solve_discrete_are``: the adjoint Stein equation of the closed loop.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> one = np.array([[1.0]])
    >>> x, pullback = rrule(scipy.linalg.solve_discrete_are, one, one, one, one)
    >>> round(float(x[0, 0]), 6), round(float(unthunk(pullback(one)[3])[0, 0]), 6)   # x = golden ratio; dx/dq
    (1.618034, 1.17082)
    """
    return _are_rrule(scipy.linalg.solve_discrete_are, "dare", [a, b, q, r, e, s], balanced)


@frule.register(scipy.linalg.solve_discrete_are, np.ndarray, np.ndarray)
def solve_discrete_are_frule(tangents: Any, a: np.ndarray, b: np.ndarray, q: Any, r: Any, e: Any = None,
                             s: Any = None, balanced: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.solve_discrete_are``: ``P^H Z P - Z + C = 0``, ``dX = E^{-H} Z E^{-1}``."""
    return _are_frule(scipy.linalg.solve_discrete_are, "dare", tangents, [a, b, q, r, e, s], balanced)


# ---- sample inputs ----------------------------------------------------------------------------------------
def _stable(rng: np.random.Generator, n: int = 3, dtype: Any = np.float64) -> np.ndarray:
    """A matrix with eigenvalues in the left half-plane (``A X + X A^H = Q`` has a unique solution)."""
    return (-2 * np.eye(n) + 0.5 * rng.standard_normal((n, n))).astype(dtype)


@sample_inputs(scipy.linalg.solve_sylvester)
def _sylvester_samples(rng: np.random.Generator) -> list[Sample]:
    a, b = _stable(rng), -_stable(rng, 2)
    q = rng.standard_normal((3, 2))
    return [
        Sample(a, b, q, label="3x3, 2x2"),
        Sample(a.astype(np.float32), b.astype(np.float32), q.astype(np.float32), label="float32"),
        Sample(a + 0.3j * rng.standard_normal((3, 3)), b, q, label="complex a"),
    ]


@sample_inputs(scipy.linalg.solve_continuous_lyapunov)
def _continuous_lyapunov_samples(rng: np.random.Generator) -> list[Sample]:
    a, q = _stable(rng), rng.standard_normal((3, 3))
    return [
        Sample(a, q, label="real"),
        Sample(a.astype(np.float32), q.astype(np.float32), label="float32"),
        Sample(a + 0.3j * rng.standard_normal((3, 3)), q + q.T, label="complex"),
    ]


@sample_inputs(scipy.linalg.solve_discrete_lyapunov)
def _discrete_lyapunov_samples(rng: np.random.Generator) -> list[Sample]:
    a, q = 0.3 * rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    return [
        Sample(a, q, label="default method"),
        Sample(a, q, "direct", label="method='direct' by position"),
        Sample(a, q, fkwargs={"method": "bilinear"}, label="method='bilinear' by keyword"),
        Sample(a + 0.2j * rng.standard_normal((3, 3)), q, label="complex"),
        Sample(a.astype(np.float32), q.astype(np.float32), label="float32"),
    ]


def _riccati_data(rng: np.random.Generator, dtype: Any = np.float64) -> tuple[np.ndarray, ...]:
    a = (0.5 * rng.standard_normal((3, 3))).astype(dtype)
    b = rng.standard_normal((3, 2)).astype(dtype)
    g = rng.standard_normal((3, 3))
    q = (g @ g.T / 3 + np.eye(3)).astype(dtype)
    r = (np.eye(2) + 0.1 * np.ones((2, 2))).astype(dtype)
    return a, b, q, r


@sample_inputs(scipy.linalg.solve_continuous_are, scipy.linalg.solve_discrete_are)
def _riccati_samples(rng: np.random.Generator) -> list[Sample]:
    # SciPy rejects a q or r that is not Hermitian, so they move along Hermitian directions: passed as
    # Hermitian (Symmetric) matrices, whose tangents and cotangents are Hermitian.
    a, b, q, r = _riccati_data(rng)
    e = np.eye(3) + 0.1 * rng.standard_normal((3, 3))
    s = 0.1 * rng.standard_normal((3, 2))
    g = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    qc = g @ np.conj(g.T) / 3 + np.eye(3)
    return [
        Sample(a, b, Hermitian(q), Hermitian(r), label="a, b, q, r"),
        Sample(a, b, Symmetric(q), Symmetric(r), e, s, label="with e and s by position"),
        Sample(a, b, Hermitian(q), Hermitian(r), fkwargs={"e": e, "balanced": False},
               label="e by keyword, balanced=False"),
        Sample(a + 0.1j * rng.standard_normal((3, 3)), b, Hermitian(qc), Hermitian(r + 0j), label="complex"),
    ]
