"""Reductions and scans: sum, prod, mean, var, std, max/min, cumsum, cumprod, nan-reductions, median, quantile."""
