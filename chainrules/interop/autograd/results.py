"""SciPy's result objects as values autograd traces: ``OptimizeResult`` (and its subclasses, ``OdeResult``...)
and ``RootResults``.

``primitive(scipy.optimize.minimize)`` returns an ``OptimizeResult``; autograd can only carry a
primitive's output through its trace if it has a vector space for it. :class:`ResultVSpace` is
the vector space of a result's floating fields (``x``, ``fun``, ``jac``...: floating numbers and
arrays); the other fields (``nfev``, ``message``, ``success``, nested results, solver objects)
are constants. :class:`ResultBox` is the traced result: ``res.x`` and ``res["x"]`` read a
floating field as a traced value (``autograd.builtins.container_take``, whose derivative puts the
cotangent back in that field), and any other field as the plain value. Cotangents and tangents of
a result are ``dict`` s of its floating fields, which the bridge converts to and from structural
``Tangent`` s of the result (``chainrules.interop.autograd.conversion``).

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

__all__ = ["RESULT_TYPES", "ResultBox", "ResultVSpace", "floating_fields"]


def _is_floating(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc"
    return isinstance(value, (float, complex, np.floating, np.complexfloating)) and not isinstance(value, bool)


def floating_fields(result: Any) -> list[str]:
    """The fields of a result that autograd differentiates: floating numbers and arrays.

    Examples
    --------
    >>> import numpy as np, scipy.optimize
    >>> floating_fields(scipy.optimize.OptimizeResult(x=np.ones(2), fun=0.5, nit=3, message="ok"))
    ['x', 'fun']
    """
    return [k for k, v in result.items() if _is_floating(v)]


class ResultVSpace(VSpace):
    """The vector space of a result's floating fields; its elements are ``dict`` s of them."""

    def __init__(self, value: Any) -> None:
        self.shape = {k: vspace(value[k]) for k in floating_fields(value)}

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

    def _subval(self, xs: dict[str, Any], idx: str, x: Any) -> dict[str, Any]:
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
    """A traced result: its floating fields read as traced values, the others as they are."""

    __slots__: list[str] = []

    def __getitem__(self, key: Any) -> Any:
        if _is_floating(self._value[key]):
            return container_take(self, key)
        return self._value[key]

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
"""The result types registered (their subclasses each need their own registration: autograd looks types up
exactly); :func:`register_result_type` adds one."""


def register_result_type(cls: type) -> None:
    """Make results of type ``cls`` (a ``dict`` subclass) values autograd traces.

    Examples
    --------
    >>> import scipy.integrate
    >>> register_result_type(type(scipy.integrate.solve_ivp(lambda t, y: -y, (0, 1), [1.0])))
    """
    ResultBox.register(cls)
    ResultVSpace.register(cls)


for _cls in RESULT_TYPES:
    register_result_type(_cls)
try:  # solve_ivp's OdeResult, a subclass of OptimizeResult
    from scipy.integrate._ivp.ivp import OdeResult as _OdeResult

    register_result_type(_OdeResult)
except ImportError:  # pragma: no cover  (another SciPy layout)
    pass
