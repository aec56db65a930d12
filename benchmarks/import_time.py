"""How much ``import chainrules`` costs beyond importing what it differentiates.

Compares, in fresh interpreters, ``python -X importtime -c "import chainrules"`` with importing
NumPy and the SciPy modules chainrules covers alone. Only the SciPy modules that ``import
chainrules`` actually imports are counted (read from ``sys.modules`` of a fresh interpreter),
so the baseline is what a user of those modules pays anyway. Each statement runs several
times, alternating, and the medians are compared. Goal (issue 2): at most 1.15.

Bytecode is cached as an installed package would have it (``pip install`` compiles it): the
runs use a private ``PYTHONPYCACHEPREFIX`` and ignore ``PYTHONDONTWRITEBYTECODE``, and one
warm-up run of each statement fills the cache. Without that, an editable checkout under
``PYTHONDONTWRITEBYTECODE=1`` recompiles chainrules on every import while NumPy does not.

Run: ``python benchmarks/import_time.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SCIPY_MODULES = ("scipy.linalg", "scipy.special", "scipy.sparse", "scipy.sparse.linalg", "scipy.fft",
                 "scipy.integrate", "scipy.optimize")
GOAL = 1.15


_PYCACHE = tempfile.mkdtemp(prefix="chainrules-import-time-")


def _fresh(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for name in ("PYTHONPROFILEIMPORTTIME", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, check=True)


def scipy_modules_imported_by_chainrules() -> list[str]:
    """The SciPy modules of SCIPY_MODULES that ``import chainrules`` imports."""
    probe = ("import json, sys, chainrules; "
             f"print(json.dumps([m for m in {list(SCIPY_MODULES)!r} if m in sys.modules]))")
    return list(json.loads(_fresh(["-c", probe]).stdout))


def import_time(statement: str) -> tuple[float, float, dict[str, int]]:
    """One fresh run: (total import time from -X importtime [s], wall time [s], cumulative us by module)."""
    start = time.perf_counter()
    done = _fresh(["-X", "importtime", "-c", statement])
    wall = time.perf_counter() - start
    total_us = 0
    cumulative: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, name = line[len("import time:"):].split("|")
        total_us += int(self_us)
        cumulative[name.strip()] = int(cumulative_us)
    return total_us / 1e6, wall, cumulative


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh interpreters per statement (default 9)")
    options = parser.parse_args(argv)

    covered = scipy_modules_imported_by_chainrules()
    baseline = "; ".join(["import numpy", *(f"import {m}" for m in covered)])
    statements = {"baseline": baseline, "chainrules": "import chainrules"}
    totals: dict[str, list[float]] = {k: [] for k in statements}
    walls: dict[str, list[float]] = {k: [] for k in statements}
    last: dict[str, dict[str, int]] = {}
    for statement in statements.values():  # fill the bytecode and file system caches
        import_time(statement)
    for _ in range(options.runs):
        for name, statement in statements.items():  # alternate, so drift hits both alike
            total, wall, last[name] = import_time(statement)
            totals[name].append(total)
            walls[name].append(wall)

    base, ours = statistics.median(totals["baseline"]), statistics.median(totals["chainrules"])
    base_wall, our_wall = statistics.median(walls["baseline"]), statistics.median(walls["chainrules"])
    ratio = ours / base
    print(f"SciPy modules imported by chainrules: {', '.join(covered) or '(none)'}")
    print(f"baseline:   python -X importtime -c {baseline!r}")
    print(f"chainrules: python -X importtime -c {statements['chainrules']!r}")
    print(f"median of {options.runs} fresh runs each")
    print(f"  -X importtime total: baseline {base * 1e3:8.1f} ms, chainrules {ours * 1e3:8.1f} ms, "
          f"ratio {ratio:.3f} (goal <= {GOAL})")
    print(f"  process wall time:   baseline {base_wall * 1e3:8.1f} ms, chainrules {our_wall * 1e3:8.1f} ms, "
          f"ratio {our_wall / base_wall:.3f}")
    ours_only = {m: us for m, us in last["chainrules"].items()
                 if m.startswith(("chainrules", "multipledispatch")) and m.count(".") <= 2}
    heaviest = sorted(ours_only.items(), key=lambda item: -item[1])[:8]
    if heaviest:
        print("  heaviest chainrules modules (cumulative, last run):")
        for module, us in heaviest:
            print(f"    {us / 1e3:8.1f} ms  {module}")
    extra = sorted(set(last["chainrules"]) - set(last["baseline"]))
    print(f"  modules imported beyond the baseline: {len(extra)}")
    shutil.rmtree(_PYCACHE, ignore_errors=True)
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
