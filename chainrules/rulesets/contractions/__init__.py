"""Contractions: products (matmul, dot, vdot, inner, outer, vecdot, matvec, vecmat, kron), tensordot,
einsum, trace and cross, convolve and correlate, finite differences (diff, ediff1d, gradient),
trapezoid, interp and polyval."""
