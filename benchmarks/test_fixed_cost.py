"""The fixed cost of a rule on small inputs (issue 17): chainrules against hand-written NumPy, autograd, JAX, PyTorch.

One group per row of the issue's table. Each group's baseline is the hand-written NumPy
equivalent (the primal and its pullback written out for that call); the others are

* ``chainrules``: ``rrule(f, *args)``, the pullback of a ones cotangent and ``unthunk`` of
  every entry (what an AD framework does with a rule);
* ``autograd``: ``autograd``'s own VJP (``autograd.make_vjp``) of the same call, then the VJP;
* ``jax eager``: ``jax.vjp`` and its VJP, not jitted (float64, CPU);
* ``torch eager``: the call on leaf tensors and ``torch.autograd.grad`` (float64, CPU).

The fixed cost of a rule is its time minus the hand-written time (goals: 1.5 us for the
elementwise, broadcasting, reduction, matmul, transpose and indexing rows, 3 us for the
3x3 linear algebra). Two more groups: the rule lookup (``rrule`` hit and miss against a
plain Python call, as ``test_lookup.py`` does), and the autograd bridge on a 20-operation
model of 30 elements (``use_chainrules(replace=True)`` against autograd's own derivatives).

Run (the ratio table is printed at the end and written to ``benchmarks/ratios.txt``)::

    OPENBLAS_NUM_THREADS=1 python -m pytest benchmarks/test_fixed_cost.py --benchmark-only -q

(add ``--benchmark-timer time.thread_time`` on a shared machine: CPU time of the thread, not
wall time), or, for the table of fixed costs alone (min of repeats of the thread's CPU time)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/test_fixed_cost.py
"""

from __future__ import annotations

import operator
import time
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import chainrules  # noqa: F401  (the rules)
from chainrules_core import NoTangent, Thunk, rrule, unthunk
from chainrules_core.floating_point import quiet, restore

RNG = np.random.default_rng(17)
A = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
B = RNG.standard_normal((3, 3))
V = RNG.standard_normal(3)
S = 0.7


def _ad_call(f: Any, *args: Any) -> list[Any]:
    """What an AD framework does with a rule: lookup, rrule, pullback of ones, unthunk.

    The cotangents are unthunked in a list comprehension, as a framework's loop over them
    would; a generator expression fed to ``tuple`` costs ~0.1 us more per call, which the
    hand-written baseline (a literal tuple) does not pay.
    """
    y, pullback = rrule(f, *args)
    dy = np.ones_like(y) if isinstance(y, np.ndarray) else 1.0
    return [unthunk(d) for d in pullback(dy)]


# ---- hand-written equivalents: the primal and its pullback written out for that call -------------------------
def _hand_sin_scalar(x: float) -> tuple[Any, ...]:
    y = np.sin(x)
    return y, (None, np.cos(x) * 1.0)


def _hand_sin(x: np.ndarray) -> tuple[Any, ...]:
    y = np.sin(x)
    return y, (None, np.cos(x) * np.ones_like(y))


def _hand_multiply(a: np.ndarray, b: np.ndarray) -> tuple[Any, ...]:
    y = a * b
    dy = np.ones_like(y)
    return y, (None, dy * b, (dy * a).sum(0))


def _hand_sum0(a: np.ndarray, axis: int) -> tuple[Any, ...]:
    y = np.sum(a, axis)
    dy = np.ones_like(y)
    return y, (None, np.broadcast_to(dy, a.shape).copy(), None)


def _hand_matmul(a: np.ndarray, b: np.ndarray) -> tuple[Any, ...]:
    y = a @ b
    dy = np.ones_like(y)
    return y, (None, dy @ b.T, a.T @ dy)


def _hand_transpose(a: np.ndarray) -> tuple[Any, ...]:
    y = a.T
    dy = np.ones_like(y)
    return y, (None, dy.T)


def _hand_getitem(x: np.ndarray, i: int) -> tuple[Any, ...]:
    y = x[i]
    dx = np.zeros_like(x)
    dx[i] = 1.0
    return y, (None, dx, None)


def _hand_solve(a: np.ndarray, b: np.ndarray) -> tuple[Any, ...]:
    x = np.linalg.solve(a, b)
    db = np.linalg.solve(a.T, np.ones_like(x))
    return x, (None, -np.outer(db, x), db)


def _hand_det(a: np.ndarray) -> tuple[Any, ...]:
    d = np.linalg.det(a)
    return d, (None, (d * 1.0) * np.linalg.inv(a).T)


# row label -> (function, args, hand-written, goal in us)
ROWS: dict[str, tuple[Any, tuple[Any, ...], Callable[..., Any], float]] = {
    "np.sin on a Python float": (np.sin, (S,), _hand_sin_scalar, 1.5),
    "np.sin on shape (3,)": (np.sin, (V,), _hand_sin, 1.5),
    "np.multiply (3,3) times (3,)": (np.multiply, (A, V), _hand_multiply, 1.5),
    "np.sum(A, 0) (3,3)": (np.sum, (A, 0), _hand_sum0, 1.5),
    "np.matmul (3,3)": (np.matmul, (A, B), _hand_matmul, 1.5),
    "np.transpose (3,3)": (np.transpose, (A,), _hand_transpose, 1.5),
    "x[1] shape (3,)": (operator.getitem, (V, 1), _hand_getitem, 1.5),
    "np.linalg.solve (3,3) and (3,)": (np.linalg.solve, (A, V), _hand_solve, 3.0),
    "np.linalg.det (3,3)": (np.linalg.det, (A,), _hand_det, 3.0),
}


def _check_row(label: str) -> None:
    """The chainrules pullback of the row agrees with the hand-written one (the same work)."""
    f, args, hand, _ = ROWS[label]
    ours = _ad_call(f, *args)
    _, theirs = hand(*args)
    assert len(ours) == len(theirs)
    for mine, expected in zip(ours, theirs):
        if expected is not None:
            np.testing.assert_allclose(np.asarray(mine, dtype=float), np.asarray(expected, dtype=float), rtol=1e-12)


# ---- autograd, JAX, PyTorch equivalents ---------------------------------------------------------------------------
def _autograd_call(label: str) -> Callable[[], Any]:
    import autograd
    import autograd.numpy as anp

    functions: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
        "np.sin on a Python float": (anp.sin, (S,)),
        "np.sin on shape (3,)": (anp.sin, (V,)),
        "np.multiply (3,3) times (3,)": (lambda a, b: anp.multiply(a, b), (A, V)),
        "np.sum(A, 0) (3,3)": (lambda a: anp.sum(a, 0), (A,)),
        "np.matmul (3,3)": (lambda a, b: anp.matmul(a, b), (A, B)),
        "np.transpose (3,3)": (anp.transpose, (A,)),
        "x[1] shape (3,)": (lambda x: x[1], (V,)),
        "np.linalg.solve (3,3) and (3,)": (lambda a, b: anp.linalg.solve(a, b), (A, V)),
        "np.linalg.det (3,3)": (anp.linalg.det, (A,)),
    }
    fn, args = functions[label]
    argnums = tuple(range(len(args)))

    def call() -> Any:
        vjp, y = autograd.make_vjp(fn, argnums)(*args)
        return vjp(np.ones_like(y) if isinstance(y, np.ndarray) else 1.0)

    return call


def _jax_call(label: str) -> Callable[[], Any]:
    jax = pytest.importorskip("jax", reason="JAX is not installed: no JAX column")
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_platforms", "cpu")
    jnp = jax.numpy
    a, b, v = jnp.asarray(A), jnp.asarray(B), jnp.asarray(V)
    functions: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
        "np.sin on a Python float": (jnp.sin, (S,)),
        "np.sin on shape (3,)": (jnp.sin, (v,)),
        "np.multiply (3,3) times (3,)": (jnp.multiply, (a, v)),
        "np.sum(A, 0) (3,3)": (lambda x: jnp.sum(x, 0), (a,)),
        "np.matmul (3,3)": (jnp.matmul, (a, b)),
        "np.transpose (3,3)": (jnp.transpose, (a,)),
        "x[1] shape (3,)": (lambda x: x[1], (v,)),
        "np.linalg.solve (3,3) and (3,)": (jnp.linalg.solve, (a, v)),
        "np.linalg.det (3,3)": (jnp.linalg.det, (a,)),
    }
    fn, args = functions[label]

    def call() -> Any:
        y, vjp = jax.vjp(fn, *args)
        return jax.block_until_ready(vjp(jnp.ones_like(y)))

    return call


def _torch_call(label: str) -> Callable[[], Any]:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: no PyTorch column")
    torch.set_num_threads(1)
    a, b, v = (torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in (A, B, V))
    s = torch.tensor(S, dtype=torch.float64, requires_grad=True)
    functions: dict[str, tuple[Callable[..., Any], tuple[Any, ...]]] = {
        "np.sin on a Python float": (torch.sin, (s,)),
        "np.sin on shape (3,)": (torch.sin, (v,)),
        "np.multiply (3,3) times (3,)": (torch.mul, (a, v)),
        "np.sum(A, 0) (3,3)": (lambda x: torch.sum(x, 0), (a,)),
        "np.matmul (3,3)": (torch.matmul, (a, b)),
        "np.transpose (3,3)": (lambda x: x.T, (a,)),
        "x[1] shape (3,)": (lambda x: x[1], (v,)),
        "np.linalg.solve (3,3) and (3,)": (torch.linalg.solve, (a, v)),
        "np.linalg.det (3,3)": (torch.linalg.det, (a,)),
    }
    fn, args = functions[label]

    def call() -> Any:
        y = fn(*args)
        return torch.autograd.grad(y, args, torch.ones_like(y))

    return call


def _run(benchmark: Any, function: Callable[..., Any], *args: Any) -> None:
    """A fixed loop (calibration picks too few calls per round at a microsecond a call)."""
    benchmark.pedantic(function, args=args, iterations=200, rounds=200, warmup_rounds=5)


LABELS = list(ROWS)


@pytest.mark.parametrize("label", LABELS)
def test_hand_written(benchmark: Any, label: str) -> None:
    _, args, hand, _ = ROWS[label]
    benchmark.group = f"fixed cost: {label}"
    benchmark.extra_info["baseline"] = True
    _run(benchmark, hand, *args)


@pytest.mark.parametrize("label", LABELS)
def test_chainrules(benchmark: Any, label: str) -> None:
    f, args, _, _ = ROWS[label]
    benchmark.group = f"fixed cost: {label}"
    _check_row(label)
    _run(benchmark, _ad_call, f, *args)


@pytest.mark.parametrize("label", LABELS)
def test_autograd(benchmark: Any, label: str) -> None:
    benchmark.group = f"fixed cost: {label}"
    _run(benchmark, _autograd_call(label))


@pytest.mark.parametrize("label", LABELS)
def test_jax_eager(benchmark: Any, label: str) -> None:
    benchmark.group = f"fixed cost: {label}"
    call = _jax_call(label)
    call()
    benchmark.pedantic(call, iterations=5, rounds=40, warmup_rounds=2)


@pytest.mark.parametrize("label", LABELS)
def test_torch_eager(benchmark: Any, label: str) -> None:
    benchmark.group = f"fixed cost: {label}"
    _run(benchmark, _torch_call(label))


# ---- the lookup ---------------------------------------------------------------------------------------------------
def plain(f: Any, x: Any) -> None:
    """A Python call with the lookup's arguments that does nothing: the lookup's baseline."""
    return None


def _no_rules(x: Any) -> Any:
    return x


def _identity(x: Any) -> Any:
    return x


def _identity_pullback(dy: Any) -> tuple[Any, Any]:
    return None, dy


@rrule.register(_identity, float)
def _identity_rrule(x: float) -> Any:
    return x, _identity_pullback


def _lookup_run(benchmark: Any, function: Callable[..., Any], *args: Any) -> None:
    benchmark.pedantic(function, args=args, iterations=500, rounds=400, warmup_rounds=5)


@pytest.mark.parametrize("group", ["lookup: rrule hit", "lookup: rrule miss"])
def test_lookup_plain_call(benchmark: Any, group: str) -> None:
    benchmark.group = group
    benchmark.extra_info["baseline"] = True
    _lookup_run(benchmark, plain, _identity, S)


def test_lookup_hit(benchmark: Any) -> None:
    benchmark.group = "lookup: rrule hit"
    assert rrule(_identity, S) is not None
    _lookup_run(benchmark, rrule, _identity, S)


def test_lookup_miss(benchmark: Any) -> None:
    benchmark.group = "lookup: rrule miss"
    assert rrule(_no_rules, S) is None
    _lookup_run(benchmark, rrule, _no_rules, S)


# ---- the autograd bridge: a 20-operation model of 30 elements ------------------------------------------------------
def bridge_model(w: Any, x: Any) -> Any:
    """20 small NumPy operations on 30 elements (written with ``autograd.numpy``)."""
    import autograd.numpy as anp

    h = anp.sin(w * x)                # 2
    h = anp.exp(-h * h) + anp.cos(x)  # 5
    h = anp.tanh(h / (1.0 + w * w))   # 4
    h = anp.log(1.0 + h * h)          # 3
    h = anp.sqrt(h + 0.5) - w         # 3
    return anp.sum(h * h) / 30.0      # 3


BRIDGE_W = RNG.standard_normal(30)
BRIDGE_X = RNG.standard_normal(30)
BRIDGE = "autograd bridge: 20-op model, N=30: time / autograd's own derivatives"


def test_bridge_autograd_own(benchmark: Any) -> None:
    import autograd

    from chainrules.interop.autograd import active_registration

    assert active_registration() is None
    benchmark.group = BRIDGE
    benchmark.extra_info["baseline"] = True
    grad = autograd.grad(bridge_model)
    benchmark.pedantic(grad, args=(BRIDGE_W, BRIDGE_X), iterations=20, rounds=100, warmup_rounds=3)


def test_bridge_chainrules(benchmark: Any) -> None:
    import autograd

    from chainrules.interop.autograd import active_registration, use_chainrules

    assert active_registration() is None
    grad = autograd.grad(bridge_model)
    expected = grad(BRIDGE_W, BRIDGE_X)
    registration = use_chainrules(replace=True)
    try:
        np.testing.assert_allclose(grad(BRIDGE_W, BRIDGE_X), expected, rtol=1e-12)
        benchmark.group = BRIDGE
        benchmark.pedantic(grad, args=(BRIDGE_W, BRIDGE_X), iterations=20, rounds=100, warmup_rounds=3)
    finally:
        registration.remove()


def test_bridge_primal(benchmark: Any) -> None:
    benchmark.group = BRIDGE
    benchmark.pedantic(bridge_model, args=(BRIDGE_W, BRIDGE_X), iterations=20, rounds=100, warmup_rounds=3)


# ---- script mode: the table ---------------------------------------------------------------------------------
def _best(function: Callable[..., Any], *args: Any, number: int = 2000, repeat: int = 15) -> float:
    """Min over repeats of the time of one call, in us (CPU time of this thread: the machine is shared)."""
    timer = timeit.Timer(lambda: function(*args), timer=time.thread_time)
    return min(timer.repeat(number=number, repeat=repeat)) / number * 1e6


# ---- floors: the least any rule or lookup honouring the contract can cost ------------------------------------------
_ABSENT = object()
_NO = NoTangent()


def _contract_multiply_rrule(a: np.ndarray, b: np.ndarray) -> Any:
    """``np.multiply`` of an (n, m) by an (m,) float64 array, written by hand with only what the rule contract asks:
    the cotangent's kind, shape and dtype checked, one thunk per argument, floating-point warnings quiet while each
    cotangent is computed, each cotangent checked against its argument's shape and dtype. Nothing generic: no
    broadcasting analysis, no dtype classes, no other cotangent kinds (a wrong one raises)."""
    y = a * b

    def multiply_pullback(dy: Any) -> tuple[Any, ...]:
        if not (type(dy) is np.ndarray and dy.shape == y.shape and dy.dtype is y.dtype):
            raise TypeError("multiply: a cotangent of the output's shape and dtype was expected")

        def cotangent_a() -> Any:
            token = quiet()
            try:
                g = dy * b
            finally:
                restore(token)
            if type(g) is np.ndarray and g.shape == a.shape and g.dtype is a.dtype:
                return g
            raise TypeError("multiply: the cotangent of a is not in a's space")

        def cotangent_b() -> Any:
            token = quiet()
            try:
                g = np.add.reduce(dy * a, 0)
            finally:
                restore(token)
            if type(g) is np.ndarray and g.shape == b.shape and g.dtype is b.dtype:
                return g
            raise TypeError("multiply: the cotangent of b is not in b's space")

        return _NO, Thunk(cotangent_a), Thunk(cotangent_b)

    return y, multiply_pullback


_CONTRACT_RULES = {np.multiply: {(np.ndarray, np.ndarray): _contract_multiply_rrule}}


def _contract_multiply_call(a: np.ndarray, b: np.ndarray) -> list[Any]:
    """``_ad_call`` with the hand-written contract rule found by a dict look-up (as the registry's cache)."""
    y, pullback = _CONTRACT_RULES[np.multiply][(type(a), type(b))](a, b)
    return [unthunk(d) for d in pullback(np.ones_like(y))]


_BAREST_CACHE = {_identity: {float: _identity_rrule}}


def _barest_lookup(f: Any, a: Any = _ABSENT, b: Any = _ABSENT, /, *rest: Any, **kwargs: Any) -> Any:
    """The least a look-up entry that takes any arguments and keywords does on a one-argument hit: two dict
    reads and the rule's call (no miss handling, no config, no None for "no rule")."""
    if b is _ABSENT:
        impl = _BAREST_CACHE[f][type(a)]
        return impl(a, **kwargs) if kwargs else impl(a)
    return None


def fixed_cost_table() -> list[str]:
    """The issue's table: chainrules, hand-written and fixed cost per row (min of repeats, us)."""
    lines = [f"{'call':34s} {'chainrules':>10s} {'hand':>8s} {'fixed':>8s} {'goal':>6s}"]
    for label, (f, args, hand, goal) in ROWS.items():
        _check_row(label)
        ours = _best(_ad_call, f, *args)
        theirs = _best(hand, *args)
        lines.append(f"{label:34s} {ours:10.2f} {theirs:8.2f} {ours - theirs:8.2f} {goal:6.1f}")
    names = {"plain": plain, "rrule": rrule, "hit": _identity, "miss": _no_rules, "x": S}

    def loop(statement: str) -> float:
        timer = timeit.Timer(statement, globals=names, timer=time.thread_time)
        return min(timer.repeat(number=200_000, repeat=15)) / 200_000 * 1e9

    empty = loop("pass")
    p, hit, miss = (loop(statement) - empty for statement in ("plain(hit, x)", "rrule(hit, x)", "rrule(miss, x)"))
    lines.append(f"lookup (min of repeats, minus the empty loop): plain call {p:.0f} ns, hit {hit:.0f} ns "
                 f"({hit / p:.1f}x), miss {miss:.0f} ns ({miss / p:.1f}x)")
    names["barest"] = _barest_lookup
    barest = loop("barest(hit, x)") - empty
    lines.append(f"floor of a hit (an entry taking any arguments and keywords, two dict reads, the rule's call): "
                 f"{barest:.0f} ns ({barest / p:.1f}x)")
    floor = _best(_contract_multiply_call, A, V) - _best(_hand_multiply, A, V)
    lines.append(f"floor of np.multiply's fixed cost (a hand-written rule with only the contract's checks, thunks "
                 f"and quiet floating point): {floor:.2f} us")
    return lines


if __name__ == "__main__":
    print("\n".join(fixed_cost_table()))
