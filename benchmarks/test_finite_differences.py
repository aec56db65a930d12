"""Time of one derivative estimate: our finite-difference core against numdifftools.

One group per hard case of ``benchmarks/fd_accuracy.py`` (exp at 30, log and sqrt near 0,
functions rounding like float32, a kink 0.05 away, a vector-valued function); the baseline
of each group is ``default_fdm``, the method the testers use. Each benchmark records the
relative error of its estimate and its number of evaluations in ``extra_info``; the
accuracy table itself is printed by ``python benchmarks/fd_accuracy.py``.

Run: ``python -m pytest benchmarks/test_finite_differences.py --benchmark-only -q``.
"""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

_spec = importlib.util.spec_from_file_location("fd_accuracy", Path(__file__).with_name("fd_accuracy.py"))
assert _spec is not None and _spec.loader is not None
fd_accuracy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fd_accuracy)

CASES = ["sin at 1", "exp at 30", "log at 1e-3", "log at 1e-6", "sqrt at 1e-4", "float32 exp at 3",
         "kink 0.05 away", "vector at 0.7"]


@pytest.mark.parametrize("method", list(fd_accuracy.METHODS))
@pytest.mark.parametrize("case", CASES)
def test_derivative_estimate(benchmark: Any, case: str, method: str) -> None:
    benchmark.group = f"finite differences: {case}"
    if method == "ours: default_fdm":
        benchmark.extra_info["baseline"] = True
    estimate_with = fd_accuracy.METHODS[method]
    f, x, exact = fd_accuracy.CASES[case]
    counted = fd_accuracy.Counted(f)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        estimate = estimate_with(counted, x)
        benchmark.extra_info["relative_error"] = fd_accuracy.relative_error(estimate, exact)
        benchmark.extra_info["evaluations"] = counted.calls
        benchmark(estimate_with, f, x)
