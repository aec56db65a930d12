"""The Lambert W function (every branch) and the Wright omega function.

The maths
---------
``W(z) e^W(z) = z`` on every branch ``k``, so ``W' = 1 / (e^W (1 + W)) = W / (z (1 + W))``
(DLMF 4.13.4); the first form is used at ``z = 0`` (where ``W_0 = 0`` and ``W' = 1``), the
second elsewhere (it does not overflow on the ``k = -1`` branch near ``0-``, where
``W -> -inf``). At the branch point ``z = -1/e`` (``W = -1``) the derivative is infinite.
``lambertw`` returns complex numbers for every input; for a real ``z`` the pullback keeps
``Re(conj(W') dy)``. The branch ``k`` and the tolerance ``tol`` are not differentiated.

Wright's omega ``omega(z) = W_K(z)(e^z)`` solves ``omega + log omega = z``:
``omega' = omega / (1 + omega)``.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> complex(frule((None, 1.0), sc.lambertw, 0.0)[1])
(1+0j)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._keyword_rules import elementwise_frule, elementwise_rrule
from chainrules.rulesets.special._precision import upcast
from chainrules.testing import PrimalAndTangent
from chainrules_core import NoTangent, Sample, frule, rrule, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import NUMERIC

__all__: list[str] = []


def _lambertw_partial(z: Any, w: Any) -> Any:
    z = upcast(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        at_zero = z == 0
        return np.where(at_zero, np.exp(-w) / (1 + w), w / (np.where(at_zero, 1.0, z) * (1 + w)))[()]


def lambertw_rrule(z: Any, k: Any = 0, tol: Any = 1e-8) -> Any:
    """Reverse rule of ``scipy.special.lambertw`` (see the module docstring)."""
    w = sc.lambertw(z, k, tol)
    return elementwise_rrule(sc.lambertw, "lambertw", (z,), w, (lambda: _lambertw_partial(z, w),), 2)


def lambertw_frule(tangents: Any, z: Any, k: Any = 0, tol: Any = 1e-8) -> Any:
    """Forward rule of ``scipy.special.lambertw`` (see the module docstring)."""
    w = sc.lambertw(z, k, tol)
    return elementwise_frule((z,), w, (lambda: _lambertw_partial(z, w),), tangents[1:2])


rrule.register(sc.lambertw, NUMERIC)(lambertw_rrule)
frule.register(sc.lambertw, NUMERIC)(lambertw_frule)


def _wrightomega(z: Any, omega: Any) -> Any:
    omega = upcast(omega)
    with np.errstate(divide="ignore", invalid="ignore"):
        return omega / (1 + omega)


scalar_rule(sc.wrightomega, _wrightomega)


@sample_inputs(sc.lambertw)
def _lambertw_samples() -> Any:
    yield Sample(1.0, label="scalar")
    yield Sample(np.array([0.0, 1e-3, 1.0, 50.0, -0.3, -0.36]), label="0, principal branch, near -1/e")
    yield Sample(np.array([-0.2, -1e-3]), -1, label="branch k = -1, by position")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 1j]), fkwargs={"k": 1}, label="complex, branch 1 by keyword")
    yield Sample(np.array([-1.0, 2.0]), 0, PrimalAndTangent(1e-10, NoTangent()),
                 label="real z below -1/e (complex W), the tolerance by position (a solver setting: NoTangent)")
    yield Sample(np.array([0.5, 3.0], dtype=np.float32), label="float32")


@sample_inputs(sc.wrightomega)
def _wrightomega_samples() -> Any:
    yield Sample(1.0, label="scalar")
    yield Sample(np.array([-30.0, -1.0, 0.0, 2.0, 300.0]), label="both signs, large")
    yield Sample(np.array([-1.0, 2.0], dtype=np.float32), label="float32")
    yield Sample(np.array([0.5 + 0.5j, -2.0 + 4j, -1.0 + 3.0j]), label="complex")
