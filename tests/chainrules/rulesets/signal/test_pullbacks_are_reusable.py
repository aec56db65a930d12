"""A pullback may be called several times: each call answers for its own cotangent.

A pullback is linear in the output cotangent, so after ``pullback(dy)`` the call
``pullback(2 dy)`` must return twice as much. This catches results cached across calls
(a bug the testers, which call the pullback with one cotangent, cannot see). Checked at the
first sample of every function of the fft and signal rulesets.
"""

from __future__ import annotations

import numpy as np
import pytest

from chainrules import AbstractZero, NotImplementedTangent, Tangent, backing, rrule, unthunk
from chainrules.rulesets._index import RULE_INDEX
from chainrules.rulesets._lazy import resolve
from chainrules.testing import rand_tangent
from chainrules_core import samples_of


def _functions():
    out = {}
    for module, refs in RULE_INDEX.items():
        if module.startswith(("chainrules.rulesets.fft.", "chainrules.rulesets.signal.")):
            for ref in refs:
                out[ref] = resolve(ref)
    return sorted(out.items())


FUNCTIONS = _functions()


def _scaled(dy, k):
    if isinstance(dy, Tangent):
        return Tangent(dy.primal_type, *(_scaled(v, k) for v in backing(dy)))
    if isinstance(dy, AbstractZero):
        return dy
    return k * dy


def _dense(c):
    c = unthunk(c)
    if isinstance(c, Tangent):
        return [_dense(v) for v in backing(c)]
    return c


def _close(a, b):
    if isinstance(a, list):
        return all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, (AbstractZero, NotImplementedTangent)) or a is None:
        return True
    return np.allclose(np.asarray(a, dtype=complex), np.asarray(b, dtype=complex), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("ref", [r for r, _ in FUNCTIONS])
def test_second_call_answers_for_its_own_cotangent(ref):
    f = dict(FUNCTIONS)[ref]
    samples = samples_of(f)
    assert samples, ref
    sample = samples[0]
    args = [getattr(a, "primal", a) if type(a).__name__ == "PrimalAndTangent" else a for a in sample.args]
    result = rrule(f, *args, **sample.fkwargs)
    if result is None:
        pytest.skip("no rule at this sample")
    y, pullback = result
    dy = rand_tangent(y, np.random.default_rng(0))
    once = [_dense(c) for c in pullback(dy)[1:]]
    twice = [_dense(c) for c in pullback(_scaled(dy, 2.0))[1:]]
    for a, b in zip(once, twice):
        if isinstance(a, list):
            assert _close([2 * v if not isinstance(v, (AbstractZero, NotImplementedTangent)) and v is not None
                           else v for v in a], b), ref
        elif not isinstance(a, (AbstractZero, NotImplementedTangent)) and a is not None and not isinstance(
                a, type(unthunk(pullback(dy)[0]))):
            assert _close(2 * np.asarray(a), b), ref
