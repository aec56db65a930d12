"""Rules of Legendre's elliptic integrals and Jacobi's elliptic functions, in every argument.

``ellipk``, ``ellipkm1``, ``ellipe``, ``ellipkinc``, ``ellipeinc`` and ``ellipj`` (four
outputs), all in SciPy's parameter ``m = k**2``.

The maths
---------
The derivatives in ``m`` are written with Carlson's ``R_D`` (SciPy's ``elliprd``), which
has positive arguments and no cancellation, where the textbook forms ``(E - (1-m) K) /
(2 m (1-m))`` and ``(E - K) / (2m)`` (DLMF 19.4.1) lose all their digits as ``m -> 0``.
With ``F(phi|m) = s R_F(c^2, D^2, 1)`` and ``E(phi|m) = F - m/3 s^3 R_D(c^2, D^2, 1)``
(DLMF 19.25.5, 19.25.9; ``s = sin phi``, ``c = cos phi``, ``D^2 = 1 - m s^2``) and
``dR_F(x, y, z)/dz = -R_D(x, y, z)/6`` (DLMF 19.18.1):

* ``dF(phi|m)/dm = s^3 R_D(c^2, 1, D^2) / 6``, ``dE(phi|m)/dm = -s^3 R_D(c^2, D^2, 1) / 6``;
* ``dK/dm = R_D(0, 1, 1 - m) / 6``, ``dE/dm = -R_D(0, 1 - m, 1) / 6`` (``phi = pi/2``), so
  ``d ellipkm1(p)/dp = -R_D(0, 1, p) / 6``;
* ``dF/dphi = 1 / D``, ``dE/dphi = D`` (the integrands, DLMF 19.2.4-5).

For ``|phi| > pi/2`` SciPy uses ``F(phi + n pi|m) = F(phi|m) + 2n K(m)`` (DLMF 19.2.10);
the derivatives in ``m`` follow the same reduction.

Jacobi's functions ``sn, cn, dn`` and the amplitude ``ph = am(u|m)`` (DLMF 22.13.1,
22.16.1): ``d/du = (cn dn, -sn dn, -m sn cn, dn)``. In ``m``: ``u = F(ph|m)`` gives
``d ph/dm = -dn dF/dm |_ph`` (the implicit function theorem), and then
``d sn/dm = cn d ph/dm``, ``d cn/dm = -sn d ph/dm``, ``d dn/dm = -(sn^2 + 2 m sn cn
d ph/dm) / (2 dn)`` (from ``dn^2 = 1 - m sn^2``). SciPy defines ``ellipj`` for
``0 <= m <= 1``, ``ellipkinc``/``ellipeinc`` for ``m <= 1``: outside, the primal is
``NaN`` and so are the derivatives.

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> frule((None, 1.0), sc.ellipk, 0.0)[1]            # dK/dm at m = 0 is pi/8
np.float64(0.39269908169872414)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._parameter_rules import float64
from chainrules_core import Sample, sample_inputs, scalar_rule


def ellipk_m(m: Any) -> Any:
    """``dK/dm = R_D(0, 1, 1 - m) / 6``."""
    m = float64(m)
    return sc.elliprd(0.0, 1.0, 1 - m) / 6


def ellipkm1_p(p: Any) -> Any:
    """``d K(1 - p)/dp = -R_D(0, 1, p) / 6``."""
    return -sc.elliprd(0.0, 1.0, float64(p)) / 6


def ellipe_m(m: Any) -> Any:
    """``dE/dm = -R_D(0, 1 - m, 1) / 6``."""
    m = float64(m)
    return -sc.elliprd(0.0, 1 - m, 1.0) / 6


def _reduce(phi: Any) -> tuple[Any, Any]:
    """``phi = phi' + n pi`` with ``|phi'| <= pi/2``: returns ``(phi', n)``."""
    n = np.round(phi / np.pi)
    return phi - n * np.pi, n


def ellipkinc_phi(phi: Any, m: Any) -> Any:
    """``dF(phi|m)/dphi = 1 / sqrt(1 - m sin^2 phi)``."""
    s = np.sin(float64(phi))
    return 1 / np.sqrt(1 - float64(m) * s * s)


def ellipkinc_m(phi: Any, m: Any) -> Any:
    """``dF(phi|m)/dm = s^3 R_D(c^2, 1, 1 - m s^2) / 6 + 2 n dK/dm``."""
    phi, m = float64(phi), float64(m)
    reduced, n = _reduce(phi)
    s, c = np.sin(reduced), np.cos(reduced)
    with np.errstate(invalid="ignore"):
        part = s ** 3 * sc.elliprd(c * c, 1.0, 1 - m * s * s) / 6
        return part + np.where(n != 0, 2 * n * ellipk_m(m), 0.0)


def ellipeinc_phi(phi: Any, m: Any) -> Any:
    """``dE(phi|m)/dphi = sqrt(1 - m sin^2 phi)``."""
    s = np.sin(float64(phi))
    return np.sqrt(1 - float64(m) * s * s)


def ellipeinc_m(phi: Any, m: Any) -> Any:
    """``dE(phi|m)/dm = -s^3 R_D(c^2, 1 - m s^2, 1) / 6 + 2 n dE/dm``."""
    phi, m = float64(phi), float64(m)
    reduced, n = _reduce(phi)
    s, c = np.sin(reduced), np.cos(reduced)
    with np.errstate(invalid="ignore"):
        part = -(s ** 3) * sc.elliprd(c * c, 1 - m * s * s, 1.0) / 6
        return part + np.where(n != 0, 2 * n * ellipe_m(m), 0.0)


scalar_rule(sc.ellipk, ellipk_m)
scalar_rule(sc.ellipkm1, ellipkm1_p)
scalar_rule(sc.ellipe, ellipe_m)
scalar_rule(sc.ellipkinc, ellipkinc_phi, ellipkinc_m)
scalar_rule(sc.ellipeinc, ellipeinc_phi, ellipeinc_m)


# ---- Jacobi's elliptic functions ----------------------------------------------------------------------
class _AmplitudeDerivative:
    """``d am(u|m)/dm``, computed once for the four rows of one call (keyed on the outputs tuple)."""

    __slots__ = ("key", "value")

    def __init__(self) -> None:
        self.key: Any = None
        self.value: Any = None

    def __call__(self, u: Any, m: Any, ys: tuple[Any, ...]) -> Any:
        key, value = self.key, self.value
        if key is ys:
            return value
        sn, cn, dn, ph = (float64(y) for y in ys)
        m = float64(m)
        _, n = _reduce(ph)
        sign = np.where(n % 2 == 0, 1.0, -1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            dF = sign * sn ** 3 * sc.elliprd(cn * cn, 1.0, dn * dn) / 6 + np.where(n != 0, 2 * n * ellipk_m(m), 0.0)
        value = -dn * dF
        self.key, self.value = ys, value
        return value


_amplitude_m = _AmplitudeDerivative()


def sn_u(u: Any, m: Any, ys: Any) -> Any:
    """``d sn/du = cn dn``."""
    return float64(ys[1]) * float64(ys[2])


def cn_u(u: Any, m: Any, ys: Any) -> Any:
    """``d cn/du = -sn dn``."""
    return -float64(ys[0]) * float64(ys[2])


def dn_u(u: Any, m: Any, ys: Any) -> Any:
    """``d dn/du = -m sn cn``."""
    return -float64(m) * float64(ys[0]) * float64(ys[1])


def ph_u(u: Any, m: Any, ys: Any) -> Any:
    """``d am/du = dn``."""
    return float64(ys[2])


def sn_m(u: Any, m: Any, ys: Any) -> Any:
    """``d sn/dm = cn d am/dm``."""
    return float64(ys[1]) * _amplitude_m(u, m, ys)


def cn_m(u: Any, m: Any, ys: Any) -> Any:
    """``d cn/dm = -sn d am/dm``."""
    return -float64(ys[0]) * _amplitude_m(u, m, ys)


def dn_m(u: Any, m: Any, ys: Any) -> Any:
    """``d dn/dm = -(sn^2 + 2 m sn cn d am/dm) / (2 dn)``."""
    sn, cn, dn = float64(ys[0]), float64(ys[1]), float64(ys[2])
    with np.errstate(divide="ignore", invalid="ignore"):
        return -(sn * sn + 2 * float64(m) * sn * cn * _amplitude_m(u, m, ys)) / (2 * dn)


def ph_m(u: Any, m: Any, ys: Any) -> Any:
    """``d am/dm = -dn dF(am|m)/dm``."""
    return _amplitude_m(u, m, ys)


scalar_rule(sc.ellipj, (sn_u, sn_m), (cn_u, cn_m), (dn_u, dn_m), (ph_u, ph_m))


# ---- samples ------------------------------------------------------------------------------------------
@sample_inputs(sc.ellipk, sc.ellipe)
def _complete_samples(rng: np.random.Generator) -> Any:
    m = np.array([-3.0, 0.0, 1e-3, 0.5, 0.99])
    yield Sample(m, label="m < 0, m = 0, small m, m near 1")
    yield Sample(m.astype(np.float32), label="float32")
    yield Sample(0.3)


@sample_inputs(sc.ellipkm1)
def _ellipkm1_samples(rng: np.random.Generator) -> Any:
    p = np.array([1e-6, 0.01, 0.5, 1.0, 3.0])
    yield Sample(p, label="p near 0 (m near 1), p = 1 (m = 0), p > 1 (m < 0)")
    yield Sample(p.astype(np.float32), label="float32")


@sample_inputs(sc.ellipkinc, sc.ellipeinc)
def _incomplete_samples(rng: np.random.Generator) -> Any:
    phi = np.array([0.3, 1.2, -0.8, 2.5, 7.0])
    m = np.array([0.5, -2.0, 0.9, 0.2, 0.7])
    yield Sample(phi, m, label="|phi| below and beyond pi/2, m < 0")
    yield Sample(phi.astype(np.float32), m.astype(np.float32), label="float32")
    yield Sample(np.array([0.4, 1.5]), 0.0, label="m = 0")
    yield Sample(1.1, np.array([1e-4, 0.6]), label="broadcast")


@sample_inputs(sc.ellipj)
def _ellipj_samples(rng: np.random.Generator) -> Any:
    u = np.array([0.3, 1.7, -2.2, 5.0, 9.0])
    m = np.array([0.5, 0.05, 0.9, 0.3, 0.8])
    yield Sample(u, m, label="amplitude below and beyond pi/2")
    yield Sample(u.astype(np.float32), m.astype(np.float32), label="float32")
    yield Sample(np.array([0.5, 2.0]), 1e-3, label="small m")
