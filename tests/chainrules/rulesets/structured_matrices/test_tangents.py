"""How the rules for structured and sparse matrices read their output cotangents (``_tangents.read_output``).

``tests/chainrules/test_every_rule.py`` sends bad cotangents to the first sample of every
function; for functions shared with other rulesets (``np.sum``, ``operator.add``...) that
sample may be theirs. Here every sample whose pullback is one of this package's gets them.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import chainrules  # noqa: F401  (registers the rules)
from chainrules.rulesets._index import RULE_INDEX
from chainrules.rulesets._lazy import resolve
from chainrules.rulesets.structured_matrices._tangents import read_output
from chainrules.structured import Diagonal, StructuredMatrix, Symmetric
from chainrules_core import NoTangent, ProjectionError, Tangent, Thunk, ZeroTangent, not_implemented, rrule, samples_of
from chainrules_core.rules import _unbind


def _functions():
    seen = {}
    for module, references in RULE_INDEX.items():
        if ".structured_matrices." in module:
            for ref in references:
                seen.setdefault(ref, resolve(ref))
    return sorted(seen.items())


def _rule_of(f, args):
    unbound = _unbind(f)
    target, leading = (unbound[0], (type(unbound[1]),)) if unbound is not None else (f, ())
    return rrule.find(target, *leading, *(type(a) for a in args))


def _structured(x):
    return isinstance(x, StructuredMatrix) or sp.issparse(x)


FUNCTIONS = _functions()
BAD = [None, "abc", object(), np.ones((7, 5, 3))]


@pytest.mark.parametrize(("name", "f"), FUNCTIONS, ids=[name for name, _ in FUNCTIONS])
def test_structured_pullbacks_reject_what_is_not_a_cotangent(name, f):
    checked = 0
    for sample in samples_of(f):
        args = tuple(getattr(a, "primal", a) for a in sample.args)
        result = rrule(f, *args, **sample.fkwargs)
        if result is None:
            continue
        y, pullback = result
        rule = _rule_of(f, args)
        if rule.__name__ == "non_differentiable_rrule":  # declared non-differentiable: reads no cotangent
            assert all(d == NoTangent() for d in pullback(None)), name
            checked += 1
            continue
        if not rule.__module__.startswith("chainrules.rulesets.structured_matrices"):
            continue  # another ruleset's rule of a shared function
        array_like = (isinstance(y, np.ndarray) and y.ndim > 0) or _structured(y)
        bad = list(BAD) + ([1.5, Tangent(tuple, 1.0, 2.0)] if array_like else [])
        for dy in bad:
            with pytest.raises(ProjectionError, match="pullback: output cotangent"):
                pullback(dy)
                pytest.fail(f"{name} at {sample.describe()}: the pullback accepted a {type(dy).__name__}")
        checked += 1
    assert checked, f"{name}: no sample reaches a rule of this package"


def test_read_output_accepts_the_cotangents_of_a_structured_output():
    y = Diagonal(np.array([1.0, 2.0]))
    assert read_output(ZeroTangent(), y, "f") == ZeroTangent()
    missing = not_implemented("reason")
    assert read_output(missing, y, "f") is missing
    assert read_output(np.eye(2), y, "f") == Diagonal(np.ones(2))
    assert read_output(Thunk(lambda: Symmetric(np.ones((2, 2)))), y, "f") == Diagonal(np.ones(2))
    assert read_output(Tangent(Diagonal, d=np.array([3.0, 4.0])), y, "f") == Diagonal(np.array([3.0, 4.0]))
    assert read_output(NoTangent(), y, "f") == NoTangent()


def test_read_output_names_the_function_in_every_error():
    y = Diagonal(np.array([1.0, 2.0]))
    with pytest.raises(ProjectionError, match=r"^mod\.f pullback: output cotangent has shape \(3, 3\)"):
        read_output(np.eye(3), y, "mod.f")
    with pytest.raises(ProjectionError, match=r"^mod\.f pullback: output cotangent: ProjectTo\(Diagonal"):
        read_output(Diagonal(np.ones(3)), y, "mod.f")
    with pytest.raises(ProjectionError, match=r"^mod\.f pullback: output cotangent: .*Tangent\(Symmetric\)"):
        read_output(Tangent(Symmetric, data=np.eye(2)), y, "mod.f")
    with pytest.raises(ProjectionError, match=r"^mod\.f pullback: output cotangent is a str"):
        read_output("abc", y, "mod.f")
    dense = np.ones((2, 2))
    with pytest.raises(ProjectionError, match=r"^mod\.f pullback: output cotangent"):
        read_output(Diagonal(np.ones(2)), dense, "mod.f")   # an ndarray output takes ndarray cotangents


def test_read_output_of_a_sparse_output():
    y = sp.csr_array(np.array([[1.0, 0.0], [2.0, 3.0]]))
    assert np.array_equal(read_output(np.ones((2, 2)), y, "f").toarray(), np.array([[1.0, 0.0], [1.0, 1.0]]))
    assert read_output(sp.csr_array(np.ones((2, 2))), y, "f").nnz == 3
    with pytest.raises(ProjectionError, match=r"^f pullback: output cotangent: "):
        read_output(sp.csr_array(np.ones((3, 3))), y, "f")
