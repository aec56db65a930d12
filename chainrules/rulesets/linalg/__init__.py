"""Linear algebra: numpy.linalg and scipy.linalg (dense, solves, factorizations, matrix functions)."""
