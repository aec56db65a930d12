"""Check every rule at its declared sample inputs: ``check_rules`` and ``python -m chainrules check``.

Every function with rules declares sample inputs next to them
(:func:`chainrules_core.sample_inputs`). :func:`check_rules` runs :func:`test_frule` and
:func:`test_rrule` at each sample of each selected function and returns one
:class:`CheckResult` per (function, sample, mode): ``passed``, ``failed`` (with the
tester's message), ``not implemented`` (a ``not_implemented`` derivative, with its
reason) or ``skipped`` (with the reason: no frule, no samples). A sample that finds no rrule
of a function that has rrules is ``failed``: a sample is a call the rules are declared to
handle. The command line prints a progress bar, the failures and a summary table::

    python -m chainrules check                      # every rule
    python -m chainrules check scipy.special        # the functions of a module
    python -m chainrules check numpy.linalg.cholesky
    python -m chainrules check chainrules.rulesets.linalg
"""

from __future__ import annotations

import dataclasses
import importlib
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import numpy as np

from chainrules.testing.testers import (
    NotImplementedDerivativeWarning,
    _collect_not_implemented,
    _describe,
    test_frule,
    test_rrule,
)
from chainrules_core import Sample, frule, rrule, samples_of
from chainrules_core.rules import _unbind

STATUSES = ("passed", "failed", "not implemented", "skipped")
"""The statuses of a check, in the order the summary prints them."""

_FRULE_OPTIONS = frozenset({"fdm", "rtol", "atol", "config", "frule_f", "rrule_f", "check_rrule_consistency",
                            "check_zero_tangents", "rng", "gauge_invariant"})
_RRULE_OPTIONS = frozenset({"output_tangent", "check_thunked_output_tangent", "fdm", "rtol", "atol", "config",
                            "rrule_f", "frule_f", "check_inplace_add", "check_frule_consistency", "rng",
                            "gauge_invariant"})


@dataclasses.dataclass
class CheckResult:
    """The outcome of checking one rule of one function at one sample.

    Attributes
    ----------
    function : callable
    name : str
        ``module.name`` of the function.
    sample : str
        The sample's label or a description of its arguments.
    mode : str
        ``"frule"``, ``"rrule"`` or ``"-"`` (no sample at all).
    status : str
        One of :data:`STATUSES`.
    message : str
        The failure, the not-implemented reason or the reason for the skip.
    seconds : float
    """

    function: Any
    name: str
    sample: str
    mode: str
    status: str
    message: str = ""
    seconds: float = 0.0


def function_name(f: Any) -> str:
    """``module.name`` of a function with rules (``numpy.linalg.cholesky``, ``scipy.special.jv``).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.testing.checker import function_name
    >>> function_name(np.linalg.cholesky), function_name(np.ndarray.sum)
    ('numpy.linalg.cholesky', 'numpy.ndarray.sum')
    """
    from chainrules.rulesets._lazy import reference

    ref = reference(f)
    if ref is not None:
        return ref.replace(":", ".")
    return _describe(f)


def functor_call(f: Any, args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
    """The callable and the arguments of a sample: for a class with functor rules whose sample starts with an
    instance of it, the call is that instance's (``Sample(scipy.stats.norm, 1.0, 2.0)`` for calling
    ``scipy.stats.norm``, whose rule is registered on its class); else ``f`` and the arguments.

    Examples
    --------
    >>> import scipy.stats as st
    >>> import chainrules
    >>> from scipy.stats._distn_infrastructure import rv_generic
    >>> from chainrules.testing.checker import functor_call
    >>> functor_call(rv_generic, (st.norm, 1.0))[0] is st.norm
    True
    """
    if isinstance(f, type) and args:
        first = getattr(args[0], "primal", args[0]) if type(args[0]).__name__ == "PrimalAndTangent" else args[0]
        if isinstance(first, f) and any(s.functor for r in (rrule, frule) for s in r.signatures(f)):
            return args[0], args[1:]
    return f, args


def _has_rule(registry: Any, f: Any, sample: Sample) -> str:
    """``"yes"`` if a rule of ``registry`` handles the sample's call; ``"no"`` if none does but ``f`` has rules of
    that kind (the sample names a call they do not handle: a mistake); ``"none"`` if ``f`` has none of that kind."""
    f, given = functor_call(f, sample.args)
    args = tuple(getattr(a, "primal", a) if type(a).__name__ == "PrimalAndTangent" else a for a in given)
    target, leading = f, cast("tuple[type, ...]", ())
    unbound = _unbind(f)
    if unbound is not None:
        target, leading = unbound[0], (type(unbound[1]),)
    config = sample.options.get("config")
    found = registry.find(target, *leading, *(type(a) for a in args), config=config)
    if found is not None and callable(found):
        return "yes"
    return "no" if registry.signatures(target) else "none"


def _options(sample: Sample, allowed: frozenset[str]) -> dict[str, Any]:
    return {k: v for k, v in sample.options.items() if k in allowed}


def _run(mode: str, f: Any, sample: Sample, rng: Any) -> tuple[str, str]:
    tester: Callable[..., Any] = test_frule if mode == "frule" else test_rrule
    options = _options(sample, _FRULE_OPTIONS if mode == "frule" else _RRULE_OPTIONS)
    options.setdefault("rng", rng)  # the random tangents: the same whatever ran before
    with _collect_not_implemented() as notes, warnings.catch_warnings():
        warnings.simplefilter("ignore", NotImplementedDerivativeWarning)
        try:
            fn, args = functor_call(f, sample.args)
            tester(fn, *args, fkwargs=sample.fkwargs, **options)
        except AssertionError as err:
            return "failed", str(err)
        except Exception as err:  # a rule or a tester that raises is a failure too, with its type
            return "failed", f"{type(err).__name__}: {err}"
    if notes:
        return "not implemented", "; ".join(notes)
    return "passed", ""


def check_function(f: Any, modes: Sequence[str] = ("frule", "rrule"), seed: int = 0) -> list[CheckResult]:
    """Check the rules of ``f`` at each of its samples.

    Parameters
    ----------
    f : callable
    modes : sequence of ``"frule"``, ``"rrule"``
    seed : int
        Seeds the sample generators (and so the samples) and the testers' random tangents,
        so a function's results do not depend on what was checked before it.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.testing.checker import check_function
    >>> {r.status for r in check_function(np.sin)}
    {'passed'}
    """
    name = function_name(f)
    try:
        samples = samples_of(f, seed=seed)
    except Exception as err:
        return [CheckResult(f, name, "-", "-", "failed", f"the sample generator raised {type(err).__name__}: {err}")]
    if not samples:
        return [CheckResult(f, name, "-", "-", "skipped", "no samples declared")]
    results = []
    for k, sample in enumerate(samples):
        label = sample.describe()
        for mode in modes:
            registry = frule if mode == "frule" else rrule
            has = _has_rule(registry, f, sample)
            if has == "no" and mode == "rrule":  # a sample is a call the rules are declared to handle
                results.append(CheckResult(f, name, label, mode, "failed",
                                           "no rrule for these argument types, though the function has rrules: "
                                           "the sample names a call its rules do not handle"))
                continue
            if has != "yes":
                results.append(CheckResult(f, name, label, mode, "skipped", f"no {mode} for these argument types"))
                continue
            start = time.perf_counter()
            status, message = _run(mode, f, sample, np.random.default_rng([seed, k, mode == "frule"]))
            results.append(CheckResult(f, name, label, mode, status, message, time.perf_counter() - start))
    return results


def _index_references() -> dict[str, list[str]]:
    from chainrules.rulesets._index import RULE_INDEX

    return RULE_INDEX


def select_functions(targets: Iterable[Any] | None = None) -> list[Any]:
    """The functions with rules that ``targets`` name (every one when ``targets`` is empty).

    A target is a function itself, a public module (``"numpy.linalg"``, ``"scipy.special"``: the functions of
    that module), a function (``"numpy.linalg.cholesky"``), or a ruleset module or package
    (``"chainrules.rulesets.linalg"``: the functions whose rules it registers).

    Raises
    ------
    ValueError
        For a target that names nothing with rules.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.testing.checker import select_functions
    >>> select_functions(["numpy.linalg.cholesky"]) == [np.linalg.cholesky]
    True
    """
    from chainrules.rulesets._lazy import resolve

    everything = list(dict.fromkeys([*rrule.functions(), *frule.functions()]))
    targets = [t for t in (targets or []) if t]
    if not targets:
        return everything
    names = {id(f): function_name(f) for f in everything}
    index = _index_references()
    chosen: dict[int, Any] = {}
    for target in targets:
        if not isinstance(target, str):  # a function itself
            chosen[id(target)] = target
            continue
        found = []
        if target.startswith("chainrules"):
            for module, refs in index.items():
                if module == target or module.startswith(target + "."):
                    for ref in refs:
                        try:
                            found.append(resolve(ref))
                        except (ImportError, AttributeError):
                            continue
        if not found:
            found = [f for f in everything if names[id(f)] == target or names[id(f)].startswith(target + ".")]
        if not found:
            module, _, attr = target.rpartition(".")
            try:
                obj = getattr(importlib.import_module(module), attr) if module else None
            except (ImportError, AttributeError):
                obj = None
            if obj is not None and any(obj is f for f in everything):
                found = [obj]
        if not found:
            raise ValueError(f"check: {target!r} names no function with rules (give a module such as numpy.linalg "
                             "or scipy.special, a function such as numpy.linalg.cholesky, or a ruleset module)")
        for f in found:
            chosen[id(f)] = f
    return list(chosen.values())


def check_rules(targets: Iterable[Any] | None = None, modes: Sequence[str] = ("frule", "rrule"), seed: int = 0,
                progress: bool = False) -> list[CheckResult]:
    """Check every rule of the functions ``targets`` names at their samples.

    Parameters
    ----------
    targets : iterable of str or callables, optional
        Functions, or names of modules and functions: see :func:`select_functions`
        (default: every function with rules).
    modes : sequence of ``"frule"``, ``"rrule"``
    seed : int
    progress : bool
        Show a progress bar (``tqdm``) on standard error.

    Returns
    -------
    list of CheckResult

    Examples
    --------
    >>> import chainrules
    >>> from chainrules.testing import check_rules
    >>> results = check_rules(["numpy.sin", "numpy.cos"])
    >>> sorted({r.name for r in results}), {r.status for r in results}
    (['numpy.cos', 'numpy.sin'], {'passed'})
    """
    functions = select_functions(targets)
    functions.sort(key=function_name)
    results: list[CheckResult] = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(functions), unit="function", desc="checking rules", leave=False)
    try:
        for f in functions:
            if bar is not None:
                bar.set_postfix_str(function_name(f)[-40:], refresh=False)
            results.extend(check_function(f, modes, seed))
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    return results


def summary_table(results: Sequence[CheckResult], by: Callable[[CheckResult], str] | None = None) -> str:
    """A plain-text table of the counts of each status, one row per group (default: per top module).

    Examples
    --------
    >>> from chainrules.testing.checker import CheckResult, summary_table
    >>> print(summary_table([CheckResult(None, "numpy.sin", "x", "rrule", "passed")]))
    module  functions  passed  failed  not implemented  skipped
    numpy           1       1       0                0        0
    total           1       1       0                0        0
    """
    if by is None:
        def by(r: CheckResult) -> str:
            parts = r.name.split(".")
            return ".".join(parts[:2]) if parts[0] in ("scipy", "chainrules") else parts[0]

    groups: dict[str, Counter[str]] = {}
    functions: dict[str, set[str]] = {}
    for r in results:
        key = by(r)
        groups.setdefault(key, Counter())[r.status] += 1
        functions.setdefault(key, set()).add(r.name)
    header = ["module", "functions", *STATUSES]
    rows = [[key, str(len(functions[key])), *(str(groups[key][s]) for s in STATUSES)] for key in sorted(groups)]
    total = Counter(r.status for r in results)
    rows.append(["total", str(len({r.name for r in results})), *(str(total[s]) for s in STATUSES)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, prog: str = "python -m chainrules check") -> int:
    """``check [TARGET ...]``: run the checks, print failures, skips and the summary; 1 if any failed."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog=prog, description="Check every rule against finite differences at its "
                                                            "declared sample inputs.")
    parser.add_argument("targets", nargs="*", help="modules, functions or ruleset modules (default: every rule)")
    parser.add_argument("--mode", choices=["frule", "rrule", "both"], default="both")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample generators")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--show", choices=["failed", "not-implemented", "skipped", "all"], nargs="*",
                        default=["failed"], help="which results to list above the summary (default: failed)")
    args = parser.parse_args(argv)
    import chainrules  # noqa: F401  (registers the rules)

    modes = ("frule", "rrule") if args.mode == "both" else (args.mode,)
    try:
        results = check_rules(args.targets, modes, args.seed, progress=not args.no_progress and sys.stderr.isatty())
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    show = {"failed"} if not args.show else {s.replace("-", " ") for s in args.show}
    if "all" in show:
        show = set(STATUSES)
    for r in results:
        if r.status in show:
            message = r.message if len(r.message) < 2000 else r.message[:2000] + " ..."
            print(f"{r.status.upper():15s} {r.name} [{r.mode}] at {r.sample}" + (f"\n    {message}" if message else ""))
    print()
    print(summary_table(results))
    return 1 if any(r.status == "failed" for r in results) else 0
