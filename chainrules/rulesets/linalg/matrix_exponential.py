"""The matrix exponential: ``scipy.linalg.expm`` and ``scipy.linalg.expm_frechet``, for stacks of real or
complex matrices.

The maths (Al-Mohy & Higham 2009, "Computing the Fréchet derivative of the matrix exponential,
with an application to condition number estimation", SIAM J. Matrix Anal. Appl. 30(4),
1639-1657; Higham, "Functions of Matrices", SIAM 2008, chapters 3 and 10):

* ``Y = expm(A)``: ``dY = L(A, dA)``, the Fréchet derivative
  ``L(A, E) = int_0^1 e^{sA} E e^{(1-s)A} ds``; its adjoint is ``L^*(A, G) = L(A^H, G) =
  L(A, G^H)^H``, so ``dA = L(A, dY^H)^H``. Both are computed by the scaling-and-squaring
  algorithm of Al-Mohy & Higham (Algorithm 6.4, the one behind ``expm_frechet``), and the
  rule keeps the algorithm's intermediates: it computes ``expm(A)`` itself (the Padé
  approximant of ``A / 2^s``, factorized, and its ``s`` squares), so that the pullback
  differentiates those steps without redoing them. For general dense matrices the primal
  therefore comes from that algorithm, and agrees with ``scipy.linalg.expm`` to rounding
  (SciPy's ``expm`` picks its degree and scaling by a refined bound and may square fewer
  times); for triangular and diagonal matrices, which SciPy treats specially, and for
  input SciPy alone takes (scalars, empty or non-square arrays, non-finite entries) the
  primal is SciPy's own call and the derivative is computed when the pullback runs.
* ``(expm(A), L(A, E)) = expm_frechet(A, E)``: the block-triangular identity
  ``expm([[A, E], [0, A]]) = [[expm(A), L(A, E)], [0, expm(A)]]`` (Higham 2008, Theorem 3.6)
  makes both outputs blocks of one exponential of ``M = [[A, E], [0, A]]``; their
  derivatives are those of ``expm`` at ``M`` in the direction ``[[dA, dE], [0, dA]]``, and
  their cotangents ``(G_X, G_L)`` pull back to ``M_bar = L^*(M, [[G_X, G_L], [0, 0]])``:
  ``dA = M_bar_11 + M_bar_22`` and ``dE = M_bar_12`` (which is ``L(A^H, G_L)``: ``L`` is
  linear in ``E``).

Symmetric and Hermitian matrices (:mod:`chainrules.structured`) take the eigenvalue path of
:mod:`~chainrules.rulesets.linalg.hermitian_matrix_functions` instead.

float32 and complex64 are computed in their precision and their cotangents keep their dtype
(``expm_frechet`` returns float64 for float32 input, as SciPy does); integer input is
computed as float64 and gets ``NoTangent()``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._expm_pade import PadeExponential
from chainrules.rulesets.linalg._utils import NO, cotangent_parts, not_implemented_in, tangent_value
from chainrules_core import (
    AbstractZero,
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

__all__ = ["ExponentialDerivative", "exponential"]

_LAPACK_DTYPES = (np.float32, np.float64, np.complex64, np.complex128)


# ---- the exponential and its derivative ------------------------------------------------------------------------
class ExponentialDerivative:
    """``L(A, E)`` and ``L^*(A, G)`` for a stack ``A`` (..., n, n), from one :class:`PadeExponential` per matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.matrix_exponential import ExponentialDerivative
    >>> d = ExponentialDerivative(np.zeros((2, 2)))
    >>> d.pushforward(np.array([[1.0, 2.0], [3.0, 4.0]]))     # L(0, E) = E
    array([[1., 2.],
           [3., 4.]])
    """

    def __init__(self, a: np.ndarray, exponentials: list[PadeExponential] | None = None) -> None:
        self.a = a
        self._exponentials = exponentials

    def _objects(self) -> list[PadeExponential]:
        if self._exponentials is None:
            self._exponentials = [PadeExponential(m) for m in self.a.reshape((-1,) + self.a.shape[-2:])]
        return self._exponentials

    def _apply(self, method: str, x: np.ndarray) -> np.ndarray:
        shape = np.broadcast_shapes(self.a.shape, x.shape)
        if 0 in shape:
            return np.zeros(shape, dtype=np.result_type(self.a, x))
        if not np.isfinite(self.a).all():  # the primal is NaN there: so is its derivative
            return np.full(shape, np.nan, dtype=np.result_type(self.a, x))
        if shape != self.a.shape:  # a direction with more batch axes than A
            return ExponentialDerivative(np.broadcast_to(self.a, shape).copy())._apply(method, x)
        mats = np.broadcast_to(x, shape).reshape((-1,) + shape[-2:])
        out = [getattr(p, method)(m) for p, m in zip(self._objects(), mats)]
        return np.stack(out).reshape(shape) if out else np.zeros(shape, dtype=np.result_type(self.a, x))

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        """``L(A, E)``."""
        return self._apply("frechet", e)

    def pullback(self, g: np.ndarray) -> np.ndarray:
        """``L^*(A, G) = L(A^H, G)``."""
        return self._apply("frechet_adjoint", g)


class _ScalarExponential:
    """The derivative of SciPy's ``expm`` of a 0-d or one-element 1-d ``a`` (a ``(1, 1)`` result)."""

    def __init__(self, a: np.ndarray, y: np.ndarray) -> None:
        self.shape, self.y = a.shape, y

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        return self.y * np.reshape(e, (1, 1))

    def pullback(self, g: np.ndarray) -> np.ndarray:
        return np.reshape(np.conj(self.y) * g, self.shape)


def _working_array(a: np.ndarray) -> np.ndarray:
    """``a`` in the dtype SciPy computes ``expm`` in (integers as float64, float16 as float32)."""
    if a.dtype == np.float16:
        return a.astype(np.float32)
    if a.dtype.type not in _LAPACK_DTYPES:
        return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    return a


def _is_triangular(a: np.ndarray) -> bool:
    """Whether some matrix of the stack is upper or lower triangular (diagonal included)."""
    lower_empty = ~np.any(np.tril(a, -1), axis=(-2, -1))
    upper_empty = ~np.any(np.triu(a, 1), axis=(-2, -1))
    return bool(np.any(lower_empty | upper_empty))


def exponential(a: Any) -> tuple[np.ndarray, Any]:
    """``expm(a)`` and an object with its ``pushforward``/``pullback`` (see the module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.matrix_exponential import exponential
    >>> y, derivative = exponential(np.array([[0.0, 1.0], [-1.0, 0.0]]))
    >>> bool(np.allclose(y, [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]]))
    True
    """
    arr = np.asarray(a)
    square = arr.ndim >= 2 and arr.shape[-1] == arr.shape[-2]
    if not square or arr.size == 0 or arr.dtype.kind not in "biufc":
        y = scipy.linalg.expm(a)  # SciPy's result, or its error
        if arr.ndim < 2:
            return y, _ScalarExponential(arr, y)
        return y, ExponentialDerivative(_working_array(arr))
    work = _working_array(arr)
    if not np.isfinite(work).all() or _is_triangular(work):
        return scipy.linalg.expm(a), ExponentialDerivative(work)
    exponentials = [PadeExponential(m) for m in work.reshape((-1,) + work.shape[-2:])]
    y = np.stack([p.value for p in exponentials]).reshape(work.shape)
    return y, ExponentialDerivative(work, exponentials)


# ---- scipy.linalg.expm -------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.expm, np.ndarray)
def expm_rrule(A: np.ndarray) -> Any:
    """Reverse rule of ``scipy.linalg.expm(A)``: ``dA = L(A^H, dY)`` (Al-Mohy & Higham 2009, Algorithm 6.4).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.expm, np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> np.round(pullback(np.array([[0.0, 1.0], [0.0, 0.0]]))[1], 4)     # (e^2 - e) / (2 - 1) off the diagonal
    array([[0.    , 4.6708],
           [0.    , 0.    ]])
    """
    y, derivative = exponential(A)
    project_a = cotangent_projector(A)

    def expm_pullback(dy: Any) -> tuple[Any, Any]:
        dy = read_cotangent(dy, y, "scipy.linalg.expm")
        if passes_through(dy):
            return NO, project_a(dy)
        return NO, project_a(derivative.pullback(dy))

    return y, expm_pullback


@frule.register(scipy.linalg.expm, np.ndarray)
def expm_frule(tangents: Any, A: np.ndarray) -> Any:
    """Forward rule of ``scipy.linalg.expm(A)``: ``dY = L(A, dA)``."""
    y, derivative = exponential(A)
    da = tangent_value(tangents[1])
    if da is None or passes_through(da):
        return y, ZeroTangent() if da is None else da
    return y, ProjectTo(y)(derivative.pushforward(da))


# ---- scipy.linalg.expm_frechet -----------------------------------------------------------------------------------
def _block(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    """``[[a, e], [0, a]]`` for stacks (``a`` and ``e`` broadcast)."""
    n = a.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], e.shape[:-2])
    out = np.zeros(batch + (2 * n, 2 * n), dtype=np.result_type(a, e))
    out[..., :n, :n] = a
    out[..., n:, n:] = a
    out[..., :n, n:] = e
    return out


@rrule.register(scipy.linalg.expm_frechet, np.ndarray, np.ndarray)
def expm_frechet_rrule(A: np.ndarray, E: np.ndarray, method: Any = None, compute_expm: bool = True,
                       check_finite: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.expm_frechet``: the ``expm`` pullback at ``[[A, E], [0, A]]``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> a, e = np.array([[1.0, 0.0], [0.0, 2.0]]), np.zeros((2, 2))
    >>> l, pullback = rrule(scipy.linalg.expm_frechet, a, e, compute_expm=False)
    >>> np.round(pullback(np.array([[0.0, 1.0], [0.0, 0.0]]))[2], 4)    # dE = L(A^H, G_L)
    array([[0.    , 4.6708],
           [0.    , 0.    ]])
    """
    out = scipy.linalg.expm_frechet(A, E, method, compute_expm, check_finite)
    a, e = np.asarray(A), np.asarray(E)
    n = a.shape[-1]
    y_l = out[1] if compute_expm else out
    project_a, project_e = cotangent_projector(A), cotangent_projector(E)
    block = _block(_working_array(a), _working_array(e))
    derivative = ExponentialDerivative(block)

    def expm_frechet_pullback(dy: Any) -> tuple[Any, ...]:
        if compute_expm:
            g_x, g_l = cotangent_parts(dy, out, "scipy.linalg.expm_frechet")
        else:
            g_x, g_l = None, read_cotangent(dy, y_l, "scipy.linalg.expm_frechet")
            if isinstance(g_l, AbstractZero):
                g_l = None
        missing = not_implemented_in(g_x, g_l)
        if missing is not None:
            return NO, missing, missing, NO, NO, NO
        if g_x is None and g_l is None:
            return NO, project_a(ZeroTangent()), project_e(ZeroTangent()), NO, NO, NO
        g = np.zeros(block.shape, dtype=np.result_type(block, *(x for x in (g_x, g_l) if x is not None)))
        if g_x is not None:
            g[..., :n, :n] = g_x
        if g_l is not None:
            g[..., :n, n:] = g_l
        m_bar = functools.cache(lambda: derivative.pullback(g))
        da = Thunk(lambda: project_a(unbroadcast(m_bar()[..., :n, :n] + m_bar()[..., n:, n:], a.shape)))
        de = Thunk(lambda: project_e(unbroadcast(m_bar()[..., :n, n:], e.shape)))
        return NO, da, de, NO, NO, NO

    return out, expm_frechet_pullback


@frule.register(scipy.linalg.expm_frechet, np.ndarray, np.ndarray)
def expm_frechet_frule(tangents: Any, A: np.ndarray, E: np.ndarray, method: Any = None, compute_expm: bool = True,
                       check_finite: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.expm_frechet``: ``L(M, [[dA, dE], [0, dA]])`` at ``M = [[A, E], [0, A]]``."""
    out = scipy.linalg.expm_frechet(A, E, method, compute_expm, check_finite)
    a, e = np.asarray(A), np.asarray(E)
    n = a.shape[-1]
    da, de = tangent_value(tangents[1]), tangent_value(tangents[2])
    for t in (da, de):
        if t is not None and passes_through(t):
            return out, t
    if da is None and de is None:
        return out, ZeroTangent()
    block = _block(_working_array(a), _working_array(e))
    d_block = _block(np.zeros(a.shape) if da is None else da, np.zeros(e.shape) if de is None else de)
    d_exp = ExponentialDerivative(block).pushforward(d_block)
    if compute_expm:
        return out, ProjectTo(out)((d_exp[..., :n, :n], d_exp[..., :n, n:]))
    return out, ProjectTo(out)(d_exp[..., :n, n:])


# ---- sample inputs ----------------------------------------------------------------------------------------
@sample_inputs(scipy.linalg.expm)
def _expm_samples(rng: np.random.Generator) -> list[Sample]:
    a = 0.5 * rng.standard_normal((3, 3))
    return [
        Sample(a, label="3x3 (Pade, scaling and squaring)"),
        Sample(4 * a, label="large norm (more squarings)"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 0.5j * rng.standard_normal((3, 3)), label="complex"),
        Sample(np.triu(a), label="upper triangular"),
        Sample(np.stack([a, -a]), label="stack"),
        Sample(np.array([[0.7]]), label="1x1"),
    ]


@sample_inputs(scipy.linalg.expm_frechet)
def _expm_frechet_samples(rng: np.random.Generator) -> list[Sample]:
    a, e = 0.5 * rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    return [
        Sample(a, e, label="(expm(A), L(A, E))"),
        Sample(a, e, "SPS", False, label="method, compute_expm=False by position"),
        Sample(a, e, fkwargs={"compute_expm": False, "method": "blockEnlarge"}, label="blockEnlarge"),
        Sample(a + 0.3j * rng.standard_normal((3, 3)), e, label="complex"),
        Sample(a.astype(np.float32), e.astype(np.float32), label="float32"),
    ]
