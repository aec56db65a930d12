"""Benchmarks compare alternatives side by side, in one run, and report ratios.

Convention: every benchmark sets a group (``@pytest.mark.benchmark(group="...")`` or
``benchmark.group = "..."``) and one benchmark per group marks itself the baseline with
``benchmark.extra_info["baseline"] = True`` (a plain call, the primal, a hand-written NumPy
pullback...). At the end of the run a table gives, for every group, each benchmark's median
divided by the baseline's median. The same table is written to ``benchmarks/ratios.txt``.
Optional competitors (JAX, PyTorch) skip themselves when not installed.

Helpers shared by several benchmark modules live in underscore modules next to them (not collected as tests):
``_linalg_harness`` holds the primal/pullback harness of the ``test_linalg_*`` benchmarks. pytest's
``--import-mode=importlib`` does not put this folder on ``sys.path``, so it is put there here, before the
benchmark modules are imported.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.append(_HERE)


def _ratio_lines(benchmarks: list[Any]) -> list[str]:
    groups: dict[str, list[Any]] = {}
    for bench in benchmarks:
        groups.setdefault(bench.group or "(no group)", []).append(bench)
    lines = []
    for group in sorted(groups):
        members = groups[group]
        baseline = next((b for b in members if b.extra_info.get("baseline")), None)
        if baseline is None:
            continue
        base = baseline.stats.median
        lines.append(f"{group}  (baseline: {baseline.name}, median {base * 1e6:.2f} us)")
        for bench in sorted(members, key=lambda b: b.stats.median):
            ratio = bench.stats.median / base
            lines.append(f"    {ratio:9.2f}x  {bench.name}  (median {bench.stats.median * 1e6:.2f} us)")
    return lines


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    lines = _ratio_lines(session.benchmarks)
    if not lines:
        return
    terminalreporter.section("ratios (median / baseline median)")
    for line in lines:
        terminalreporter.write_line(line)
    Path(__file__).with_name("ratios.txt").write_text("\n".join(lines) + "\n")
