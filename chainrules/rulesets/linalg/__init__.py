"""Linear algebra: numpy.linalg and scipy.linalg (dense, solves, factorizations, matrix functions)."""

from chainrules.rulesets.linalg import (  # noqa: F401  (importing a module registers its rules)
    determinants,
    eig,
    eigh,
    inverses,
    least_squares,
    norms,
    products,
    solves,
    svd,
)
from chainrules.rulesets.linalg._spectral import degeneracy_tolerance  # noqa: F401
