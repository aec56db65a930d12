"""Matrix functions of general square matrices: ``scipy.linalg.logm``, ``sqrtm``, ``fractional_matrix_power``,
``cosm``, ``sinm``, ``tanm``, ``coshm``, ``sinhm``, ``tanhm``, ``signm`` and ``funm``, for stacks of real or
complex matrices (the exponential is in :mod:`~chainrules.rulesets.linalg.matrix_exponential`).

Each is a primary matrix function ``Y = f(A)``; its derivative is the Fréchet derivative
``dY = L_f(A, dA)`` and its pullback the adjoint ``dA = L_f^*(A, dY) = L_f(A^H, dY)`` (every
``f`` here has real Taylor coefficients). The maths, from Higham, "Functions of Matrices:
Theory and Computation" (SIAM 2008), chapters 3, 5, 6 and 11 (see
:mod:`~chainrules.rulesets.linalg._frechet`):

* ``logm``, ``fractional_matrix_power``, ``cosm``, ``sinm``, ``tanm``, ``coshm``, ``sinhm``,
  ``tanhm``: the block-triangular trick ``f([[A, E], [0, A]]) = [[f(A), L_f(A, E)], [0, f(A)]]``
  (Higham 2008, Theorem 3.6), evaluated by the SciPy function itself on the ``2n x 2n``
  block matrix (about 8 times the flops of the primal).
* ``sqrtm``: ``X = sqrtm(A)`` satisfies ``X X = A``, so ``X dX + dX X = dA``, a Sylvester
  equation (Higham 2008, section 6.1; Al-Mohy, Higham & Relton 2013), solved by
  Bartels-Stewart; the pullback solves ``X^H Z + Z X^H = dY``. At a singular ``A`` the
  equation is singular (``sqrt`` is not differentiable at 0) and the rules raise
  ``LinAlgError``.
* ``fractional_matrix_power(A, t)``: with respect to ``A`` as above; with respect to a real
  ``t``, ``dY/dt = A^t log(A)`` (``t``'s cotangent is ``Re <dY, A^t log A>``; an integer ``t``
  gets ``NoTangent()``).
* ``signm``: the Newton iteration for the sign function on the block matrix (Kenney & Laub
  1991; Higham 2008, Theorem 5.7); defined where no eigenvalue lies on the imaginary axis.
* ``funm(A, func)``: SciPy evaluates ``func`` on the eigenvalues and fills in the rest by the
  Schur-Parlett recurrence, which divides by differences of eigenvalues, so it fails on the
  block matrix (whose eigenvalues are all repeated). The derivative is the Daleckii-Krein
  formula on the eigendecomposition ``A = V diag(w) V^{-1}`` (Higham 2008, Theorem 3.11):
  ``L(A, E) = V (F ∘ (V^{-1} E V)) V^{-1}`` with ``F_ij = f[w_i, w_j]``, which needs
  ``f'``: it comes from ``func``'s own frule in this library (every NumPy ufunc and many
  SciPy special functions have one; register one for your own ``func``). Without one, or
  when ``A`` is defective to working precision (eigenvector condition number above
  ``1 / sqrt(eps)``, where ``funm`` itself is unreliable), the derivative is
  ``not_implemented``. ``func`` must be analytic at the eigenvalues (as ``funm`` assumes).

Symmetric and Hermitian matrices (:mod:`chainrules.structured`) take the eigenvalue path of
:mod:`~chainrules.rulesets.linalg.hermitian_matrix_functions`.

Outputs are SciPy's own (errors such as ``LinAlgError`` pass through; ``logm`` and
``fractional_matrix_power`` return float64 for float32 input, as SciPy does); cotangents
keep the input's dtype, and a real input gets a real cotangent. ``disp=False`` outputs
``(F, errest)``: the error estimate is not differentiated. ``func`` gets ``NoTangent()``.
SciPy's ``sqrtm`` returns ``[[exp(a)]]`` for a 0-d or one-element 1-d ``a`` (SciPy 1.17); the
rules return ``not_implemented`` there rather than differentiate that.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._frechet import daleckii_krein, divided_differences, frechet_by_block, sign_frechet
from chainrules.rulesets.linalg._sylvester import Sylvester
from chainrules.rulesets.linalg._utils import NO, mH, tangent_value
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Thunk,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    not_implemented,
    passes_through,
    read_cotangent,
    read_cotangents,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = [
    "NOT_GIVEN",
    "REQUIRED",
    "BlockDerivative",
    "EigenDerivative",
    "NotImplementedDerivative",
    "SignDerivative",
    "SquareRootDerivative",
    "call_required",
    "dense",
    "function_derivative",
    "given",
    "matrix_function_rules",
]

NOT_GIVEN = inspect.signature(scipy.linalg.logm).parameters["disp"].default  # SciPy's "not given" sentinel
REQUIRED: Any = object()  # a required argument given by keyword (the lookup sees positional arguments only)


# ---- the derivatives ----------------------------------------------------------------------------------------------
def dense(a: Any) -> np.ndarray:
    """``a`` as the ndarray SciPy computes with (integers and booleans as float64)."""
    arr = np.asarray(a)
    return arr if arr.dtype.kind in "fc" else arr.astype(np.float64)


class BlockDerivative:
    """``L_f(A, E)`` and its adjoint by the block-triangular trick, ``f`` a SciPy matrix function."""

    def __init__(self, f: Callable[[np.ndarray], Any], a: np.ndarray) -> None:
        self.f, self.a = f, a

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        return frechet_by_block(self.f, self.a, e)

    def pullback(self, g: np.ndarray) -> np.ndarray:
        return frechet_by_block(self.f, mH(self.a), g)


class SquareRootDerivative:
    """``X dX + dX X = dA`` and its adjoint ``X^H Z + Z X^H = G``, for ``X = sqrtm(A)``."""

    def __init__(self, x: np.ndarray) -> None:
        self.sylvester = Sylvester(x, x)

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        return self.sylvester.solve(e)

    def pullback(self, g: np.ndarray) -> np.ndarray:
        return self.sylvester.solve(g, adjoint=True)


class SignDerivative:
    """``L_sign(A, E)`` and ``L_sign(A^H, G)`` by the Newton iteration on the block matrix."""

    def __init__(self, a: np.ndarray) -> None:
        self.a = a

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        return sign_frechet(self.a, e)

    def pullback(self, g: np.ndarray) -> np.ndarray:
        return sign_frechet(mH(self.a), g)


class EigenDerivative:
    """The Daleckii-Krein formula ``V (F ∘ (V^{-1} E V)) V^{-1}`` (``v_inv=None``: ``V`` unitary)."""

    def __init__(self, v: np.ndarray, dd: np.ndarray, v_inv: np.ndarray | None = None) -> None:
        self.v, self.dd, self.v_inv = v, dd, v_inv

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        return daleckii_krein(self.v, self.dd, e, self.v_inv)

    def pullback(self, g: np.ndarray) -> np.ndarray:
        if self.v_inv is None:
            return daleckii_krein(self.v, np.conj(self.dd), g)
        return daleckii_krein(mH(self.v_inv), np.conj(self.dd), g, mH(self.v))


class NotImplementedDerivative:
    """A derivative this library cannot compute: both directions give ``not_implemented(reason)``."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def pushforward(self, e: np.ndarray) -> NotImplementedTangent:
        return not_implemented(self.reason)

    def pullback(self, g: np.ndarray) -> NotImplementedTangent:
        return not_implemented(self.reason)


def func_derivative(func: Callable[..., Any]) -> Callable[[np.ndarray], np.ndarray] | None:
    """``z -> func'(z)`` from ``func``'s registered frule (``None`` if it has none)."""

    def derivative(z: np.ndarray) -> np.ndarray:
        result = frule((NO, np.ones_like(z)), func, z)
        if result is None:
            raise LookupError(func)
        dz = unthunk(result[1])
        if isinstance(dz, NotImplementedTangent):
            raise LookupError(func)
        if isinstance(dz, AbstractZero):
            return np.zeros_like(z)
        return np.broadcast_to(np.asarray(dz), z.shape)

    try:
        derivative(np.ones(1, dtype=complex))
    except LookupError:
        return None
    return derivative


def _func_name(func: Any) -> str:
    return getattr(func, "__name__", type(func).__name__)


def funm_derivative(a: np.ndarray, func: Callable[..., Any]) -> Any:
    """The Daleckii-Krein derivative of ``funm(A, func)`` at a general (diagonalizable) ``A``."""
    derivative = func_derivative(func)
    if derivative is None:
        return NotImplementedDerivative(
            f"funm: the derivative needs func'(eigenvalues), and {_func_name(func)} has no frule "
            "(register one with chainrules.frule.register)")
    w, v = np.linalg.eig(a)
    with np.errstate(divide="ignore"):
        condition = np.linalg.cond(v)
    eps = np.finfo(w.real.dtype).eps
    if not np.all(condition * np.sqrt(eps) < 1):
        return NotImplementedDerivative(
            f"funm: A is defective or nearly so (eigenvector condition number {np.max(condition):.3g}); "
            "the derivative there needs more than the eigendecomposition")
    z = w.astype(np.result_type(w, np.complex64))
    dd = divided_differences(np.asarray(func(z)), z, derivative)
    return EigenDerivative(v, dd, np.linalg.inv(v))


def power_derivative(t: Any) -> Callable[[np.ndarray], Any]:
    """``M -> fractional_matrix_power(M, t)`` for the block-triangular trick (stacks too)."""

    def power(m: np.ndarray) -> np.ndarray:
        return scipy.linalg.fractional_matrix_power(m, t)

    return power


def function_derivative(name: str, a: np.ndarray, y: np.ndarray, *params: Any) -> Any:
    """The derivative object of the matrix function ``name`` at a dense ``A`` with value ``y``."""
    if a.size == 0:
        return _EmptyDerivative()
    if name == "sqrtm":
        if a.ndim < 2:
            return NotImplementedDerivative(
                "scipy.linalg.sqrtm returns [[exp(a)]], not the square root, for a 0-d or one-element 1-d a "
                "(SciPy 1.17)")
        return SquareRootDerivative(y)
    if name == "signm":
        return SignDerivative(a)
    if name == "funm":
        return funm_derivative(a, params[0])
    # the block matrix in the precision SciPy computes f(A) in (logm and fractional_matrix_power: double)
    a = a.astype(np.result_type(a, np.real(y)), copy=False)
    if name == "fractional_matrix_power":
        return BlockDerivative(power_derivative(params[0]), a)
    return BlockDerivative(getattr(scipy.linalg, name), a)


class _EmptyDerivative:
    """The derivative of a function of an empty matrix: empty."""

    def pushforward(self, e: np.ndarray) -> np.ndarray:
        return np.zeros_like(e)

    def pullback(self, g: np.ndarray) -> np.ndarray:
        return np.zeros_like(g)


# ---- the rules, shared by every function -------------------------------------------------------------------------

def matrix_function_rules(name: str, out: Any, derivative: Callable[[], Any],
                          project_a: Callable[[Any], Any]) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """The pullback and pushforward of ``A``'s part of a matrix function ``out = f(A, ...)``.

    ``out`` is ``Y`` or ``(Y, errest)`` (``disp=False``); ``derivative()`` builds the
    derivative object (once, when first needed); ``project_a`` projects ``A``'s cotangent.
    The pullback returns ``A``'s cotangent, the pushforward the output's tangent.
    """
    with_error = isinstance(out, tuple)
    y = out[0] if with_error else out
    get = functools.cache(derivative)
    where = f"scipy.linalg.{name}"

    def pullback(dy: Any) -> Any:
        if with_error:  # (Y, errest): the error estimate is not differentiated
            parts = read_cotangents(dy, out, where)
            g = parts if passes_through(parts) else parts[0]
            if g is None:
                return project_a(ZeroTangent())
        else:
            g = read_cotangent(dy, y, where)
        if passes_through(g):
            return project_a(g)
        return project_a(get().pullback(g))

    def pushforward(da: Any) -> Any:
        da = tangent_value(da)
        if da is None or passes_through(da):
            dy = ZeroTangent() if da is None else da
        else:
            dy = get().pushforward(da)
            dy = dy if isinstance(dy, NotImplementedTangent) else ProjectTo(y)(dy)
        if with_error:
            return ZeroTangent() if isinstance(dy, AbstractZero) else ProjectTo(out)((dy, NO))
        return dy

    return pullback, pushforward


def given(**kwargs: Any) -> dict[str, Any]:
    """The keyword arguments that were given (not SciPy's "not given" sentinel)."""
    return {k: v for k, v in kwargs.items() if v is not NOT_GIVEN}


def call_required(f: Callable[..., Any], a: Any, *args: Any) -> Any:
    """``f(a, *args)``; without its required second argument, ``f(a)`` (SciPy's own ``TypeError``)."""
    return f(a) if args[0] is REQUIRED else f(a, *args)


def _output_value(out: Any) -> np.ndarray:
    return out[0] if isinstance(out, tuple) else out


# ---- cosm, sinm, tanm, coshm, sinhm, tanhm ------------------------------------------------------------------------
def _register_one_argument(f: Callable[..., Any]) -> None:
    name = f.__name__

    def matrix_function_rrule(A: np.ndarray) -> Any:
        y = f(A)
        pullback, _ = matrix_function_rules(name, y, lambda: function_derivative(name, dense(A), y),
                                            cotangent_projector(A))

        def matrix_function_pullback(dy: Any) -> tuple[Any, Any]:
            return NO, pullback(dy)

        matrix_function_pullback.__name__ = matrix_function_pullback.__qualname__ = f"{name}_pullback"
        return y, matrix_function_pullback

    def matrix_function_frule(tangents: Any, A: np.ndarray) -> Any:
        y = f(A)
        _, pushforward = matrix_function_rules(name, y, lambda: function_derivative(name, dense(A), y),
                                               cotangent_projector(A))
        return y, pushforward(tangents[1])

    matrix_function_rrule.__name__ = matrix_function_rrule.__qualname__ = f"{name}_rrule"
    matrix_function_frule.__name__ = matrix_function_frule.__qualname__ = f"{name}_frule"
    matrix_function_rrule.__doc__ = (f"Reverse rule of ``scipy.linalg.{name}(A)``: ``dA = L_f(A^H, dY)`` by the "
                                     "block-triangular trick (Higham 2008, Theorem 3.6).")
    matrix_function_frule.__doc__ = (f"Forward rule of ``scipy.linalg.{name}(A)``: ``dY = L_f(A, dA)``, the top-right "
                                     "block of ``f([[A, dA], [0, A]])``.")
    rrule.register(f, np.ndarray)(matrix_function_rrule)
    frule.register(f, np.ndarray)(matrix_function_frule)


TRIGONOMETRIC = (scipy.linalg.cosm, scipy.linalg.sinm, scipy.linalg.tanm, scipy.linalg.coshm, scipy.linalg.sinhm,
                 scipy.linalg.tanhm)
for _f in TRIGONOMETRIC:
    _register_one_argument(_f)


# ---- logm, sqrtm, signm ---------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.logm, np.ndarray)
def logm_rrule(A: np.ndarray, disp: Any = NOT_GIVEN) -> Any:
    """Reverse rule of ``scipy.linalg.logm``: ``dA = L_log(A^H, dY)`` by the block-triangular trick.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.logm, np.array([[2.0, 0.0], [0.0, 4.0]]))
    >>> np.round(pullback(np.array([[1.0, 1.0], [0.0, 0.0]]))[1], 4)   # 1/2, and (log 4 - log 2) / (4 - 2)
    array([[0.5   , 0.3466],
           [0.    , 0.    ]])
    """
    out = scipy.linalg.logm(A, **given(disp=disp))
    pullback, _ = matrix_function_rules("logm", out, lambda: function_derivative("logm", dense(A), _output_value(out)),
                                        cotangent_projector(A))

    def logm_pullback(dy: Any) -> tuple[Any, Any, Any]:
        return NO, pullback(dy), NO

    return out, logm_pullback


@frule.register(scipy.linalg.logm, np.ndarray)
def logm_frule(tangents: Any, A: np.ndarray, disp: Any = NOT_GIVEN) -> Any:
    """Forward rule of ``scipy.linalg.logm``: ``dY = L_log(A, dA)``, top-right block of ``logm([[A, dA], [0, A]])``."""
    out = scipy.linalg.logm(A, **given(disp=disp))
    _, pushforward = matrix_function_rules(
        "logm", out, lambda: function_derivative("logm", dense(A), _output_value(out)), cotangent_projector(A))
    return out, pushforward(tangents[1])


@rrule.register(scipy.linalg.sqrtm, np.ndarray)
def sqrtm_rrule(A: np.ndarray, disp: Any = NOT_GIVEN, blocksize: Any = NOT_GIVEN) -> Any:
    """Reverse rule of ``scipy.linalg.sqrtm``: ``dA = Z`` solving ``X^H Z + Z X^H = dY`` (``X = sqrtm(A)``).

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.sqrtm, np.array([[4.0, 0.0], [0.0, 9.0]]))
    >>> pullback(np.array([[1.0, 1.0], [0.0, 1.0]]))[1]      # 1 / (x_i + x_j)
    array([[0.25      , 0.2       ],
           [0.        , 0.16666667]])
    """
    out = scipy.linalg.sqrtm(A, **given(disp=disp, blocksize=blocksize))
    pullback, _ = matrix_function_rules(
        "sqrtm", out, lambda: function_derivative("sqrtm", dense(A), _output_value(out)), cotangent_projector(A))

    def sqrtm_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        return NO, pullback(dy), NO, NO

    return out, sqrtm_pullback


@frule.register(scipy.linalg.sqrtm, np.ndarray)
def sqrtm_frule(tangents: Any, A: np.ndarray, disp: Any = NOT_GIVEN, blocksize: Any = NOT_GIVEN) -> Any:
    """Forward rule of ``scipy.linalg.sqrtm``: ``dY`` solving the Sylvester equation ``X dY + dY X = dA``."""
    out = scipy.linalg.sqrtm(A, **given(disp=disp, blocksize=blocksize))
    _, pushforward = matrix_function_rules(
        "sqrtm", out, lambda: function_derivative("sqrtm", dense(A), _output_value(out)), cotangent_projector(A))
    return out, pushforward(tangents[1])


@rrule.register(scipy.linalg.signm, np.ndarray)
def signm_rrule(A: np.ndarray, disp: Any = NOT_GIVEN) -> Any:
    """Reverse rule of ``scipy.linalg.signm``: ``dA = L_sign(A^H, dY)`` by Newton's iteration on the block matrix.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.signm, np.array([[2.0, 0.0], [0.0, -1.0]]))
    >>> np.round(pullback(np.array([[1.0, 1.0], [1.0, 1.0]]))[1], 6) + 0.0   # (1 - (-1)) / (2 - (-1)) off the diagonal
    array([[0.      , 0.666667],
           [0.666667, 0.      ]])
    """
    out = scipy.linalg.signm(A, **given(disp=disp))
    pullback, _ = matrix_function_rules(
        "signm", out, lambda: function_derivative("signm", dense(A), _output_value(out)), cotangent_projector(A))

    def signm_pullback(dy: Any) -> tuple[Any, Any, Any]:
        return NO, pullback(dy), NO

    return out, signm_pullback


@frule.register(scipy.linalg.signm, np.ndarray)
def signm_frule(tangents: Any, A: np.ndarray, disp: Any = NOT_GIVEN) -> Any:
    """Forward rule of ``scipy.linalg.signm``: the Newton iteration on ``[[A, dA], [0, A]]``."""
    out = scipy.linalg.signm(A, **given(disp=disp))
    _, pushforward = matrix_function_rules(
        "signm", out, lambda: function_derivative("signm", dense(A), _output_value(out)), cotangent_projector(A))
    return out, pushforward(tangents[1])


# ---- fractional_matrix_power ------------------------------------------------------------------------------------
def power_t_cotangent(y: np.ndarray, log_a: np.ndarray, g: np.ndarray) -> Any:
    """``Re <G, A^t log A>``: the cotangent of a real exponent ``t``."""
    return np.real(np.vdot(g, y @ log_a))


@rrule.register(scipy.linalg.fractional_matrix_power, np.ndarray)
def fractional_matrix_power_rrule(A: np.ndarray, t: Any = REQUIRED) -> Any:
    """Reverse rule of ``scipy.linalg.fractional_matrix_power(A, t)``: block-triangular trick; ``A^t log A`` for ``t``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule, unthunk
    >>> y, pullback = rrule(scipy.linalg.fractional_matrix_power, np.array([[4.0, 0.0], [0.0, 1.0]]), 0.5)
    >>> _, da, dt = pullback(np.eye(2))
    >>> np.round(da, 4) + 0.0, round(float(unthunk(dt)), 4)     # t a^(t-1); 4^0.5 log 4
    (array([[0.25, 0.  ],
           [0.  , 0.5 ]]), 2.7726)
    """
    y = call_required(scipy.linalg.fractional_matrix_power, A, t)
    pullback, _ = matrix_function_rules(
        "fractional_matrix_power", y, lambda: function_derivative("fractional_matrix_power", dense(A), y, t),
        cotangent_projector(A))
    project_t = cotangent_projector(t)

    def fractional_matrix_power_pullback(dy: Any) -> tuple[Any, Any, Any]:
        da = pullback(dy)
        if not differentiable(t):
            return NO, da, NO
        g = read_cotangent(dy, y, "scipy.linalg.fractional_matrix_power")
        if passes_through(g):
            return NO, da, project_t(g)
        dt = Thunk(lambda: project_t(power_t_cotangent(y, scipy.linalg.logm(dense(A)), g)))
        return NO, da, dt

    return y, fractional_matrix_power_pullback


@frule.register(scipy.linalg.fractional_matrix_power, np.ndarray)
def fractional_matrix_power_frule(tangents: Any, A: np.ndarray, t: Any = REQUIRED) -> Any:
    """Forward rule of ``scipy.linalg.fractional_matrix_power``: ``dY = L(A, dA) + dt A^t log A``."""
    y = call_required(scipy.linalg.fractional_matrix_power, A, t)
    _, pushforward = matrix_function_rules(
        "fractional_matrix_power", y, lambda: function_derivative("fractional_matrix_power", dense(A), y, t),
        cotangent_projector(A))
    dy = pushforward(tangents[1])
    dt = tangent_value(tangents[2])
    if dt is None or not differentiable(t):
        return y, dy
    if passes_through(dt):
        return y, dt
    dy_t = ProjectTo(y)(y @ scipy.linalg.logm(dense(A)) * dt)
    return y, dy_t if isinstance(dy, AbstractZero) else dy + dy_t


# ---- funm ---------------------------------------------------------------------------------------------------------
@rrule.register(scipy.linalg.funm, np.ndarray)
def funm_rrule(A: np.ndarray, func: Callable[..., Any] = REQUIRED, disp: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.funm(A, func)``: Daleckii-Krein with ``func'`` from ``func``'s frule.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> y, pullback = rrule(scipy.linalg.funm, np.array([[1.0, 0.0], [0.0, 2.0]]), np.exp)
    >>> np.round(pullback(np.array([[1.0, 1.0], [0.0, 0.0]]))[1], 4)    # e, and (e^2 - e) / (2 - 1)
    array([[2.7183, 4.6708],
           [0.    , 0.    ]])
    """
    out = call_required(scipy.linalg.funm, A, func, disp)
    pullback, _ = matrix_function_rules(
        "funm", out, lambda: function_derivative("funm", dense(A), _output_value(out), func), cotangent_projector(A))

    def funm_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        return NO, pullback(dy), NO, NO

    return out, funm_pullback


@frule.register(scipy.linalg.funm, np.ndarray)
def funm_frule(tangents: Any, A: np.ndarray, func: Callable[..., Any] = REQUIRED, disp: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.funm(A, func)``: ``V (F ∘ (V^{-1} dA V)) V^{-1}`` (``F``: divided differences)."""
    out = call_required(scipy.linalg.funm, A, func, disp)
    _, pushforward = matrix_function_rules(
        "funm", out, lambda: function_derivative("funm", dense(A), _output_value(out), func), cotangent_projector(A))
    return out, pushforward(tangents[1])


# ---- sample inputs ----------------------------------------------------------------------------------------
def _near_identity(rng: np.random.Generator, dtype: Any = np.float64, n: int = 3) -> np.ndarray:
    """``I + 0.3 G``: eigenvalues near 1, away from the branch cuts of ``log`` and ``sqrt``."""
    g = 0.3 * rng.standard_normal((n, n)) / np.sqrt(n)
    if np.dtype(dtype).kind == "c":
        g = g + 0.3j * rng.standard_normal((n, n)) / np.sqrt(n)
    return (np.eye(n) + g).astype(dtype)


def _function_samples(rng: np.random.Generator) -> list[Sample]:
    a = _near_identity(rng)
    return [
        Sample(a, label="3x3"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(_near_identity(rng, np.complex128), label="complex"),
        Sample(np.stack([_near_identity(rng, n=2), _near_identity(rng, n=2)]), label="stack"),
    ]


@sample_inputs(*TRIGONOMETRIC)
def _trigonometric_samples(rng: np.random.Generator) -> list[Sample]:
    return _function_samples(rng)


@sample_inputs(scipy.linalg.logm, scipy.linalg.sqrtm)
def _log_and_sqrt_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_function_samples(rng), Sample(_near_identity(rng), True, label="disp=True by position")]


@sample_inputs(scipy.linalg.signm)
def _signm_samples(rng: np.random.Generator) -> list[Sample]:
    x = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    a = (x * np.array([2.0, -1.0, 1.5])) @ np.linalg.inv(x)       # no eigenvalue near the imaginary axis
    return [
        Sample(a, label="eigenvalues of both signs"),
        Sample(a.astype(np.float32), label="float32"),
        Sample(a + 0.2j * rng.standard_normal((3, 3)), label="complex"),
    ]


@sample_inputs(scipy.linalg.fractional_matrix_power)
def _fractional_matrix_power_samples(rng: np.random.Generator) -> list[Sample]:
    a = _near_identity(rng)
    return [
        Sample(a, 0.5, label="t = 0.5 (differentiated)"),
        Sample(a, -1.3, label="t = -1.3"),
        Sample(a, 2, label="integer t (not differentiated)"),
        Sample(_near_identity(rng, np.complex128), 0.7, label="complex"),
        Sample(a.astype(np.float32), np.float32(0.25), label="float32"),
        Sample(a, fkwargs={"t": 0.5}, label="t by keyword"),
    ]


@sample_inputs(scipy.linalg.funm)
def _funm_samples(rng: np.random.Generator) -> list[Sample]:
    x = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    a = (x * np.array([0.5, 1.0, 2.0])) @ np.linalg.inv(x)       # distinct eigenvalues
    return [
        Sample(a, np.exp, label="func=np.exp by position"),
        Sample(a, fkwargs={"func": np.sin}, label="func=np.sin by keyword"),
        Sample(a + 0.2j * rng.standard_normal((3, 3)), np.cos, label="complex"),
        Sample(a, np.exp, False, output_tangent=(rng.standard_normal((3, 3)), ZeroTangent()),
               label="disp=False: (F, errest), the estimate not differentiated"),
    ]
