"""Rules for ``scipy.stats``: distributions (their methods, frozen objects, multivariate ones) and statistics
functions, one module per family, loaded on first use."""
