"""Signs: sign, heaviside, copysign.

* ``sign`` of a real input is piecewise constant: a dense zero cotangent (see
  :mod:`~chainrules.rulesets.elementwise.rounding`). For complex ``z`` NumPy defines
  ``sign(z) = z / |z|``, which is not holomorphic: its differential is
  ``d sign = i s Im(conj(s) dz) / |z|`` with ``s = sign(z)``, a self-adjoint map, so the
  pullback is ``i s Im(conj(s) dy) / |z|``; at ``z = 0`` both are zero.
* ``heaviside(x1, x2)`` is ``x2`` where ``x1 == 0``: the partial with respect to ``x1`` is
  zero, with respect to ``x2`` it is the indicator of ``x1 == 0``.
* ``copysign(x1, x2) = |x1|`` with the sign of ``x2``: the partial with respect to ``x1``
  is ``sign(x1) * sign(y)`` (zero at ``x1 = 0``, the convention of ``abs``), with respect
  to ``x2`` it is zero.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(np.copysign, np.array([2.0, -3.0]), -1.0)
>>> y, unthunk(pullback(np.ones(2))[1])
(array([-2., -3.]), array([-1.,  1.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules.rulesets._samples import elementwise_samples
from chainrules.rulesets.elementwise._unary import unary_rule
from chainrules_core import Sample, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO, is_complex, zero_cotangent, zero_tangent_of


def _phase_map(z: Any, s: Any, d: Any) -> Any:
    """``i s Im(conj(s) d) / |z|`` (zero where ``z == 0``): the differential of ``sign`` and its adjoint."""
    r = np.abs(z)
    return np.where(r == 0, 0, 1j * s * np.divide(np.imag(np.conj(s) * d), r))[()]


def _sign_backward(x: Any, y: Any, dy: Any) -> Any:
    if not is_complex(x):
        return zero_cotangent(x)
    return _phase_map(x, y, dy)


def _sign_forward(x: Any, y: Any, dx: Any) -> Any:
    if not is_complex(x):
        return zero_tangent_of(y)
    return _phase_map(x, y, dx)


def _heaviside_x2(x1: Any, x2: Any, y: Any) -> Any:
    return np.equal(x1, 0)


def _copysign_x1(x1: Any, x2: Any, y: Any) -> Any:
    return np.sign(x1) * np.sign(y)


unary_rule(np.sign, _sign_backward, _sign_forward)
PARTIALS: dict[Any, tuple[Any, ...]] = {
    np.heaviside: (ZERO, _heaviside_x2),
    np.copysign: (_copysign_x1, ZERO),
}
"""Partial derivatives of the ufuncs of this module with holomorphic-style rules, by ufunc."""

for _f, _partials in PARTIALS.items():
    scalar_rule(_f, *_partials)


# ---- sample inputs ----------------------------------------------------------------------------------
_X = np.array([[0.7, -1.3, 2.1], [-0.4, 1.8, -2.6]])


@sample_inputs(np.sign)
def _sign_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X, rng=rng),
            Sample(_X + 1j * _X[::-1], label="complex: z / |z|, a phase")]


@sample_inputs(np.heaviside)
def _heaviside_samples(rng: np.random.Generator) -> list[Sample]:
    return [*elementwise_samples(_X, np.array([0.5, 0.2, 1.0]), rng=rng),
            # x1 jumps at 0: integers there (not differentiated), so that x2's partial is checked
            Sample(np.array([-1, 0, 2, 0]), np.array([0.5, 0.3, 0.7, 1.2]),
                   label="zeros of x1: x2 is the output there")]


@sample_inputs(np.copysign)
def _copysign_samples(rng: np.random.Generator) -> list[Sample]:
    return elementwise_samples(_X, np.array([1.5, 2.0, -0.5]), rng=rng)
