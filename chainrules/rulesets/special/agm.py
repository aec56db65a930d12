"""The arithmetic-geometric mean ``agm(a, b)``, in both arguments.

The maths
---------
The AGM is the common limit of ``a_(n+1) = (a_n + b_n)/2``, ``b_(n+1) = sqrt(a_n b_n)``
(DLMF 19.8.1). The iteration converges quadratically, and so does its derivative: the
rule differentiates the iteration in forward mode (``da_(n+1) = (da_n + db_n)/2``,
``db_(n+1) = (b_n da_n + a_n db_n) / (2 b_(n+1))``) for both seeds ``(1, 0)`` and
``(0, 1)`` until ``a_n = b_n`` to rounding, which gives ``dM/da`` and ``dM/db`` to a few
ulps (no subtraction of nearly equal elliptic integrals as in the closed form through
``K`` and ``E``, DLMF 19.8.5 and 19.4.1). ``M`` is homogeneous of degree 1, so
``a dM/da + b dM/db = M``; at ``a = b``, both partials are ``1/2``. SciPy returns
``-agm(-a, -b)`` for two negative arguments (the partials are those at ``(-a, -b)``),
NaN for arguments of opposite signs, and 0 when one argument is 0 (where ``dM`` is
infinite in that argument: ``M ~ pi b / (2 log(4b/a))``).

Examples
--------
>>> import scipy.special as sc
>>> import chainrules
>>> from chainrules import rrule, unthunk
>>> y, pullback = rrule(sc.agm, 2.0, 2.0)
>>> [float(unthunk(c)) for c in pullback(1.0)[1:]]
[0.5, 0.5]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from chainrules.rulesets.special._precision import upcast
from chainrules_core import Sample, sample_inputs, scalar_rule

__all__ = ["agm_partials"]

_MAX_STEPS = 80  # quadratic convergence: even agm(1, 1e-300) needs 13 steps


def agm_partials(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(dM/da, dM/db)`` of the arithmetic-geometric mean, float64 of the broadcast shape.

    Examples
    --------
    >>> import numpy as np, scipy.special as sc
    >>> from chainrules.rulesets.special.agm import agm_partials
    >>> da, db = agm_partials(1.0, 4.0)
    >>> bool(np.isclose(1.0 * da + 4.0 * db, sc.agm(1.0, 4.0)))  # Euler's relation (degree 1)
    True
    """
    a, b = (np.array(v, dtype=np.float64) for v in np.broadcast_arrays(upcast(a), upcast(b)))
    sign = np.where((a < 0) & (b < 0), -1.0, 1.0)
    x, y = a * sign, b * sign
    dx_da, dx_db = np.ones_like(x), np.zeros_like(x)
    dy_da, dy_db = np.zeros_like(x), np.ones_like(x)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for _ in range(_MAX_STEPS):
            if np.all((x == y) | ~np.isfinite(x) | ~np.isfinite(y)):
                break
            g = np.sqrt(x * y)
            dx_da, dx_db, dy_da, dy_db = ((dx_da + dy_da) / 2, (dx_db + dy_db) / 2,
                                          (y * dx_da + x * dy_da) / (2 * g), (y * dx_db + x * dy_db) / (2 * g))
            x, y = (x + y) / 2, g
        da, db = (dx_da + dy_da) / 2, (dx_db + dy_db) / 2
        bad = (a * b < 0) | np.isnan(a) | np.isnan(b)
    return np.where(bad, np.nan, da), np.where(bad, np.nan, db)


def _agm_shared(a: Any, b: Any, y: Any) -> Any:
    return agm_partials(a, b)


def _agm_a(a: Any, b: Any, y: Any, shared: Any) -> Any:
    return shared[0][()]


def _agm_b(a: Any, b: Any, y: Any, shared: Any) -> Any:
    return shared[1][()]


scalar_rule(sc.agm, _agm_a, _agm_b, shared=_agm_shared)


@sample_inputs(sc.agm)
def _agm_samples() -> Any:
    yield Sample(1.0, 3.0, label="scalars")
    yield Sample(np.array([1.0, 2.0, 0.01, 1e3, -2.0]), np.array([3.0, 2.0, 1.0, 1e-3, -5.0]),
                 label="generic, equal, very unequal, both negative")
    yield Sample(np.array([1.0, 2.0], dtype=np.float32), np.array([3.0, 0.5], dtype=np.float32), label="float32")
