"""Trigonometry of scipy.special: cosdg, sindg, tandg, cotdg (degrees), radian, cosm1, diric, round.

The maths
---------
With ``c = pi/180``: ``sindg' = c cosdg``, ``cosdg' = -c sindg``, ``tandg' = c (1 + tandg^2)``,
``cotdg' = -c (1 + cotdg^2)`` (SciPy's degree functions are exact at multiples of 90
degrees, and so are these partials); ``radian(d, m, s) = c (d + m/60 + s/3600)``;
``cosm1' = -sin``; ``round`` is piecewise constant (derivative 0 where it exists).

The Dirichlet kernel ``diric(x, n) = sin(n x/2) / (n sin(x/2))`` (``n`` a positive
integer: ``NoTangent``; a float ``n`` gets ``not_implemented``, SciPy is NaN between
integers) has ``diric' = (cos(n x/2) - diric cos(x/2)) / (2 sin(x/2))``,
which is ``0/0`` at ``x = 2 pi k`` (where ``diric = +-1``). Within ``n |t| < 1e-3`` of
those points (``t = x - 2 pi k``) the Taylor series of ``sin(n t/2)/(n sin(t/2))``,
``-(n^2 - 1) t / 12 + (3n^4 - 10n^2 + 7) t^3 / 1440``, times ``(-1)^(k(n-1))``, is used.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> float(frule((None, 1.0), sc.sindg, 90.0)[1])  # exactly cos(90 degrees) = 0
0.0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, not_implemented, sample_inputs, scalar_rule
from chainrules_core.scalar_rules import ZERO

__all__: list[str] = []

_DEGREE = math.pi / 180


def _sindg(x: Any) -> Any:
    return _DEGREE * sc.cosdg(upcast(x))


def _cosdg(x: Any) -> Any:
    return -_DEGREE * sc.sindg(upcast(x))


def _tandg(x: Any, y: Any) -> Any:
    y = upcast(y)
    return _DEGREE * (1 + y * y)


def _cotdg(x: Any, y: Any) -> Any:
    y = upcast(y)
    return -_DEGREE * (1 + y * y)


def _cosm1(x: Any) -> Any:
    return -np.sin(upcast(x))


scalar_rule(sc.sindg, _sindg)
scalar_rule(sc.cosdg, _cosdg)
scalar_rule(sc.tandg, _tandg)
scalar_rule(sc.cotdg, _cotdg)
scalar_rule(sc.cosm1, _cosm1)
scalar_rule(sc.radian, _DEGREE, _DEGREE / 60, _DEGREE / 3600)
scalar_rule(sc.round, ZERO)


def _diric_x(x: Any, n: Any, y: Any) -> Any:
    x, n, y = (np.array(v, dtype=np.float64) for v in np.broadcast_arrays(upcast(x), upcast(n), upcast(y)))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray((np.cos(n * x / 2) - y * np.cos(x / 2)) / (2 * np.sin(x / 2)))
        k = np.round(x / (2 * np.pi))
        t = x - 2 * np.pi * k
        near = np.abs(n * t) < 1e-3
        if np.any(near):
            nn, tt, kk = n[near], t[near], k[near]
            n2 = nn * nn
            series = -(n2 - 1) * tt / 12 + (3 * n2 * n2 - 10 * n2 + 7) * tt ** 3 / 1440
            sign = np.where((kk * (nn - 1)) % 2 == 0, 1.0, -1.0)
            out[near] = sign * series
    return out[()]


_DIRIC_N = ("diric(x, n): n is the (integer) order of the kernel; SciPy returns NaN between integers, so there is "
            "no derivative in it; pass n as an integer (it then gets NoTangent)")
scalar_rule(sc.diric, _diric_x, not_implemented(_DIRIC_N))


_DEGREES = np.array([-135.0, 0.0, 30.0, 90.0, 180.0, 405.0])


@sample_inputs(sc.sindg, sc.cosdg)
def _sindg_samples() -> Any:
    yield Sample(30.0, label="scalar")
    yield Sample(_DEGREES, label="multiples of 45 and 90, negative, beyond 360")
    yield Sample(_DEGREES.astype(np.float32), label="float32")


@sample_inputs(sc.tandg, sc.cotdg)
def _tandg_samples() -> Any:
    yield Sample(30.0, label="scalar")
    yield Sample(np.array([-135.0, 30.0, 45.0, 60.0, 400.0]), label="away from the poles")
    yield Sample(np.array([30.0, 45.0], dtype=np.float32), label="float32")


@sample_inputs(sc.cosm1)
def _cosm1_samples() -> Any:
    yield Sample(0.3, label="scalar")
    yield Sample(np.array([-2.0, -1e-9, 0.0, 1e-5, 3.0]), label="near 0")
    yield Sample(np.array([-2.0, 1e-5, 3.0], dtype=np.float32), label="float32")


@sample_inputs(sc.radian)
def _radian_samples() -> Any:
    yield Sample(30.0, 15.0, 10.0, label="scalars")
    yield Sample(np.array([30.0, -5.0]), np.array([15.0, 30.0]), 10.0, label="broadcast")
    yield Sample(np.float32(30.0), np.float32(15.0), np.float32(10.0), label="float32")


@sample_inputs(sc.round)
def _round_samples() -> Any:
    yield Sample(np.array([0.3, 1.7, -2.2]), label="between integers")


@sample_inputs(sc.diric)
def _diric_samples() -> Any:
    yield Sample(0.7, 5, label="scalar")
    yield Sample(np.array([0.7, 2.0, -1.0, 1e-5, 2 * np.pi + 1e-6, 4 * np.pi - 0.3, 3.0]), 4,
                 label="generic, near 2 pi k (series), even n")
    yield Sample(np.array([0.7, 1e-5, 2 * np.pi + 1e-6, 2 * np.pi + 0.02]), 7, label="odd n")
    yield Sample(np.array([0.7, 2.0], dtype=np.float32), 3, label="float32")
