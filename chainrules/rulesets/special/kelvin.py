"""Kelvin functions: ``ber``, ``bei``, ``ker``, ``kei``, their derivatives ``berp``... ``keip``, and ``kelvin``.

``ber x + i bei x = J_0(x e^(3 pi i/4))`` and ``ker x + i kei x = K_0(x e^(pi i/4))`` (DLMF
10.61.1-2, real ``x``); SciPy gives their derivatives as ``berp``, ``beip``, ``kerp``,
``keip``. Both complex combinations solve ``w'' + w'/x - i w = 0`` (Bessel's equation at
``x e^(3 pi i/4)``, modified Bessel's at ``x e^(pi i/4)``), so the second derivatives are
(DLMF 10.63)::

    ber'' = -ber'/x - bei        bei'' = -bei'/x + ber
    ker'' = -ker'/x - kei        kei'' = -kei'/x + ker

with their limits at ``x = 0``: ``ber''(0) = 0``, ``bei''(0) = 1/2`` (``ker``, ``kei`` are
singular there). ``kelvin(x)`` returns ``(ber + i bei, ker + i kei, ber' + i bei', ker' + i
kei')``: the derivatives are ``(Be', Ke', -Be'/x + i Be, -Ke'/x + i Ke)``; a real ``x`` gets the
real part of the complex cotangent's product (the holomorphic convention). For ``x < 0``,
``ber``, ``bei`` are even and ``ker``, ``kei`` NaN (SciPy), and the formulas hold as they are.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(sc.ber, 2.0)
>>> bool(np.isclose(pullback(1.0)[1], sc.berp(2.0)))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules_core import Sample, sample_inputs, scalar_rule


def _over_x(y: Any, x: Any, at_zero: Any) -> Any:
    """``y / x`` with its limit ``at_zero`` at ``x = 0``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.divide(y, x)
    return np.where(np.asarray(x) == 0, at_zero, q)


def _berp_x(x: Any, y: Any) -> Any:
    return (-_over_x(y, x, 0.0) - sc.bei(x))[()]


def _beip_x(x: Any, y: Any) -> Any:
    return (-_over_x(y, x, 0.5) + sc.ber(x))[()]


def _kerp_x(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.divide(y, x) - sc.kei(x)


def _keip_x(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.divide(y, x) + sc.ker(x)


PARTIALS: dict[Any, Any] = {sc.ber: sc.berp, sc.bei: sc.beip, sc.ker: sc.kerp, sc.kei: sc.keip,
                            sc.berp: _berp_x, sc.beip: _beip_x, sc.kerp: _kerp_x, sc.keip: _keip_x}
"""``d/dx`` of each Kelvin function."""

for _f, _partial in PARTIALS.items():
    scalar_rule(_f, _partial)


def _be_x(x: Any, ys: Any) -> Any:
    return ys[2]


def _ke_x(x: Any, ys: Any) -> Any:
    return ys[3]


def _bep_x(x: Any, ys: Any) -> Any:
    return (-_over_x(ys[2], x, 0.5j) + 1j * ys[0])[()]


def _kep_x(x: Any, ys: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.divide(ys[3], x) + 1j * ys[1]


scalar_rule(sc.kelvin, (_be_x,), (_ke_x,), (_bep_x,), (_kep_x,))


@sample_inputs(*PARTIALS, sc.kelvin)
def _kelvin_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(1.5), Sample(np.array([1e-3, 0.6, 3.0, 9.0, 25.0])),
            Sample(np.array([0.6, 3.0], np.float32), label="float32")]


@sample_inputs(sc.ber, sc.bei, sc.berp, sc.beip)
def _kelvin_negative_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([-4.0, -0.5, 0.0]), label="x <= 0")]
