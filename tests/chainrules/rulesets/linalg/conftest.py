"""Fixtures of the linear-algebra tests: seeded random arrays and well-conditioned matrices.

``dtype`` and ``rand`` are the shared ones of ``tests/chainrules/conftest.py``; ``rand`` draws here from
a seed of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest


@pytest.fixture
def rand_seed() -> int:
    """The seed of the shared ``rand`` here: the linear-algebra tests draw their own stream."""
    return 20261123


@pytest.fixture
def matrix(rand: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """``matrix(shape, dtype=np.float64)``: random square matrices (stacks too) with condition numbers near 1-10."""

    def make(shape: Any, dtype: Any = np.float64) -> np.ndarray:
        n = shape[-1]
        a = rand(shape, dtype) / np.sqrt(n) + 2 * np.eye(n)
        return np.asarray(a, dtype=dtype)

    return make


@pytest.fixture
def spd(rand: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    """``spd(shape, dtype=np.float64)``: random Hermitian positive definite matrices (stacks too)."""

    def make(shape: Any, dtype: Any = np.float64) -> np.ndarray:
        n = shape[-1]
        g = rand(shape, dtype) / np.sqrt(n)
        a = g @ np.conj(np.swapaxes(g, -1, -2)) + np.eye(n)
        return np.asarray(a, dtype=dtype)

    return make


# ---- composite functions: gauge-invariant losses of the spectral factorizations ------------------------------
class _Recorder:
    """Runs a program ``program(call, a)`` once, recording each ``call(f, *args, **kwargs)`` with a rule.

    Values are tracked by identity: the input ``a``, the outputs of recorded calls and the
    elements of tuple outputs. Every value that depends on ``a`` must come from ``call``.
    """

    def __init__(self) -> None:
        self.source: dict[int, tuple[Any, ...]] = {}
        self.keep: list[Any] = []  # keeps tracked objects alive, so their ids stay theirs

    def track(self, value: Any, key: tuple[Any, ...]) -> None:
        self.source[id(value)] = key
        self.keep.append(value)
        if isinstance(value, (tuple, list)):
            for i, part in enumerate(value):
                self.source[id(part)] = (*key, i)
                self.keep.append(part)

    def key_of(self, x: Any) -> tuple[Any, ...] | None:
        return self.source.get(id(x))


def _tangent_parts(dy: Any, n: int) -> list[Any]:
    from chainrules import AbstractZero, Tangent, ZeroTangent, backing, unthunk

    dy = unthunk(dy)
    if isinstance(dy, AbstractZero):
        return [ZeroTangent()] * n
    stored = backing(dy) if isinstance(dy, Tangent) else dy
    if isinstance(stored, dict):
        stored = list(stored.values())
    return [unthunk(p) for p in stored]


def make_composite(program: Callable[..., Any], name: str) -> Callable[[Any], Any]:
    """``f(a) = program(call, a)``, with an rrule and an frule that chain the registered rules of each call.

    ``test_rrule(f, a)`` and ``test_frule(f, a)`` then compare the chained rules with finite
    differences of ``f`` itself: the way to test a factorization's rule through a loss that
    is invariant under the factorization's gauge freedom, without deriving anything by hand.
    """
    from chainrules import AbstractZero, NoTangent, ProjectTo, ZeroTangent, frule, rrule, unthunk

    def f(a: Any) -> Any:
        return program(lambda fn, *args, **kwargs: fn(*args, **kwargs), a)

    f.__name__ = f.__qualname__ = name

    def f_rrule(a: Any) -> Any:
        rec = _Recorder()
        rec.track(a, ("in",))
        tape: list[tuple[Any, list[Any], Any]] = []

        def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
            result = rrule(fn, *args, **kwargs)
            assert result is not None, f"no rrule for {fn}"
            y, pullback = result
            tape.append((pullback, [rec.key_of(x) for x in args], y))
            rec.track(y, ("node", len(tape) - 1))
            return y

        out = program(call, a)
        out_key = rec.key_of(out)

        def composite_pullback(dy: Any) -> tuple[Any, Any]:
            cts: dict[tuple[Any, ...], Any] = {out_key: unthunk(dy)}
            for k in range(len(tape) - 1, -1, -1):
                pullback, arg_keys, y = tape[k]
                if isinstance(y, (tuple, list)):
                    parts = [cts.pop(("node", k, i), ZeroTangent()) for i in range(len(y))]
                    whole = cts.pop(("node", k), None)
                    if whole is not None:
                        parts = [p + q for p, q in zip(parts, _tangent_parts(whole, len(y)))]
                    if all(isinstance(p, AbstractZero) for p in parts):
                        continue
                    dy_k: Any = type(y)(parts) if isinstance(y, list) else tuple(parts)
                else:
                    dy_k = cts.pop(("node", k), None)
                    if dy_k is None:
                        continue
                for key, ct in zip(arg_keys, pullback(dy_k)[1:]):
                    ct = unthunk(ct)
                    if key is None or isinstance(ct, AbstractZero):
                        continue
                    cts[key] = ct if key not in cts else cts[key] + ct
            da = cts.get(("in",), ZeroTangent())
            return NoTangent(), (da if isinstance(da, AbstractZero) else ProjectTo(a)(da))

        return out, composite_pullback

    def f_frule(tangents: Any, a: Any) -> Any:
        rec = _Recorder()
        rec.track(a, ("in",))
        dots: dict[tuple[Any, ...], Any] = {("in",): tangents[1]}

        def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
            def tangent_of(x: Any) -> Any:
                key = rec.key_of(x)
                if key is not None:
                    return dots[key]
                inexact = isinstance(x, (float, complex, np.floating, np.complexfloating)) or (
                    isinstance(x, np.ndarray) and x.dtype.kind in "fc")
                return ZeroTangent() if inexact else NoTangent()

            result = frule((NoTangent(), *[tangent_of(x) for x in args]), fn, *args, **kwargs)
            assert result is not None, f"no frule for {fn}"
            y, ydot = result
            key = ("node", len(dots))
            rec.track(y, key)
            dots[key] = unthunk(ydot)
            if isinstance(y, (tuple, list)):
                for i, part in enumerate(_tangent_parts(ydot, len(y))):
                    dots[(*key, i)] = part
            return y

        out = program(call, a)
        return out, dots[rec.key_of(out)]

    rrule.register(f, object)(f_rrule)
    frule.register(f, object)(f_frule)
    return f


@pytest.fixture
def composite() -> Callable[[Callable[..., Any], str], Callable[[Any], Any]]:
    """``composite(program, name)``: see :func:`make_composite`."""
    return make_composite
