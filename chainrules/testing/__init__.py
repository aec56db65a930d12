"""chainrules.testing: check rules against finite differences.

Everything public is importable from here: the finite-difference methods
(``central_fdm``, ``forward_fdm``, ``backward_fdm``, ``extrapolate``), the derivatives
(``grad``, ``jvp``, ``vjp``, ``jacobian``), the testers (``test_frule``, ``test_rrule``,
``test_scalar``), ``PrimalAndTangent``, ``rand_tangent``, ``check_approx``, ``check_adjoint`` (the
frule/rrule adjoint property, no finite differences), ``outcome`` and ``check_same_outcome``
(a fast path against its general path) and the
``hypothesis`` strategies (``chainrules.testing.strategies``, which needs hypothesis).
"""

from typing import Any

from chainrules.testing import structured as _structured  # noqa: F401  (registers structured and sparse types)
from chainrules.testing.adjoint import check_adjoint
from chainrules.testing.approx import check_approx, default_tolerances
from chainrules.testing.checker import CheckResult, check_function, check_rules
from chainrules.testing.derivatives import default_fdm, grad, jacobian, jvp, vjp
from chainrules.testing.equivalence import check_same_outcome, outcome
from chainrules.testing.finite_differences import (
    FiniteDifferenceMethod,
    backward_fdm,
    central_fdm,
    extrapolate,
    forward_fdm,
)
from chainrules.testing.random_tangents import rand_tangent
from chainrules.testing.testers import (
    NotImplementedDerivativeWarning,
    PrimalAndTangent,
    test_frule,
    test_rrule,
    test_scalar,
)
from chainrules.testing.tree import register_tree_node, tree_flatten

__all__ = [
    "CheckResult",
    "FiniteDifferenceMethod",
    "NotImplementedDerivativeWarning",
    "PrimalAndTangent",
    "backward_fdm",
    "central_fdm",
    "check_adjoint",
    "check_approx",
    "check_function",
    "check_rules",
    "check_same_outcome",
    "default_fdm",
    "default_tolerances",
    "extrapolate",
    "forward_fdm",
    "grad",
    "jacobian",
    "jvp",
    "outcome",
    "rand_tangent",
    "register_tree_node",
    "strategies",
    "test_frule",
    "test_rrule",
    "test_scalar",
    "tree_flatten",
    "vjp",
]


def __getattr__(name: str) -> Any:
    if name == "strategies":  # imported on demand: it needs hypothesis
        import importlib

        return importlib.import_module("chainrules.testing.strategies")
    raise AttributeError(f"module 'chainrules.testing' has no attribute {name!r}")
