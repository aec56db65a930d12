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
    NoRuleError,
    RuleConfig,
    RulesOnlyConfig,
    frule_via_ad,
    rrule_via_ad,
)
from chainrules_core.cotangents import differentiable, passes_through, read_cotangent, read_cotangents
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
from chainrules_core.samples import Sample, functions_with_samples, sample_inputs, samples_of

__version__ = "0.1.0"
"""The version of the distribution (``chainrules`` and ``chainrules_core``): the one place it is written;
``pyproject.toml`` reads it from here."""

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
    "NoRuleError",
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
    "RulesOnlyConfig",
    "Sample",
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
    "differentiable",
    "frule",
    "frule_via_ad",
    "functions_with_samples",
    "ignore_derivatives",
    "is_inplaceable_destination",
    "iszero",
    "non_differentiable",
    "not_implemented",
    "opt_out",
    "passes_through",
    "read_cotangent",
    "read_cotangents",
    "reject_keywords",
    "rrule",
    "rrule_via_ad",
    "sample_inputs",
    "samples_of",
    "scalar_rule",
    "thunk",
    "unbroadcast",
    "unthunk",
]
