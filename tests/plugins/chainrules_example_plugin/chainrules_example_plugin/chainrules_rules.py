"""Rules for chainrules_example_plugin, registered when this module is imported.

Declared under the entry-point group ``chainrules.rulesets``, so ``import chainrules`` imports it.
It imports only the thin core, never ``chainrules`` itself (which is still importing).
"""

import numpy as np

from chainrules_core import AbstractZero, NoTangent, ProjectTo, ZeroTangent, frule, rrule, unthunk
from chainrules_example_plugin import logcosh


@rrule.register(logcosh, np.ndarray)
def logcosh_rrule(x):
    project_x = ProjectTo(x)

    def logcosh_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NoTangent(), ZeroTangent()
        return NoTangent(), project_x(np.tanh(x) * dy)

    return logcosh(x), logcosh_pullback


@frule.register(logcosh, np.ndarray)
def logcosh_frule(tangents, x):
    _, dx = tangents
    return logcosh(x), np.tanh(x) * dx
