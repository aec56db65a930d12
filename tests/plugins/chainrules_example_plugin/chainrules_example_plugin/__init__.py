"""A package with functions of its own and rules for them (registered through an entry point)."""

import numpy as np


def logcosh(x):
    """``log(cosh(x))``, computed without overflow."""
    x = np.abs(x)
    return x + np.log1p(np.exp(-2 * x)) - np.log(2.0)


def halve(x):
    """``x / 2``."""
    return x / 2
