"""Linear algebra: numpy.linalg and scipy.linalg (dense, solves, factorizations, matrix functions)."""

from chainrules.rulesets.linalg import (  # noqa: F401  (importing a module registers its rules)
    determinants,
    inverses,
    least_squares,
    norms,
    products,
    solves,
)
