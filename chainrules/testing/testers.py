"""The rule testers: ``test_frule``, ``test_rrule`` and ``test_scalar``.

Every derivative is checked against finite differences of the primal function alone (see
:mod:`chainrules.testing.derivatives`). Besides the values, the testers check the contract
every rule of this library keeps; each failure raises ``AssertionError`` with a message
naming the function, the argument and the mismatch:

* the rule returns the primal output ``f(*args)``, of the same structure, dtypes and
  shapes (float32 stays float32);
* no argument is mutated by the rule or the pullback, nor the output by the pullback, nor
  the output cotangent or the input tangents (compared with deep copies taken before);
* an frule's tangent matches the finite-difference ``jvp``; each rrule cotangent matches
  the finite-difference ``vjp`` (after ``ProjectTo`` of its input);
* the pullback returns a tuple of ``1 + nargs`` entries, and the same answer for a
  thunked cotangent; for ``ZeroTangent()`` it returns zeros, and for a structural output
  cotangent with one field ``ZeroTangent()`` what it returns for zeros there; an frule
  given ``ZeroTangent()`` tangents returns a zero tangent;
* each cotangent is already in its input's tangent space: the type ``ProjectTo`` gives
  (a ``Diagonal`` for a ``Diagonal``), the input's shape and precision (float32 stays
  float32), real for real inputs; and it shares no memory with an argument or the output
  (an AD accumulates into cotangents in place);
* ``add_(acc, cotangent)`` equals ``acc + cotangent`` (this runs an ``InplaceableThunk``'s
  ``add_fn``);
* an argument marked ``NoTangent()`` (``PrimalAndTangent(x, NoTangent())``, or an integer,
  boolean or string) gets ``NoTangent()``, and ``ZeroTangent()`` there is the wrong kind;
* where both rules exist, the frule and the rrule agree: ``<dy, J dx> == <J^T dy, dx>``
  in the real inner product, with no finite differences at all.

A ``NotImplementedTangent`` is never a pass: the rest of the rule is checked, then the
test is reported as an expected failure under pytest (``pytest.xfail``) and as a
:class:`NotImplementedDerivativeWarning` elsewhere.

Tolerances default from the lowest floating precision among the arguments and the output
(:func:`~chainrules.testing.default_tolerances`); the finite differences themselves run at
float64, so float32 rules need no tolerances of their own.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import dataclasses
import inspect
import os
import sys
import types
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from chainrules.testing.approx import check_approx, default_tolerances
from chainrules.testing.derivatives import FDMethod, jvp, vjp
from chainrules.testing.random_tangents import _rng, rand_tangent
from chainrules.testing.tree import LeafSpec, TreeDef, leaves_to_vec, tree_flatten
from chainrules_core import (
    AbstractTangent,
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    RuleConfig,
    Tangent,
    Thunk,
    ZeroTangent,
    add_,
    backing,
    frule,
    rrule,
    unthunk,
)
from chainrules_core.rules import _unbind
from chainrules_core.tangents.structural import field_names


class NotImplementedDerivativeWarning(UserWarning):
    """A tested rule returned ``not_implemented(...)`` for some derivative."""


class PrimalAndTangent:
    """A primal paired with the tangent the testers should use for it (Julia's ``x ⊢ dx``).

    The tangent is the direction an frule is tested along. Two special values:

    * ``NoTangent()``: the argument is not differentiable (an index, an order, a flag the
      rule treats as such): the rule must return ``NoTangent()`` for it, and the finite
      differences hold it fixed. Integers, booleans and strings are marked so automatically.
    * ``ZeroTangent()``: a differentiable argument held fixed in the frule's direction; its
      rrule cotangent is still checked against finite differences.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import NoTangent, ZeroTangent
    >>> from chainrules.testing import PrimalAndTangent, test_frule, test_rrule
    >>> test_frule(np.multiply, PrimalAndTangent(2.0, 1.0), 3.0)
    >>> test_frule(np.multiply, PrimalAndTangent(2.0, ZeroTangent()), 3.0)
    >>> PrimalAndTangent(3, NoTangent())
    PrimalAndTangent(3, NoTangent())
    """

    __slots__ = ("primal", "tangent")

    def __init__(self, primal: Any, tangent: Any) -> None:
        self.primal = primal
        self.tangent = tangent

    def __repr__(self) -> str:
        return f"PrimalAndTangent({self.primal!r}, {self.tangent!r})"

    def __iter__(self) -> Any:
        return iter((self.primal, self.tangent))


# ---- helpers ---------------------------------------------------------------------------------------
def _describe(f: Any) -> str:
    """``module.qualname`` of a callable (``numpy.sin``, ``scipy.special.gamma``, ``mymodule.f``)."""
    if isinstance(f, np.ufunc):
        name = f.__name__
        module = getattr(f, "__module__", None)
        if module is None:  # scipy.special's ufuncs do not say where they live
            special = sys.modules.get("scipy.special")
            module = "scipy.special" if special is not None and getattr(special, name, None) is f else ""
        return f"{module}.{name}" if module else name
    module = getattr(f, "__module__", None) or ""
    name = getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or type(f).__name__
    return f"{module}.{name}" if module and module not in ("builtins", "__main__") else name


def _argument_labels(f: Any, n: int) -> list[str]:
    names: list[str] = []
    try:
        params = list(inspect.signature(f).parameters.values())
        for p in params:
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                names.append(p.name)
            elif p.kind is p.VAR_POSITIONAL:
                names.extend(f"{p.name}[{i}]" for i in range(n - len(names)))
                break
    except (TypeError, ValueError):
        pass
    return [f"argument {i + 1} ({names[i]!r})" if i < len(names) else f"argument {i + 1}" for i in range(n)]


def _split(args: tuple[Any, ...], rng: Any) -> tuple[list[Any], list[Any]]:
    primals, tangents = [], []
    for a in args:
        if isinstance(a, PrimalAndTangent):
            primals.append(a.primal)
            tangents.append(a.tangent)
        else:
            primals.append(a)
            tangents.append(rand_tangent(a, rng))
    return primals, tangents


def _is_plain_function(f: Any) -> bool:
    if isinstance(f, (np.ufunc, types.BuiltinFunctionType, type)):
        return True
    if isinstance(f, types.FunctionType):
        return not f.__closure__ or all(not _holds_float(c.cell_contents) for c in f.__closure__)
    return type(f).__name__ == "_ArrayFunctionDispatcher"


def _holds_float(value: Any) -> bool:
    return isinstance(value, (float, complex, np.ndarray, np.number))


def _shared_callables(value: Any, memo: dict[int, Any] | None = None, depth: int = 0) -> dict[int, Any]:
    """The callable objects inside ``value`` (a distribution, a functor): functions of the call, not its data.

    The testers copy the arguments (to evaluate the function afresh and to detect
    mutation) but share these: a copy of an object holding bound methods of itself (a
    ``scipy.stats`` distribution) never compares equal to the original, and the finite
    differences never vary it. The result is a ``copy.deepcopy`` memo that keeps them.
    """
    memo = {} if memo is None else memo
    if depth > 3 or isinstance(value, (np.ndarray, np.generic, str, bytes, int, float, complex, type)):
        return memo
    if callable(value) and not isinstance(value, (types.FunctionType, types.BuiltinFunctionType, np.ufunc)):
        memo[id(value)] = value
        return memo
    if isinstance(value, (list, tuple)):
        for v in value:
            _shared_callables(v, memo, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            _shared_callables(v, memo, depth + 1)
    elif hasattr(value, "__dict__") and not isinstance(value, AbstractTangent):
        for v in vars(value).values():
            _shared_callables(v, memo, depth + 1)
    return memo


def _copy(value: Any) -> Any:
    """``copy.deepcopy(value)``, sharing the callable objects inside it (see :func:`_shared_callables`)."""
    return copy.deepcopy(value, _shared_callables(value))


def _same(a: Any, b: Any) -> bool:
    """Exact equality of nested values (NaN equal to NaN); used for mutation checks."""
    if a is b and not isinstance(a, (np.ndarray, list, dict)):
        return True  # an object the copies share (a callable): not compared
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))
    if hasattr(a, "nnz") and hasattr(a, "toarray"):
        return hasattr(b, "toarray") and _same(a.toarray(), b.toarray())
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, Tangent) and isinstance(b, Tangent):
        return _same(backing(a), backing(b))
    if isinstance(a, types.ModuleType):  # an object holding its array namespace (RBFInterpolator._xp)
        return a is b
    if hasattr(a, "__dict__") and type(a) is type(b) and not isinstance(a, type):
        return _same(vars(a), vars(b))
    if hasattr(a, "__array__") and hasattr(b, "__array__") and type(a) is type(b):
        return _same(np.asarray(a), np.asarray(b))
    try:
        result = a == b
        if isinstance(result, np.ndarray):
            return bool(result.all())
        return bool(result) or (a != a and b != b)
    except Exception:
        return a is b


def _check_not_mutated(name: str, labels: list[str], before: list[Any], now: list[Any], when: str) -> None:
    for label, old, new in zip(labels, before, now):
        if not _same(old, new):
            raise AssertionError(f"{name}: {label} was mutated {when}")


def _arrays_in(x: Any, depth: int = 0) -> Iterator[np.ndarray]:
    """The ndarrays inside a nested value (containers, ``Tangent`` s, dataclasses, plain objects)."""
    x = unthunk(x) if depth == 0 else x
    if isinstance(x, np.ndarray):
        if x.dtype != object:
            yield x
        return
    if depth > 4 or isinstance(x, (str, bytes, int, float, complex, np.generic, AbstractZero, type)):
        return
    if isinstance(x, Tangent):
        stored = backing(x)
        parts: Any = stored.values() if isinstance(stored, dict) else stored
    elif isinstance(x, (tuple, list)):
        parts = x
    elif isinstance(x, Mapping):
        parts = x.values()
    elif dataclasses.is_dataclass(x):
        parts = [getattr(x, f.name) for f in dataclasses.fields(x)]
    elif hasattr(x, "__dict__") and not callable(x) and not isinstance(x, types.ModuleType):
        parts = vars(x).values()
    elif (names := field_names(type(x))) is not None and not callable(x):  # a __slots__ class
        parts = [getattr(x, n) for n in names if hasattr(x, n)]
    else:
        return
    for part in parts:
        yield from _arrays_in(part, depth + 1)


def _check_no_aliasing(label: str, value: Any, owners: list[tuple[str, Any]]) -> None:
    """``value`` (a cotangent or tangent) must share no memory with the user's arrays in ``owners``."""
    mine = list(_arrays_in(value))
    if not mine:
        return
    for owner_label, owner in owners:
        for theirs in _arrays_in(owner):
            for arr in mine:
                if arr.size and theirs.size and np.may_share_memory(arr, theirs) and np.shares_memory(arr, theirs):
                    raise AssertionError(f"{label}: shares memory with {owner_label}; return a new array "
                                         "(an AD may accumulate into a cotangent in place)")


def _inner_terms(primal: Any, a: Any, b: Any) -> tuple[float, float]:
    """Real inner product of two tangents of ``primal`` and the sum of the absolute terms."""
    _, treedef = tree_flatten(primal)
    specs = treedef.leaf_specs()
    va = leaves_to_vec(treedef.flatten_tangent(a), specs)
    vb = leaves_to_vec(treedef.flatten_tangent(b), specs)
    return float(va @ vb), float(np.abs(va) @ np.abs(vb))


def _dtype_of(x: Any) -> np.dtype | None:
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    if isinstance(x, float):
        return np.dtype(np.float64)
    if isinstance(x, complex):
        return np.dtype(np.complex128)
    dtype = getattr(x, "dtype", None)
    return np.dtype(dtype) if dtype is not None and not callable(dtype) else None


def _check_in_tangent_space(x: Any, ct: Any, label: str) -> None:
    """The cotangent must already be what ``ProjectTo(x)`` makes of it (type, dtype, shape)."""
    ct = unthunk(ct)
    if isinstance(ct, (AbstractZero, NotImplementedTangent)):
        return
    try:
        projected = unthunk(ProjectTo(x)(ct))
    except ProjectionError as err:
        raise AssertionError(f"{label}: {err}") from None
    if isinstance(projected, NoTangent):
        raise AssertionError(f"{label}: the input has no tangent space, but the rule returned a "
                             f"{type(ct).__name__}; return NoTangent()")
    if isinstance(projected, Tangent):
        if isinstance(ct, Tangent):
            parts = backing(ct)
            primal_parts = backing(x)
            keys = parts.keys() if isinstance(parts, dict) else range(len(parts))
            for k in keys:
                try:
                    sub = primal_parts[k]
                except (KeyError, IndexError, TypeError):
                    continue
                _check_in_tangent_space(sub, parts[k], f"{label}.{k}" if isinstance(k, str) else f"{label}[{k}]")
        return
    scalar_primal = isinstance(x, (int, float, complex, np.number)) and not isinstance(x, bool)
    want = _dtype_of(projected)
    have = _dtype_of(ct)
    if scalar_primal:
        if not (isinstance(ct, (int, float, complex, np.number)) or
                (isinstance(ct, np.ndarray) and ct.size == 1)):
            raise AssertionError(f"{label}: a scalar input got a cotangent of type {type(ct).__name__}")
    elif type(ct) is not type(projected):
        raise AssertionError(f"{label}: the cotangent is a {type(ct).__name__}, but ProjectTo(input) gives a "
                             f"{type(projected).__name__}: project it onto the input's tangent space")
    elif isinstance(ct, np.ndarray) and ct.shape != projected.shape:
        raise AssertionError(f"{label}: cotangent shape {ct.shape}, expected {projected.shape}")
    if want is not None and have is not None and have != want:
        if have.kind == "c" and want.kind == "f":
            raise AssertionError(f"{label}: complex cotangent ({have}) for a real input ({want}): "
                                 "project it (keep the real part)")
        raise AssertionError(f"{label}: cotangent dtype {have}, expected {want} (the input's precision)")


def _spec_text(spec: LeafSpec) -> str:
    kind = "array" if spec.is_array else "scalar"
    return f"{spec.dtype} {kind} of shape {spec.shape}" if spec.is_array else f"{spec.dtype} {kind}"


def _check_primal(name: str, y: Any, expected: Any, rtol: float, atol: float) -> None:
    """The rule's primal output must equal ``f(*args)``: structure, dtypes, shapes and values."""
    _, y_tree = tree_flatten(y)
    _, e_tree = tree_flatten(expected)
    y_specs, e_specs = y_tree.leaf_specs(), e_tree.leaf_specs()
    if len(y_specs) == len(e_specs) and _same_layout(y_tree, e_tree):
        for path, ys, es in zip(_leaf_paths(e_tree), y_specs, e_specs):
            if ys.dtype != es.dtype or ys.shape != es.shape:
                raise AssertionError(f"{name}: primal output{path}: the rule returns a {_spec_text(ys)}, "
                                     f"f(*args) a {_spec_text(es)}")
    check_approx(y, expected, rtol=rtol, atol=atol, name=f"{name}: primal output")


def _same_layout(a: TreeDef, b: TreeDef) -> bool:
    if a.kind != b.kind or len(a.children) != len(b.children):
        return False
    return all(_same_layout(x, y) for x, y in zip(a.children, b.children))


def _leaf_paths(tree: TreeDef, path: str = "") -> list[str]:
    if tree.kind == "leaf":
        return [path]
    out: list[str] = []
    for child, label in zip(tree.children, tree._labels()):
        out.extend(_leaf_paths(child, path + label))
    return out


def _zero_like(ct: Any) -> bool:
    ct = unthunk(ct)
    if isinstance(ct, (AbstractZero, NotImplementedTangent)):
        return True
    if isinstance(ct, Tangent):
        parts = backing(ct)
        return all(_zero_like(v) for v in (parts.values() if isinstance(parts, dict) else parts))
    dense = ct.toarray() if hasattr(ct, "toarray") else np.asarray(ct)
    return bool(np.all(dense == 0))


def _contains_not_implemented(x: Any) -> bool:
    """Whether a (nested) tangent holds a ``NotImplementedTangent`` anywhere."""
    x = unthunk(x)
    if isinstance(x, NotImplementedTangent):
        return True
    if isinstance(x, Tangent):
        parts = backing(x)
        return any(_contains_not_implemented(v) for v in (parts.values() if isinstance(parts, dict) else parts))
    if isinstance(x, (tuple, list)):
        return any(_contains_not_implemented(v) for v in x)
    if isinstance(x, Mapping):
        return any(_contains_not_implemented(v) for v in x.values())
    return False


def _near_zero(fd: Any, atol: float) -> bool:
    """Whether a finite-difference estimate is zero up to its own rounding (``atol``)."""
    fd = unthunk(fd)
    if isinstance(fd, (AbstractZero, NotImplementedTangent)):
        return True
    if isinstance(fd, Tangent):
        parts = backing(fd)
        return all(_near_zero(v, atol) for v in (parts.values() if isinstance(parts, dict) else parts))
    dense = fd.toarray() if hasattr(fd, "toarray") else np.asarray(fd)
    return bool(dense.size == 0 or np.max(np.abs(dense)) <= atol)


def _unbound(f: Any, args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
    """A bound method is tested as its class's function with the object as first argument,
    exactly as ``rrule``/``frule`` normalise it (the object gets a tangent like any argument)."""
    if isinstance(f, PrimalAndTangent):
        return f, args
    unbound = _unbind(f)
    return (f, args) if unbound is None else (unbound[0], (unbound[1], *args))


def _dense_zeros_like(v: Any) -> Any:
    """A zero of the same form as the tangent ``v`` (arrays of zeros, not ``ZeroTangent()``)."""
    v = unthunk(v)
    if isinstance(v, AbstractZero):
        return v
    if isinstance(v, Tangent):
        return v.map(_dense_zeros_like)
    if isinstance(v, np.ndarray):
        return np.zeros_like(v)
    if isinstance(v, (int, float, complex, np.number)):
        return type(v)(0)
    return v * 0


def _with_field(dy: Tangent, key: Any, value: Any) -> Tangent:
    """``dy`` with one field replaced."""
    stored = backing(dy)
    P = dy.primal_type
    if isinstance(stored, tuple):
        items = list(stored)
        items[key] = value
        return Tangent(P, *items)
    fields = dict(stored)
    fields[key] = value
    if issubclass(P, dict):
        return Tangent(P, fields)
    return Tangent(P, **fields)


# ---- not-implemented reporting -----------------------------------------------------------------------
_COLLECTED: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("chainrules_not_implemented",
                                                                                default=None)


@contextlib.contextmanager
def _collect_not_implemented() -> Iterator[list[str]]:
    """Gather the not-implemented notes of several tester calls, to report them once at the end."""
    notes: list[str] = []
    token = _COLLECTED.set(notes)
    try:
        yield notes
    finally:
        _COLLECTED.reset(token)


def _under_pytest() -> bool:
    return "pytest" in sys.modules and bool(os.environ.get("PYTEST_CURRENT_TEST"))


def _report_not_implemented(name: str, notes: list[str]) -> None:
    if not notes:
        return
    text = f"{name}: not implemented: " + "; ".join(notes)
    collected = _COLLECTED.get()
    if collected is not None:
        collected.append(text)
        return
    if _under_pytest():
        import pytest

        pytest.xfail(text)
    warnings.warn(NotImplementedDerivativeWarning(text), stacklevel=3)


def _call_rule(rule_f: Callable[..., Any], config: Any, head: tuple[Any, ...], f: Any,
               primals: list[Any], fkwargs: dict[str, Any]) -> Any:
    if config is not None:
        return rule_f(config, *head, f, *primals, **fkwargs)
    return rule_f(*head, f, *primals, **fkwargs)


def _types(primals: list[Any]) -> str:
    return ", ".join(type(p).__name__ for p in primals)


def _tolerances(rtol: float | None, atol: float | None, *values: Any) -> tuple[float, float]:
    d_rtol, d_atol = default_tolerances(*values)
    return (d_rtol if rtol is None else rtol), (d_atol if atol is None else atol)


def _run_pullback(name: str, pullback: Callable[[Any], Any], dy: Any, nargs: int, what: str) -> tuple[Any, ...]:
    """Call the pullback; a raise, a non-tuple or a wrong length is an AssertionError naming ``what``."""
    try:
        cotangents = pullback(dy)
    except Exception as err:
        raise AssertionError(f"{name}: the pullback fails {what}: {type(err).__name__}: {err}") from err
    if not isinstance(cotangents, tuple):
        raise AssertionError(f"{name}: the pullback must return a tuple, got {type(cotangents).__name__} ({what})")
    if len(cotangents) != nargs + 1:
        raise AssertionError(f"{name}: the pullback returned {len(cotangents)} cotangents; expected "
                             f"{nargs + 1} (one for the function, then one per argument) ({what})")
    return cotangents


def _compare_pullbacks(name: str, labels: list[str], first: tuple[Any, ...], second: tuple[Any, ...],
                       rtol: float, atol: float, what: str) -> None:
    for k in range(len(first)):
        a, b = unthunk(first[k]), unthunk(second[k])
        if isinstance(a, NotImplementedTangent) or isinstance(b, NotImplementedTangent):
            continue
        label = "the function" if k == 0 else labels[k - 1]
        check_approx(b, a, rtol=rtol, atol=atol, name=f"{name}: {what}, the cotangent of {label}")


# ---- the call under test ----------------------------------------------------------------------------
def _leading_config(f: Any, args: tuple[Any, ...], config: RuleConfig | None,
                    who: str) -> tuple[Any, tuple[Any, ...], RuleConfig | None]:
    """Accept ``tester(config, f, *args)``, the calling convention of ``rrule``/``frule`` with a config."""
    if not isinstance(f, RuleConfig):
        return f, args, config
    if config is not None:
        raise TypeError(f"{who}: a config given both as the first argument and as config=")
    if not args:
        raise TypeError(f"{who}: the function to test must follow the config")
    return args[0], args[1:], f


@dataclasses.dataclass
class _Call:
    """One call under test and what every check of it shares.

    ``f_tangent`` is the tangent of the callable itself (``None`` when the caller gave
    none); ``before`` holds deep copies of the arguments, taken before any rule ran;
    ``gauge_invariant`` is the function of the output the finite differences compare
    (``None``: the output itself).
    """

    tester: str
    f: Any
    f_tangent: Any
    primals: list[Any]
    tangents: list[Any]
    fkwargs: dict[str, Any]
    config: Any
    fdm: Any
    rng: Any
    gauge_invariant: Callable[[Any], Any] | None
    name: str = ""
    labels: list[str] = dataclasses.field(default_factory=list)
    before: list[Any] = dataclasses.field(default_factory=list)

    @classmethod
    def prepare(cls, tester: str, f: Any, args: tuple[Any, ...], fkwargs: dict[str, Any] | None, config: Any,
                fdm: Any, rng: Any, gauge_invariant: Callable[[Any], Any] | None, default_f_tangent: Any) -> _Call:
        f, args, config = _leading_config(f, args, config, tester)
        rng = _rng(rng)
        f, args = _unbound(f, args)
        f_primal, f_tangent = (f.primal, f.tangent) if isinstance(f, PrimalAndTangent) else (f, default_f_tangent)
        primals, tangents = _split(args, rng)
        call = cls(tester, f_primal, f_tangent, primals, tangents, dict(fkwargs or {}), config, fdm, rng,
                   gauge_invariant)
        call.name = f"{tester}({_describe(f_primal)})"
        call.labels = _argument_labels(f_primal, len(primals))
        call.before = _copy(primals)
        return call

    @property
    def with_f(self) -> bool:
        """Whether the callable's own fields are differentiated (a functor given a tangent)."""
        return self.f_tangent is not None and not isinstance(self.f_tangent, (NoTangent, AbstractZero))

    @property
    def diff(self) -> list[int]:
        """The positions of the differentiated arguments."""
        return [i for i, t in enumerate(self.tangents) if not isinstance(t, NoTangent)]

    def run_rule(self, rule: Callable[..., Any], head: tuple[Any, ...]) -> Any:
        return _call_rule(rule, self.config, head, self.f, self.primals, self.fkwargs)

    def primal_output(self) -> Any:
        return self.f(*_copy(self.before), **self.fkwargs)

    def observed(self, y: Any) -> Any:
        """What the finite differences compare: ``gauge_invariant(y)``, or ``y``."""
        return y if self.gauge_invariant is None else self.gauge_invariant(y)

    def varied(self) -> Callable[..., Any]:
        """The function of the differentiated inputs (the callable first if it is one) the finite differences vary."""
        diff, with_f = self.diff, self.with_f

        def call_f(*dargs: Any) -> Any:
            full = list(self.primals)
            fn = self.f
            if with_f:
                fn, dargs = dargs[0], dargs[1:]
            for k, i in enumerate(diff):
                full[i] = dargs[k]
            return self.observed(fn(*_copy(full), **self.fkwargs))

        return call_f

    def check_not_mutated(self, when: str) -> None:
        _check_not_mutated(self.name, self.labels, self.before, self.primals, when)


def _cotangent_for_the_pullback(call: _Call, y: Any, output_tangent: Any) -> tuple[Any, Any]:
    """The cotangent fed to the pullback, and the one the finite differences use.

    Without a gauge they are the same (``output_tangent``, or random). With
    ``gauge_invariant=g``, ``output_tangent`` (or a random one) is a cotangent ``c`` of
    ``g(y)``; the pullback receives ``J_g(y)^T c`` (by finite differences of ``g`` alone),
    a cotangent that no gauge transformation of ``y`` changes.
    """
    if call.gauge_invariant is None:
        dy = rand_tangent(y, call.rng) if output_tangent is None else output_tangent
        return dy, dy
    observed = call.observed(y)
    c = rand_tangent(observed, call.rng) if output_tangent is None else output_tangent
    (dy,) = vjp(call.fdm, call.gauge_invariant, c, y)
    return dy, c


def _check_rrule_result(call: _Call, result: Any) -> tuple[Any, Callable[[Any], Any]]:
    if result is None:
        raise AssertionError(f"{call.name}: no rrule for argument types ({_types(call.primals)})")
    try:
        y, pullback = result
    except (TypeError, ValueError):
        raise AssertionError(f"{call.name}: the rrule must return (y, pullback), got "
                             f"{type(result).__name__}") from None
    if not callable(pullback):
        raise AssertionError(f"{call.name}: the rrule must return (y, pullback), but the pullback is a "
                             f"{type(pullback).__name__}")
    return y, pullback


def _pull_back_checked(call: _Call, pullback: Callable[[Any], Any], y: Any, dy: Any) -> tuple[Any, ...]:
    """Run the pullback once; it must mutate neither the arguments, nor the output, nor ``dy``,
    and return cotangents that share no memory with any of them."""
    dy_before = copy.deepcopy(dy)
    y_before = _copy(y)
    cotangents = _run_pullback(call.name, pullback, dy, len(call.primals), "on the output cotangent")
    call.check_not_mutated("by the pullback")
    if not _same(dy_before, dy):
        raise AssertionError(f"{call.name}: the output cotangent was mutated by the pullback")
    if not _same(y_before, y):
        raise AssertionError(f"{call.name}: the primal output was mutated by the pullback")
    owners = [(label, p) for label, p in zip(call.labels, call.primals)] + [("the primal output", y)]
    for k, ct in enumerate(cotangents):
        what = "the function" if k == 0 else call.labels[k - 1]
        _check_no_aliasing(f"{call.name}: the cotangent of {what}", ct, owners)
    return cotangents


def _check_function_cotangent(call: _Call, cotangents: tuple[Any, ...]) -> None:
    """A plain function (no fields to differentiate) gets ``NoTangent()`` for itself."""
    df = unthunk(cotangents[0])
    if call.f_tangent is None and _is_plain_function(call.f) and not isinstance(df, NoTangent):
        raise AssertionError(f"{call.name}: the cotangent of the function itself must be NoTangent() "
                             f"for a plain function, got {type(df).__name__}")


def _check_no_tangent_arguments(call: _Call, cotangents: tuple[Any, ...]) -> None:
    """Arguments marked ``NoTangent()`` (integers, booleans, strings, or by the caller) get ``NoTangent()``."""
    for i, t in enumerate(call.tangents):
        if not isinstance(t, NoTangent):
            continue
        ct = unthunk(cotangents[i + 1])
        if isinstance(ct, NotImplementedTangent) and not isinstance(rand_tangent(call.primals[i]), NoTangent):
            continue  # a differentiable argument held fixed: nobody asks for its derivative
        if not isinstance(ct, NoTangent):
            kind = "ZeroTangent(), the wrong kind" if isinstance(ct, AbstractZero) else type(ct).__name__
            raise AssertionError(f"{call.name}: {call.labels[i]} is not differentiable (or marked NoTangent()) and "
                                 f"must get NoTangent(); got {kind}")


def _check_cotangents_against_finite_differences(call: _Call, fd_dy: Any, cotangents: tuple[Any, ...],
                                                 rtol: float, atol: float, notes: list[str]) -> None:
    """Each cotangent equals the finite-difference ``vjp`` of the primal (projected onto its input)."""
    diff, with_f = call.diff, call.with_f
    fd_inputs = ([call.f] if with_f else []) + [call.primals[i] for i in diff]
    need_fd = any(not isinstance(unthunk(c), NotImplementedTangent) for c in cotangents)
    fd: tuple[Any, ...] = vjp(call.fdm, call.varied(), fd_dy, *fd_inputs) if fd_inputs and need_fd else ()
    if with_f:
        df, (df_fd, fd) = unthunk(cotangents[0]), (fd[0], fd[1:])
        if isinstance(df, NotImplementedTangent):
            notes.append(f"the function's cotangent: {df.info}")
        else:
            check_approx(df, df_fd, rtol=rtol, atol=atol, name=f"{call.name}: cotangent of the function")
    for k, i in enumerate(diff):
        ct = unthunk(cotangents[i + 1])
        label = f"{call.name}: cotangent of {call.labels[i]}"
        if isinstance(ct, NotImplementedTangent):
            notes.append(f"{call.labels[i]}: {ct.info}")
            continue
        if isinstance(ct, NoTangent):
            if not _near_zero(fd[k], atol):
                raise AssertionError(f"{label}: got NoTangent(), but the input is differentiable and the "
                                     "finite differences say its cotangent is not zero")
            continue
        _check_in_tangent_space(call.primals[i], ct, label)
        check_approx(ct, ProjectTo(call.primals[i])(fd[k]), rtol=rtol, atol=atol, name=label)


def _check_other_cotangent_kinds(call: _Call, pullback: Callable[[Any], Any], dy: Any,
                                 cotangents: tuple[Any, ...], rtol: float, atol: float) -> None:
    """The same answer for a thunked cotangent; zeros for ``ZeroTangent()``; a structural cotangent
    with one field ``ZeroTangent()`` acts as zeros there."""
    nargs = len(call.primals)
    dy_copy = copy.deepcopy(dy)
    again = _run_pullback(call.name, pullback, Thunk(lambda: copy.deepcopy(dy_copy)), nargs, "on a thunked cotangent")
    _compare_pullbacks(call.name, call.labels, cotangents, again, rtol, atol, "with a thunked cotangent")
    zeros = _run_pullback(call.name, pullback, ZeroTangent(), nargs, "on ZeroTangent()")
    for k, z in enumerate(zeros):
        label = "the function" if k == 0 else call.labels[k - 1]
        try:
            is_zero = _zero_like(z)
        except Exception as err:
            raise AssertionError(f"{call.name}: for a ZeroTangent() output cotangent, computing the cotangent of "
                                 f"{label} raised {type(err).__name__}: {err}") from err
        if not is_zero:
            raise AssertionError(f"{call.name}: for a ZeroTangent() output cotangent, the cotangent of {label} "
                                 f"is not zero")
    _check_partly_zero_cotangents(call.name, call.labels, pullback, dy_copy, nargs, rtol, atol)
    call.check_not_mutated("by the pullback")


def _check_accumulation(call: _Call, cotangents: tuple[Any, ...], rtol: float, atol: float) -> None:
    """``add_(acc, cotangent)`` equals ``acc + cotangent`` (this runs an ``InplaceableThunk``'s ``add_fn``)."""
    for i in call.diff:
        raw = cotangents[i + 1]
        ct = unthunk(raw)
        if isinstance(ct, (AbstractZero, NotImplementedTangent)):
            continue
        acc = rand_tangent(call.primals[i], call.rng)
        if isinstance(acc, AbstractZero):
            continue
        expected = copy.deepcopy(acc) + ct
        try:
            summed = add_(acc, raw)
        except Exception as err:
            raise AssertionError(f"{call.name}: add_ of the cotangent of {call.labels[i]} raised "
                                 f"{type(err).__name__}: {err}") from err
        check_approx(summed, expected, rtol=rtol, atol=atol,
                     name=f"{call.name}: add_(acc, cotangent of {call.labels[i]}) vs acc + cotangent")


# ---- test_rrule -------------------------------------------------------------------------------------
def test_rrule(f: Any, *args: Any, output_tangent: Any = None, check_thunked_output_tangent: bool = True,
               fdm: FDMethod | None = None, rtol: float | None = None, atol: float | None = None,
               fkwargs: dict[str, Any] | None = None, config: RuleConfig | None = None,
               rrule_f: Callable[..., Any] | None = None, frule_f: Callable[..., Any] | None = None,
               check_inplace_add: bool = True, check_frule_consistency: bool = True, rng: Any = None,
               gauge_invariant: Callable[[Any], Any] | None = None) -> None:
    """Check the rrule of ``f`` at ``args`` against finite differences and the rule contract.

    The checks run in this order, each a function of this module: the rule's primal output
    (``_check_primal``), one pullback with mutation and aliasing checks
    (``_pull_back_checked``), the function's own cotangent, ``NoTangent()`` for
    non-differentiable arguments, every cotangent against finite differences, thunked /
    zero / partly zero cotangents, ``add_`` accumulation, and agreement with the frule.

    Parameters
    ----------
    f : callable, PrimalAndTangent or RuleConfig
        The function; ``PrimalAndTangent(f, df)`` also checks the cotangent of a callable
        object's own fields. A ``RuleConfig`` first (``test_rrule(config, f, x, ...)``, the
        calling convention of ``rrule``) is the same as ``config=config``.
    *args : Any or PrimalAndTangent
        The arguments. Arguments given plainly get a random tangent; integers, booleans and
        strings are not differentiated; ``PrimalAndTangent(x, NoTangent())`` holds one fixed.
    output_tangent : Any, optional
        The cotangent fed to the pullback (random by default); with ``gauge_invariant``, a
        cotangent of ``gauge_invariant(y)``.
    check_thunked_output_tangent : bool
        Also call the pullback with the cotangent wrapped in a ``Thunk``, with
        ``ZeroTangent()``, and (for a structural cotangent) with each field ``ZeroTangent()``.
    fdm : FiniteDifferenceMethod, optional
        Default: ``central_fdm(5, 1, max_range=1e-2)``.
    rtol, atol : float, optional
        Default from the lowest precision of the inputs and output.
    fkwargs : dict, optional
        Keyword arguments for ``f`` (never differentiated).
    config : RuleConfig, optional
        Passed as the first argument of ``rrule_f``.
    rrule_f, frule_f : callable, optional
        What to test instead of :data:`rrule` (e.g. ``rrule_via_ad`` to test an AD's own
        gradients) and which frule to compare with (default :data:`frule`).
    check_inplace_add, check_frule_consistency : bool
        Switch those checks off (for example for an AD's own gradients).
    rng : numpy.random.Generator or int, optional
    gauge_invariant : callable, optional
        For outputs defined only up to a gauge (eigenvectors up to a phase, an SVD up to
        signs): a function ``g`` of the output that no gauge transformation changes (for
        eigenvectors, the projectors ``v_k v_k^H``). The finite differences then compare
        ``g(f(x))``, and the pullback is fed ``J_g(y)^T c`` for a random cotangent ``c`` of
        ``g(y)``: exactly the cotangents a gauge-invariant loss produces, the only ones for
        which the derivative is defined.

    Raises
    ------
    AssertionError
        Naming the function, the argument and the mismatch.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import rrule, NoTangent, ProjectTo, unthunk
    >>> from chainrules.testing import test_rrule
    >>> def double(x):
    ...     return 2 * x
    >>> @rrule.register(double, np.ndarray)
    ... def double_rrule(x):
    ...     project_x = ProjectTo(x)
    ...     def double_pullback(dy):
    ...         return NoTangent(), project_x(2 * unthunk(dy))
    ...     return double(x), double_pullback
    >>> test_rrule(double, np.array([1.0, 2.0]))
    >>> test_rrule(double, np.array([1.0, 2.0], dtype=np.float32))
    >>> def double_wrong(x):
    ...     return 2 * x
    >>> @rrule.register(double_wrong, np.ndarray)
    ... def double_wrong_rrule(x):
    ...     def double_wrong_pullback(dy):
    ...         return NoTangent(), 3 * unthunk(dy)
    ...     return double_wrong(x), double_wrong_pullback
    >>> test_rrule(double_wrong, np.array([1.0, 2.0]))
    Traceback (most recent call last):
    ...
    AssertionError: test_rrule(...double_wrong): cotangent of argument 1 ('x'): arrays differ: ...

    A gauge-dependent output: the eigenvectors of a complex Hermitian matrix, compared
    through their projectors.

    >>> import chainrules
    >>> def projectors(result):
    ...     w, v = result
    ...     return w, np.einsum("ik,jk->kij", v, v.conj())
    >>> a = np.array([[2.0, 1j], [-1j, 3.0]])
    >>> test_rrule(np.linalg.eigh, a, gauge_invariant=projectors)
    """
    call = _Call.prepare("test_rrule", f, args, fkwargs, config, fdm, rng, gauge_invariant, None)
    result = call.run_rule(rrule if rrule_f is None else rrule_f, ())
    y, pullback = _check_rrule_result(call, result)
    call.check_not_mutated("by the rrule")
    rtol, atol = _tolerances(rtol, atol, y, *call.primals)
    _check_primal(call.name, y, call.primal_output(), rtol, atol)

    dy, fd_dy = _cotangent_for_the_pullback(call, y, output_tangent)
    cotangents = _pull_back_checked(call, pullback, y, dy)
    notes: list[str] = []
    _check_function_cotangent(call, cotangents)
    _check_no_tangent_arguments(call, cotangents)
    _check_cotangents_against_finite_differences(call, fd_dy, cotangents, rtol, atol, notes)
    if check_thunked_output_tangent:
        _check_other_cotangent_kinds(call, pullback, dy, cotangents, rtol, atol)
    if check_inplace_add:
        _check_accumulation(call, cotangents, rtol, atol)
    if check_frule_consistency and not call.with_f:
        _check_consistency(call.name, call.f, call.primals, call.tangents, dy, cotangents, call.fkwargs,
                           call.config, frule if frule_f is None else frule_f, rtol, atol)
    _report_not_implemented(call.name, notes)


def _check_partly_zero_cotangents(name: str, labels: list[str], pullback: Callable[[Any], Any], dy: Any,
                                  nargs: int, rtol: float, atol: float) -> None:
    """A structural output cotangent with a ``ZeroTangent()`` field acts as zeros there."""
    dy = unthunk(dy)
    if not isinstance(dy, Tangent):
        return
    stored = backing(dy)
    keys = list(stored) if isinstance(stored, dict) else list(range(len(stored)))
    if len(keys) < 2:
        return
    for key in keys:
        value = stored[key]
        if isinstance(unthunk(value), AbstractZero):
            continue
        where = f"ZeroTangent() in field {key!r}" if isinstance(key, str) else f"ZeroTangent() in field [{key}]"
        with_zero = _run_pullback(name, pullback, _with_field(dy, key, ZeroTangent()), nargs,
                                  f"with {where} of the output cotangent")
        with_zeros = _run_pullback(name, pullback, _with_field(dy, key, _dense_zeros_like(value)), nargs,
                                   "with zeros in one field of the output cotangent")
        _compare_pullbacks(name, labels, with_zeros, with_zero, rtol, atol,
                           f"with {where} of the output cotangent")


def _check_consistency(name: str, f: Any, primals: list[Any], tangents: list[Any], dy: Any,
                       cotangents: tuple[Any, ...], fkwargs: dict[str, Any], config: Any,
                       frule_f: Callable[..., Any], rtol: float, atol: float) -> None:
    """<dy, J dx> (from the frule) must equal sum_i <J^T dy, dx_i> (from the rrule).

    Arguments whose rrule cotangent is not implemented are held fixed (a zero tangent), so
    the rest of the two rules is still compared.
    """
    missing = [isinstance(unthunk(c), NotImplementedTangent) for c in cotangents[1:]]
    used = [ZeroTangent() if gone and not isinstance(t, NoTangent) else t for t, gone in zip(tangents, missing)]
    if all(isinstance(t, AbstractZero) for t in used):
        return
    result = _call_rule(frule_f, config, ((NoTangent(), *used),), f, list(primals), fkwargs)
    if result is None:
        return
    y, ydot = result
    ydot = unthunk(ydot)
    if _contains_not_implemented(ydot):  # a part of the frule's tangent is not implemented
        return
    rhs, rhs_scale = 0.0, 0.0
    for i, t in enumerate(used):
        if isinstance(t, AbstractZero):
            continue
        value, scale = _inner_terms(primals[i], unthunk(cotangents[i + 1]), t)
        rhs += value
        rhs_scale += scale
    lhs, lhs_scale = _inner_terms(y, dy, ydot)
    if not abs(lhs - rhs) <= atol + rtol * (lhs_scale + rhs_scale):
        raise AssertionError(f"{name}: the frule and the rrule disagree: <dy, frule tangent> = {lhs:.10g} but "
                             f"sum <rrule cotangent, dx> = {rhs:.10g}")


# ---- test_frule -------------------------------------------------------------------------------------
def _check_frule_result(call: _Call, result: Any) -> tuple[Any, Any]:
    if result is None:
        raise AssertionError(f"{call.name}: no frule for argument types ({_types(call.primals)})")
    try:
        y, ydot = result
    except (TypeError, ValueError):
        raise AssertionError(f"{call.name}: the frule must return (y, dy), got {type(result).__name__}") from None
    return y, ydot


def _parts(x: Any) -> tuple[str, Any] | None:
    """The parts of a structured tangent, keyed (``("dict", {...})`` or ``("seq", [...])``), or None for a leaf."""
    x = unthunk(x)
    if isinstance(x, Tangent):
        stored = backing(x)
        return ("dict", dict(stored)) if isinstance(stored, dict) else ("seq", list(stored))
    if isinstance(x, (tuple, list)) and not hasattr(x, "_fields"):
        return ("seq", list(x))
    if isinstance(x, tuple):  # a namedtuple
        return ("dict", dict(zip(getattr(x, "_fields"), x)))  # noqa: B009  (not every tuple has _fields)
    return None


def _fill_not_implemented(actual: Any, expected: Any, notes: list[str], path: str = "") -> Any:
    """``actual`` with each ``NotImplementedTangent`` part replaced by the matching part of ``expected``
    (its reason noted), so the parts that are implemented can still be compared."""
    actual = unthunk(actual)
    if isinstance(actual, NotImplementedTangent):
        notes.append(f"the output tangent{path}: {actual.info}")
        return expected
    mine, theirs = _parts(actual), _parts(expected)
    if mine is None or theirs is None or mine[0] != theirs[0] or len(mine[1]) != len(theirs[1]):
        return actual
    if mine[0] == "dict":
        filled = {k: _fill_not_implemented(v, theirs[1].get(k, ZeroTangent()), notes, f"{path}.{k}")
                  for k, v in mine[1].items()}
        return Tangent(actual.primal_type, **filled) if isinstance(actual, Tangent) else filled
    items = [_fill_not_implemented(v, e, notes, f"{path}[{k}]") for k, (v, e) in enumerate(zip(mine[1], theirs[1]))]
    return Tangent(actual.primal_type, *items) if isinstance(actual, Tangent) else type(actual)(items)


def _check_tangent_against_finite_differences(call: _Call, y: Any, ydot: Any, rtol: float, atol: float,
                                              notes: list[str]) -> None:
    """The output tangent equals the finite-difference ``jvp`` of the primal along the input tangents.

    With ``gauge_invariant=g`` both sides are pushed through ``g``: the rule's tangent by
    finite differences of ``g`` alone at ``y``. Parts of a structured tangent that are
    ``not_implemented`` are reported (as not implemented), and the others still compared.
    """
    diff = call.diff
    pairs = ([(call.f, call.f_tangent)] if call.with_f else []) + [(call.primals[i], call.tangents[i])
                                                                    for i in diff]
    expected = jvp(call.fdm, call.varied(), *pairs) if pairs else ZeroTangent()
    if call.gauge_invariant is None and _contains_not_implemented(ydot):
        ydot = _fill_not_implemented(ydot, expected, notes)
    _check_in_tangent_space(y, ydot, f"{call.name}: output tangent")
    actual = ydot if call.gauge_invariant is None else jvp(call.fdm, call.gauge_invariant, (y, ydot))
    check_approx(actual, expected, rtol=rtol, atol=atol, name=f"{call.name}: output tangent")


def _check_zero_tangents_give_zero(call: _Call, rule: Callable[..., Any]) -> None:
    """``ZeroTangent()`` for every argument (and ``NoTangent()`` for the callable) pushes forward to a zero."""
    zero_tangents = [t if isinstance(t, NoTangent) else ZeroTangent() for t in call.tangents]
    try:
        zero_result = call.run_rule(rule, ((NoTangent(), *zero_tangents),))
        is_zero = _zero_like(unthunk(zero_result[1]))
    except Exception as err:
        raise AssertionError(f"{call.name}: the frule fails on ZeroTangent() input tangents: "
                             f"{type(err).__name__}: {err}") from err
    if not is_zero:
        raise AssertionError(f"{call.name}: for ZeroTangent() input tangents, the output tangent is not zero")
    call.check_not_mutated("by the frule")


def test_frule(f: Any, *args: Any, fdm: FDMethod | None = None, rtol: float | None = None,
               atol: float | None = None, fkwargs: dict[str, Any] | None = None,
               config: RuleConfig | None = None, frule_f: Callable[..., Any] | None = None,
               rrule_f: Callable[..., Any] | None = None, check_rrule_consistency: bool = True,
               check_zero_tangents: bool = True, rng: Any = None,
               gauge_invariant: Callable[[Any], Any] | None = None) -> None:
    """Check the frule of ``f`` at ``args`` against finite differences and the rule contract.

    Parameters are those of :func:`test_rrule`; the tangents of the arguments (given with
    :class:`PrimalAndTangent` or random) are pushed forward and compared with the
    finite-difference ``jvp`` (of ``gauge_invariant(f(x))`` when given).
    ``check_zero_tangents`` also pushes forward ``ZeroTangent()`` for every argument, which
    must give a zero.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import frule
    >>> from chainrules.testing import test_frule
    >>> def double(x):
    ...     return 2 * x
    >>> @frule.register(double, np.ndarray)
    ... def double_frule(tangents, x):
    ...     return double(x), 2 * tangents[1]
    >>> test_frule(double, np.array([1.0, 2.0]))
    """
    call = _Call.prepare("test_frule", f, args, fkwargs, config, fdm, rng, gauge_invariant, NoTangent())
    tangents_before = copy.deepcopy(call.tangents)
    rule = frule if frule_f is None else frule_f
    y, ydot = _check_frule_result(call, call.run_rule(rule, ((call.f_tangent, *call.tangents),)))
    call.check_not_mutated("by the frule")
    _check_not_mutated(call.name, [f"the tangent of {lab}" for lab in call.labels], tangents_before, call.tangents,
                       "by the frule")
    rtol, atol = _tolerances(rtol, atol, y, *call.primals)
    _check_primal(call.name, y, call.primal_output(), rtol, atol)
    _check_no_aliasing(f"{call.name}: the output tangent", ydot,
                       [(label, p) for label, p in zip(call.labels, call.primals)])

    ydot = unthunk(ydot)
    notes: list[str] = []
    if isinstance(ydot, NotImplementedTangent):
        notes.append(f"the output tangent: {ydot.info}")
    else:
        _check_tangent_against_finite_differences(call, y, ydot, rtol, atol, notes)
    if check_zero_tangents:
        _check_zero_tangents_give_zero(call, rule)
    if check_rrule_consistency and not call.with_f and not isinstance(ydot, NotImplementedTangent):
        back = call.run_rule(rrule if rrule_f is None else rrule_f, ())
        if back is not None:
            dy, _ = _cotangent_for_the_pullback(call, y, None)
            cotangents = _run_pullback(call.name, back[1], dy, len(call.primals), "on the output cotangent (rrule)")
            _check_consistency(call.name, call.f, call.primals, call.tangents, dy, cotangents, call.fkwargs,
                               call.config, rule, rtol, atol)
    _report_not_implemented(call.name, notes)


# ---- test_scalar ------------------------------------------------------------------------------------
def _unit(z: Any, imaginary: bool) -> Any:
    if isinstance(z, np.generic):
        return z.dtype.type(1j if imaginary else 1)
    if isinstance(z, np.ndarray):
        return np.full(z.shape, 1j if imaginary else 1, dtype=z.dtype)
    return 1j if imaginary else (1.0 if not isinstance(z, complex) else 1.0 + 0j)


def test_scalar(f: Any, z: Any, *, rtol: float | None = None, atol: float | None = None,
                fdm: FDMethod | None = None, fkwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """Check the frule and the rrule of a scalar function at ``z`` (real or complex).

    For a complex ``z`` the frule is checked along the real and the imaginary direction,
    and the rrule with real and imaginary output cotangents when the output is complex.
    Every check runs even if an earlier one found a ``not_implemented`` derivative; those
    are reported once at the end.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules.testing import test_scalar
    >>> test_scalar(np.sin, 0.5)
    >>> test_scalar(np.sin, 0.5 + 0.25j)
    >>> test_scalar(np.sin, np.float32(0.5))
    """
    options = dict(rtol=rtol, atol=atol, fdm=fdm, fkwargs=fkwargs, **kwargs)
    frule_options = {k: v for k, v in options.items()
                     if k not in ("output_tangent", "check_thunked_output_tangent", "check_inplace_add",
                                  "check_frule_consistency")}
    rrule_options = {k: v for k, v in options.items() if k not in ("check_rrule_consistency",
                                                                   "check_zero_tangents")}
    complex_input = np.iscomplexobj(z)
    directions = [_unit(z, False)] + ([_unit(z, True)] if complex_input else [])
    with _collect_not_implemented() as notes:
        for dz in directions:
            test_frule(f, PrimalAndTangent(z, dz), **frule_options)
        y = f(z, **(fkwargs or {}))
        outputs = [_unit(y, False)] + ([_unit(y, True)] if np.iscomplexobj(y) else [])
        for dy in outputs:
            test_rrule(f, z, output_tangent=dy, **rrule_options)
    if notes:
        _report_not_implemented(f"test_scalar({_describe(f)})", list(dict.fromkeys(notes)))


# The testers are named after their Julia counterparts; keep pytest from collecting them as
# tests when a test module imports them.
test_rrule.__test__ = False  # type: ignore[attr-defined]
test_frule.__test__ = False  # type: ignore[attr-defined]
test_scalar.__test__ = False  # type: ignore[attr-defined]
