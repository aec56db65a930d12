"""Contractions: products (matmul, dot, vdot, inner, outer, vecdot, matvec, vecmat, kron), tensordot,
einsum, trace and cross, convolve and correlate, finite differences (diff, ediff1d, gradient),
trapezoid, interp and polyval."""

from chainrules.rulesets.contractions import (  # noqa: F401
    differences,
    einsum,
    integration,
    interpolation,
    polynomials,
    products,
    signal,
    tensordot,
    trace_cross,
)
