"""Command line: ``python -m chainrules {demo,list,check,coverage}``.

* ``demo``: differentiate a few NumPy/SciPy functions through their rules and check each
  derivative against finite differences, printing both.
* ``list [NAME]``: every function with rules (or those whose name contains ``NAME``), with
  their signatures.
* ``check [TARGET ...]``: run every rule (or those of a module or function) against finite
  differences at its declared sample inputs, with a progress bar and a summary table.
* ``coverage MODULE``: which public functions of ``numpy``, ``numpy.linalg``,
  ``scipy.special``, ... have frule+rrule, rrule only, are non-differentiable, or are not
  covered.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

import numpy as np


def _demo_cases() -> list[tuple[str, Callable[..., Any], tuple[Any, ...]]]:
    rng = np.random.default_rng(0)
    cases: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
        ("np.sin(x) at x = 0.5", np.sin, (0.5,)),
        ("np.multiply(x, y), x of shape (2, 3) broadcast with y of shape (3,)", np.multiply,
         (rng.standard_normal((2, 3)), rng.standard_normal(3))),
        ("np.var(x), x of shape (4,)", np.var, (rng.standard_normal(4),)),
        ("np.linalg.det(A), A of shape (3, 3)", np.linalg.det, (rng.standard_normal((3, 3)),)),
    ]
    import scipy.linalg

    cases.append(("scipy.linalg.expm(A), A of shape (2, 2)", scipy.linalg.expm, (0.5 * rng.standard_normal((2, 2)),)))
    return cases


def _name(f: Any) -> str:
    module = getattr(f, "__module__", "") or ""
    return f"{module}.{getattr(f, '__name__', f)}".lstrip(".")


def demo() -> int:
    """Run the demo; return a process exit code (0 when every derivative matches)."""
    import chainrules
    from chainrules.testing import check_approx, rand_tangent, vjp

    print(f"chainrules {chainrules.__version__}: derivatives through rules, checked against finite differences\n")
    failures = 0
    rng = np.random.default_rng(1)
    for title, f, args in _demo_cases():
        result = chainrules.rrule(f, *args)
        if result is None:
            print(f"- {title}: no rule registered (skipped)")
            continue
        y, pullback = result
        dy = 1.0 if np.ndim(y) == 0 else rand_tangent(y, rng)
        cotangents = [chainrules.unthunk(c) for c in pullback(dy)[1:]]
        expected = vjp(None, f, dy, *args)
        print(f"- {title}")
        for i, (ct, fd) in enumerate(zip(cotangents, expected)):
            err = float(np.max(np.abs(np.asarray(ct) - np.asarray(fd))))
            try:
                check_approx(ct, fd)
                status = "OK"
            except AssertionError:
                status = "MISMATCH"
                failures += 1
            print(f"    cotangent of argument {i + 1} from the rule: {np.array2string(np.asarray(ct), precision=10)}")
            print(f"    finite differences (central, 5 points):  {np.array2string(np.asarray(fd), precision=10)}")
            print(f"    max |difference| = {err:.2e}  {status}")
    print()
    print("all derivatives match their finite differences" if not failures else f"{failures} mismatches")
    return 1 if failures else 0


def list_rules(pattern: str | None = None) -> int:
    """Print every function with rules and its signatures."""
    import chainrules

    entries = []
    for registry in (chainrules.rrule, chainrules.frule):
        for f in registry.functions():
            for sig in registry.signatures(f):
                entries.append((registry.kind, str(sig)))
    shown = 0
    for kind, text in sorted(entries, key=lambda e: (e[1], e[0])):
        if pattern and pattern not in text:
            continue
        print(f"{kind:5s}  {text}")
        shown += 1
    print(f"\n{shown} rule signatures")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m chainrules`` and of the ``chainrules`` script."""
    parser = argparse.ArgumentParser(prog="python -m chainrules", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="differentiate through rules and compare with finite differences")
    listing = commands.add_parser("list", help="list the registered rules")
    listing.add_argument("pattern", nargs="?", help="only signatures containing this text")
    check = commands.add_parser("check", help="check rules against finite differences at their sample inputs",
                                add_help=False)
    check.add_argument("rest", nargs=argparse.REMAINDER)
    coverage = commands.add_parser("coverage", help="coverage report of a module's public functions")
    coverage.add_argument("module", help="numpy, numpy.linalg, numpy.fft, scipy.special, scipy.linalg, ...")
    index = commands.add_parser("index", help="regenerate (--write) or check (--check) the lazy-loading index")
    index.add_argument("--write", action="store_true")
    index.add_argument("--check", action="store_true")
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "check":  # its own parser: python -m chainrules check --help
        from chainrules.testing.checker import main as check_main

        return check_main(argv[1:], prog=f"{parser.prog} check")
    args = parser.parse_args(argv)
    if args.command == "index":
        from chainrules.rulesets._lazy import main as index_main

        return index_main(["--write"] * args.write + ["--check"] * args.check)
    if args.command == "demo":
        return demo()
    if args.command == "list":
        return list_rules(args.pattern)
    from chainrules.coverage import print_coverage

    return print_coverage(args.module)


if __name__ == "__main__":
    sys.exit(main())
