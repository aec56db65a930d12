"""Accuracy and cost of our finite-difference core against numdifftools, on hard cases.

Run: ``python benchmarks/fd_accuracy.py``. For every case (a function, a point and its
exact derivative, known analytically) and every method, the table gives the relative error
of the estimate, the number of function evaluations and the median time of one estimate.
``benchmarks/test_finite_differences.py`` times the same cases with pytest-benchmark.

Methods:

* ``ours: default_fdm`` is what the testers use: 5-point central, adaptive step, every
  evaluation within 1e-2 of x (``max_range``), steps halved where f is not finite;
* ``ours: central_fdm(5, 1)`` the same without ``max_range``;
* ``ours: extrapolate`` Richardson extrapolation of the 3-point central method;
* ``numdifftools`` ``nd.Derivative(f)`` (central, Richardson over a step sequence), its
  4th-order central variant, and its forward method (which a user could pick near the
  left edge of a domain).
"""

from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.testing import central_fdm, default_fdm, extrapolate

try:
    import numdifftools as nd
except ImportError:  # pragma: no cover - the comparison then shows our methods only
    nd = None


def _kink(t: float) -> float:
    return abs(t - 0.05) + t ** 2  # a kink 0.05 to the right of 0


def _vector(t: float) -> np.ndarray:
    return np.array([np.sin(t), np.exp(t), t ** 3])


def _sin32(t: float) -> Any:
    return np.sin(np.float32(t))  # a function that rounds like float32


def _exp32(t: float) -> Any:
    return np.exp(np.float32(t))


# name -> (f, x, exact derivative)
CASES: dict[str, tuple[Callable[[float], Any], float, Any]] = {
    "sin at 1": (np.sin, 1.0, np.cos(1.0)),
    "exp at 30": (np.exp, 30.0, np.exp(30.0)),
    "log at 1e-3": (np.log, 1e-3, 1e3),
    "log at 1e-6": (np.log, 1e-6, 1e6),
    "sqrt at 1e-4": (np.sqrt, 1e-4, 0.5 / np.sqrt(1e-4)),
    "sqrt at 1e-8": (np.sqrt, 1e-8, 0.5 / np.sqrt(1e-8)),
    "float32 sin at 0.7": (_sin32, 0.7, np.cos(0.7)),
    "float32 exp at 3": (_exp32, 3.0, np.exp(3.0)),
    "kink 0.05 away": (_kink, 0.0, -1.0),
    "vector at 0.7": (_vector, 0.7, np.array([np.cos(0.7), np.exp(0.7), 3 * 0.7 ** 2])),
}


def _ours_default(f: Callable[[float], Any], x: float) -> Any:
    return default_fdm()(f, x)


def _ours_unbounded(f: Callable[[float], Any], x: float) -> Any:
    return central_fdm(5, 1)(f, x)


def _ours_extrapolate(f: Callable[[float], Any], x: float) -> Any:
    return extrapolate(central_fdm(3, 1, adapt=0), f, x)[0]


METHODS: dict[str, Callable[[Callable[[float], Any], float], Any]] = {
    "ours: default_fdm": _ours_default,
    "ours: central_fdm(5, 1)": _ours_unbounded,
    "ours: extrapolate": _ours_extrapolate,
}

if nd is not None:
    METHODS.update({
        "numdifftools: Derivative": lambda f, x: nd.Derivative(f)(x),
        "numdifftools: central order 4": lambda f, x: nd.Derivative(f, method="central", order=4)(x),
        "numdifftools: forward": lambda f, x: nd.Derivative(f, method="forward")(x),
    })


class Counted:
    """Counts the evaluations of ``f``."""

    def __init__(self, f: Callable[[float], Any]) -> None:
        self.f, self.calls = f, 0

    def __call__(self, t: Any) -> Any:
        self.calls += 1
        return self.f(t)


def relative_error(estimate: Any, exact: Any) -> float:
    with np.errstate(all="ignore"):
        err = np.max(np.abs(np.asarray(estimate, dtype=np.float64) - exact) / np.abs(exact))
    return float(err) if np.isfinite(err) else float("nan")


def measure(method: Callable[..., Any], case: str, repeat: int = 15) -> tuple[float, int, float]:
    """(relative error, evaluations, median seconds) of one method on one case."""
    f, x, exact = CASES[case]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        counted = Counted(f)
        estimate = method(counted, x)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            method(f, x)
            times.append(time.perf_counter() - start)
    return relative_error(estimate, exact), counted.calls, statistics.median(times)


def accuracy_table() -> str:
    width = max(map(len, METHODS)) + 2
    lines = [f"{'case':20s} {'method':{width}s} {'rel. error':>10s} {'evals':>6s} {'median':>10s}"]
    for case in CASES:
        for name, method in METHODS.items():
            err, calls, seconds = measure(method, case)
            lines.append(f"{case:20s} {name:{width}s} {err:10.1e} {calls:6d} {seconds * 1e6:8.0f}us")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(accuracy_table())
