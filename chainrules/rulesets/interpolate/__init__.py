"""Rules for ``scipy.interpolate``: piecewise polynomials and the cubic interpolators built on them,
B-splines and the functions that make them, ``interp1d``, regular-grid and scattered
interpolation, radial basis functions; one module per family, loaded on first use.

Interpolator objects have structural tangents (``Tangent(CubicSpline, c=..., x=...)``): a rule
for each constructor gives the tangent of the object it builds, a rule for calling an object
(and for its methods) takes it, so ``CubicSpline(x, y)(xq)`` is differentiable end to end. The
conventions are in ``docs/rules/interpolate.md``.
"""
