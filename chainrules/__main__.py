"""The command line: ``chainrules`` (or ``python -m chainrules``) ``{demo,list,check,coverage}``.

* ``demo``: differentiate a few NumPy/SciPy functions through their rules and check each
  derivative against finite differences, printing both.
* ``list [TEXT]``: every function with rules (or those whose name contains ``TEXT``),
  with the arguments each of its rules accepts.
* ``check [TARGET ...]``: run every rule (or those of a module or function) against finite
  differences at its declared sample inputs, with a progress bar and a summary table
  (:mod:`chainrules.testing.checker`).
* ``coverage MODULE``: which public functions of ``numpy``, ``numpy.linalg``,
  ``scipy.special``, ... have rules, and of which kind (:mod:`chainrules.coverage`).
* ``--version``.

Maintainers also have ``index [--write | --check]``, which regenerates (or checks) the
generated index of the built-in rulesets (:mod:`chainrules.rulesets._lazy`); it is left
out of the users' help.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

COMMANDS = {
    "demo": "differentiate a few NumPy/SciPy functions through their rules and compare with finite differences",
    "list": "list the functions with rules and the arguments each rule accepts",
    "check": "check rules against finite differences at their sample inputs",
    "coverage": "which public functions of a module (numpy, numpy.linalg, scipy.special, ...) have rules",
}
"""The users' subcommands and their one-line help, in the order ``--help`` lists them."""

MAINTAINER_COMMANDS = {
    "index": "regenerate (--write) or check (--check) the index of the built-in rulesets",
}
"""Subcommands for maintainers of chainrules itself: they work, but ``--help`` does not list them."""


def program_name(argv0: str | None = None) -> str:
    """How the command was run: ``python -m chainrules`` or the script's name (``chainrules``).

    Examples
    --------
    >>> from chainrules.__main__ import program_name
    >>> program_name("/usr/lib/python3/site-packages/chainrules/__main__.py")
    'python -m chainrules'
    >>> program_name("/home/me/.venv/bin/chainrules")
    'chainrules'
    """
    argv0 = sys.argv[0] if argv0 is None else argv0
    base = os.path.basename(argv0 or "")
    if not base or base in ("__main__.py", "-m", "-c") or base.startswith("python"):
        return "python -m chainrules"
    return os.path.splitext(base)[0] if base.endswith((".py", ".exe")) else base


# ---- demo ---------------------------------------------------------------------------------------------
def _demo_cases() -> list[tuple[str, Callable[..., Any], tuple[Any, ...], tuple[str, ...]]]:
    import scipy.linalg

    rng = np.random.default_rng(0)
    return [
        ("np.sin(x) at x = 0.5", np.sin, (0.5,), ("x",)),
        ("np.multiply(x, y), x of shape (2, 3) broadcast with y of shape (3,)", np.multiply,
         (rng.standard_normal((2, 3)), rng.standard_normal(3)), ("x", "y")),
        ("np.var(x), x of shape (4,)", np.var, (rng.standard_normal(4),), ("x",)),
        ("np.linalg.det(A), A of shape (3, 3)", np.linalg.det, (rng.standard_normal((3, 3)),), ("A",)),
        ("scipy.linalg.expm(A), A of shape (2, 2)", scipy.linalg.expm, (0.5 * rng.standard_normal((2, 2)),), ("A",)),
    ]


def _labelled_array(label: str, value: Any) -> str:
    """``label`` followed by ``value``, its continuation lines aligned under its first one."""
    return label + np.array2string(np.asarray(value), precision=10, prefix=" " * len(label), max_line_width=80)


def demo() -> int:
    """Run the demo; return a process exit code (0 when every derivative matches)."""
    import chainrules
    from chainrules.testing import check_approx, rand_tangent, vjp

    print(f"chainrules {chainrules.__version__}: derivatives through rules, checked against finite differences\n")
    failures = 0
    rng = np.random.default_rng(1)
    rule_label = "      rule:                "
    fd_label = "      finite differences:  "
    for title, f, args, names in _demo_cases():
        result = chainrules.rrule(f, *args)
        if result is None:
            print(f"- {title}: no rule registered (skipped)")
            continue
        y, pullback = result
        dy = 1.0 if np.ndim(y) == 0 else rand_tangent(y, rng)
        cotangents = [chainrules.unthunk(c) for c in pullback(dy)[1:]]
        expected = vjp(None, f, dy, *args)
        print(f"- {title}")
        for name, ct, fd in zip(names, cotangents, expected):
            err = float(np.max(np.abs(np.asarray(ct) - np.asarray(fd))))
            try:
                check_approx(ct, fd)
                status = "OK"
            except AssertionError:
                status = "MISMATCH"
                failures += 1
            print(f"    cotangent of {name}")
            print(_labelled_array(rule_label, ct))
            print(_labelled_array(fd_label, fd))
            print(f"      max |difference| = {err:.2e}  {status}")
    print()
    print("finite differences: central, 5 points")
    print("all derivatives match their finite differences" if not failures else f"{failures} mismatches")
    return 1 if failures else 0


# ---- list ---------------------------------------------------------------------------------------------
_KIND_NOTES = {"non-differentiable": "  [non-differentiable]", "in-place": "  [in place: raises]",
               "error": "  [raises]"}

_MODULES_WITHOUT_RULES = ("numpy.fft", "scipy.fft", "scipy.integrate", "scipy.optimize", "scipy.interpolate",
                          "scipy.signal", "scipy.stats", "scipy.ndimage", "scipy.spatial", "scipy.special")
"""Modules that may have no rules yet: ``list`` says so when a search names one of them."""


def list_rules(pattern: str | None = None, prog: str = "python -m chainrules") -> int:
    """Print every function with rules (or those whose name contains ``pattern``) and its signatures."""
    from chainrules.catalogue import functions_with_rules, public_module, signature_reports
    from chainrules.catalogue import public_name as name_of

    functions = sorted(((name_of(f), f) for f in functions_with_rules()), key=lambda p: p[0])
    needle = (pattern or "").lower()
    shown = signatures = 0
    for name, f in functions:
        if needle and needle not in name.lower():
            continue
        shown += 1
        for report in signature_reports(f):
            signatures += 1
            modes = " ".join(report.modes)
            note = _KIND_NOTES.get(report.kind, "")
            if report.config:
                note += f"  [config: {report.config}]"
            print(f"{modes:12s} {name}({report.text}){note}")
    if shown:
        print(f"\n{shown} functions, {signatures} signatures")
        return 0
    modules = Counter(public_module(name) for name, _ in functions)
    print(f"No function with rules has a name containing {pattern!r}.")
    for module in _MODULES_WITHOUT_RULES:
        if needle in module.lower() and modules.get(module, 0) == 0:
            print(f"{module} has no rules yet: `{prog} coverage {module}` lists its functions.")
    listed = ", ".join(f"{m} ({n})" for m, n in sorted(modules.items(), key=lambda p: (-p[1], p[0])))
    print(f"Functions with rules, by module: {listed}.")
    print(f"`{prog} list` lists them all; `{prog} list linalg` those whose name contains 'linalg'.")
    return 1


# ---- the parser ---------------------------------------------------------------------------------------
def build_parser(prog: str = "python -m chainrules") -> argparse.ArgumentParser:
    """The argument parser of the command line (``check`` parses its own options)."""
    import chainrules

    parser = argparse.ArgumentParser(
        prog=prog,
        description="Differentiation rules (frule/rrule) for NumPy and SciPy: try them, list them, check them "
                    "against finite differences, and see which functions of a module have them.",
        epilog=f"Run `{prog} COMMAND --help` for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"chainrules {chainrules.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, title="commands",
                                     metavar="{" + ",".join(COMMANDS) + "}")
    commands.add_parser("demo", help=COMMANDS["demo"], description=COMMANDS["demo"].capitalize() + ".")
    listing = commands.add_parser("list", help=COMMANDS["list"], description=COMMANDS["list"].capitalize() + ".")
    listing.add_argument("pattern", nargs="?", metavar="TEXT",
                         help="only the functions whose name contains TEXT (numpy.linalg, sin, Generator...)")
    commands.add_parser("check", help=COMMANDS["check"], add_help=False)  # parsed by chainrules.testing.checker
    coverage = commands.add_parser("coverage", help=COMMANDS["coverage"],
                                   description=COMMANDS["coverage"].capitalize() + ".")
    coverage.add_argument("module", help="a module (numpy, numpy.linalg, numpy.fft, numpy.random, scipy.linalg, "
                                         "scipy.special, ...) or a class (numpy.ndarray, numpy.random.Generator)")
    index = commands.add_parser("index", description=MAINTAINER_COMMANDS["index"].capitalize() + ".")
    index.add_argument("--write", action="store_true", help="regenerate chainrules/rulesets/_index.py")
    index.add_argument("--check", action="store_true", help="exit 1 if chainrules/rulesets/_index.py is out of date")
    return parser


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Entry point of ``python -m chainrules`` and of the ``chainrules`` script.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).
    prog : str, optional
        The program's name in messages (default: how it was run, see :func:`program_name`).

    Returns
    -------
    int
        The exit code: 0 on success, 1 when a check or the demo fails or ``list`` finds
        nothing, 2 for a usage error.
    """
    prog = program_name() if prog is None else prog
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _dispatch(argv, prog)
    except BrokenPipeError:  # the output was piped into a program that stopped reading (`| head`)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that flushing at exit does not raise again
        return 1


def _dispatch(argv: list[str], prog: str) -> int:
    parser = build_parser(prog)
    if argv and argv[0] == "check":  # its own parser: chainrules check --help
        from chainrules.testing.checker import main as check_main

        return check_main(argv[1:], prog=f"{prog} check")
    args = parser.parse_args(argv)
    if args.command == "index":
        from chainrules.rulesets._lazy import main as index_main

        return index_main(["--write"] * args.write + ["--check"] * args.check)
    if args.command == "demo":
        return demo()
    if args.command == "list":
        return list_rules(args.pattern, prog)
    from chainrules.coverage import UnknownModuleError, print_coverage

    try:
        return print_coverage(args.module)
    except UnknownModuleError as err:
        print(f"{prog} coverage: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
