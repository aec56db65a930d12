"""Fixtures shared by the rule tests of every ruleset.

``adjoint_check(f, *args, fkwargs=None, rng=...)`` is :func:`chainrules.testing.check_adjoint`:
the frule/rrule adjoint property ``<dy, J dx> = sum_i <J^T dy, dx_i>`` at random tangents, with
no finite differences. The property tests of the elementwise, reduction, contraction and
array families (``tests/chainrules/rulesets/*/test_properties.py``) drive it with hypothesis.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from chainrules.testing import check_adjoint


@pytest.fixture(scope="session")
def adjoint_check() -> Callable[..., str]:
    """:func:`chainrules.testing.check_adjoint` (a plain function with no state, so hypothesis may
    call it for every example of a test)."""
    return check_adjoint
