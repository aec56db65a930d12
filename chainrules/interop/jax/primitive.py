"""``primitive(f)``: any function with a chainrules rule, called on JAX arrays, differentiable by JAX.

Reverse mode (``mode="reverse"``, the default) is a ``jax.custom_vjp``: its forward pass
runs the ``rrule`` once on NumPy arrays (the output and the pullback together), keeps the
pullback on the host (:mod:`~chainrules.interop.jax.pullbacks`) and gives JAX the output;
its backward pass runs the pullback. Forward mode (``mode="forward"``) is a
``jax.custom_jvp`` whose tangent comes from the ``frule``. JAX allows one of the two per
function (a ``custom_vjp`` function has no ``jvp``; a pure callback has no transpose), so
each primitive has one mode; the same function can be wrapped both ways.

Where the values are:

* **eager** (concrete arrays, also inside ``jax.grad``/``jax.vjp``/``jax.jvp`` outside
  ``jit``): the rule runs directly on the arrays' NumPy views, without a callback;
* **traced** (``jax.jit``, ``jax.vmap``): the rule runs in a ``jax.pure_callback``; the
  shapes and dtypes of the output are learnt once per trace by calling the function on
  stand-in values of the input shapes (:func:`chainrules.interop._host.stand_in`).

``jax.vmap``: a NumPy ufunc (``np.sin``, ``scipy.special.jv``: broadcasting rules) gets
the whole batch at once (``vmap_method="expand_dims"``, inputs aligned and broadcast on
the host); every other function runs once per batch element (``"sequential"``). The
backward pass handles batches of cotangents itself (``jax.jacrev``), with one pullback
call per element unless the forward pass ran on the same batch.

Outputs: an array, or a tuple, list, namedtuple or dict of them; or a SciPy result object
(``OdeResult``, ``OptimizeResult``) or a tuple with diagnostic parts (``odeint``'s
``(y, infodict)``), returned as such, its floating fields JAX arrays and its other fields
plain, the rule receiving a structural ``Tangent`` of it
(:mod:`chainrules.interop._outputs`). Those are only known once the function has run, so
under ``jit``/``vmap`` they raise a ``TypeError`` that says so: call such a primitive
eagerly (``grad``, ``vjp``, ``jvp`` outside ``jit``).

Dtypes follow JAX: float32 unless ``jax_enable_x64`` is on; the rules keep float32
float32. Complex cotangents are conjugated both ways (JAX's cotangents are the conjugates
of chainrules'). Integer and boolean inputs get no gradient (``None`` to JAX). Second
derivatives (grad of grad, a Hessian, ``jvp`` of a ``grad``) raise
:class:`~chainrules.interop.errors.HigherOrderDerivativeError`: a rule's derivative is
NumPy code JAX cannot differentiate.
"""

from __future__ import annotations

import functools
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util

from chainrules.interop._arguments import BoundCall, function_name, locate
from chainrules.interop._host import stand_in, to_host
from chainrules.interop._lookup import find_frule, find_rrule, no_rule_error
from chainrules.interop._outputs import OutputStructure
from chainrules.interop.errors import HigherOrderDerivativeError
from chainrules.interop.jax.config import JAX_CONFIG, is_differentiable
from chainrules.interop.jax.pullbacks import STORE
from chainrules_core import NoTangent, ZeroTangent

__all__ = ["primitive"]

_Tracer = jax.core.Tracer
_NO = NoTangent()
_ZERO = ZeroTangent()
_TOKEN = jax.ShapeDtypeStruct((), np.int32)
MODES = ("reverse", "forward")


def _is_jax(x: Any) -> bool:
    return isinstance(x, jax.Array)


def _canonical(dtype: Any) -> np.dtype:
    return np.dtype(jax.dtypes.canonicalize_dtype(np.dtype(dtype)))


def _to_jax(x: Any) -> Any:
    x = np.asarray(x)
    return jnp.asarray(x, dtype=_canonical(x.dtype))


class _Spec:
    """What a call of a primitive knows before it has values: the function, the arguments that
    are not traced, the shapes and dtypes of the traced ones, and (learnt once) the output's."""

    __slots__ = ("avals", "broadcast", "call", "diff", "f", "name", "out")

    def __init__(self, f: Any, call: BoundCall) -> None:
        self.f = f
        self.call = call
        self.name = function_name(f)
        self.avals = [jax.ShapeDtypeStruct(np.shape(v), _canonical(v.dtype)) for v in call.values]
        self.diff = [is_differentiable(v) for v in call.values]
        self.broadcast = isinstance(f, np.ufunc) and not call.kwargs and call.flat and f.nout == 1
        self.out: tuple[Any, list[Any]] | None = None

    # ---- the host side ----------------------------------------------------------------------------------
    def args(self, xs: Sequence[Any]) -> list[Any]:
        return self.call.rebuild([np.asarray(x) for x in xs])

    def out_structure(self) -> tuple[Any, list[Any]]:
        """The output's :class:`~chainrules.interop._outputs.OutputStructure` and its leaves'
        ``ShapeDtypeStruct``\\ s, from a call on stand-ins (once)."""
        if self.out is None:
            stand_ins = [stand_in(a.shape, a.dtype) for a in self.avals]
            try:
                # compile-time evaluation: a callable argument written in jax.numpy runs on the stand-ins
                # instead of being staged into the trace
                with np.errstate(all="ignore"), warnings.catch_warnings(), jax.ensure_compile_time_eval():
                    warnings.simplefilter("ignore")
                    y = self.f(*self.call.rebuild(stand_ins), **self.call.kwargs)
            except Exception as err:
                raise TypeError(
                    f"{self.name}: under a JAX transformation (jit, vmap) the output's shape must be known before "
                    f"the values; calling {self.name} on stand-in values of the input shapes "
                    f"{[a.shape for a in self.avals]} failed ({type(err).__name__}: {err}). Call it outside jax.jit, "
                    "or on shapes it accepts") from err
            structure = OutputStructure(y)
            if structure.plain:
                raise TypeError(
                    f"{self.name} returns a result object ({type(y).__name__}) or parts that are not arrays ("
                    f"{_plain_parts(structure)}): under jax.jit or jax.vmap its output must be arrays whose shapes "
                    "are known before the call, and these parts (and, for a solver, the number of steps or events, "
                    "which fix its arrays' shapes) are only known once it has run. Call this primitive outside "
                    "jax.jit/jax.vmap (jax.grad, jax.vjp, jax.value_and_grad and, with mode='forward', jax.jvp work "
                    "eagerly and return the result object), and pass the arrays you need to the jitted code")
            self.remember(y)
        return self.out  # type: ignore[return-value]

    def remember(self, y: Any) -> OutputStructure:
        """Learn the output's structure from a call's output ``y`` (each call: its plain parts are this call's)."""
        structure = OutputStructure(y)
        self.out = (structure, [jax.ShapeDtypeStruct(np.shape(v), _canonical(np.result_type(v)))
                                for v in structure.leaves])
        return structure

    def flat_output(self, y: Any) -> list[np.ndarray]:
        structure = self.remember(y) if self.out is None or self.out[0].plain else self.out[0]
        leaves = structure.leaves if structure.output is y else OutputStructure(y).leaves
        return [np.asarray(v, dtype=s.dtype) for v, s in zip(leaves, self.out[1])]  # type: ignore[index]

    def rrule(self, xs: Sequence[Any]) -> tuple[Any, Any]:
        args = self.args(xs)
        result = find_rrule(JAX_CONFIG, self.f, args, self.call.kwargs)
        if result is None:
            raise no_rule_error(self.f, "rrule", args, self.call.positions, "JAX")
        return result

    def primal(self, xs: Sequence[Any]) -> list[np.ndarray]:
        return self.flat_output(self.f(*self.args(xs), **self.call.kwargs))

    def forward(self, xs: Sequence[Any], batch: tuple[int, ...] = ()) -> tuple[list[np.ndarray], int]:
        y, pullback = self.rrule(xs)
        return self.flat_output(y), STORE.put(pullback, batch)

    def pull(self, pullback: Any, xs: Sequence[Any], dys: Sequence[Any]) -> list[Any]:
        """The cotangents (NumPy, JAX's convention; ``None`` for integers) of the traced values."""
        structure = self.out_structure()[0]
        cotangents = pullback(structure.cotangent([np.asarray(d) for d in dys], conj=True))
        n = len(self.call.args)
        if len(cotangents) != n + 1:
            raise TypeError(f"the chainrules pullback of {self.name} returned {len(cotangents)} cotangents for "
                            f"{n} arguments; expected {n + 1}")
        parts = self.call.take(cotangents[1:])
        out: list[Any] = []
        for k, (ct, x, aval) in enumerate(zip(parts, xs, self.avals)):
            if not self.diff[k]:
                out.append(None)
                continue
            x = np.asarray(x)
            dense = to_host(ct, x, True, self.f, self.call.slots[k], "", "JAX")
            out.append(np.broadcast_to(np.asarray(dense, dtype=aval.dtype), x.shape))
        return out

    def backward(self, token: Any, xs: Sequence[Any], dys: Sequence[Any]) -> list[Any]:
        """The backward pass on the host; ``token``, ``xs`` and ``dys`` may carry leading batch axes."""
        token = np.asarray(token)
        nb = token.ndim
        if nb == 0:
            entry = STORE.get(int(token))
            STORE.discard(int(token))
            if entry is None or entry.batch:
                STORE.recomputed += 1
                pullback = self.rrule(xs)[1]
            else:
                pullback = entry.pullback
            return self.pull(pullback, xs, dys)
        xs = [np.asarray(x) for x in xs]
        dys = [np.asarray(d) for d in dys]
        batch = np.broadcast_shapes(token.shape, *[np.shape(a)[:nb] for a in (*xs, *dys)])
        first = int(token.flat[0])
        entry = STORE.get(first)
        try:
            if entry is not None and entry.batch == batch and bool(np.all(token == first)):
                # a broadcasting rule that ran on this very batch: one pullback call
                aligned = [np.broadcast_to(d, batch + d.shape[nb:]) for d in dys]
                cts = self.pull(entry.pullback, _align(xs, self.avals, nb, batch)[0], aligned)
                return [None if c is None else np.broadcast_to(c.reshape(batch + a.shape), batch + a.shape)
                        for c, a in zip(cts, self.avals)]
            outs = [None if not d else np.zeros(batch + a.shape, a.dtype) for d, a in zip(self.diff, self.avals)]
            pullbacks: dict[int, Any] = {}
            for index in np.ndindex(*batch):
                t = int(_at(token, index))
                x_i = [_at(x, index) for x in xs]
                if t in pullbacks:
                    pullback = pullbacks[t]
                else:
                    found = STORE.get(t)
                    if found is None or found.batch:
                        STORE.recomputed += 1
                        pullback = self.rrule(x_i)[1]
                    else:
                        pullback = found.pullback
                    pullbacks[t] = pullback
                for o, c in zip(outs, self.pull(pullback, x_i, [_at(d, index) for d in dys])):
                    if o is not None:
                        o[index] = c
            return outs
        finally:
            for t in set(token.ravel().tolist()):
                STORE.discard(t)

    def pushforward(self, xs: Sequence[Any], dxs: Sequence[Any]) -> list[np.ndarray]:
        """The frule on the host: the flat output followed by its flat tangent."""
        args = self.args(xs)
        per_slot = [np.asarray(dx) if d else _NO for dx, d in zip(dxs, self.diff)]
        tangents = (_NO, *self.call.put(per_slot, lambda v: _ZERO if is_differentiable(v) else _NO, args))
        result = find_frule(JAX_CONFIG, tangents, self.f, args, self.call.kwargs)
        if result is None:
            raise no_rule_error(self.f, "frule", args, self.call.positions, "JAX")
        y, dy = result
        flat_y = self.flat_output(y)
        dense = self.out[0].tangent_leaves(dy, self.f, " (forward mode)", "JAX")  # type: ignore[index]
        flat_dy = [np.asarray(v, dtype=s.dtype) for v, s in zip(dense, self.out[1])]  # type: ignore[index]
        return flat_y + flat_dy


def _at(a: np.ndarray, index: tuple[int, ...]) -> np.ndarray:
    """``a[index]`` where ``a``'s leading axes of length 1 (unbatched at that level) take index 0."""
    return a[tuple(0 if a.shape[k] == 1 else i for k, i in enumerate(index))]


def _align(xs: Sequence[np.ndarray], avals: Sequence[Any], nb: int, batch: tuple[int, ...] | None = None
           ) -> tuple[list[np.ndarray], tuple[int, ...]]:
    """Batched inputs of a ufunc, broadcast to the whole batch and with their core axes right-aligned."""
    if batch is None:
        batch = np.broadcast_shapes(*[np.shape(x)[:nb] for x in xs])
    rank = max((len(a.shape) for a in avals), default=0)
    out = []
    for x, a in zip(xs, avals):
        x = np.broadcast_to(np.asarray(x), batch + tuple(a.shape))
        out.append(x.reshape(batch + (1,) * (rank - len(a.shape)) + tuple(a.shape)))
    return out, batch


# ---- the JAX side -------------------------------------------------------------------------------------------
def _concrete(values: Sequence[Any]) -> bool:
    return not any(isinstance(v, _Tracer) for v in values)


def _higher_order(spec: _Spec, what: str) -> HigherOrderDerivativeError:
    if what == "output":
        return HigherOrderDerivativeError(
            f"JAX is differentiating the host computation of {spec.name} in a way its chainrules primitive does not "
            f"provide (a derivative of order two or more, or jvp of a reverse-mode primitive: use "
            f"primitive(f, mode='forward') for jax.jvp/jacfwd). {spec.name} runs on the host through "
            "jax.pure_callback, which JAX cannot differentiate by itself")
    return HigherOrderDerivativeError(
        f"JAX is differentiating the {what} of {spec.name} (a derivative of order two or more: grad of grad, a "
        f"Hessian, jvp over grad or over jvp). That derivative comes from chainrules' rule for {spec.name}, NumPy "
        "code that runs on the host through jax.pure_callback, which JAX cannot differentiate. Differentiate through "
        f"{spec.name} once only, or write it in jax.numpy")


def _undifferentiable_callback(spec: _Spec, what: str, host: Callable[..., Any], shapes: Any, args: Sequence[Any],
                               vmap_method: str) -> Any:
    """``jax.pure_callback(host, shapes, *args)`` whose derivative raises :class:`HigherOrderDerivativeError`."""

    @jax.custom_jvp
    def chainrules_host_derivative(*a: Any) -> Any:
        return jax.pure_callback(host, shapes, *a, vmap_method=vmap_method)

    @chainrules_host_derivative.defjvp
    def chainrules_host_derivative_jvp(primals: Any, tangents: Any) -> Any:
        raise _higher_order(spec, what)

    return chainrules_host_derivative(*args)


def _vmap_method(spec: _Spec) -> str:
    return "expand_dims" if spec.broadcast else "sequential"


def _primal(spec: _Spec, leaves: Sequence[Any]) -> Any:
    """The output alone (no derivative asked for)."""
    if _concrete(leaves):
        return [_to_jax(v) for v in spec.primal(leaves)]
    shapes = spec.out_structure()[1]
    nd = len(spec.avals)

    def host_primal(*xs: Any) -> list[np.ndarray]:
        nb = np.ndim(xs[0]) - len(spec.avals[0].shape) if nd else 0
        if nb > 0:
            xs = tuple(_align(xs, spec.avals, nb)[0])
        return [np.asarray(v, s.dtype) for v, s in zip(spec.primal(xs), shapes)]

    return list(_undifferentiable_callback(spec, "output", host_primal, shapes, leaves, _vmap_method(spec)))


def _forward(spec: _Spec, leaves: Sequence[Any]) -> tuple[Any, Any]:
    """``custom_vjp``'s forward pass: the output, and the residuals ``(token, *leaves)``."""
    if _concrete(leaves):
        flat, token = spec.forward(leaves)
        token_array = jnp.asarray(np.int32(token))
        weakref.finalize(token_array, STORE.discard, token)  # JAX dropped the residuals: no backward pass
        return [_to_jax(v) for v in flat], (token_array, *leaves)
    shapes = spec.out_structure()[1]

    def host_forward(*xs: Any) -> list[np.ndarray]:
        nb = np.ndim(xs[0]) - len(spec.avals[0].shape) if spec.avals else 0
        if nb > 0:  # a broadcasting rule on a whole vmap batch
            aligned, batch = _align(xs, spec.avals, nb)
            out, token = spec.forward(aligned, batch)
            return [*[np.asarray(v, s.dtype) for v, s in zip(out, shapes)], np.full(batch, token, np.int32)]
        out, token = spec.forward(xs)
        return [*out, np.int32(token)]

    *flat, token_array = _undifferentiable_callback(spec, "output", host_forward, [*shapes, _TOKEN], leaves,
                                                    _vmap_method(spec))
    return list(flat), (token_array, *leaves)


def _backward(spec: _Spec, residuals: tuple[Any, ...], dy: Any) -> tuple[Any, ...]:
    token, *leaves = residuals
    dys = tree_util.tree_leaves(dy)
    if _concrete([token, *leaves, *dys]):
        cts = spec.backward(np.asarray(token), [np.asarray(x) for x in leaves], [np.asarray(d) for d in dys])
        return tuple(None if c is None else _to_jax(c) for c in cts)
    shapes = [a for a, d in zip(spec.avals, spec.diff) if d]
    n = len(leaves)

    def host_backward(t: Any, *rest: Any) -> list[np.ndarray]:
        cts = spec.backward(t, rest[:n], rest[n:])
        return [c for c, d in zip(cts, spec.diff) if d]

    flat = iter(_undifferentiable_callback(spec, "gradient", host_backward, shapes, [token, *leaves, *dys],
                                           "expand_dims"))
    return tuple(next(flat) if d else None for d in spec.diff)


def _pushforward(spec: _Spec, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    """``custom_jvp``'s rule: the output and its tangent, from the frule."""
    if _concrete([*primals, *tangents]):
        flat = spec.pushforward(primals, tangents)
        m = len(spec.out_structure()[1])
        out = [_to_jax(v) for v in flat]
        return out[:m], out[m:]
    shapes = spec.out_structure()[1]
    n = len(primals)
    m = len(shapes)
    moving = [t for t, d in zip(tangents, spec.diff) if d]

    def host_pushforward(*values: Any) -> list[np.ndarray]:
        xs, it = list(values[:n]), iter(values[n:])
        dxs = [next(it) if d else None for d in spec.diff]
        nb = np.ndim(xs[0]) - len(spec.avals[0].shape) if n else 0
        if nb > 0:  # a broadcasting rule on a whole vmap batch
            moving_avals = [a for a, d in zip(spec.avals, spec.diff) if d]
            aligned, _ = _align(xs + [t for t in dxs if t is not None], spec.avals + moving_avals, nb)
            xs, it = aligned[:n], iter(aligned[n:])
            dxs = [next(it) if d else None for d in spec.diff]
        flat = spec.pushforward(xs, dxs)
        return [np.asarray(v, s.dtype) for v, s in zip(flat[m:], shapes)]

    # the output by its own callback: under jax.jacfwd the tangents are batched and the output is not
    y = _primal(spec, primals)
    dy = _undifferentiable_callback(spec, "forward-mode derivative", host_pushforward, shapes, [*primals, *moving],
                                    _vmap_method(spec))
    return y, list(dy)


def _apply(f: Any, call: BoundCall, mode: str) -> Any:
    leaves = list(call.values)
    if _concrete(leaves):  # nothing traced: the function itself, on the arrays' NumPy views
        structure = OutputStructure(f(*call.rebuild([np.asarray(x) for x in leaves]), **call.kwargs))
        return structure.rebuild([_to_jax(v) for v in structure.leaves])
    spec = _Spec(f, call)
    if mode == "reverse":
        @jax.custom_vjp
        def chainrules_vjp_call(*xs: Any) -> Any:
            return _primal(spec, xs)

        chainrules_vjp_call.defvjp(lambda *xs: _forward(spec, xs), lambda res, dy: _backward(spec, res, dy))
        return _rebuild(spec, chainrules_vjp_call(*leaves))

    @jax.custom_jvp
    def chainrules_jvp_call(*xs: Any) -> Any:
        return _primal(spec, xs)

    @chainrules_jvp_call.defjvp
    def chainrules_jvp_call_jvp(primals: Any, tangents: Any) -> Any:
        return _pushforward(spec, primals, tangents)

    return _rebuild(spec, chainrules_jvp_call(*leaves))


def _rebuild(spec: _Spec, flat: Sequence[Any]) -> Any:
    """The output from JAX's values of its leaves: its containers, result objects and plain parts put back."""
    return spec.out_structure()[0].rebuild(list(flat))


def _plain_parts(structure: OutputStructure) -> str:
    """The plain parts of an output, named for an error message."""
    y = structure.output
    if isinstance(y, dict):
        names = [k for k in y if k not in structure.paths and not any(
            isinstance(p, tuple) and p[:1] == (k,) for p in structure.paths)]
        return ", ".join(repr(k) for k in names[:8]) + (", ..." if len(names) > 8 else "")
    return "strings, None or objects"


def primitive(f: Callable[..., Any] | None = None, *, mode: str = "reverse") -> Any:
    """Make ``f`` a JAX-differentiable function whose derivatives come from chainrules' rules.

    Use it as a function (``expm = primitive(scipy.linalg.expm)``) or a decorator
    (``@primitive`` or ``@primitive(mode="forward")``). Called with JAX arrays, the
    primitive runs the rule on their NumPy values; called with none, it is ``f``. Traced
    values inside tuple, list and dict arguments are differentiated, and keyword
    arguments holding them are bound to their positions (see
    :mod:`chainrules.interop._arguments`).

    Parameters
    ----------
    f : callable
        Any callable with rules (looked up by argument types when it is called).
    mode : {"reverse", "forward"}
        ``"reverse"``: ``jax.custom_vjp`` from the ``rrule`` (``grad``, ``vjp``,
        ``value_and_grad``, ``jacrev``). ``"forward"``: ``jax.custom_jvp`` from the
        ``frule`` (``jvp``, ``jacfwd``, ``linearize``). Both work under ``jit`` and
        ``vmap``.

    Returns
    -------
    callable
        The primitive, with ``f``'s name, docstring and signature; ``.fun`` is ``f``.

    Raises
    ------
    NoRuleError
        No rule covers the argument types.
    NotImplementedDerivativeError
        The rule returned ``not_implemented(...)`` for a derivative JAX needs.
    HigherOrderDerivativeError
        JAX differentiates the rule's derivative (a second derivative).
    KeywordArgumentError
        A traced value sits in a keyword argument that has no position.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.linalg
    >>> import jax, jax.numpy as jnp
    >>> from chainrules.interop.jax import primitive
    >>> expm = primitive(scipy.linalg.expm)         # JAX has no derivative of scipy's expm
    >>> A = jnp.array([[0.0, 1.0], [-1.0, 0.0]])
    >>> g = jax.grad(lambda t: jnp.sum(expm(t * A)))(0.3)
    >>> round(float(g), 5)                          # d/dt of 2 cos(t)
    -0.59104
    >>> y, dy = jax.jvp(primitive(scipy.linalg.expm, mode="forward"), (0.3 * A,), (A,))
    >>> round(float(dy[0, 1]), 5)                   # d/dt sin(t)
    0.95534
    """
    if f is None:
        return functools.partial(primitive, mode=mode)
    if mode not in MODES:
        raise ValueError(f"primitive: mode must be one of {MODES}, got {mode!r}")
    raw: Any = getattr(f, "fun", f) if getattr(f, "_chainrules_jax_primitive", False) else f

    @functools.wraps(raw)
    def chainrules_jax_primitive(*args: Any, **kwargs: Any) -> Any:
        call = locate(raw, args, kwargs, _is_jax)
        if call is None:
            return raw(*args, **kwargs)
        return _apply(raw, call, mode)

    chainrules_jax_primitive.fun = raw  # type: ignore[attr-defined]
    chainrules_jax_primitive.mode = mode  # type: ignore[attr-defined]
    chainrules_jax_primitive._chainrules_jax_primitive = True  # type: ignore[attr-defined]
    return chainrules_jax_primitive
