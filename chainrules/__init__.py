"""chainrules: differentiation rules for NumPy and SciPy.

``import chainrules`` registers every built-in ruleset (``chainrules.rulesets``), then
loads the third-party rule packages declared under the entry-point group
``chainrules.rulesets`` (unless ``CHAINRULES_NO_PLUGINS=1``). The whole core API of
:mod:`chainrules_core` is re-exported here.

Examples
--------
>>> import numpy as np
>>> import chainrules
>>> y, pullback = chainrules.rrule(np.sin, 0.5)
>>> df, dx = pullback(1.0)
>>> bool(np.isclose(dx, np.cos(0.5)))
True
"""

from chainrules import rulesets  # noqa: F401  (importing registers every built-in rule)
from chainrules._plugins import (
    DISABLE_VARIABLE,
    PLUGIN_GROUP,
    PluginLoadWarning,
    load_plugins,
    loaded_plugins,
    plugins_disabled,
)
from chainrules_core import (
    NUMERIC,
    OPTED_OUT,
    AbstractTangent,
    AbstractThunk,
    AbstractZero,
    AmbiguousRuleWarning,
    HasForwardsMode,
    HasReverseMode,
    InplaceableThunk,
    NoForwardsMode,
    NoReverseMode,
    NoRuleError,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    Projector,
    ProjectTo,
    RuleConfig,
    RuleHook,
    RuleHookWarning,
    RuleOverwriteWarning,
    RuleSignature,
    RulesOnlyConfig,
    Sample,
    Tangent,
    Thunk,
    UnsupportedKeywordError,
    Varargs,
    ZeroTangent,
    add_,
    backing,
    canonicalize,
    check_cotangent_shape,
    cotangent_projector,
    differentiable,
    frule,
    frule_via_ad,
    functions_with_samples,
    ignore_derivatives,
    is_inplaceable_destination,
    iszero,
    non_differentiable,
    not_implemented,
    opt_out,
    passes_through,
    read_cotangent,
    read_cotangents,
    reject_keywords,
    rrule,
    rrule_via_ad,
    sample_inputs,
    samples_of,
    scalar_rule,
    thunk,
    unbroadcast,
    unthunk,
)
from chainrules_core import __version__ as _core_version

__version__ = _core_version  # one version for the distribution, kept in chainrules_core

if not plugins_disabled():
    load_plugins()

__all__ = [
    "samples_of",
    "sample_inputs",
    "read_cotangents",
    "read_cotangent",
    "passes_through",
    "functions_with_samples",
    "differentiable",
    "Sample",
    "RulesOnlyConfig",
    "NoRuleError",
    "DISABLE_VARIABLE",
    "NUMERIC",
    "OPTED_OUT",
    "PLUGIN_GROUP",
    "AbstractTangent",
    "AbstractThunk",
    "AbstractZero",
    "AmbiguousRuleWarning",
    "HasForwardsMode",
    "HasReverseMode",
    "InplaceableThunk",
    "NoForwardsMode",
    "NoReverseMode",
    "NoTangent",
    "NotImplementedTangent",
    "PluginLoadWarning",
    "ProjectTo",
    "ProjectionError",
    "Projector",
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
    "frule",
    "frule_via_ad",
    "ignore_derivatives",
    "is_inplaceable_destination",
    "iszero",
    "load_plugins",
    "loaded_plugins",
    "non_differentiable",
    "not_implemented",
    "opt_out",
    "plugins_disabled",
    "reject_keywords",
    "rrule",
    "rrule_via_ad",
    "scalar_rule",
    "thunk",
    "unbroadcast",
    "unthunk",
]
