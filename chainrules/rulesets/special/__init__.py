"""Rules for ``scipy.special``, one module per family of functions (gamma and beta, incomplete
gamma and beta, error functions, Bessel functions, ...), loaded on first use."""
