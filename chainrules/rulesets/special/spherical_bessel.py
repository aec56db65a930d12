"""Spherical Bessel functions: ``spherical_jn``, ``spherical_yn``, ``spherical_in``, ``spherical_kn``.

``spherical_jn(n, z, derivative=False)`` returns ``j_n(z)``, or ``j_n'(z)`` with
``derivative=True``; both are differentiated in ``z`` (real or complex, holomorphic
convention). The derivative of ``j_n`` is SciPy's ``derivative=True``; the derivative of
``j_n'`` is ``j_n''``, from the differential equations (DLMF 10.47.1, 10.47.2)::

    z^2 w'' + 2 z w' + (z^2 - n(n+1)) w = 0       (j_n, y_n)
    z^2 w'' + 2 z w' - (z^2 + n(n+1)) w = 0       (i_n, k_n, the modified ones)

so ``j_n'' = -(2/z) j_n' - (1 - n(n+1)/z^2) j_n`` and ``i_n'' = -(2/z) i_n' + (1 +
n(n+1)/z^2) i_n``. At ``z = 0`` these are replaced by their limits (from the series
DLMF 10.53.1): ``j_0'' = -1/3``, ``j_2'' = 2/15``, ``i_0'' = 1/3``, ``i_2'' = 2/15`` and
``0`` for every other ``n`` (``y_n`` and ``k_n`` are infinite there).

The order ``n`` is an integer index (SciPy truncates a float ``n`` silently, so the
function is piecewise constant in it): its cotangent is ``NoTangent()`` for every dtype.
``derivative`` is a flag, by position or keyword.

Examples
--------
>>> import numpy as np, scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule
>>> y, pullback = rrule(sc.spherical_jn, 1, 2.0)
>>> bool(np.isclose(pullback(1.0)[2], sc.spherical_jn(1, 2.0, derivative=True)))
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_rules import bessel_rule
from chainrules_core import Sample, sample_inputs

MODIFIED: dict[Any, bool] = {sc.spherical_jn: False, sc.spherical_yn: False, sc.spherical_in: True,
                             sc.spherical_kn: True}
"""Whether each function solves the modified equation (``i_n``, ``k_n``)."""

_AT_ZERO = {False: {0: -1 / 3, 2: 2 / 15}, True: {0: 1 / 3, 2: 2 / 15}}
"""``w''(0)`` of ``j_n`` and ``i_n`` where it is not zero (by n)."""


def _no_keywords(f: Any, kwargs: dict[str, Any]) -> None:
    """Python functions: a keyword they do not take is SciPy's error to raise."""


def second_derivative(f: Any, n: Any, z: Any, value: Any, slope: Any) -> Any:
    """``w''(z)`` of the spherical Bessel function ``f`` from its value and slope (the ODE).

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special.spherical_bessel import second_derivative
    >>> second_derivative(sc.spherical_jn, np.array([0, 1, 2]), 0.0, sc.spherical_jn([0, 1, 2], 0.0), 0.0)
    array([-0.33333333,  0.        ,  0.13333333])
    """
    modified = MODIFIED[f]
    m = np.trunc(np.asarray(n, dtype=np.float64))
    sign = 1.0 if modified else -1.0
    z = np.asarray(z)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        w2 = -2 / z * slope + (sign + m * (m + 1) / (z * z)) * value
    at_zero = z == 0
    if np.any(at_zero) and f in (sc.spherical_jn, sc.spherical_in):
        limits = np.zeros(np.shape(m))
        for k, limit in _AT_ZERO[modified].items():
            limits = np.where(m == k, limit, limits)
        w2 = np.where(at_zero, limits, w2)
    return w2[()] if isinstance(w2, np.ndarray) else w2


def _argument_partial(f: Any) -> Callable[..., Any]:
    def argument_partial(n: Any, z: Any, y: Any, derivative: Any = False) -> Any:
        if not derivative:
            return f(n, z, derivative=True)
        return second_derivative(f, n, z, f(n, z), y)

    argument_partial.__name__ = f"{f.__name__}_argument_partial"
    return argument_partial


for _f in MODIFIED:
    bessel_rule(_f, [None, _argument_partial(_f)], index=(0,), extra=(("derivative", object),),
                keywords=_no_keywords)


@sample_inputs(*MODIFIED)
def _spherical_samples(rng: np.random.Generator) -> list[Sample]:
    n, z = np.array([0, 1, 2, 5]), np.array([0.3, 1.7, 4.0, 12.0])
    return [Sample(2, 1.5, label="scalars"),
            Sample(n, z, label="orders 0, 1, 2, 5"),
            Sample(n, z, True, label="derivative=True by position"),
            Sample(n[:2], z[:2], fkwargs={"derivative": True}, label="derivative=True by keyword"),
            Sample(n[:2], z[:2].astype(np.float32), label="float32"),
            Sample(np.array([[0], [3]]), np.array([0.8 + 0.4j, 2.0 - 1.0j]), label="complex z, broadcast"),
            Sample(np.array([[0], [3]]), np.array([0.8 + 0.4j, 2.0 - 1.0j]), True, label="complex z, derivative")]
