"""Matrix functions of Hermitian and real symmetric matrices: ``scipy.linalg.expm``, ``logm``, ``sqrtm``,
``fractional_matrix_power``, ``cosm``, ``sinm``, ``tanm``, ``coshm``, ``sinhm``, ``tanhm``, ``signm`` and ``funm``
of a :class:`~chainrules.structured.Hermitian` or :class:`~chainrules.structured.Symmetric` argument.

The maths: a Hermitian ``A = V diag(w) V^H`` (``V`` unitary, ``w`` real) has ``f(A) = V
diag(f(w)) V^H``, and the Daleckii-Krein theorem (Daleckii & Krein 1965; Higham, "Functions of
Matrices", SIAM 2008, Theorem 3.11; ChainRules.jl's rules for ``Hermitian`` matrix functions)
gives its derivative::

    dY = V (F ∘ (V^H dA V)) V^H,      dA = V (conj(F) ∘ (V^H dY V)) V^H,

with ``F_ij = f[w_i, w_j] = (f(w_i) - f(w_j)) / (w_i - w_j)`` and ``F_ii = f'(w_i)``. One
``eigh`` replaces the ``2n x 2n`` block evaluations of the general rules, and ``V`` is
unitary, so the formula is as well conditioned as ``f``.

Near-equal eigenvalues: the difference quotient cancels, so each function's divided
difference is computed from a closed form that does not (a "midpoint" form, exact when
``w_i = w_j``, where it is ``f'``): with ``m = (w_i + w_j) / 2`` and ``h = (w_i - w_j) / 2``,
``sin``: ``cos(m) sin(h)/h``; ``cos``: ``-sin(m) sin(h)/h``; ``sinh``: ``cosh(m) sinh(h)/h``;
``cosh``: ``sinh(m) sinh(h)/h``; ``tan``: ``sin(2h)/(2h) / (cos w_i cos w_j)``; ``tanh``:
``sinh(2h)/(2h) / (cosh w_i cosh w_j)``; ``exp``: ``e^max (1 - e^-|2h|)/|2h|``; ``log``:
``log1p(r)/(r w_j)`` with ``r = (w_i - w_j)/w_j``; ``sqrt``: ``1/(sqrt w_i + sqrt w_j)``; the power
``t``: ``w_j^(t-1) expm1(t log1p(r))/r``; ``sign``: 0 within a sign, ``2/|w_i - w_j|`` across.
So degenerate spectra (``expm`` of the identity) are exact, not ``0/0``. ``funm(A, func)``
takes ``f'`` from ``func``'s frule and uses the midpoint derivative below a gap threshold
(:func:`~chainrules.rulesets.linalg._frechet.divided_differences`).

``logm``, ``sqrtm`` and ``fractional_matrix_power`` of a Hermitian matrix with negative
eigenvalues are complex (principal branch; the eigenvalues stay on the real axis along
Hermitian directions, so the derivative exists); the cotangent is projected back onto the
argument's type. A complex :class:`~chainrules.structured.Symmetric` matrix is not
Hermitian: it takes the general rules (block-triangular trick) on its dense form, and its
cotangent is projected onto complex symmetric matrices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.linalg

from chainrules.rulesets.linalg._frechet import divided_differences
from chainrules.rulesets.linalg._samples import unitary
from chainrules.rulesets.linalg._utils import NO, mH
from chainrules.rulesets.linalg.matrix_exponential import exponential
from chainrules.rulesets.linalg.matrix_functions import (
    NOT_GIVEN,
    REQUIRED,
    EigenDerivative,
    NotImplementedDerivative,
    call_required,
    dense,
    func_derivative,
    function_derivative,
    given,
    matrix_function_rules,
)
from chainrules.structured import Hermitian, Symmetric
from chainrules_core import (
    AbstractZero,
    NotImplementedTangent,
    ProjectTo,
    Sample,
    Thunk,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
    unthunk,
)

__all__ = ["DIVIDED_DIFFERENCES", "hermitian_derivative"]


# ---- divided differences without cancellation ---------------------------------------------------------------------
def _ratio(num: np.ndarray, x: np.ndarray, at_zero: Any) -> np.ndarray:
    """``num / x``, ``at_zero`` where ``x == 0``."""
    safe = np.where(x == 0, 1, x)
    return np.where(x == 0, at_zero, num / safe)


def _sinhc(x: np.ndarray) -> np.ndarray:
    """``sinh(x) / x`` (1 at 0)."""
    return _ratio(np.sinh(x), x, 1.0)


def _complex_if_negative(w: np.ndarray) -> np.ndarray:
    """``w`` as complex if some eigenvalue is negative (the principal log, root and power are complex there)."""
    return w.astype(np.result_type(w, np.complex64)) if np.any(w < 0) else w


def _exp_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    gap = np.abs(a - b)
    return np.exp(np.maximum(a, b)) * _ratio(-np.expm1(-gap), gap, 1.0)


def _log_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        r = (a - b) / b
        same_sign = _ratio(np.log1p(np.where(a * b > 0, r, 0)), r, 1.0) / b
        ac, bc = _complex_if_negative(a), _complex_if_negative(b)
        across = (np.log(ac) - np.log(bc)) / np.where(a == b, 1, a - b)
    return np.where(a * b > 0, same_sign, across)


def _sqrt_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 1 / (np.sqrt(_complex_if_negative(a)) + np.sqrt(_complex_if_negative(b)))


def _power_dd(a: np.ndarray, b: np.ndarray, t: float) -> np.ndarray:
    ac, bc = _complex_if_negative(a), _complex_if_negative(b)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(a * b > 0, (a - b) / b, 0)
        same_sign = np.power(bc, t - 1) * _ratio(np.expm1(t * np.log1p(r)), r, t)
        across = (np.power(ac, t) - np.power(bc, t)) / np.where(a == b, 1, a - b)
    return np.where(a * b > 0, same_sign, across)


def _sin_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.cos((a + b) / 2) * np.sinc((a - b) / (2 * np.pi))


def _cos_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return -np.sin((a + b) / 2) * np.sinc((a - b) / (2 * np.pi))


def _tan_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sinc((a - b) / np.pi) / (np.cos(a) * np.cos(b))


def _sinh_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.cosh((a + b) / 2) * _sinhc((a - b) / 2)


def _cosh_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sinh((a + b) / 2) * _sinhc((a - b) / 2)


def _tanh_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _sinhc(a - b) / (np.cosh(a) * np.cosh(b))


def _sign_dd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    sa, sb = np.sign(a), np.sign(b)
    return _ratio(sa - sb, np.where(sa == sb, 0, a - b), 0.0)


DIVIDED_DIFFERENCES: dict[str, Callable[..., np.ndarray]] = {
    "expm": _exp_dd, "logm": _log_dd, "sqrtm": _sqrt_dd, "fractional_matrix_power": _power_dd,
    "sinm": _sin_dd, "cosm": _cos_dd, "tanm": _tan_dd, "sinhm": _sinh_dd, "coshm": _cosh_dd, "tanhm": _tanh_dd,
    "signm": _sign_dd,
}
"""``f[a, b]`` of each matrix function's scalar function, elementwise on real eigenvalues (``f'`` where ``a == b``)."""


def hermitian_derivative(name: str, h: np.ndarray, *params: Any) -> Any:
    """The Daleckii-Krein derivative of the matrix function ``name`` at a Hermitian ``h``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.linalg.hermitian_matrix_functions import hermitian_derivative
    >>> d = hermitian_derivative("expm", np.eye(2))
    >>> d.pushforward(np.array([[0.0, 1.0], [1.0, 0.0]]))      # exp'(1) = e, even at a repeated eigenvalue
    array([[0.        , 2.71828183],
           [2.71828183, 0.        ]])
    """
    w, v = np.linalg.eigh(h)
    a, b = w[..., :, None], w[..., None, :]
    if name == "funm":
        func = params[0]
        derivative = func_derivative(func)
        if derivative is None:
            return NotImplementedDerivative(
                f"funm: the derivative needs func'(eigenvalues), and {getattr(func, '__name__', func)} has no frule "
                "(register one with chainrules.frule.register)")
        z = w.astype(np.result_type(w, np.complex64))
        return EigenDerivative(v, divided_differences(np.asarray(func(z)), z, derivative))
    return EigenDerivative(v, DIVIDED_DIFFERENCES[name](a, b, *params))


def _hermitian_log(h: np.ndarray) -> np.ndarray:
    """The principal ``logm`` of a Hermitian matrix, from its eigendecomposition."""
    w, v = np.linalg.eigh(h)
    return (v * np.log(_complex_if_negative(w))[..., None, :]) @ mH(v)


# ---- the rules ---------------------------------------------------------------------------------------------------
def _is_hermitian(a: Symmetric | Hermitian) -> bool:
    """Hermitian, or real symmetric (a complex symmetric matrix is not normal: no unitary eigenbasis)."""
    return isinstance(a, Hermitian) or a.dtype.kind != "c"


def _rules(name: str, out: Any, a: Symmetric | Hermitian, *params: Any) -> tuple[Callable[[Any], Any],
                                                                                 Callable[[Any], Any]]:
    """Pullback and pushforward for ``a``'s part: Daleckii-Krein when Hermitian, else the general rules."""
    h = dense(a)
    y = out[0] if isinstance(out, tuple) else out
    project_a = ProjectTo(a)

    def derivative() -> Any:
        if _is_hermitian(a):
            return hermitian_derivative(name, h, *params)
        if name == "expm":
            return exponential(h)[1]
        return function_derivative(name, h, y, *params)

    pullback, pushforward = matrix_function_rules(name, out, derivative, project_a)

    def structured_pushforward(da: Any) -> Any:
        da = unthunk(da)
        if isinstance(da, (AbstractZero, NotImplementedTangent)):
            return pushforward(da)
        return pushforward(np.asarray(project_a(da)))

    return pullback, structured_pushforward


SELF_ADJOINT = (Symmetric, Hermitian)
_ONE_ARGUMENT = (scipy.linalg.expm, scipy.linalg.cosm, scipy.linalg.sinm, scipy.linalg.tanm, scipy.linalg.coshm,
                 scipy.linalg.sinhm, scipy.linalg.tanhm)

def _call(f: Callable[..., Any], a: Any, **kwargs: Any) -> Any:
    """``f(a, **kwargs)`` with the keyword arguments that were given (SciPy's deprecated ``disp``, ``blocksize``)."""
    return f(a, **given(**kwargs))


def _name_rules(rule_r: Callable[..., Any], rule_f: Callable[..., Any], f: Callable[..., Any]) -> None:
    name = f.__name__
    rule_r.__name__ = rule_r.__qualname__ = f"self_adjoint_{name}_rrule"
    rule_f.__name__ = rule_f.__qualname__ = f"self_adjoint_{name}_frule"
    rule_r.__doc__ = f"Reverse rule of ``scipy.linalg.{name}`` of a ``Symmetric``/``Hermitian`` matrix: Daleckii-Krein."
    rule_f.__doc__ = f"Forward rule of ``scipy.linalg.{name}`` of a ``Symmetric``/``Hermitian`` matrix: Daleckii-Krein."
    rrule.register(f, SELF_ADJOINT)(rule_r)
    frule.register(f, SELF_ADJOINT)(rule_f)


def _register_one_argument(f: Callable[..., Any]) -> None:
    name = f.__name__

    def self_adjoint_function_rrule(A: Symmetric | Hermitian) -> Any:
        y = f(A)
        pullback, _ = _rules(name, y, A)

        def self_adjoint_function_pullback(dy: Any) -> tuple[Any, Any]:
            return NO, pullback(dy)

        self_adjoint_function_pullback.__name__ = self_adjoint_function_pullback.__qualname__ = f"{name}_pullback"
        return y, self_adjoint_function_pullback

    def self_adjoint_function_frule(tangents: Any, A: Symmetric | Hermitian) -> Any:
        y = f(A)
        _, pushforward = _rules(name, y, A)
        return y, pushforward(tangents[1])

    _name_rules(self_adjoint_function_rrule, self_adjoint_function_frule, f)


for _f in _ONE_ARGUMENT:
    _register_one_argument(_f)


def _register_with_disp(f: Callable[..., Any]) -> None:
    """``logm(A, disp)`` and ``signm(A, disp)`` (the deprecated ``disp`` is passed on when given)."""
    name = f.__name__

    def self_adjoint_function_rrule(A: Symmetric | Hermitian, disp: Any = NOT_GIVEN) -> Any:
        out = _call(f, A, disp=disp)
        pullback, _ = _rules(name, out, A)

        def self_adjoint_function_pullback(dy: Any) -> tuple[Any, Any, Any]:
            return NO, pullback(dy), NO

        self_adjoint_function_pullback.__name__ = self_adjoint_function_pullback.__qualname__ = f"{name}_pullback"
        return out, self_adjoint_function_pullback

    def self_adjoint_function_frule(tangents: Any, A: Symmetric | Hermitian, disp: Any = NOT_GIVEN) -> Any:
        out = _call(f, A, disp=disp)
        _, pushforward = _rules(name, out, A)
        return out, pushforward(tangents[1])

    _name_rules(self_adjoint_function_rrule, self_adjoint_function_frule, f)


_register_with_disp(scipy.linalg.logm)
_register_with_disp(scipy.linalg.signm)


@rrule.register(scipy.linalg.sqrtm, SELF_ADJOINT)
def self_adjoint_sqrtm_rrule(A: Symmetric | Hermitian, disp: Any = NOT_GIVEN, blocksize: Any = NOT_GIVEN) -> Any:
    """Reverse rule of ``scipy.linalg.sqrtm`` of a ``Symmetric``/``Hermitian`` matrix: Daleckii-Krein.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> from chainrules.structured import Symmetric
    >>> y, pullback = rrule(scipy.linalg.sqrtm, Symmetric(np.diag([4.0, 9.0])))
    >>> np.asarray(pullback(np.array([[1.0, 1.0], [1.0, 1.0]]))[1])      # 1 / (sqrt(w_i) + sqrt(w_j))
    array([[0.25      , 0.2       ],
           [0.2       , 0.16666667]])
    """
    out = _call(scipy.linalg.sqrtm, A, disp=disp, blocksize=blocksize)
    pullback, _ = _rules("sqrtm", out, A)

    def sqrtm_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        return NO, pullback(dy), NO, NO

    return out, sqrtm_pullback


@frule.register(scipy.linalg.sqrtm, SELF_ADJOINT)
def self_adjoint_sqrtm_frule(tangents: Any, A: Symmetric | Hermitian, disp: Any = NOT_GIVEN,
                             blocksize: Any = NOT_GIVEN) -> Any:
    """Forward rule of ``scipy.linalg.sqrtm`` of a ``Symmetric``/``Hermitian`` matrix: Daleckii-Krein."""
    out = _call(scipy.linalg.sqrtm, A, disp=disp, blocksize=blocksize)
    _, pushforward = _rules("sqrtm", out, A)
    return out, pushforward(tangents[1])


@rrule.register(scipy.linalg.fractional_matrix_power, SELF_ADJOINT)
def self_adjoint_fractional_matrix_power_rrule(A: Symmetric | Hermitian, t: Any = REQUIRED) -> Any:
    """Reverse rule of ``scipy.linalg.fractional_matrix_power`` of a ``Symmetric``/``Hermitian`` matrix.

    ``A``: Daleckii-Krein with the divided differences of ``x^t``; a real ``t``: ``Re <dY, A^t log A>``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> from chainrules import unthunk
    >>> from chainrules.structured import Symmetric
    >>> y, pullback = rrule(scipy.linalg.fractional_matrix_power, Symmetric(np.diag([4.0, 1.0])), 0.5)
    >>> _, da, dt = pullback(np.eye(2))
    >>> np.round(np.asarray(da), 4) + 0.0, round(float(unthunk(dt)), 4)
    (array([[0.25, 0.  ],
           [0.  , 0.5 ]]), 2.7726)
    """
    y = call_required(scipy.linalg.fractional_matrix_power, A, t)
    pullback, _ = _rules("fractional_matrix_power", y, A, t)
    project_t = cotangent_projector(t)

    def fractional_matrix_power_pullback(dy: Any) -> tuple[Any, Any, Any]:
        da = pullback(dy)
        if not differentiable(t):
            return NO, da, NO
        g = read_cotangent(dy, y, "scipy.linalg.fractional_matrix_power")
        if passes_through(g):
            return NO, da, project_t(g)
        return NO, da, Thunk(lambda: project_t(np.real(np.vdot(g, y @ _log_of(A)))))

    return y, fractional_matrix_power_pullback


@frule.register(scipy.linalg.fractional_matrix_power, SELF_ADJOINT)
def self_adjoint_fractional_matrix_power_frule(tangents: Any, A: Symmetric | Hermitian, t: Any = REQUIRED) -> Any:
    """Forward rule of ``scipy.linalg.fractional_matrix_power`` of a ``Symmetric``/``Hermitian`` matrix."""
    y = call_required(scipy.linalg.fractional_matrix_power, A, t)
    _, pushforward = _rules("fractional_matrix_power", y, A, t)
    dy = pushforward(tangents[1])
    dt = unthunk(tangents[2])
    if isinstance(dt, AbstractZero) or not differentiable(t):
        return y, dy
    if isinstance(dt, NotImplementedTangent):
        return y, dt
    dy_t = ProjectTo(y)(y @ _log_of(A) * dt)
    return y, dy_t if isinstance(dy, AbstractZero) else dy + dy_t


def _log_of(a: Symmetric | Hermitian) -> np.ndarray:
    h = dense(a)
    return _hermitian_log(h) if _is_hermitian(a) else scipy.linalg.logm(h)


@rrule.register(scipy.linalg.funm, SELF_ADJOINT)
def self_adjoint_funm_rrule(A: Symmetric | Hermitian, func: Callable[..., Any] = REQUIRED, disp: bool = True) -> Any:
    """Reverse rule of ``scipy.linalg.funm`` of a ``Symmetric``/``Hermitian`` matrix: Daleckii-Krein.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> from chainrules import rrule
    >>> from chainrules.structured import Hermitian
    >>> y, pullback = rrule(scipy.linalg.funm, Hermitian(np.eye(2)), np.exp)
    >>> np.asarray(pullback(np.array([[0.0, 1.0], [1.0, 0.0]]))[1])    # exp'(1) = e at the repeated eigenvalue
    array([[0.        , 2.71828183],
           [2.71828183, 0.        ]])
    """
    out = call_required(scipy.linalg.funm, A, func, disp)
    pullback, _ = _rules("funm", out, A, func)

    def funm_pullback(dy: Any) -> tuple[Any, Any, Any, Any]:
        return NO, pullback(dy), NO, NO

    return out, funm_pullback


@frule.register(scipy.linalg.funm, SELF_ADJOINT)
def self_adjoint_funm_frule(tangents: Any, A: Symmetric | Hermitian, func: Callable[..., Any] = REQUIRED,
                            disp: bool = True) -> Any:
    """Forward rule of ``scipy.linalg.funm`` of a ``Symmetric``/``Hermitian`` matrix: Daleckii-Krein."""
    out = call_required(scipy.linalg.funm, A, func, disp)
    _, pushforward = _rules("funm", out, A, func)
    return out, pushforward(tangents[1])


# ---- sample inputs ----------------------------------------------------------------------------------------
def _spectrum(rng: np.random.Generator, w: Any, dtype: Any = np.float64) -> np.ndarray:
    """The Hermitian (real symmetric) matrix with eigenvalues ``w`` in a random eigenbasis."""
    q = unitary(len(w), rng, dtype)
    return ((q * np.asarray(w, dtype=float)) @ np.conj(q.T)).astype(dtype)


def _self_adjoint_samples(rng: np.random.Generator, w: Any) -> list[Sample]:
    a = _spectrum(rng, w)
    return [
        Sample(Symmetric(a), label="Symmetric"),
        Sample(Hermitian(_spectrum(rng, w, np.complex128)), label="Hermitian"),
        Sample(Symmetric(a.astype(np.float32), lower=True), label="Symmetric float32, lower"),
        Sample(Symmetric(_spectrum(rng, w) + 0.2j * np.diag([1.0, -1.0, 0.5])), label="complex Symmetric"),
        Sample(Hermitian(_spectrum(rng, [w[0], w[0], w[2]], np.complex128)), label="repeated eigenvalue"),
    ]


@sample_inputs(*_ONE_ARGUMENT)
def _one_argument_samples(rng: np.random.Generator) -> list[Sample]:
    return _self_adjoint_samples(rng, [-0.8, 0.3, 1.1])


@sample_inputs(scipy.linalg.logm, scipy.linalg.sqrtm)
def _log_and_sqrt_samples(rng: np.random.Generator) -> list[Sample]:
    return [*_self_adjoint_samples(rng, [0.5, 1.0, 2.0]),
            Sample(Symmetric(_spectrum(rng, [-1.0, 0.5, 2.0])), label="a negative eigenvalue (complex result)"),
            Sample(Hermitian(_spectrum(rng, [0.5, 1.0, 2.0], np.complex128)), True, label="disp by position")]


@sample_inputs(scipy.linalg.signm)
def _signm_samples(rng: np.random.Generator) -> list[Sample]:
    return _self_adjoint_samples(rng, [-1.0, 0.5, 2.0])


@sample_inputs(scipy.linalg.fractional_matrix_power)
def _fractional_matrix_power_samples(rng: np.random.Generator) -> list[Sample]:
    a = Symmetric(_spectrum(rng, [0.5, 1.0, 2.0]))
    return [
        Sample(a, 0.5, label="Symmetric, t = 0.5"),
        Sample(Hermitian(_spectrum(rng, [0.5, 1.0, 2.0], np.complex128)), -0.7, label="Hermitian, t = -0.7"),
        Sample(a, 3, label="Symmetric, integer t"),
        Sample(Hermitian(_spectrum(rng, [0.5, 0.5, 2.0], np.complex128)), 1.5, label="repeated eigenvalue"),
    ]


@sample_inputs(scipy.linalg.funm)
def _funm_samples(rng: np.random.Generator) -> list[Sample]:
    return [
        Sample(Symmetric(_spectrum(rng, [-0.5, 0.4, 1.2])), np.exp, label="Symmetric, func=np.exp"),
        Sample(Hermitian(_spectrum(rng, [-0.5, 0.4, 1.2], np.complex128)), fkwargs={"func": np.sin},
               label="Hermitian, func by keyword"),
        Sample(Hermitian(_spectrum(rng, [0.4, 0.4, 1.2], np.complex128)), np.cos, label="repeated eigenvalue"),
    ]
