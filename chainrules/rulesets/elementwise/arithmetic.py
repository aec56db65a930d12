"""Arithmetic ufuncs: add, subtract, multiply, divide, ...

Each rule comes from :func:`chainrules_core.scalar_rule`; cotangents are summed back over
broadcast axes and projected onto each input.
"""

import numpy as np

from chainrules_core import scalar_rule

scalar_rule(np.multiply, lambda x, y: (y, x))
