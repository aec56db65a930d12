"""Every built-in rule, checked by construction.

* every function in the ruleset index declares sample inputs (a missing one fails, named);
* at each sample, ``test_frule`` and ``test_rrule`` pass (``python -m chainrules check``);
* every pullback rejects cotangents that are not cotangents with an error naming the
  function (the policy of :func:`chainrules_core.read_cotangent`).
"""

import numpy as np
import pytest

from chainrules.rulesets._index import RULE_INDEX
from chainrules.rulesets._lazy import resolve
from chainrules.testing.checker import check_function, function_name, functor_call
from chainrules_core import NoTangent, ProjectionError, Tangent, rrule, samples_of
from chainrules_core.rules import _unbind
from chainrules_core.samples import has_samples


def _indexed_functions():
    seen = {}
    for references in RULE_INDEX.values():
        for ref in references:
            try:
                f = resolve(ref)
            except (ImportError, AttributeError):  # another NumPy/SciPy version
                continue
            seen.setdefault(id(f), (ref.replace(":", "."), f))
    return sorted(seen.values(), key=lambda pair: pair[0])


FUNCTIONS = _indexed_functions()


def test_every_function_in_the_index_declares_samples():
    missing = [name for name, f in FUNCTIONS if not has_samples(f)]
    assert not missing, (f"{len(missing)} functions with rules declare no sample inputs (add @sample_inputs next "
                         f"to their rules): {', '.join(missing)}")


@pytest.mark.parametrize("f", [f for _, f in FUNCTIONS], ids=[name for name, _ in FUNCTIONS])
def test_rules_pass_at_their_samples(f):
    results = check_function(f)
    failures = [f"[{r.mode}] at {r.sample}: {r.message}" for r in results if r.status == "failed"]
    assert not failures, f"{function_name(f)}:\n" + "\n".join(failures)


def _is_non_differentiable_declaration(f, args):
    target, leading = f, ()
    unbound = _unbind(f)
    if unbound is not None:
        target, leading = unbound[0], (type(unbound[1]),)
    impl = rrule.find(target, *leading, *(type(a) for a in args))
    return getattr(impl, "__name__", "").startswith(("non_differentiable_", "in_place_"))


BAD_COTANGENTS = [None, "abc", np.ones((7, 5, 3)), object()]


@pytest.mark.parametrize("f", [f for _, f in FUNCTIONS], ids=[name for name, _ in FUNCTIONS])
def test_pullbacks_reject_what_is_not_a_cotangent(f):
    for sample in samples_of(f):
        fn, given = functor_call(f, sample.args)  # a functor's sample: the instance, then its arguments
        args = tuple(getattr(a, "primal", a) if type(a).__name__ == "PrimalAndTangent" else a for a in given)
        if _is_non_differentiable_declaration(fn, args):
            return  # a non-differentiable function ignores its cotangent: every cotangent is NoTangent()
        config = sample.options.get("config")
        result = rrule(config, fn, *args, **sample.fkwargs) if config is not None else rrule(fn, *args,
                                                                                             **sample.fkwargs)
        if result is None:
            continue
        y, pullback = result
        bad = list(BAD_COTANGENTS)
        if isinstance(y, np.ndarray) and y.ndim > 0:
            bad += [1.5, Tangent(tuple, 1.0, 2.0)]
        short = getattr(f, "__name__", "")
        for dy in bad:
            if isinstance(dy, np.ndarray) and isinstance(y, np.ndarray) and y.shape == dy.shape:
                continue
            try:
                out = pullback(dy)
            except ProjectionError as err:
                assert short in str(err), f"{function_name(f)}: the error for a bad cotangent does not name it: {err}"
                continue
            if all(isinstance(c, NoTangent) for c in out):
                continue  # nothing is differentiated at this sample
            pytest.fail(f"{function_name(f)} pullback accepted a {type(dy).__name__} as its output cotangent "
                        f"(output: {type(y).__name__} of shape {np.shape(y) if not isinstance(y, tuple) else '-'})")
        return
