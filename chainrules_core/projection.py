"""``ProjectTo``: map a cotangent into the tangent space of its primal.

``ProjectTo(x)`` captures what a tangent of ``x`` must look like (dtype, shape, real or
complex, structure) and returns a :class:`Projector`; calling the projector on a cotangent
returns that cotangent mapped into the space:

* float16/32/64 keep their precision; a complex cotangent of a real primal keeps its real
  part; a real cotangent of a complex primal is widened;
* integer primals get floating cotangents (float64); ``bool``, ``str``, ``None``, functions,
  types and other non-differentiable values get ``NoTangent()``;
* ndarrays keep dtype and shape: axes of length one may be added or dropped, a 0-d array
  accepts a scalar, any other shape mismatch raises :class:`ProjectionError`, a
  ``ValueError`` that names both shapes and the pullback it happened in;
* object arrays project element by element; tuples, lists, namedtuples, dicts and
  dataclasses give :class:`~chainrules_core.Tangent` s with every field projected;
* zeros and ``NotImplementedTangent`` pass through; a thunk is projected lazily (an
  ``InplaceableThunk`` keeps its ``add_fn``).

Register projectors for your own types with ``ProjectTo.register``::

    @ProjectTo.register(MyType)
    def _project_mytype(x):
        return MyProjector(...)        # any Projector subclass, or any callable

``ProjectTo`` is a :func:`functools.singledispatch` function, so registration follows
the primal's class hierarchy (a registration for a base class serves its subclasses).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from chainrules_core.tangents.base import AbstractTangent
from chainrules_core.tangents.not_implemented import NotImplementedTangent
from chainrules_core.tangents.structural import Tangent, _is_namedtuple_type, backing, field_names
from chainrules_core.tangents.thunks import AbstractThunk, InplaceableThunk, Thunk
from chainrules_core.tangents.zeros import AbstractZero, NoTangent


class ProjectionError(ValueError):
    """A cotangent that cannot be mapped into its primal's tangent space (shape or kind)."""


_OUTPUT_NAMES = ("y", "dy", "out", "output", "omega")


def _argument_of(variable: str) -> str:
    """Read the argument from a projector's variable name (``project_b`` projects ``b``)."""
    name = variable.removeprefix("project_").removeprefix("proj_")
    if name in _OUTPUT_NAMES:
        return "the output cotangent"
    return f"argument {name!r}"


def _where(projector: Any) -> str:
    """Name the rule and the argument of a failing projection, read off the stack.

    Rules name their pullbacks ``<function>_pullback`` and their projectors
    ``project_<argument>`` (``project_y`` for the output), so an error can say where it
    happened without costing anything when nothing goes wrong.
    """
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_name
        if frame.f_globals.get("__name__", "").startswith("chainrules.testing"):
            break  # a projection run by a tester (a thunk unthunked late): no rule frame above
        if "pullback" in name or "pushforward" in name or name.endswith(("rrule", "frule")):
            variables = [k for k, v in frame.f_locals.items() if v is projector]
            via = f", {_argument_of(variables[0])}" if variables else ""
            return f" (in {getattr(frame.f_code, 'co_qualname', name)}{via})"
        frame = frame.f_back  # type: ignore[assignment]
    return ""


def check_cotangent_shape(dy: Any, shape: tuple[int, ...], where: str) -> None:
    """Raise :class:`ProjectionError` if the array cotangent ``dy`` does not have ``shape``.

    Pullbacks call it on the output cotangent where a wrong shape would otherwise be
    broadcast silently. Tangent kinds of the core (zeros, thunks,
    ``Tangent``, not-implemented) and non-array cotangents are not checked.

    Parameters
    ----------
    dy : Any
        The cotangent.
    shape : tuple of int
        The shape it must have (the output's).
    where : str
        Names the rule and the argument in the message, e.g. ``"np.sum pullback: output cotangent"``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import check_cotangent_shape
    >>> check_cotangent_shape(np.ones(3), (3,), "f pullback: output cotangent")
    >>> check_cotangent_shape(np.ones(2), (3,), "f pullback: output cotangent")
    Traceback (most recent call last):
    ...
    chainrules_core.projection.ProjectionError: f pullback: output cotangent has shape (2,), expected shape (3,)
    """
    if isinstance(dy, AbstractTangent):  # zeros, thunks, structural and not-implemented tangents
        return
    dy_shape = getattr(dy, "shape", None)
    if dy_shape is not None and tuple(dy_shape) != tuple(shape):
        if math.prod(dy_shape) == 1 and math.prod(shape) == 1:
            return
        raise ProjectionError(f"{where} has shape {tuple(dy_shape)}, expected shape {tuple(shape)}")


class Projector:
    """Base class of projectors: ``projector(dx)`` maps ``dx`` into the tangent space.

    Subclasses implement :meth:`project` for a cotangent that is neither a zero, a
    not-implemented tangent nor a thunk; ``__call__`` deals with those.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> p = ProjectTo(np.zeros(2, dtype=np.float32))
    >>> p(np.array([1 + 2j, 3 + 4j]))
    array([1., 3.], dtype=float32)
    """

    __slots__ = ()

    def __call__(self, dx: Any) -> Any:
        if isinstance(dx, (AbstractZero, NotImplementedTangent)):
            return dx
        if isinstance(dx, AbstractThunk):
            return self._project_thunk(dx)
        return self.project(dx)

    def _project_thunk(self, dx: AbstractThunk) -> Any:
        lazy = Thunk(functools.partial(_project_value, self, dx))
        if isinstance(dx, InplaceableThunk):
            return InplaceableThunk(dx.add_fn, lazy)
        return lazy

    def project(self, dx: Any) -> Any:
        """Project a concrete cotangent (not a zero or a thunk)."""
        raise NotImplementedError

    def fail(self, message: str) -> ProjectionError:
        """Build the error for a cotangent that does not fit, naming where it happened."""
        return ProjectionError(f"ProjectTo({self.describe()}): {message}{_where(self)}")

    def describe(self) -> str:
        """Describe the primal this projector was made for (used in messages)."""
        return type(self).__name__


def _project_value(projector: Projector, dx: AbstractThunk) -> Any:
    return projector(dx.unthunk())


class NoTangentProjector(Projector):
    """Projector of a non-differentiable primal: every cotangent becomes ``NoTangent()``.

    Examples
    --------
    >>> from chainrules_core import ProjectTo
    >>> ProjectTo(True)(1.0), ProjectTo("name")(1.0)
    (NoTangent(), NoTangent())
    """

    __slots__ = ()

    def __call__(self, dx: Any) -> Any:
        return NoTangent()

    def project(self, dx: Any) -> Any:
        return NoTangent()

    def describe(self) -> str:
        return "non-differentiable"


class IdentityProjector(Projector):
    """Projector of a primal whose tangent space is not known: the cotangent passes through.

    Examples
    --------
    >>> from chainrules_core.projection import IdentityProjector
    >>> IdentityProjector()([1, 2])
    [1, 2]
    """

    __slots__ = ()

    def __call__(self, dx: Any) -> Any:
        return dx

    def project(self, dx: Any) -> Any:
        return dx


_NO_TANGENT = NoTangentProjector()
_IDENTITY = IdentityProjector()


def _tangent_dtype(dtype: np.dtype) -> np.dtype | None:
    """The tangent dtype of a primal dtype: floats keep theirs, ints get float64, else None."""
    kind = dtype.kind
    if kind in "fc":
        return dtype
    if kind in "iu":
        return np.dtype(np.float64)
    return None


class ScalarProjector(Projector):
    """Projector of a scalar (Python or NumPy number): returns a scalar of the tangent dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> ProjectTo(1.0)(2 + 3j), ProjectTo(np.float32(1))(2.0), ProjectTo(1)(2)
    (2.0, np.float32(2.0), 2.0)
    """

    __slots__ = ("dtype", "real")

    def __init__(self, dtype: np.dtype) -> None:
        self.dtype = dtype
        self.real = dtype.kind == "f"

    def __call__(self, dx: Any) -> Any:
        if type(dx) is float and self.real and self.dtype == np.float64:
            return dx
        return Projector.__call__(self, dx)

    def project(self, dx: Any) -> Any:
        if isinstance(dx, np.ndarray):
            if dx.size != 1:
                raise self.fail(f"a scalar primal got a cotangent of shape {dx.shape}")
            dx = dx.reshape(())[()]
        elif not isinstance(dx, (int, float, complex, np.number, np.bool_)):
            raise self.fail(f"a scalar primal got a cotangent of type {type(dx).__name__}")
        if self.real and isinstance(dx, (complex, np.complexfloating)):
            dx = dx.real
        value = self.dtype.type(dx)
        if self.dtype == np.float64 and self.real:
            return float(value)
        if self.dtype == np.complex128:
            return complex(value)
        return value

    def describe(self) -> str:
        return f"scalar {self.dtype}"


def _fits_by_size_one_axes(have: tuple[int, ...], want: tuple[int, ...]) -> bool:
    return tuple(n for n in have if n != 1) == tuple(n for n in want if n != 1)


class ArrayProjector(Projector):
    """Projector of an ndarray: keeps its shape and the tangent dtype of its dtype.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> p = ProjectTo(np.zeros((2, 1)))
    >>> p(np.array([1.0, 2.0]))          # a length-one axis may be added back
    array([[1.],
           [2.]])
    >>> ProjectTo(np.array(1.0))(3.0)     # a 0-d array accepts a scalar
    array(3.)
    """

    __slots__ = ("dtype", "real", "shape")

    def __init__(self, dtype: np.dtype, shape: tuple[int, ...]) -> None:
        self.dtype = dtype
        self.shape = shape
        self.real = dtype.kind == "f"

    def __call__(self, dx: Any) -> Any:
        if type(dx) is np.ndarray and dx.dtype == self.dtype and dx.shape == self.shape:
            return dx
        return Projector.__call__(self, dx)

    def project(self, dx: Any) -> Any:
        if isinstance(dx, (Tangent, Mapping)) or (callable(dx) and not hasattr(dx, "__array__")):
            raise self.fail(f"an array primal got a cotangent of type {type(dx).__name__}")
        arr = dx.toarray() if hasattr(dx, "toarray") and hasattr(dx, "nnz") else np.asarray(dx)  # sparse
        if arr.dtype.kind not in "fciub":
            raise self.fail(f"an array primal got a cotangent of dtype {arr.dtype}")
        if self.real and arr.dtype.kind == "c":
            arr = arr.real
        if arr.dtype != self.dtype:
            arr = arr.astype(self.dtype)
        if arr.shape != self.shape:
            if arr.size == math.prod(self.shape) and _fits_by_size_one_axes(arr.shape, self.shape):
                arr = arr.reshape(self.shape)
            else:
                raise self.fail(f"cotangent has shape {arr.shape}, expected shape {self.shape}")
        return arr

    def describe(self) -> str:
        return f"ndarray of shape {self.shape}, {self.dtype}"


class ObjectArrayProjector(Projector):
    """Projector of an object array: each element is projected by its own projector.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> x = np.array([1.0, True], dtype=object)
    >>> ProjectTo(x)(np.array([2.0, 3.0], dtype=object))
    array([2.0, NoTangent()], dtype=object)
    """

    __slots__ = ("elements", "shape")

    def __init__(self, x: np.ndarray) -> None:
        self.shape = x.shape
        self.elements = [ProjectTo(v) for v in x.flat]

    def project(self, dx: Any) -> Any:
        arr = np.asarray(dx, dtype=object)
        if arr.shape != self.shape:
            raise self.fail(f"cotangent has shape {arr.shape}, expected shape {self.shape}")
        out = np.empty(self.shape, dtype=object)
        for i, (proj, value) in enumerate(zip(self.elements, arr.flat)):
            out.flat[i] = proj(value)
        return out

    def describe(self) -> str:
        return f"object ndarray of shape {self.shape}"


class StructuralProjector(Projector):
    """Projector of a tuple, list, namedtuple, dict or dataclass: gives a ``Tangent``.

    Accepts a ``Tangent`` of the same type or the natural container (a tuple for a tuple,
    a dict for a dict, an instance for a namedtuple or dataclass).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> p = ProjectTo((1.0, np.float32(2.0), "label"))
    >>> p((1 + 1j, 3.0, 4.0))
    Tangent(tuple, 1.0, np.float32(3.0), NoTangent())
    """

    __slots__ = ("elements", "primal_type", "sequence")

    def __init__(self, primal_type: type, elements: Any) -> None:
        self.primal_type = primal_type
        self.elements = elements  # tuple of projectors, or dict name -> projector
        self.sequence = isinstance(elements, tuple)

    def project(self, dx: Any) -> Any:
        P = self.primal_type
        if isinstance(dx, Tangent):
            if not issubclass(dx.primal_type, P) and not issubclass(P, dx.primal_type):
                raise self.fail(f"got a Tangent({dx.primal_type.__name__})")
            stored = backing(dx)
        elif isinstance(dx, (tuple, list, Mapping)) or dataclasses.is_dataclass(dx):
            stored = backing(dx)
        else:
            raise self.fail(f"a {P.__name__} primal got a cotangent of type {type(dx).__name__}")
        if self.sequence:
            if len(stored) != len(self.elements):
                raise self.fail(f"cotangent has {len(stored)} elements, expected {len(self.elements)}")
            return Tangent._from_backing(P, tuple(p(v) for p, v in zip(self.elements, stored)))
        if isinstance(stored, tuple):
            stored = dict(zip(self.elements, stored))
        out = {}
        for key, value in stored.items():
            proj = self.elements.get(key)
            if proj is None:
                raise self.fail(f"cotangent has field {key!r}, which {P.__name__} does not have")
            out[key] = proj(value)
        return Tangent._from_backing(P, out)

    def describe(self) -> str:
        return self.primal_type.__name__


@functools.singledispatch
def ProjectTo(x: Any) -> Callable[[Any], Any]:  # noqa: N802  (the name of the Julia anchor)
    """Return a projector onto the tangent space of ``x``; call it on a cotangent.

    Parameters
    ----------
    x : Any
        The primal.

    Returns
    -------
    Projector
        ``projector(dx)`` returns ``dx`` mapped into the tangent space of ``x``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import ProjectTo
    >>> ProjectTo(np.ones(3))(np.array([1 + 1j, 2, 3]))
    array([1., 2., 3.])
    >>> ProjectTo(np.ones(2, dtype=np.complex64))(np.array([1.0, 2.0]))
    array([1.+0.j, 2.+0.j], dtype=complex64)
    >>> ProjectTo(3)(1.5), ProjectTo(None)(1.5)
    (1.5, NoTangent())
    """
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        fields = {f.name: ProjectTo(getattr(x, f.name)) for f in dataclasses.fields(x)}
        return _structural(type(x), fields)
    if callable(x) or type(x).__module__.startswith("numpy.random"):  # generators, seeds: not numbers
        return _NO_TANGENT
    return _IDENTITY


def _structural(P: type, elements: Any) -> Projector:
    values = elements.values() if isinstance(elements, dict) else elements
    if all(p is _NO_TANGENT for p in values):
        return _NO_TANGENT
    return StructuralProjector(P, elements)


_NON_DIFFERENTIABLE = (bool, np.bool_, str, bytes, type(None), type, types.FunctionType,
                       types.BuiltinFunctionType, types.MethodType, types.ModuleType, np.ufunc,
                       range, slice, type(Ellipsis), np.dtype)
# (numpy.random's generators are recognised by their module in ProjectTo's fallback: naming
# np.random.Generator here would import numpy.random, a fifth of the cost of importing numpy.)
for _t in _NON_DIFFERENTIABLE:
    ProjectTo.register(_t, lambda x: _NO_TANGENT)

_FLOAT64 = np.dtype(np.float64)
_COMPLEX128 = np.dtype(np.complex128)
_SCALAR_FLOAT64 = ScalarProjector(_FLOAT64)
_SCALAR_COMPLEX128 = ScalarProjector(_COMPLEX128)


@ProjectTo.register(int)
@ProjectTo.register(float)
def _project_python_real(x: Any) -> Projector:
    return _SCALAR_FLOAT64


@ProjectTo.register(complex)
def _project_python_complex(x: Any) -> Projector:
    return _SCALAR_COMPLEX128


@ProjectTo.register(np.generic)
def _project_numpy_scalar(x: np.generic) -> Projector:
    dtype = _tangent_dtype(x.dtype)
    return _NO_TANGENT if dtype is None else ScalarProjector(dtype)


@ProjectTo.register(np.ndarray)
def _project_ndarray(x: np.ndarray) -> Projector:
    if x.dtype == object:
        return ObjectArrayProjector(x)
    dtype = _tangent_dtype(x.dtype)
    return _NO_TANGENT if dtype is None else ArrayProjector(dtype, x.shape)


@ProjectTo.register(tuple)
@ProjectTo.register(list)
def _project_sequence(x: Any) -> Projector:
    if _is_namedtuple_type(type(x)):
        names = field_names(type(x)) or ()
        return _structural(type(x), {n: ProjectTo(v) for n, v in zip(names, x)})
    return _structural(type(x), tuple(ProjectTo(v) for v in x))


@ProjectTo.register(dict)
def _project_dict(x: dict) -> Projector:
    return _structural(type(x), {k: ProjectTo(v) for k, v in x.items()})


@ProjectTo.register(AbstractZero)
@ProjectTo.register(NotImplementedTangent)
def _project_tangent_primal(x: Any) -> Projector:
    return _IDENTITY


class SequenceProjector(Projector):
    """Projector of a list or tuple that a function reads as an array (``np.sum([1.0, 2.0])``).

    The cotangent is a ``Tangent`` of the same type with every element projected onto its
    own space (integer elements get ``NoTangent()``). It accepts the cotangent as an ndarray
    (rows are the elements, as ``np.asarray(seq)`` would have them), a ``Tangent``, a list or
    a tuple.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import cotangent_projector
    >>> cotangent_projector([1.0, 2, np.ones(2)])([np.float64(3.0), 4.0, np.ones(2)])
    Tangent(list, 3.0, NoTangent(), array([1., 1.]))
    >>> cotangent_projector([[1.0, 2.0]])(np.array([[5.0, 6.0]]))
    Tangent(list, Tangent(list, 5.0, 6.0))
    """

    __slots__ = ("elements", "primal_type")

    def __init__(self, primal_type: type, elements: list[Callable[[Any], Any]]) -> None:
        self.primal_type = primal_type
        self.elements = elements

    def project(self, dx: Any) -> Any:
        if isinstance(dx, Tangent):
            parts: Any = backing(dx)
        elif isinstance(dx, (list, tuple, np.ndarray)):
            parts = dx
        else:
            raise self.fail(f"a {self.primal_type.__name__} primal got a cotangent of type {type(dx).__name__}")
        if len(parts) != len(self.elements):
            raise self.fail(f"cotangent has {len(parts)} elements, expected {len(self.elements)}")
        return Tangent(self.primal_type, *(p(d) for p, d in zip(self.elements, parts)))

    def describe(self) -> str:
        return f"{self.primal_type.__name__} of {len(self.elements)} elements"


def cotangent_projector(x: Any) -> Callable[[Any], Any]:
    """The projector a rule applies to the cotangent of its argument ``x``.

    It is ``ProjectTo(x)``, except for

    * integer and boolean arguments (Python ``int`` and ``bool``, NumPy integer and boolean
      scalars and arrays): those are indices, counts, orders and flags, and by the library's
      convention a rule gives them ``NoTangent()``. ``ProjectTo`` itself maps an integer
      primal to a floating tangent space (useful where an integer is a value, as in a user's
      own rule); rules use this function;
    * lists and plain tuples, which NumPy functions read as arrays: a :class:`SequenceProjector`
      (a ``Tangent`` of the list, each element projected this way; ``NoTangent()`` if no
      element is differentiable), which also accepts the cotangent as an ndarray.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import cotangent_projector, ProjectTo
    >>> cotangent_projector(np.arange(3))(np.ones(3)), cotangent_projector(2)(1.5)
    (NoTangent(), NoTangent())
    >>> ProjectTo(2)(1.5)
    1.5
    >>> cotangent_projector(np.ones(2, np.float32))(np.ones(2))
    array([1., 1.], dtype=float32)
    >>> cotangent_projector([1.0, 2.0])(np.array([3.0, 4.0]))
    Tangent(list, 3.0, 4.0)
    >>> cotangent_projector([1, 2])(np.array([3.0, 4.0]))
    NoTangent()
    """
    t = type(x)
    if t is np.ndarray:
        if x.dtype.kind in "iub":
            return _NO_TANGENT
        return _project_ndarray(x)
    if isinstance(x, (bool, int, np.bool_, np.integer)):
        return _NO_TANGENT
    if t is list or (t is tuple and not _is_namedtuple_type(t)):
        elements = [cotangent_projector(e) for e in x]
        if all(p is _NO_TANGENT for p in elements):
            return _NO_TANGENT
        return SequenceProjector(t, elements)
    if isinstance(x, np.ndarray) and x.dtype.kind in "iub":
        return _NO_TANGENT
    return ProjectTo(x)
