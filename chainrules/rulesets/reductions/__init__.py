"""Reductions and scans: sum, prod, mean, var, std, max/min, cumsum, cumprod, nan-reductions, median, quantile.

One module per family: :mod:`~chainrules.rulesets.reductions.sums` (sum, nansum, mean,
nanmean, average), :mod:`~chainrules.rulesets.reductions.prod` (prod, nanprod),
:mod:`~chainrules.rulesets.reductions.moments` (var, std, nanvar, nanstd),
:mod:`~chainrules.rulesets.reductions.extrema` (max/amax, min/amin, nanmax, nanmin, ptp),
:mod:`~chainrules.rulesets.reductions.scans` (cumsum, cumprod, cumulative_sum,
cumulative_prod, nancumsum, nancumprod), :mod:`~chainrules.rulesets.reductions.order_statistics`
(median, nanmedian, quantile, nanquantile, percentile, nanpercentile) and
:mod:`~chainrules.rulesets.reductions.covariance` (cov, corrcoef) and
:mod:`~chainrules.rulesets.reductions.counting` (count_nonzero, all, any:
non-differentiable). The ``ndarray`` methods that mirror them (``x.sum()``, ``x.prod()``,
``x.mean()``, ``x.var()``, ``x.std()``, ``x.max()``, ``x.min()``, ``x.cumsum()``,
``x.cumprod()``, ``x.all()``, ``x.any()``) have the same rules.
"""
