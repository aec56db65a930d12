"""Rules for ``scipy.stats``: the methods of the continuous distributions (this package's ``_continuous``
engine and one module per family of distributions), frozen distributions (:mod:`.frozen`), and the
calling-form machinery they share (:mod:`._distribution_methods`), loaded on first use.

Design
------
* ``scipy.stats.norm.logpdf`` is a bound method: the core treats it as ``rv_continuous.logpdf``
  (the function ``norm_gen`` inherits) with the distribution object first. The rules are
  registered on those functions (``rv_continuous.logpdf``, ``rv_generic.mean``, ...) and chosen
  by the distribution's class; the distribution object's cotangent is ``NoTangent()``.
* Shape parameters, ``loc`` and ``scale`` given **by position** are differentiated; given by
  keyword they are constants (the core's convention: keywords never take part in
  differentiation). ``gamma.logpdf(x, a, 0.0, s)`` differentiates ``a`` and ``s``;
  ``gamma.logpdf(x, a, scale=s)`` only ``a``.
* Frozen distributions (``norm(mu, sigma)``) have the structural tangent
  ``Tangent(rv_continuous_frozen, args=Tangent(tuple, dmu, dsigma))``; their methods' rules are
  the rules of the same call on the distribution (:mod:`.frozen`).
* Each distribution's standardized density and distribution function (``z = (x - loc)/scale``)
  are differentiated once, in their shape parameters through the special-function rules
  (incomplete gamma and beta, Owen's T, Bessel functions); ``loc`` and ``scale`` are handled
  generically, in log space where SciPy's logarithms are finite and its values underflow
  (:mod:`._continuous`).
* The discrete distributions, the multivariate distributions (``multivariate_normal``,
  ``multivariate_t``, ``dirichlet``, ``multinomial``, ``wishart``, ``invwishart``,
  ``matrix_normal``: one module each, their rules registered on the methods of their
  ``*_gen`` classes), the statistics functions (``means``, ``moments``, ``entropies``,
  ``correlation``, ``ranks_and_modes``) and the samplers (``rvs``) have modules of their own;
  a matrix parameter (a covariance, a scale) has a symmetric cotangent (:mod:`._psd`).
"""
