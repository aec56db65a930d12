"""chainrules_core: the thin core of chainrules.

Tangent types, their arithmetic and accumulation, projection (``ProjectTo``), the rule
registries ``frule`` and ``rrule`` with their lookup, hooks and introspection, rule
configurations, and the tools that define rules. It depends on NumPy and multipledispatch
only, and holds no rules for NumPy or SciPy functions (those live in ``chainrules``).
"""

from chainrules_core.tangents import (  # noqa: I001  (tangents first: the rest builds on them)
    AbstractTangent,
    AbstractThunk,
    AbstractZero,
    InplaceableThunk,
    NoTangent,
    NotImplementedTangent,
    Tangent,
    Thunk,
    ZeroTangent,
    backing,
    canonicalize,
    iszero,
    not_implemented,
    thunk,
    unthunk,
)
from chainrules_core.accumulation import add_, is_inplaceable_destination
from chainrules_core.broadcasting import unbroadcast
from chainrules_core.config import (
    HasForwardsMode,
    HasReverseMode,
    NoForwardsMode,
    NoReverseMode,
    RuleConfig,
    frule_via_ad,
    rrule_via_ad,
)
from chainrules_core.projection import (
    ProjectionError,
    ProjectTo,
    Projector,
    check_cotangent_shape,
    cotangent_projector,
)
from chainrules_core.rules import (
    OPTED_OUT,
    AmbiguousRuleWarning,
    FRuleRegistry,
    RRuleRegistry,
    RuleHook,
    RuleHookWarning,
    RuleOverwriteWarning,
    RuleSignature,
    Varargs,
    frule,
    rrule,
)
from chainrules_core.definition_tools import (
    NUMERIC,
    UnsupportedKeywordError,
    non_differentiable,
    opt_out,
    reject_keywords,
    scalar_rule,
)
from chainrules_core.ignore_derivatives import ignore_derivatives
from chainrules_core.lazy import declare_lazy_rules

__version__ = "0.1.0"

__all__ = [
    "NUMERIC",
    "OPTED_OUT",
    "AbstractTangent",
    "AbstractThunk",
    "AbstractZero",
    "AmbiguousRuleWarning",
    "FRuleRegistry",
    "HasForwardsMode",
    "HasReverseMode",
    "InplaceableThunk",
    "NoForwardsMode",
    "NoReverseMode",
    "NoTangent",
    "NotImplementedTangent",
    "ProjectTo",
    "ProjectionError",
    "Projector",
    "RRuleRegistry",
    "RuleConfig",
    "RuleHook",
    "RuleHookWarning",
    "RuleOverwriteWarning",
    "RuleSignature",
    "Tangent",
    "Thunk",
    "UnsupportedKeywordError",
    "Varargs",
    "ZeroTangent",
    "add_",
    "backing",
    "canonicalize",
    "check_cotangent_shape",
    "cotangent_projector",
    "declare_lazy_rules",
    "frule",
    "frule_via_ad",
    "ignore_derivatives",
    "is_inplaceable_destination",
    "iszero",
    "non_differentiable",
    "not_implemented",
    "opt_out",
    "reject_keywords",
    "rrule",
    "rrule_via_ad",
    "scalar_rule",
    "thunk",
    "unbroadcast",
    "unthunk",
]
