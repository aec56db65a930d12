"""scipy.optimize: derivatives of solvers' answers by the implicit function theorem.

One module per family: :mod:`.roots` (root, fsolve), :mod:`.scalar_roots` (root_scalar,
brentq, brenth, ridder, bisect, toms748, newton), :mod:`.fixed_points` (fixed_point),
:mod:`.minimize` (minimize, minimize_scalar), :mod:`.legacy_minimizers` (fmin, fmin_powell,
fmin_cg, fmin_bfgs, fmin_ncg, fmin_l_bfgs_b, fmin_tnc, fmin_slsqp, fminbound, brent, golden: minimize's
rules at the point they return), :mod:`.bounded_least_squares` (nnls, lsq_linear),
:mod:`.isotonic` (isotonic_regression), :mod:`.least_squares` (least_squares, leastsq,
curve_fit), :mod:`.global_optimizers` (basinhopping, differential_evolution,
dual_annealing, shgo, brute, direct), :mod:`.linear_programs` (linprog, milp), :mod:`.quadratic_assignment` and
:mod:`.non_differentiable` (linear_sum_assignment) and :mod:`.rosenbrock` (the Rosenbrock test
function and its derivatives).
What they share (the linearisation through the config, the linear solves, reading the
cotangent of an ``OptimizeResult``) is in :mod:`._implicit`.

Every rule takes the user's callable and differentiates it through the calling AD's config
(``rrule_via_ad`` / ``frule_via_ad``): the rules are registered with
``config=HasReverseMode`` / ``config=HasForwardsMode``.
"""

from typing import Any

from chainrules.rulesets.optimize._implicit import ImplicitDerivativeError

__all__ = ["ImplicitDerivativeError", "register_gradient"]


def __getattr__(name: str) -> Any:
    if name == "register_gradient":
        from chainrules.rulesets.optimize.minimize import register_gradient

        return register_gradient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
