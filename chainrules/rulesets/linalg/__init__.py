"""Linear algebra: numpy.linalg and scipy.linalg (dense, solves, factorizations, matrix functions)."""

from chainrules.rulesets.linalg import (  # noqa: F401  (importing a module registers its rules)
    cholesky,
    determinants,
    eig,
    eigh,
    hermitian_matrix_functions,
    hessenberg,
    inverses,
    ldl,
    least_squares,
    lu,
    matrix_equations,
    matrix_exponential,
    matrix_functions,
    norms,
    polar,
    products,
    qr,
    schur,
    solves,
    special_matrices,
    svd,
)
from chainrules.rulesets.linalg._spectral import degeneracy_tolerance  # noqa: F401
