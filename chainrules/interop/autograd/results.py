"""SciPy's result objects as values autograd traces: ``OptimizeResult`` (and its subclasses, ``OdeResult``...)
and ``RootResults``; and tuples and lists some of whose parts are constants (``odeint(...,
full_output=True)``'s ``(y, infodict)``, ``fsolve``'s ``(x, infodict, ier, mesg)``).

``primitive(scipy.optimize.minimize)`` returns an ``OptimizeResult``; autograd can only carry a
primitive's output through its trace if it has a vector space for it. :class:`ResultVSpace` is
the vector space of a result's *traced* fields: those holding floating values that autograd has
a vector space for (``x``, ``fun``, ``jac``: floating numbers and arrays; ``t_events``: a list
of arrays; a nested result). :class:`ResultBox` is the traced result: ``res.x`` and ``res["x"]``
read a traced field as a traced value (``autograd.builtins.container_take``, whose derivative
puts the cotangent back in that field); a *constant* field (``nfev``, ``message``, ``success``,
``status``, integer arrays: numbers, strings, flags and containers of them) reads as its plain
value. Any other field (``solve_ivp``'s dense output ``sol``, L-BFGS-B's ``hess_inv`` operator)
is an object autograd cannot trace, whose use would silently leave its part out of the
derivative: reading it from a traced result raises :class:`UntracedFieldError`, which says how
to read it plainly (``autograd.tracer.getval(res).sol``) where no derivative goes through it.
Cotangents and tangents of a result are ``dict`` s of its traced fields, which the bridge
converts to and from structural ``Tangent`` s of the result
(``chainrules.interop.autograd.conversion``).

Why a vector space rather than a conversion at the primitive's boundary (returning a plain
``dict`` of the fields, say): the user gets SciPy's own object back, with its attribute access,
its ``repr`` and its non-differentiable fields as they are, and a field nobody reads costs
nothing (its cotangent stays a zero the rule skips). autograd looks vector spaces up by exact
type, so each result class is registered (:func:`register_result_type`).

A tuple or list output holding parts autograd has no vector space for (integers, strings, a
``dict`` of diagnostics) cannot be traced whole: :func:`traced_output` boxes it as a
:class:`ConstantParts` (the same vector space, over the positions that have one) and gives the
user a plain tuple (or list) whose traceable parts are traced values taken from it and whose
other parts are the plain values, so ``y, info = odeint(..., full_output=True)`` works.

Examples
--------
>>> import numpy as np, scipy.optimize
>>> import autograd, autograd.numpy as anp
>>> from chainrules.interop.autograd import primitive
>>> minimize = primitive(scipy.optimize.minimize)
>>> def argmin(b):                      # argmin of (x - b)**2 + x**4 / 4 ...
...     res = minimize(lambda x, b: anp.sum((x - b) ** 2) + anp.sum(x ** 4) / 4, np.zeros(2), (b,), tol=1e-10)
...     return res.x[0]
>>> b = np.array([1.0, 2.0])
>>> x = argmin(b)
>>> bool(np.isclose(autograd.grad(argmin)(b)[0], 2 / (2 + 3 * x ** 2)))     # ... moves as 2 / (2 + 3 x**2)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.optimize
from autograd.builtins import container_take
from autograd.extend import Box, VSpace, vspace
from autograd.tracer import getval, new_box

from chainrules.interop._outputs import is_floating as _is_floating

__all__ = ["RESULT_TYPES", "ConstantParts", "ResultBox", "ResultVSpace", "UntracedFieldError", "register_result_type",
           "traced_fields", "traced_output"]


class UntracedFieldError(TypeError):
    """A field of a traced result that autograd cannot trace (an object: a dense output, an operator) was read.

    Its use would silently leave its part out of the derivative, so it is refused; read it from
    the plain result (``autograd.tracer.getval(res).sol``) where no derivative goes through it.
    """


def _holds_floating(value: Any) -> bool:
    value = getval(value)  # a box of an inner trace (a derivative of a derivative): its value decides
    if isinstance(value, dict):
        return any(_holds_floating(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return any(_holds_floating(v) for v in value)
    return _is_floating(value)


def _traceable(value: Any) -> bool:
    """Whether autograd can trace ``value`` as a part of an output: it holds floating values and has a vector space."""
    if not _holds_floating(value):
        return False
    try:
        vspace(value)
    except (TypeError, AssertionError):
        return False
    return True


def _is_constant(value: Any) -> bool:
    """Numbers that are not floating, strings, flags, ``None``, non-floating arrays, and containers of them."""
    if value is None or isinstance(value, (bool, int, str, bytes, np.integer, np.bool_, np.str_)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fcO"
    if isinstance(value, dict):
        return all(_is_constant(v) for v in value.values())
    if isinstance(value, (tuple, list)):
        return all(_is_constant(v) for v in value)
    return False


def traced_fields(result: Any) -> list[Any]:
    """The fields of a result that autograd traces: those holding floating values in a vector space autograd has.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> res = scipy.optimize.OptimizeResult(x=np.ones(2), fun=0.5, nit=3, message="ok", t_events=[np.ones(1)])
    >>> traced_fields(res)
    ['x', 'fun', 't_events']
    """
    return [k for k, v in result.items() if _traceable(v)]


class ConstantParts(tuple):
    """A tuple (or list) output with parts autograd has no vector space for, as the bridge boxes it.

    Never handed to the user (see :func:`traced_output`); its vector space is a
    :class:`ResultVSpace` over the positions that have one.
    """

    __slots__ = ()

    def traced_positions(self) -> list[int]:
        return [i for i, v in enumerate(self) if _traceable(v)]


class ResultVSpace(VSpace):
    """The vector space of a result's traced fields (of a :class:`ConstantParts`' traceable positions); its
    elements are ``dict`` s of them."""

    def __init__(self, value: Any) -> None:
        keys: list[Any] = value.traced_positions() if isinstance(value, ConstantParts) else traced_fields(value)
        self.shape = {k: vspace(value[k]) for k in keys}

    @property
    def size(self) -> int:
        return sum(vs.size for vs in self.shape.values())

    def _map(self, f: Any, *args: Any) -> dict[str, Any]:
        return {k: f(vs, *[x[k] for x in args]) for k, vs in self.shape.items()}

    def zeros(self) -> dict[str, Any]:
        return self._map(lambda vs: vs.zeros())

    def ones(self) -> dict[str, Any]:
        return self._map(lambda vs: vs.ones())

    def randn(self) -> dict[str, Any]:
        return self._map(lambda vs: vs.randn())

    def standard_basis(self) -> Any:
        zero = self.zeros()
        for k, vs in self.shape.items():
            for x in vs.standard_basis():
                yield self._subval(zero, k, x)

    def _subval(self, xs: dict[Any, Any], idx: Any, x: Any) -> dict[Any, Any]:
        out = dict(xs)
        out[idx] = x
        return out

    def _add(self, xs: Any, ys: Any) -> dict[str, Any]:
        return self._map(lambda vs, x, y: vs._add(x, y), xs, ys)

    def _mut_add(self, xs: Any, ys: Any) -> dict[str, Any]:
        return self._map(lambda vs, x, y: vs._mut_add(x, y), xs, ys)

    def _scalar_mul(self, xs: Any, a: Any) -> dict[str, Any]:
        return self._map(lambda vs, x: vs._scalar_mul(x, a), xs)

    def _inner_prod(self, xs: Any, ys: Any) -> Any:
        return sum(self._map(lambda vs, x, y: vs._inner_prod(x, y), xs, ys).values())

    def _covector(self, xs: Any) -> dict[str, Any]:
        return self._map(lambda vs, x: vs._covector(x), xs)


class ResultBox(Box):
    """A traced result: its traced fields read as traced values, its constant fields as they are, and
    reading any other field raises :class:`UntracedFieldError`."""

    __slots__: list[str] = []

    def __getitem__(self, key: Any) -> Any:
        value = self._value[key]
        if _traceable(value):
            return container_take(self, key)
        if _is_constant(value):
            return value
        name = type(self._value).__name__
        raise UntracedFieldError(
            f"the field {key!r} of this {name} is a {type(value).__name__}, which autograd cannot trace: a derivative "
            f"going through it would be silently left out. Read it from the plain result "
            f"(autograd.tracer.getval(res)[{key!r}]) where no derivative goes through it"
            + (", and evaluate the solution where you need its derivative with t_eval" if key == "sol" else ""))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __contains__(self, key: Any) -> bool:
        return key in self._value

    def __iter__(self) -> Any:
        return iter(self._value)

    def __len__(self) -> int:
        return len(self._value)

    def keys(self) -> Any:
        return self._value.keys()

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in self._value else default


RESULT_TYPES: tuple[type, ...] = (scipy.optimize.OptimizeResult, scipy.optimize.RootResults)
"""The result types registered. autograd looks types up exactly: a subclass (``OdeResult``,
``BVPResult``) is registered when a primitive first returns one (:func:`traced_output`), and
:func:`register_result_type` registers any other ``dict`` subclass."""


def register_result_type(cls: type) -> None:
    """Make results of type ``cls`` (a ``dict`` subclass) values autograd traces.

    Examples
    --------
    >>> import scipy.integrate
    >>> register_result_type(type(scipy.integrate.solve_ivp(lambda t, y: -y, (0, 1), [1.0])))
    """
    ResultBox.register(cls)
    ResultVSpace.register(cls)


def traced_output(ans: Any, trace: Any, node: Any) -> Any:
    """``ans`` boxed for autograd's ``trace`` at ``node``: a tuple or list with constant parts as a plain tuple
    (list) of its traced parts and its constants (see the module's docstring), anything else as one box.

    A tangent or cotangent of such an output, in autograd's form, is a ``dict`` of its
    traceable positions (:class:`ResultVSpace`).
    """
    t = type(ans)
    if t not in VSpace.mappings and isinstance(ans, RESULT_TYPES):  # a subclass of a result type (BVPResult...)
        register_result_type(t)
    if t is tuple or t is list:
        for part in ans:
            if type(part) not in VSpace.mappings and isinstance(part, RESULT_TYPES):
                register_result_type(type(part))
        whole = ConstantParts(ans)
        positions = whole.traced_positions()
        if len(positions) < len(ans):
            box = new_box(whole, trace, node)
            traced = set(positions)
            parts = [container_take(box, i) if i in traced else v for i, v in enumerate(ans)]
            return parts if t is list else tuple(parts)
    return new_box(ans, trace, node)


register_result_type(ConstantParts)
for _cls in RESULT_TYPES:
    register_result_type(_cls)
try:  # solve_ivp's OdeResult, a subclass of OptimizeResult
    from scipy.integrate._ivp.ivp import OdeResult as _OdeResult

    register_result_type(_OdeResult)
except ImportError:  # pragma: no cover  (another SciPy layout)
    pass
