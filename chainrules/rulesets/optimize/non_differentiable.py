"""Optimisers whose answers have no derivative: ``scipy.optimize.linear_sum_assignment``.

``linear_sum_assignment(cost_matrix, maximize=False)`` returns the row and column indices of
an optimal assignment: integers, piecewise constant in the costs, with no tangent space.
Declared with :func:`~chainrules_core.non_differentiable` (every cotangent ``NoTangent()``).
The optimal total ``cost_matrix[row_ind, col_ind].sum()``, computed from those indices, is
differentiable by the indexing rules (the envelope theorem: its gradient is the assignment's
0/1 matrix).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import scipy.optimize

from chainrules_core import Sample, non_differentiable, sample_inputs

__all__: list[str] = []

non_differentiable(scipy.optimize.linear_sum_assignment)


@sample_inputs(scipy.optimize.linear_sum_assignment)
def _linear_sum_assignment_samples(rng: np.random.Generator) -> Iterator[Sample]:
    yield Sample(rng.random((3, 4)))
    yield Sample(rng.random((3, 3)), True, label="maximize by position")
