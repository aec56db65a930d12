"""RuleConfig, its capability traits, rrule_via_ad and frule_via_ad."""

import pytest

from chainrules_core import (
    HasForwardsMode,
    HasReverseMode,
    NoForwardsMode,
    NoReverseMode,
    RuleConfig,
    frule_via_ad,
    rrule_via_ad,
)


class ReverseOnly(RuleConfig, HasReverseMode, NoForwardsMode):
    def rrule_via_ad(self, f, *args, **kwargs):
        return ("reverse", f, args, kwargs)


class ForwardOnly(RuleConfig, HasForwardsMode, NoReverseMode):
    def frule_via_ad(self, tangents, f, *args, **kwargs):
        return ("forward", tangents, f, args, kwargs)


class DeclaresButForgets(RuleConfig, HasReverseMode, HasForwardsMode):
    pass


def g(x):
    return x


def test_a_config_is_a_class_with_traits():
    assert isinstance(ReverseOnly(), RuleConfig)
    assert isinstance(ReverseOnly(), HasReverseMode) and isinstance(ReverseOnly(), NoForwardsMode)
    assert not isinstance(ReverseOnly(), HasForwardsMode)
    assert repr(ForwardOnly()) == "ForwardOnly()"


def test_via_ad_calls_the_configs_own_methods():
    assert rrule_via_ad(ReverseOnly(), g, 1.0, k=2) == ("reverse", g, (1.0,), {"k": 2})
    assert frule_via_ad(ForwardOnly(), (None, 1.0), g, 2.0, k=3) == ("forward", (None, 1.0), g, (2.0,), {"k": 3})


def test_missing_trait_is_a_clear_error():
    with pytest.raises(TypeError, match=r"ForwardOnly has no HasReverseMode trait.*g in reverse mode"):
        rrule_via_ad(ForwardOnly(), g, 1.0)
    with pytest.raises(TypeError, match=r"ReverseOnly has no HasForwardsMode trait.*g in forward mode"):
        frule_via_ad(ReverseOnly(), (None, 1.0), g, 1.0)


def test_declared_trait_without_the_method_is_a_clear_error():
    with pytest.raises(NotImplementedError, match="DeclaresButForgets declares HasReverseMode but does not "
                                                  "implement rrule_via_ad"):
        rrule_via_ad(DeclaresButForgets(), g, 1.0)
    with pytest.raises(NotImplementedError, match="does not implement frule_via_ad"):
        frule_via_ad(DeclaresButForgets(), (None, 1.0), g, 1.0)
