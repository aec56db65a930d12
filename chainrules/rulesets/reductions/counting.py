"""Counting and logical reductions, declared non-differentiable.

``np.count_nonzero`` returns an integer count, and ``np.all``/``np.any`` (and the methods
``ndarray.all``/``ndarray.any``) return booleans: their outputs have no tangent space, so
the frules return ``NoTangent()`` and the pullbacks ``NoTangent()`` for every argument.

Examples
--------
>>> import numpy as np
>>> from chainrules import rrule
>>> y, pb = rrule(np.count_nonzero, np.array([0.0, 2.0, 3.0]))
>>> int(y), pb(None)
(2, (NoTangent(), NoTangent()))
"""

from __future__ import annotations

import numpy as np

from chainrules_core import Sample, non_differentiable, sample_inputs

for _f in (np.count_nonzero, np.all, np.any, np.ndarray.all, np.ndarray.any):
    non_differentiable(_f)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(np.count_nonzero, np.all, np.any)
def _counting_samples() -> list[Sample]:
    x = np.array([[0.0, 1.5, -2.0], [0.0, 0.0, 3.0]])
    return [Sample(x), Sample(x, 1, label="axis by position"), Sample(x, fkwargs={"axis": 0}, label="axis by keyword")]


@sample_inputs(np.ndarray.all, np.ndarray.any)
def _method_samples() -> list[Sample]:
    return [Sample(np.array([[0.0, 1.5], [2.0, 3.0]])), Sample(np.array([[0.0, 1.5], [2.0, 3.0]]), 0, label="axis")]
