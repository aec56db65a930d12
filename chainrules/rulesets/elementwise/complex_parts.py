"""Complex parts and magnitudes: absolute/abs, fabs, conjugate/conj, real, imag, angle, real_if_close.

None of these is holomorphic, so each rule is written by hand for the real inner product
``<a, b> = Re(sum(conj(a) * b))`` (see ``docs/rules/elementwise.md``):

====================  ===================================  ==================================================
function              pushforward ``dy``                   pullback ``dz``
====================  ===================================  ==================================================
``abs(z)``            ``Re(conj(u) dz)``, ``u = z / |z|``  ``u Re(dy)``
``abs(x)``, ``fabs``  ``sign(x) dx``                       ``sign(x) dy``
``conj(z)``           ``conj(dz)``                         ``conj(dy)``
``real(z)``           ``Re(dz)``                           ``Re(dy)`` (a complex cotangent for complex ``z``)
``imag(z)``           ``Im(dz)``                           ``1j Re(dy)``
``angle(z)``          ``Im(conj(z) dz) / |z|**2``          ``1j z Re(dy) / |z|**2``
====================  ===================================  ==================================================

At ``z = 0`` the derivatives of ``abs`` and ``angle`` are taken as zero (for ``abs`` the
minimum-norm subgradient, the convention of ``docs/rules/elementwise.md``). ``angle`` of
a real input is piecewise constant (``0`` or ``pi``): a zero cotangent; ``deg=True`` scales
by ``180 / pi``. ``imag`` of a real input is the constant zero. ``real_if_close(a, tol)``
drops the imaginary part when it is negligible: the rule then acts like ``real``, and
like the identity otherwise; ``tol`` is not differentiated. ``np.real`` of a real array
returns the array itself (NumPy's behaviour, kept). The methods ``ndarray.conj`` and
``ndarray.conjugate`` share the rule of ``np.conj``.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(np.abs, 3 + 4j)
>>> y, pullback(1.0)
(np.float64(5.0), (NoTangent(), (0.6+0.8j)))
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules.rulesets.elementwise._unary import no_keywords, unary_rule
from chainrules_core import Sample, sample_inputs
from chainrules_core.scalar_rules import is_complex, zero_cotangent, zero_tangent_of


def real_part(dy: Any) -> Any:
    """The real part of a (co)tangent, without a copy for a real one: the cotangent of a real output.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.elementwise.complex_parts import real_part
    >>> real_part(np.array([1 + 2j])), real_part(3.0)
    (array([1.]), 3.0)
    """
    if isinstance(dy, (complex, np.complexfloating)) or (isinstance(dy, np.ndarray) and dy.dtype.kind == "c"):
        return dy.real
    return dy


def unit(z: Any, r: Any) -> Any:
    """``z / r`` with ``0`` where ``r == 0``: the derivative of ``|z|`` (``r = |z|``)."""
    return np.where(np.equal(r, 0), 0, np.divide(z, r))[()]


def abs_backward(x: Any, y: Any, dy: Any) -> Any:
    """Pullback of ``abs``: ``u Re(dy)`` with ``u = z / |z|`` (``sign(x)`` for real ``x``)."""
    dy = real_part(dy)
    if is_complex(x):
        return unit(x, y) * dy
    return np.sign(x) * dy


def abs_forward(x: Any, y: Any, dx: Any) -> Any:
    """Pushforward of ``abs``: ``Re(conj(u) dx)`` (``sign(x) dx`` for real ``x``)."""
    if is_complex(x):
        return np.real(np.conj(unit(x, y)) * dx)
    return np.sign(x) * real_part(dx)


def _conj_backward(x: Any, y: Any, dy: Any) -> Any:
    return np.conj(dy)


def _conj_forward(x: Any, y: Any, dx: Any) -> Any:
    return np.conj(dx)


def _real_backward(x: Any, y: Any, dy: Any) -> Any:
    return real_part(dy)


def _real_forward(x: Any, y: Any, dx: Any) -> Any:
    return real_part(dx)


def _imag_backward(x: Any, y: Any, dy: Any) -> Any:
    if not is_complex(x):
        return zero_cotangent(x)
    return 1j * real_part(dy)


def _imag_forward(x: Any, y: Any, dx: Any) -> Any:
    if not is_complex(x):
        return zero_tangent_of(y)
    return np.imag(dx)


def _angle_scale(deg: Any) -> float:
    return 180 / math.pi if deg else 1.0


def _angle_backward(z: Any, y: Any, dy: Any, deg: Any = False) -> Any:
    if not is_complex(z):
        return zero_cotangent(z)
    r2 = np.real(z * np.conj(z))
    return np.where(r2 == 0, 0, 1j * z * np.divide(real_part(dy) * _angle_scale(deg), r2))[()]


def _angle_forward(z: Any, y: Any, dz: Any, deg: Any = False) -> Any:
    if not is_complex(z):
        return zero_tangent_of(y)
    r2 = np.real(z * np.conj(z))
    return np.where(r2 == 0, 0, np.divide(np.imag(np.conj(z) * dz) * _angle_scale(deg), r2))[()]


def _real_if_close_backward(a: Any, y: Any, dy: Any, tol: Any = 100) -> Any:
    return real_part(dy) if is_complex(a) and not is_complex(y) else dy


def _real_if_close_forward(a: Any, y: Any, da: Any, tol: Any = 100) -> Any:
    return real_part(da) if is_complex(a) and not is_complex(y) else da


unary_rule(np.absolute, abs_backward, abs_forward)  # also np.abs: the same object
unary_rule(np.fabs, abs_backward, abs_forward)
unary_rule(np.conjugate, _conj_backward, _conj_forward)  # also np.conj
unary_rule(np.ndarray.conjugate, _conj_backward, _conj_forward, name="ndarray.conjugate", types=(np.ndarray,),
           keywords=no_keywords)
unary_rule(np.ndarray.conj, _conj_backward, _conj_forward, name="ndarray.conj", types=(np.ndarray,),
           keywords=no_keywords)
unary_rule(np.real, _real_backward, _real_forward, keywords=no_keywords)
unary_rule(np.imag, _imag_backward, _imag_forward, keywords=no_keywords)
unary_rule(np.angle, _angle_backward, _angle_forward, keywords=no_keywords, extra=(("deg", object),))
unary_rule(np.real_if_close, _real_if_close_backward, _real_if_close_forward, keywords=no_keywords,
           extra=(("tol", numbers.Real),))


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([[0.7, -1.3, 2.1], [-0.4, 1.8, -2.6]])
_Z = _X + 1j * np.array([[0.5, 0.9, -1.1], [1.4, -0.3, 0.8]])


@sample_inputs(np.absolute)
def _abs_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X, rng=rng), Sample(_Z, label="complex")]  # away from 0, where |x| has a kink


@sample_inputs(np.fabs)
def _fabs_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(_X, rng=rng)  # real only (NumPy's fabs refuses complex input)


@sample_inputs(np.conjugate, np.real, np.imag)
def _part_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X, rng=rng), Sample(_Z, label="complex"), Sample(1.5 - 0.5j, label="complex scalar")]


@sample_inputs(np.ndarray.conj, np.ndarray.conjugate)
def _conj_method_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_Z, label="complex"), Sample(_X.astype(np.float32), label="float32")]


@sample_inputs(np.angle)
def _angle_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(_Z, label="complex"), Sample(_Z.astype(np.complex64), label="complex64"),
            Sample(_Z, True, label="deg=True by position"), Sample(_Z, fkwargs={"deg": True}, label="deg by keyword"),
            Sample(_X, label="real (piecewise constant: 0 or pi)")]


@sample_inputs(np.real_if_close)
def _real_if_close_samples(rng: np.random.Generator) -> list[Sample]:
    nearly_real = _X + 1e-15j
    return [Sample(nearly_real, label="imaginary part negligible: real output"),
            Sample(_Z, label="imaginary part kept: complex output"),
            Sample(nearly_real, 1000.0, label="tol by position"), Sample(_X, label="real input")]
