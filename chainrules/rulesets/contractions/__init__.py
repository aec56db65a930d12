"""Contractions: matmul, dot, vdot, inner, outer, tensordot, einsum, kron, convolve, diff, interp, ..."""
