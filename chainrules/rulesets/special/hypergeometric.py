"""Rules of the hypergeometric functions: ``hyp0f1``, ``hyp1f1``, ``hyp2f1``, ``hyperu``, in every argument.

The maths
---------
**The argument** (holomorphic for complex ``z``): the derivatives are contiguous functions,
evaluated with SciPy:

* ``d/dz 0F1(; b; z) = 0F1(; b + 1; z) / b`` (DLMF 16.3.1),
* ``d/dz 1F1(a; b; z) = a / b 1F1(a + 1; b + 1; z)`` (DLMF 13.3.15),
* ``d/dz 2F1(a, b; c; z) = a b / c 2F1(a + 1, b + 1; c + 1; z)`` (DLMF 15.5.1),
* ``d/dz U(a, b, z) = -a U(a + 1, b + 1, z)`` (DLMF 13.3.22).

**The parameters** have no closed form. They are differentiated term by term in the
series (Ancarani and Gasaneo, *J. Math. Phys.* 50, 063508 (2009)), carried through the
connection formulas (2F1: the six transformations of DLMF 15.8.1-15.8.5 / A&S 15.3.3-15.3.9
and Gauss's sum at ``z = 1``; 1F1: Kummer's transformation DLMF 13.2.39; U: DLMF 13.2.42
and the asymptotic series 13.7.3) in forward mode with running error bounds
(:mod:`~chainrules.rulesets.special._hypergeometric_jets`), so that each derivative comes
with a bound on its error. Where no formula reaches a relative error of ``1e-8`` (the
logarithmic cases of the 2F1 connection formulas, ``c - a - b`` or ``a - b`` near an
integer; 1F1 and 0F1 with large negative arguments, where the series cancel; U near
integer ``b``), Richardson-extrapolated differences of SciPy's function in that parameter
are used, with their error estimate checked against the same tolerance; where that fails
too the parameter's cotangent is ``not_implemented`` with the reason
(:mod:`~chainrules.rulesets.special._parameter_rules`). The cost is that of the series
(tens to hundreds of terms), ten to a hundred times the primal; the argument's derivative
costs one call of the function.

At poles and outside the domain (``c`` a non-positive integer, ``2F1`` at real ``z > 1``,
``U`` at ``z <= 0``) the primal is ``inf`` or ``NaN`` and so are the derivatives.

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule
>>> from chainrules_core import unthunk
>>> y, pullback = rrule(sc.hyp2f1, 0.5, 1.5, 2.5, np.array([0.25, -2.0]))
>>> _, da, db, dc, dz = (unthunk(t) for t in pullback(np.ones(2)))
>>> dz                                   # a b / c 2F1(a + 1, b + 1; c + 1; z)
array([0.40600592, 0.08536132])
>>> round(float(da), 10)                 # summed over both points (a is a scalar)
-0.3150062448
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._hypergeometric_jets import hyp0f1_jet, hyp1f1_jet, hyp2f1_jet, hyperu_jet
from chainrules.rulesets.special._parameter_rules import ParameterPartials, float64, parameter, shared_partials
from chainrules_core import Sample, sample_inputs, scalar_rule


# ---- the argument -------------------------------------------------------------------------------------
def hyp0f1_z(b: Any, z: Any, y: Any, s: ParameterPartials) -> Any:
    """``d/dz 0F1(; b; z) = 0F1(; b + 1; z) / b``."""
    b = float64(b)
    return sc.hyp0f1(b + 1, float64(z)) / b


def hyp1f1_z(a: Any, b: Any, z: Any, y: Any, s: ParameterPartials) -> Any:
    """``d/dz 1F1(a; b; z) = a / b 1F1(a + 1; b + 1; z)``."""
    a, b = float64(a), float64(b)
    return a / b * sc.hyp1f1(a + 1, b + 1, float64(z))


def hyp2f1_z(a: Any, b: Any, c: Any, z: Any, y: Any, s: ParameterPartials) -> Any:
    """``d/dz 2F1(a, b; c; z) = a b / c 2F1(a + 1, b + 1; c + 1; z)``."""
    a, b, c = float64(a), float64(b), float64(c)
    return a * b / c * sc.hyp2f1(a + 1, b + 1, c + 1, float64(z))


def hyperu_z(a: Any, b: Any, z: Any, y: Any, s: ParameterPartials) -> Any:
    """``d/dz U(a, b, z) = -a U(a + 1, b + 1, z)``."""
    a = float64(a)
    return -a * sc.hyperu(a + 1, float64(b) + 1, float64(z))


# ---- the parameters: see _parameter_rules ------------------------------------------------------------
# Where SciPy's own values are accurate enough (measured against mpmath, relative error
# below about 1e-12) for extrapolated differences of them to reach 1e-8:
def _real_argument(*args: Any) -> Any:
    """0F1 and 1F1 at real ``z``. At complex ``z`` SciPy's 1F1 loses digits (``1e-3`` at
    ``hyp1f1(-1.9, -2.87, -21.8 - 49.7j)``)."""
    return np.imag(args[-1]) == 0


def _moderate_parameters(a: Any, b: Any, c: Any, z: Any) -> Any:
    """2F1 with ``|a|, |b|, |c| <= 5``: SciPy's 2F1 has relative errors up to ``1e-10`` with
    parameters up to 10 and ``1e-3`` up to 20 (``hyp2f1(8.5, 18.9, -18.5, -31.0)``)."""
    return np.maximum(np.maximum(np.abs(a), np.abs(b)), np.abs(c)) <= 5


# U: SciPy's hyperu has relative errors of 3e-7 (hyperu(0.325, 0.093, 20.1)): no fallback.
scalar_rule(sc.hyp0f1, parameter(0), hyp0f1_z,
            shared=shared_partials(sc.hyp0f1, hyp0f1_jet, (0,), ("v",), fallback=_real_argument))
scalar_rule(sc.hyp1f1, parameter(0), parameter(1), hyp1f1_z,
            shared=shared_partials(sc.hyp1f1, hyp1f1_jet, (0, 1), ("a", "b"), fallback=_real_argument))
scalar_rule(sc.hyp2f1, parameter(0), parameter(1), parameter(2), hyp2f1_z,
            shared=shared_partials(sc.hyp2f1, hyp2f1_jet, (0, 1, 2), ("a", "b", "c"), fallback=_moderate_parameters))
scalar_rule(sc.hyperu, parameter(0), parameter(1), hyperu_z,
            shared=shared_partials(sc.hyperu, hyperu_jet, (0, 1), ("a", "b"), fallback=False))


# ---- samples: one point per regime ---------------------------------------------------------------------
@sample_inputs(sc.hyp0f1)
def _hyp0f1_samples(rng: np.random.Generator) -> Any:
    b = np.array([0.5, 1.5, 2.25, -0.5])
    yield Sample(b, np.array([0.3, 4.0, -2.0, 1.5]), label="series, both signs of z")
    yield Sample(b.astype(np.float32), np.array([0.3, 4.0, -2.0, 1.5], np.float32), label="float32")
    yield Sample(1.5, np.array([0.5 + 0.5j, -1.0 + 2.0j]), label="complex z")
    yield Sample(2.5, -40.0, label="z << 0 (extrapolated differences in b)")
    yield Sample(np.array([1.5]), np.array([[0.5], [3.0]]), label="broadcast")


@sample_inputs(sc.hyp1f1)
def _hyp1f1_samples(rng: np.random.Generator) -> Any:
    a = np.array([0.5, -2.5, 1.25, 3.0])
    b = np.array([1.5, 2.0, 0.75, 1.0])
    yield Sample(a, b, np.array([0.5, 3.0, -4.0, 12.0]), label="series and Kummer's transformation")
    yield Sample(a.astype(np.float32), b.astype(np.float32), np.array([0.5, 3.0, -4.0, 12.0], np.float32),
                 label="float32")
    yield Sample(-3.0, 1.5, 2.0, label="a a non-positive integer (a polynomial)")
    yield Sample(0.75, 1.5, np.array([1.0 + 1.0j, -2.0 + 0.5j]), label="complex z")
    yield Sample(0.5, 1.5, 60.0, label="large z")


@sample_inputs(sc.hyp2f1)
def _hyp2f1_samples(rng: np.random.Generator) -> Any:
    a = np.array([0.5, 1.25, -0.75, 0.3])
    b = np.array([1.5, 0.5, 2.0, 0.8])
    c = np.array([2.5, 3.0, 1.5, 1.1])
    yield Sample(a, b, c, np.array([0.3, -0.7, 0.8, -3.0]), label="series, Pfaff, 1 - z, 1/(1 - z)")
    yield Sample(a.astype(np.float32), b.astype(np.float32), c.astype(np.float32),
                 np.array([0.3, -0.7, 0.8, -3.0], np.float32), label="float32")
    yield Sample(0.5, 0.25, 2.0, np.array([0.95, -20.0]), label="near z = 1, large -z")
    # at z = 1 (Gauss's sum) finite differences in z would cross the cut: z is an integer (not differentiated)
    yield Sample(0.5, 0.25, 2.0, 1, label="z = 1 (Gauss's sum)")
    yield Sample(-2.0, 1.5, 3.0, np.array([0.5, -4.0]), label="a a non-positive integer (a polynomial)")
    # (not at an integer a - b, where SciPy's complex 2F1 loses digits near by: finite differences suffer)
    yield Sample(0.5, 1.25, 2.5, np.array([0.3 + 0.4j, 2.0 - 1.0j, -3.0 + 2.0j, 0.9 + 0.1j]), label="complex z")


@sample_inputs(sc.hyperu)
def _hyperu_samples(rng: np.random.Generator) -> Any:
    a = np.array([0.5, 1.5, -0.5, 2.0])
    b = np.array([1.5, 0.25, 2.5, -1.5])
    yield Sample(a, b, np.array([0.5, 2.0, 5.0, 1.0]), label="Kummer pair (DLMF 13.2.42)")
    yield Sample(a.astype(np.float32), b.astype(np.float32), np.array([0.5, 2.0, 5.0, 1.0], np.float32),
                 label="float32")
    yield Sample(0.75, 1.25, 60.0, label="large z (asymptotic series)")
    yield Sample(0.5, 2.0, 3.0, label="integer b (extrapolated differences)")
