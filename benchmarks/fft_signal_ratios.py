"""Pullback/primal time ratios of the fft and signal rules, measured interleaved.

``benchmarks/test_fft.py`` and ``test_signal.py`` time each function on its own, one after the
other: on a shared machine the load changes between them, and a ratio of two such medians can be
off by a factor of several. Here each round times the primal and the pullback back to back
(best of a few calls each), and the median of the per-round ratios is reported, which the load
affects far less. Run: ``python benchmarks/fft_signal_ratios.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.fft
import scipy.signal

import chainrules  # noqa: F401  (registers the rules)
from chainrules import ZeroTangent, rrule, unthunk


def _cases() -> list[tuple[str, Callable[[], Any], Callable[[], Any]]]:
    rng = np.random.default_rng(14)
    n = 2 ** 16
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    x = rng.standard_normal(n)
    dz = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    dr = rng.standard_normal(n // 2 + 1) + 1j * rng.standard_normal(n // 2 + 1)
    a, b = rng.standard_normal(10 ** 5), rng.standard_normal(10 ** 3)
    dc = rng.standard_normal(10 ** 5 + 10 ** 3 - 1)
    sig = rng.standard_normal(10 ** 5)
    ba = scipy.signal.butter(4, 0.2)
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = []
    for name, f, arg, dy in (("numpy.fft.fft", np.fft.fft, z, dz), ("scipy.fft.fft", scipy.fft.fft, z, dz),
                             ("numpy.fft.rfft", np.fft.rfft, x, dr), ("scipy.fft.rfft", scipy.fft.rfft, x, dr)):
        _, pullback = rrule(f, arg)
        cases.append((f"{name} n=2^16", lambda f=f, arg=arg: f(arg),
                      lambda pullback=pullback, dy=dy: unthunk(pullback(dy)[1])))
    _, conv = rrule(scipy.signal.fftconvolve, a, b)
    cases.append(("fftconvolve 1e5 * 1e3 (both cotangents)", lambda: scipy.signal.fftconvolve(a, b),
                  lambda: [unthunk(c) for c in conv(dc)[1:3]]))
    _, lf = rrule(scipy.signal.lfilter, *ba, sig)
    cases.append(("lfilter order 4, 1e5 (b, a, x)", lambda: scipy.signal.lfilter(*ba, sig),
                  lambda: [unthunk(c) for c in lf(sig[::-1].copy())[1:4]]))
    for name in ("stft", "welch"):
        f = getattr(scipy.signal, name)
        out, pullback = rrule(f, sig, nperseg=256)
        dy = (ZeroTangent(),) * (len(out) - 1) + (np.ones_like(out[-1]),)
        cases.append((f"{name} 1e5 nperseg=256", lambda f=f: f(sig, nperseg=256),
                      lambda pullback=pullback, dy=dy: pullback(dy)[1]))
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    options = parser.parse_args(argv)
    print(f"{'case':45s} {'primal':>10s} {'pullback':>10s} {'ratio':>7s}")
    for name, primal, pullback in _cases():
        ratios, primal_times, pullback_times = [], [], []
        for _ in range(options.rounds):
            tp = min(timeit.repeat(primal, number=1, repeat=3))
            tb = min(timeit.repeat(pullback, number=1, repeat=3))
            ratios.append(tb / tp)
            primal_times.append(tp)
            pullback_times.append(tb)
        print(f"{name:45s} {min(primal_times) * 1e6:8.0f}us {min(pullback_times) * 1e6:8.0f}us "
              f"{statistics.median(ratios):6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
