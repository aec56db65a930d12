"""Airy functions: ``airy``, ``airye`` (four outputs each, real or complex ``z``) and ``itairy``.

``airy(z) = (Ai, Ai', Bi, Bi')``; from the Airy equation ``w'' = z w`` (DLMF 9.2.1) the
derivatives are ``(Ai', z Ai, Bi', z Bi)``, holomorphic.

``airye(z)`` scales them: ``eAi = Ai e^zeta``, ``eAi' = Ai' e^zeta`` with ``zeta = (2/3)
z^(3/2)`` (principal branch, holomorphic off the negative real axis), and ``eBi = Bi
e^(-|Re zeta|)``, ``eBi' = Bi' e^(-|Re zeta|)``, which are not holomorphic. With ``zeta' =
sqrt(z)`` and ``s = sign(Re zeta)``::

    d eAi/dz = eAi' + sqrt(z) eAi               d eAi'/dz = z eAi + sqrt(z) eAi'
    d eBi/dz = eBi' - (s/2) sqrt(z) eBi          d eBi/dconj(z) = -(s/2) conj(sqrt(z)) eBi
    d eBi'/dz = z eBi - (s/2) sqrt(z) eBi'       d eBi'/dconj(z) = -(s/2) conj(sqrt(z)) eBi'

(a Wirtinger pair for complex ``z``; for real ``x < 0``, ``Re zeta = 0`` and SciPy's
``eBi = Bi``, ``eAi`` is NaN there). ``itairy(x)`` returns the integrals ``int_0^x Ai(t),
int_0^x Bi(t), int_0^x Ai(-t), int_0^x Bi(-t)`` (real ``x``): their derivatives are the
integrands ``Ai(x), Bi(x), Ai(-x), Bi(-x)`` (exact; SciPy's own ``itairy`` is accurate to
about ``1e-7`` relative near ``0`` and ``1e-5`` at ``|x| = 2``, and loses accuracy beyond, so
finite differences of it agree with the rule only that well).

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> ys, dys = frule((None, 1.0), sc.airy, 0.5)
>>> bool(np.isclose(dys[1], 0.5 * ys[0]))                # Ai'' = z Ai
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_rules import Wirtinger, bessel_rule
from chainrules_core import Sample, sample_inputs, scalar_rule


def _ai_z(z: Any, ys: Any) -> Any:
    return ys[1]


def _aip_z(z: Any, ys: Any) -> Any:
    return z * ys[0]


def _bi_z(z: Any, ys: Any) -> Any:
    return ys[3]


def _bip_z(z: Any, ys: Any) -> Any:
    return z * ys[2]


scalar_rule(sc.airy, (_ai_z,), (_aip_z,), (_bi_z,), (_bip_z,))


def _airye_z(z: Any, ys: Any) -> tuple[Any, ...]:
    """The partials of the four outputs of ``airye`` (see the module docstring)."""
    eai, eaip, ebi, ebip = ys
    if np.iscomplexobj(z):
        root = np.sqrt(z)
        s = np.sign(np.real(2 / 3 * z * root)) / 2
        back = -s * np.conj(root)
        return (eaip + root * eai, z * eai + root * eaip,
                Wirtinger(ebip - s * root * ebi, back * ebi), Wirtinger(z * ebi - s * root * ebip, back * ebip))
    with np.errstate(invalid="ignore"):
        root = np.sqrt(np.maximum(z, 0))  # for x < 0, Re zeta = 0: eBi = Bi (eAi is NaN)
    return (eaip + root * eai, z * eai + root * eaip, ebip - root * ebi, z * ebi - root * ebip)


bessel_rule(sc.airye, [_airye_z])


def _apt(x: Any) -> Any:
    return sc.airy(x)[0]


def _bpt(x: Any) -> Any:
    return sc.airy(x)[2]


def _ant(x: Any) -> Any:
    return sc.airy(np.negative(x))[0]


def _bnt(x: Any) -> Any:
    return sc.airy(np.negative(x))[2]


scalar_rule(sc.itairy, (_apt,), (_bpt,), (_ant,), (_bnt,))


@sample_inputs(sc.airy, sc.airye)
def _airy_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(0.5), Sample(np.array([0.7, 3.5], np.float32), label="float32"),
            Sample(np.array([0.5 + 0.5j, -1.0 + 2.0j, 2.0 - 1.0j, -3.0 - 0.2j]), label="complex z")]


@sample_inputs(sc.airy)
def _airy_real_samples(rng: np.random.Generator) -> list[Sample]:
    return [Sample(np.array([-6.0, -1.2, 0.0, 0.7, 3.5]), label="oscillating (x < 0) and decaying (x > 0)")]


@sample_inputs(sc.airye)
def _airye_samples(rng: np.random.Generator) -> list[Sample]:
    # real x < 0: eAi is NaN (z^(3/2) is not real), eBi = Bi; at 0 eAi is one-sided
    return [Sample(np.array([0.7, 5.0, 30.0]), label="x > 0, up to where Ai underflows and Bi overflows unscaled"),
            Sample(np.array([-0.3 + 1e-3j, -0.3 - 1e-3j]), label="either side of the branch cut")]


@sample_inputs(sc.itairy)
def _itairy_samples(rng: np.random.Generator) -> list[Sample]:
    # SciPy's itairy (specfun ITAIRY) is accurate to about 1e-7 relative near 0, 1e-5 at |x| = 2,
    # 4e-4 at 3, and wrong beyond (by a factor 13 at x = 9.1); the rule returns the exact
    # integrands, so the finite differences of SciPy's primal are compared where they agree.
    return [Sample(0.8, rtol=1e-5), Sample(np.array([-1.0, -0.5, 0.0, 0.3, 0.8]), rtol=1e-5),
            Sample(np.array([0.3, 0.8], np.float32), label="float32")]
