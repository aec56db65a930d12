"""The implicit function theorem at a solver's answer: what every optimize rule shares.

A solver returns ``x*`` with ``F(x*, theta) = 0`` for some equation ``F`` (the residual of a
root finder, the gradient of an objective, the normal equations of a fit). If the Jacobian
``J = dF/dx`` at ``x*`` is invertible, ``x*`` is locally a smooth function of ``theta``, and

* forward mode: ``J dx = -(dF/dtheta) dtheta``;
* reverse mode: ``J^T u = x_bar``, then ``theta_bar = -(dF/dtheta)^T u``: one linear solve with
  the transposed Jacobian, then one vector-Jacobian product of ``F`` in ``theta`` at ``u``.

Nothing depends on how the solver got there, nor on its starting point. ``F`` is
differentiated through the config of the calling AD (:func:`~chainrules_core.rrule_via_ad`,
:func:`~chainrules_core.frule_via_ad`): :class:`ReverseLinearization` and
:class:`ForwardLinearization` wrap ``fun(x, *args)`` at ``x*``; ``theta`` are ``args`` (and the
values the callable itself carries, when the AD reports them).

**Solving with J.** :func:`solve` (``J v = b``) and :func:`solve_adjoint` (``J^T u = b``):

* with a dense Jacobian the user's ``jac`` gives (cheap and usually exact), one LU solve; its
  answer is then checked against the AD's own ``J^T u`` (the final vector-Jacobian product
  computes it anyway) and, where they disagree, refined by GMRES on the AD's operator with the
  user's LU as preconditioner (:func:`refine_adjoint`): a wrong ``jac`` never gives a wrong
  derivative;
* up to ``DIRECT_UP_TO = 16`` unknowns, ``J`` is formed at once by ``n`` products with the AD
  (columns by ``frule_via_ad``, rows by the pullback) and LU-factored;
* above, a Krylov solve first (GMRES; MINRES for the symmetric Hessians of ``minimize``), one AD
  product per iteration, to a relative residual of ``RTOL = 1e-12``. Up to ``DENSE_UP_TO = 1000``
  unknowns every product it asked for is kept: if it has not converged after ``n`` of them (a
  badly conditioned ``J``), ``J`` is completed from them (known on their span, and from new
  products on the orthogonal complement of it) and LU-factored. So the solve never costs more
  than the ``n`` products of forming ``J`` (plus round-off-dependent rank losses), and usually
  far fewer. Above ``DENSE_UP_TO`` GMRES is restarted every 100 iterations and gets ``n`` of
  them, then ``J`` is formed anew: ``n`` more products and ``n^3/3`` flops are the price of
  exactness there.

Why: the benchmark's 100-unknown root (``benchmarks/test_optimize.py``, ``J = I + diag(.) W / 2``
with ``|W| ~ 0.8``) needs 23 GMRES iterations to 1e-12 (25 products with the final pullback,
against 101 for forming ``J``: 4.4 ms against 5.9 ms through autograd, best of 7). Each product
the solve needs is a pullback (or pushforward) of ``x -> fun(x, *args)`` alone where the config
can differentiate that closure (autograd: half the cost of a pullback that also returns the
cotangents of ``args``); the cotangents of ``args`` come from one full pullback at the end.

A singular (or numerically singular, ``rcond < eps``) ``J`` has no implicit derivative: the
solve raises :class:`ImplicitDerivativeError`, as does a result the solver reported as not
converged (``success=False``): an implicit derivative at a point that is not a solution is wrong.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.linalg
import scipy.sparse.linalg

from chainrules_core import (
    AbstractZero,
    NoTangent,
    NotImplementedTangent,
    ProjectionError,
    ProjectTo,
    Tangent,
    ZeroTangent,
    backing,
    differentiable,
    frule_via_ad,
    not_implemented,
    read_cotangent,
    rrule_via_ad,
    unthunk,
)

__all__ = [
    "DENSE_UP_TO",
    "DIRECT_UP_TO",
    "RTOL",
    "ForwardLinearization",
    "ImplicitDerivativeError",
    "MissingDerivative",
    "ReverseLinearization",
    "args_cotangent",
    "args_tangents",
    "bind",
    "flat",
    "read_result_cotangent",
    "refine_adjoint",
    "solve",
    "solve_adjoint",
    "zero_cotangent",
]

DIRECT_UP_TO = 16
"""Up to this many unknowns ``J`` is formed at once (``n`` products) and LU-factored (see the module docstring)."""

DENSE_UP_TO = 1000
"""Up to this many unknowns a Krylov solve that has not converged in ``n`` products gives way to ``J``, completed from
those products; above it, to ``J`` formed anew (see the module docstring)."""

RTOL = 1e-12
"""Relative residual the matrix-free solves aim for."""

NO = NoTangent()
ZERO = ZeroTangent()


class ImplicitDerivativeError(ValueError):
    """The implicit derivative does not exist: the solver did not converge, or ``J`` is singular at the solution.

    Examples
    --------
    >>> from chainrules.rulesets.optimize import ImplicitDerivativeError
    >>> issubclass(ImplicitDerivativeError, ValueError)
    True
    """


class MissingDerivative(Exception):  # noqa: N818  (carries a tangent, not an error state)
    """Raised inside a rule when the AD returned ``not_implemented`` for a derivative the solve needs."""

    def __init__(self, tangent: NotImplementedTangent) -> None:
        super().__init__(tangent.info)
        self.tangent = tangent


# ---- arguments -----------------------------------------------------------------------------------------------------
@functools.cache
def _signature(f: Any) -> inspect.Signature:
    return inspect.signature(f)


def bind(f: Any, positional: Sequence[Any], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a call ``f(*positional, **kwargs)`` by name, defaults filled in.

    Examples
    --------
    >>> import scipy.optimize
    >>> bind(scipy.optimize.brentq, (abs, 0.0, 1.0), {"xtol": 1e-3})["args"]
    ()
    """
    bound = _signature(f).bind(*positional, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def zero_cotangent(value: Any) -> Any:
    """``ZeroTangent()`` for a differentiable argument, ``NoTangent()`` for the others (flags, callables...)."""
    return ZERO if differentiable(value) else NO


def args_tuple(args: Any) -> tuple[Any, ...]:
    """``args`` as SciPy passes it on: a tuple (a single non-tuple value is wrapped, as SciPy does)."""
    return args if isinstance(args, tuple) else (args,)


def args_cotangent(args: Any, parts: Sequence[Any]) -> Any:
    """The cotangent of the ``args`` argument from one cotangent per element of ``args_tuple(args)``.

    Each part is projected onto its element; a tuple gets ``Tangent(tuple, ...)`` (``NoTangent()``
    when nothing in it is differentiable), a single non-tuple ``args`` its own cotangent.
    """
    if not isinstance(args, tuple):
        return _project_part(args, parts[0])
    if not differentiable(args):
        return NO
    return Tangent(tuple, *(_project_part(a, p) for a, p in zip(args, parts)))


def _project_part(value: Any, part: Any) -> Any:
    part = unthunk(part)
    if not differentiable(value):
        return NO
    if part is None or isinstance(part, AbstractZero):
        return ZERO
    if isinstance(part, NotImplementedTangent):
        return part
    return ProjectTo(value)(part)


def args_zero_cotangent(args: Any) -> Any:
    """The zero cotangent of ``args``: ``NoTangent()`` if nothing in it is differentiable, else ``ZeroTangent()``."""
    return ZERO if differentiable(args) else NO


def args_tangents(dargs: Any, args: Any) -> list[Any]:
    """One tangent per element of ``args_tuple(args)`` from the tangent of the ``args`` argument."""
    items = args_tuple(args)
    dargs = unthunk(dargs)
    if not isinstance(args, tuple):
        return [_tangent_part(dargs, items[0])]
    if dargs is None or isinstance(dargs, AbstractZero):
        return [zero_cotangent(a) for a in items]
    if isinstance(dargs, NotImplementedTangent):
        raise MissingDerivative(dargs)
    parts = backing(dargs) if isinstance(dargs, Tangent) else dargs
    if not isinstance(parts, (tuple, list)) or len(parts) != len(items):
        raise TypeError(f"the tangent of args must be a Tangent(tuple, ...) of {len(items)} parts, got {dargs!r}")
    return [_tangent_part(p, a) for p, a in zip(parts, items)]


def _tangent_part(t: Any, value: Any) -> Any:
    t = unthunk(t)
    if not differentiable(value):
        return NO
    if t is None or isinstance(t, AbstractZero):
        return ZERO
    if isinstance(t, NotImplementedTangent):
        raise MissingDerivative(t)
    return t


def is_zero(t: Any) -> bool:
    """Whether a tangent is a zero (``None``, a zero tangent, or all zeros)."""
    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return True
    if isinstance(t, Tangent):
        parts = backing(t)
        return all(is_zero(v) for v in (parts.values() if isinstance(parts, dict) else parts))
    if isinstance(t, (tuple, list)):
        return all(is_zero(v) for v in t)
    if isinstance(t, NotImplementedTangent):
        return False
    try:
        return not np.any(np.asarray(t))
    except (TypeError, ValueError):
        return False


# ---- output cotangents of result objects ---------------------------------------------------------------------------
def read_result_cotangent(dy: Any, result: Mapping[str, Any], fields: Sequence[str], f: Any,
                          unsupported: Mapping[str, str] | None = None) -> Any:
    """Read the cotangent of an ``OptimizeResult`` (or ``RootResults``): the cotangents of ``fields``.

    Accepts a structural ``Tangent`` of the result (or of a dict), a mapping (the natural
    tangent), or a zero / not-implemented tangent (returned unchanged). Each of ``fields`` is
    read with :func:`~chainrules_core.read_cotangent`. The other fields have no tangent
    (``NoTangent()`` in the frules) and take any cotangent, which is ignored: the counts and
    flags (``nfev``, ``success``, ``message``) and, like ``quad``'s error estimate, the solver's
    internal state (``fjac``, ``hess_inv``, ``final_simplex``, ``population``...: approximations
    built along its iterations, not functions of the solution). ``unsupported`` names the fields
    that are functions of the solution whose derivative is not implemented (with the reason): a
    cotangent there above round-off (``NEGLIGIBLE`` of the largest of ``fields``) makes the
    result a ``NotImplementedTangent``.

    Returns
    -------
    dict, AbstractZero or NotImplementedTangent
        ``{field: array, number or None}`` (``None`` for a zero).
    """
    dy = unthunk(dy)
    if isinstance(dy, (AbstractZero, NotImplementedTangent)):
        return dy
    name = _name(f)
    kind = type(result).__name__
    if isinstance(dy, Tangent):
        stored = backing(dy)
        if not isinstance(stored, dict) or not (issubclass(dy.primal_type, Mapping)):
            raise ProjectionError(f"{name} pullback: output cotangent is a Tangent of {dy.primal_type.__name__}, "
                                  f"expected a Tangent of {kind} (fields {', '.join(fields)})")
        items: Mapping[Any, Any] = stored
    elif isinstance(dy, Mapping):
        items = dy
    else:
        raise ProjectionError(f"{name} pullback: output cotangent is a {type(dy).__name__}, expected a Tangent of "
                              f"{kind} (fields {', '.join(fields)})")
    out: dict[str, Any] = {}
    internal: dict[str, Any] = {}
    for key, value in items.items():
        if key in fields:
            read = read_cotangent(value, result[key], f, f"cotangent of field {key!r}")
            if isinstance(read, NotImplementedTangent):
                return read
            out[key] = None if isinstance(read, AbstractZero) else read
        elif key in result:
            if unsupported and key in unsupported and not is_zero(value):
                internal[key] = value
        else:
            raise ProjectionError(f"{name} pullback: output cotangent has a field {key!r} the {kind} does not have")
    for key in fields:
        out.setdefault(key, None)
    scale = max((float(np.max(np.abs(v))) for v in out.values() if v is not None and np.size(v)), default=0.0)
    for key, value in internal.items():
        if _magnitude(value) > NEGLIGIBLE * scale:
            assert unsupported is not None
            return not_implemented(f"{name}: the derivative of the field {key!r} of the result is not implemented "
                                   f"({unsupported[key]}); the derivatives of {', '.join(fields)} are")
    return out


NEGLIGIBLE = 1e-10
"""A cotangent on an unsupported field at most this fraction of the largest cotangent of the differentiated
fields is round-off (finite differences of a function of the solution leave ~1e-15 there) and is ignored."""


def _magnitude(value: Any) -> float:
    value = unthunk(value)
    if isinstance(value, (tuple, list)):
        return max((_magnitude(v) for v in value), default=0.0)
    if isinstance(value, Tangent):
        parts = backing(value)
        return max((_magnitude(v) for v in (parts.values() if isinstance(parts, dict) else parts)), default=0.0)
    try:
        arr = np.asarray(value)
        return float(np.max(np.abs(arr))) if arr.size and arr.dtype.kind in "fciub" else np.inf
    except (TypeError, ValueError):
        return np.inf


def _name(f: Any) -> str:
    if isinstance(f, str):
        return f
    module = getattr(f, "__module__", "") or ""
    short = getattr(f, "__name__", repr(f))
    return f"scipy.optimize.{short}" if module.startswith("scipy.optimize") else short


# ---- flat vectors --------------------------------------------------------------------------------------------------
def flat(t: Any, like: Any, what: str = "a derivative") -> np.ndarray:
    """A tangent of ``like`` as a flat float array (zeros for a zero tangent)."""
    t = unthunk(t)
    if t is None or isinstance(t, AbstractZero):
        return np.zeros(np.size(like))
    if isinstance(t, NotImplementedTangent):
        raise MissingDerivative(t)
    arr = np.asarray(t)
    if arr.dtype.kind == "c":
        arr = arr.real
    if arr.size != np.size(like):
        raise ValueError(f"{what} has {arr.size} entries, expected {np.size(like)}")
    return arr.astype(np.float64, copy=False).ravel()


def shaped(v: np.ndarray, like: Any) -> Any:
    """A flat vector in the shape of ``like`` (a Python float for a scalar ``like``)."""
    if np.ndim(like) == 0 and not isinstance(like, np.ndarray):
        return float(v[0])
    return np.reshape(v, np.shape(like))


# ---- the equation, linearised through the config ------------------------------------------------------------------
_UNSET: Any = object()


class _Partial:
    """``x -> fun(x, *args)``: the equation as a function of the unknowns alone."""

    __slots__ = ("args", "fun")

    def __init__(self, fun: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fun = fun
        self.args = args

    def __call__(self, x: Any) -> Any:
        return self.fun(x, *self.args)


class ReverseLinearization:
    """``F(x, *args)`` at the solution in reverse mode: ``J^T v`` and ``(dF/dtheta)^T v`` through ``rrule_via_ad``.

    Parameters
    ----------
    config : RuleConfig
        The calling AD's config.
    fun : callable
        Called as ``fun(x, *args)``.
    x : ndarray or float
        The solution, as the solver passes it to ``fun``.
    args : tuple
        The extra arguments.
    part : int, optional
        When ``fun`` returns a tuple (``jac=True``: ``(F, J)``), the index of ``F`` in it.
    """

    def __init__(self, config: Any, fun: Callable[..., Any], x: Any, args: tuple[Any, ...],
                 part: int | None = None) -> None:
        self.x = x
        self.args = args
        y, self._pullback = rrule_via_ad(config, fun, x, *args)
        self.output = y
        self.part = part
        self.value = y if part is None else y[part]
        self.n = int(np.size(x))
        self.m = int(np.size(self.value))
        self._config = config
        self._fun = fun
        self._x_pullback: Any = _UNSET

    def _x_only(self) -> Any:
        """The pullback of ``x -> fun(x, *args)`` alone (``args`` held constant): the products the solve needs
        cost less (autograd skips the cotangents of ``args``: half the time of a full pullback on the
        benchmark's root). ``None`` when the config cannot differentiate that closure (``RulesOnlyConfig``) or
        there is nothing to save."""
        if self._x_pullback is _UNSET:
            self._x_pullback = None
            if any(differentiable(a) for a in self.args):
                try:
                    _, self._x_pullback = rrule_via_ad(self._config, _Partial(self._fun, self.args), self.x)
                except Exception:  # the full pullback below raises what there is to raise
                    self._x_pullback = None
        return self._x_pullback

    def _output_cotangent(self, v: np.ndarray) -> Any:
        ct = shaped(v, self.value)
        if self.part is None:
            return ct
        parts: list[Any] = [ZERO] * len(self.output)
        parts[self.part] = ct
        return Tangent(tuple, *parts)

    def pull(self, v: np.ndarray) -> tuple[Any, ...]:
        """The AD's cotangents ``(d_fun, d_x, *d_args)`` for the output cotangent ``v`` (flat, of ``F``)."""
        return tuple(self._pullback(self._output_cotangent(v)))

    def adjoint(self, v: np.ndarray) -> np.ndarray:
        """``J^T v``, flat."""
        pullback = self._x_only()
        if pullback is not None:
            return flat(pullback(self._output_cotangent(v))[1], self.x, "the cotangent of x")
        return flat(self.pull(v)[1], self.x, "the cotangent of x")

    def jacobian(self) -> np.ndarray:
        """``J`` (``m`` by ``n``), row by row: ``m`` pullbacks."""
        eye = np.eye(self.m)
        return np.stack([self.adjoint(eye[i]) for i in range(self.m)]) if self.m else np.zeros((0, self.n))


class ForwardLinearization:
    """``F(x, *args)`` at the solution in forward mode: ``J v`` and ``(dF/dtheta) dtheta`` through ``frule_via_ad``."""

    def __init__(self, config: Any, fun: Callable[..., Any], x: Any, args: tuple[Any, ...],
                 part: int | None = None) -> None:
        self.config = config
        self.fun = fun
        self.x = x
        self.args = args
        self.part = part
        self.n = int(np.size(x))
        self._zero_args = [zero_cotangent(a) for a in args]
        self._x_only = True

    def push(self, dfun: Any, dx: Any, dargs: Sequence[Any]) -> tuple[Any, np.ndarray]:
        """``(F, dF)`` with ``dF`` flat, along the tangents of the callable, ``x`` and ``args``."""
        y, dy = frule_via_ad(self.config, (dfun, dx, *dargs), self.fun, self.x, *self.args)
        value = y if self.part is None else y[self.part]
        dy = unthunk(dy)
        if self.part is not None and not isinstance(dy, (AbstractZero, NotImplementedTangent)):
            dy = unthunk(backing(dy)[self.part] if isinstance(dy, Tangent) else dy[self.part])
        return value, flat(dy, value, "the tangent of fun's output")

    def matvec(self, v: np.ndarray) -> np.ndarray:
        """``J v``, flat (a pushforward of ``x -> fun(x, *args)`` alone where the config can differentiate it)."""
        if self._x_only and any(differentiable(a) for a in self.args):
            try:
                y, dy = frule_via_ad(self.config, (NO, shaped(v, self.x)), _Partial(self.fun, self.args), self.x)
            except Exception:  # the full pushforward below raises what there is to raise
                self._x_only = False
            else:
                value = y if self.part is None else y[self.part]
                dy = unthunk(dy)
                if self.part is not None and not isinstance(dy, (AbstractZero, NotImplementedTangent)):
                    dy = unthunk(backing(dy)[self.part] if isinstance(dy, Tangent) else dy[self.part])
                return flat(dy, value, "the tangent of fun's output")
        return self.push(NO, shaped(v, self.x), self._zero_args)[1]

    def jacobian(self) -> np.ndarray:
        """``J`` column by column: ``n`` pushforwards."""
        eye = np.eye(self.n)
        return np.stack([self.matvec(eye[j]) for j in range(self.n)], axis=-1)


# ---- linear solves -------------------------------------------------------------------------------------------------
def _dense_solve(a: np.ndarray, b: np.ndarray, name: str, what: str, transposed: bool = False,
                 symmetric: bool = False) -> np.ndarray:
    if a.shape[0] != a.shape[1]:
        raise ImplicitDerivativeError(f"{name}: {what} is {a.shape[0]} by {a.shape[1]}, not square: the equations "
                                      "do not determine the solution locally")
    with warnings.catch_warnings():
        warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
        try:
            return scipy.linalg.solve(a.T if transposed else a, b, assume_a="sym" if symmetric else "gen")
        except (np.linalg.LinAlgError, scipy.linalg.LinAlgWarning) as err:
            raise ImplicitDerivativeError(
                f"{name}: {what} is singular at the solution ({err}): the solution is not locally unique, so it has "
                "no derivative") from None


def _iterative(matvec: Callable[[np.ndarray], np.ndarray], b: np.ndarray, symmetric: bool,
               x0: np.ndarray | None = None, preconditioner: Any = None,
               maxiter: int | None = None) -> tuple[np.ndarray, bool]:
    n = b.size
    op = scipy.sparse.linalg.LinearOperator((n, n), matvec=matvec, dtype=np.float64)
    norm = float(np.linalg.norm(b))
    if norm == 0:
        return np.zeros(n), True
    budget = n if maxiter is None else max(1, min(maxiter, n))
    if symmetric and preconditioner is None:
        sol, info = scipy.sparse.linalg.minres(op, b, x0=x0, rtol=RTOL, maxiter=budget)
    else:  # one cycle of GMRES(budget), or cycles of GMRES(100) for larger budgets
        restart = min(budget, 100)
        sol, info = scipy.sparse.linalg.gmres(op, b, x0=x0, rtol=RTOL, atol=0.0, restart=restart,
                                              maxiter=-(-budget // restart), M=preconditioner)
    if info == 0:
        return sol, True
    return sol, float(np.linalg.norm(matvec(sol) - b)) <= 10 * RTOL * norm


class _Recorder:
    """A matrix-vector product that keeps what it was asked and what it answered (to reuse them if the Krylov
    solve does not converge)."""

    def __init__(self, matvec: Callable[[np.ndarray], np.ndarray]) -> None:
        self.matvec = matvec
        self.inputs: list[np.ndarray] = []
        self.outputs: list[np.ndarray] = []

    def __call__(self, v: np.ndarray) -> np.ndarray:
        v = np.array(v, dtype=np.float64).ravel()
        out = np.asarray(self.matvec(v), dtype=np.float64)
        if np.any(v):
            self.inputs.append(v)
            self.outputs.append(out.copy())  # the Krylov solver may update what it is given in place
        return out

    def matrix(self, n: int) -> np.ndarray:
        """The ``n`` by ``n`` matrix ``A`` of the product: ``A`` on the span of the recorded inputs from the recorded
        outputs, and on its orthogonal complement from ``n - rank`` new products."""
        basis = np.zeros((n, 0))
        image = np.zeros((n, 0))
        if self.inputs:
            x = np.stack(self.inputs, axis=-1)
            y = np.stack(self.outputs, axis=-1)
            q, r, piv = scipy.linalg.qr(x, mode="economic", pivoting=True)
            diag = np.abs(np.diag(r))
            rank = int(np.count_nonzero(diag > 1e-6 * diag[0])) if diag.size else 0  # condition of R <= 1e6
            basis = q[:, :rank]
            image = scipy.linalg.solve_triangular(r[:rank, :rank].T, y[:, piv[:rank]].T, lower=True).T
        full = scipy.linalg.qr(basis, mode="full")[0] if basis.shape[1] else np.eye(n)
        complement = full[:, basis.shape[1]:]
        rest = np.stack([self.matvec(complement[:, j]) for j in range(complement.shape[1])], axis=-1) \
            if complement.shape[1] else np.zeros((n, 0))
        q_all = np.concatenate([basis, complement], axis=1)
        return np.concatenate([image, rest], axis=1) @ q_all.T


def _krylov_then_dense(matvec: Callable[[np.ndarray], np.ndarray], jacobian: Callable[[], np.ndarray],
                       b: np.ndarray, symmetric: bool, name: str, what: str, transposed: bool) -> np.ndarray:
    """The policy of the module docstring: ``J`` at once for a few unknowns; else Krylov first, then ``J``."""
    n = b.size
    if n <= DIRECT_UP_TO:
        return _dense_solve(jacobian(), b, name, what, transposed=transposed, symmetric=symmetric)
    if n <= DENSE_UP_TO:
        recorder = _Recorder(matvec)
        sol, converged = _iterative(recorder, b, symmetric)
        if converged:
            return sol
        return _dense_solve(recorder.matrix(n), b, name, what, symmetric=symmetric)
    sol, converged = _iterative(matvec, b, symmetric)
    if converged:
        return sol
    return _dense_solve(jacobian(), b, name, what, transposed=transposed, symmetric=symmetric)


def solve_adjoint(lin: Any, b: np.ndarray, name: str, what: str = "the Jacobian of the equations",
                  jacobian: np.ndarray | None = None, symmetric: bool = False) -> np.ndarray:
    """``u`` with ``J^T u = b``, ``J`` the Jacobian ``lin`` (a :class:`ReverseLinearization` or alike) stands for.

    ``jacobian``: a dense ``J`` from the user (checked afterwards, see :func:`refine_adjoint`).
    """
    if jacobian is not None:
        return _dense_solve(np.asarray(jacobian, dtype=np.float64), b, name, what, transposed=True,
                            symmetric=symmetric)
    return _krylov_then_dense(lin.adjoint, lin.jacobian, b, symmetric, name, what, transposed=True)


def solve(lin: Any, b: np.ndarray, name: str, what: str = "the Jacobian of the equations",
          jacobian: np.ndarray | None = None, symmetric: bool = False) -> np.ndarray:
    """``v`` with ``J v = b`` (forward mode); ``J`` from ``lin.matvec`` / ``lin.jacobian()``, or the user's."""
    if jacobian is not None:
        jac = np.asarray(jacobian, dtype=np.float64)
        v = _dense_solve(jac, b, name, what, symmetric=symmetric)
        return refine(lin, b, v, jac, name, what)
    return _krylov_then_dense(lin.matvec, lin.jacobian, b, symmetric, name, what, transposed=False)


_CHECK = 1e-8
"""Relative residual above which a solve with the user's Jacobian is refined with the AD's own products."""


def _disagrees(residual: np.ndarray, b: np.ndarray, scale: np.ndarray) -> bool:
    return bool(np.linalg.norm(residual) > _CHECK * (np.linalg.norm(b) + np.linalg.norm(scale)))


def _warn_jacobian(name: str, relative: float) -> None:
    warnings.warn(f"{name}: the Jacobian the user's jac returns at the solution disagrees with the derivative of the "
                  f"function (relative residual {relative:.1e}); the implicit derivative uses the function's own "
                  "derivative", RuntimeWarning, stacklevel=4)


def refine(lin: Any, b: np.ndarray, v: np.ndarray, jac: np.ndarray, name: str, what: str) -> np.ndarray:
    """Forward mode: check ``J_AD v = b`` for ``v`` from the user's Jacobian; refine by GMRES where it fails."""
    jv = lin.matvec(v)
    if not _disagrees(jv - b, b, jv):
        return v
    _warn_jacobian(name, float(np.linalg.norm(jv - b) / max(np.linalg.norm(b), 1e-300)))
    sol, converged = _iterative(lin.matvec, b, False, x0=v, preconditioner=_lu_preconditioner(jac, False))
    if converged:
        return sol
    return _dense_solve(lin.jacobian(), b, name, what)


def refine_adjoint(lin: Any, b: np.ndarray, u: np.ndarray, jtu: np.ndarray, jac: np.ndarray, name: str,
                   what: str) -> np.ndarray | None:
    """Reverse mode: ``u`` came from the user's Jacobian and ``jtu`` is the AD's ``J^T u``.

    Returns ``None`` when they agree (``u`` stands), else a refined ``u`` (GMRES on the AD's
    ``J^T`` preconditioned by the user's LU, or a dense solve), after a ``RuntimeWarning``.
    """
    if not _disagrees(jtu - b, b, jtu):
        return None
    _warn_jacobian(name, float(np.linalg.norm(jtu - b) / max(np.linalg.norm(b), 1e-300)))
    sol, converged = _iterative(lin.adjoint, b, False, x0=u, preconditioner=_lu_preconditioner(jac, True))
    if converged:
        return sol
    return _dense_solve(lin.jacobian(), b, name, what, transposed=True)


def _lu_preconditioner(jac: np.ndarray, transposed: bool) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            factors = scipy.linalg.lu_factor(jac)
    except (ValueError, np.linalg.LinAlgError):
        return None
    if not np.all(np.isfinite(factors[0])) or np.any(np.diag(factors[0]) == 0):
        return None
    n = jac.shape[0]
    return scipy.sparse.linalg.LinearOperator(
        (n, n), matvec=lambda r: scipy.linalg.lu_solve(factors, r, trans=1 if transposed else 0), dtype=np.float64)
