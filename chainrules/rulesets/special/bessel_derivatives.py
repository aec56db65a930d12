"""Derivatives of the Bessel functions in their argument: ``jvp``, ``yvp``, ``ivp``, ``kvp``, ``h1vp``, ``h2vp``.

``jvp(v, z, n)`` is the ``n``-th derivative of ``J_v`` in ``z``; SciPy evaluates it by
DLMF 10.6.7 (10.29.5 for ``I`` and ``K``)::

    J_v^(n)(z) = 2^-n sum_{k=0}^n (-1)^k C(n, k) J_{v-n+2k}(z)        (also Y, H1, H2)
    I_v^(n)(z) = 2^-n sum_{k=0}^n C(n, k) I_{v-n+2k}(z)
    K_v^(n)(z) = (-1)^n 2^-n sum_{k=0}^n C(n, k) K_{v-n+2k}(z)

Its derivative in ``z`` is the next one, ``jvp(v, z, n + 1)``; its derivative in the real
order ``v`` is the same sum of the order derivatives of the terms, each computed as for
``jv`` (:func:`chainrules.rulesets.special.bessel.order_derivative`: the cost is ``n + 1``
order derivatives, and where one of them is ``not_implemented`` so is the sum). ``n`` is a
non-negative integer (SciPy refuses anything else), by position or keyword, and is not
differentiated. Complex ``z`` follows the holomorphic convention.

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import frule
>>> y, dy = frule((None, 0.0, 1.0, None), sc.jvp, 1.0, 2.0, 1)    # d/dz J_1'(z) = J_1''(z)
>>> bool(abs(dy - sc.jvp(1.0, 2.0, 2)) < 1e-15)
True
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._bessel_rules import bessel_rule
from chainrules.rulesets.special.bessel import order_derivative
from chainrules_core import NotImplementedTangent, Sample, sample_inputs

BASES: dict[Any, tuple[Any, float, bool]] = {
    sc.jvp: (sc.jv, -1.0, False), sc.yvp: (sc.yv, -1.0, False), sc.h1vp: (sc.hankel1, -1.0, False),
    sc.h2vp: (sc.hankel2, -1.0, False), sc.ivp: (sc.iv, 1.0, False), sc.kvp: (sc.kv, 1.0, True),
}
"""For each function: the function it differentiates, the sign of the alternating binomial
sum (DLMF 10.6.7: ``-1``; 10.29.5: ``+1``), and whether the sum has the factor ``(-1)^n`` (K)."""


def _no_keywords(f: Any, kwargs: dict[str, Any]) -> None:
    """These are Python functions: a keyword they do not take is SciPy's error to raise."""


def _argument_partial(f: Any) -> Callable[..., Any]:
    def argument_partial(v: Any, z: Any, y: Any, n: Any = 1) -> Any:
        return f(v, z, n + 1)

    argument_partial.__name__ = f"{f.__name__}_argument_partial"
    return argument_partial


def _order_partial(f: Any) -> Callable[..., Any]:
    base, phase, alternating = BASES[f]

    def order_partial(v: Any, z: Any, y: Any, n: Any = 1) -> Any:
        n = int(n)
        total: Any = 0.0
        for k in range(n + 1):
            d = order_derivative(base, np.asarray(v, dtype=np.float64) - n + 2 * k, z)
            if isinstance(d, NotImplementedTangent):
                return d
            total = total + phase ** k * comb(n, k) * d
        return total * ((-1.0) ** n if alternating else 1.0) / 2.0 ** n

    order_partial.__name__ = f"{f.__name__}_order_partial"
    return order_partial


for _f in BASES:
    bessel_rule(_f, [_order_partial(_f), _argument_partial(_f)], extra=(("n", object),), keywords=_no_keywords)


@sample_inputs(*BASES)
def _derivative_samples(rng: np.random.Generator) -> list[Sample]:
    v, z = np.array([0.5, -1.3, 2.0, 7.5]), np.array([1.5, 4.0, 25.0, 3.0])
    return [Sample(1.5, 2.0, label="first derivative, n by default"),
            Sample(v, z, 2, label="second derivative, n by position"),
            Sample(v[:2], z[:2], fkwargs={"n": 3}, label="third derivative, n by keyword"),
            Sample(v[:2], z[:2], 0, label="n = 0: the function itself"),
            Sample(v[:2].astype(np.float32), z[:2].astype(np.float32), label="float32"),
            Sample(np.array([0.5, 1.5]), np.array([1.0 + 0.5j, 2.0 - 0.8j]), label="complex z")]
