"""Fixtures of the optimize tests: the problems with rules, a coupled system, and the two configs.

Every rule is checked with :class:`~chainrules_core.RulesOnlyConfig` (callables with rules of
their own, from :mod:`chainrules.rulesets.optimize._problems`) and with autograd's config
(callables written with ``autograd.numpy``), against finite differences of the whole solver
call at tight tolerances, and against closed forms where there are some.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from chainrules.rulesets.optimize import _problems
from chainrules.testing import test_frule, test_rrule
from chainrules_core import RulesOnlyConfig


@pytest.fixture(autouse=True, scope="session")
def _problem_rules() -> None:
    _problems.register()


@pytest.fixture
def rules_only() -> RulesOnlyConfig:
    return RulesOnlyConfig()


@pytest.fixture
def autograd_config() -> Any:
    from chainrules.interop.autograd import AutogradConfig

    return AutogradConfig()


@pytest.fixture
def coupled() -> tuple[np.ndarray, np.ndarray]:
    """``(a, b)`` of ``coupled_residual``: ``a`` close to ``2 I``, so the root is unique and ``J`` well conditioned."""
    rng = np.random.default_rng(7)
    return 2.0 * np.eye(3) + 0.3 * rng.standard_normal((3, 3)), rng.standard_normal(3)


def check(f: Any, *args: Any, **options: Any) -> None:
    """``test_rrule`` and ``test_frule`` at the same call (seeded random tangents: the same checks on every run)."""
    options.setdefault("rng", 20261125)
    test_rrule(f, *args, **options)
    test_frule(f, *args, **options)
