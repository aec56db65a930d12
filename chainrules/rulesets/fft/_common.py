"""The discrete Fourier transforms as chains of one-axis steps, their adjoints, and the rule factory (private).

Every transform of ``numpy.fft`` and ``scipy.fft`` except the trigonometric and Hankel
ones is a chain of *steps*, each acting on one axis (:class:`Step`):

``c2c``
    zero-pad or truncate the axis to ``n`` entries, then the complex DFT
    ``y_k = c sum_j x_j exp(-+2 pi i j k / n)`` (``-`` forward, ``+`` backward), scaled by
    ``c = 1``, ``1/sqrt(n)`` or ``1/n`` as ``norm`` and the direction say;
``r2c``
    pad or truncate to ``n`` real entries, then the forward DFT's first ``n//2 + 1``
    outputs (``rfft``);
``c2r``
    pad or truncate to ``n//2 + 1`` complex entries, then the real inverse DFT of length
    ``n`` of the Hermitian sequence they stand for (``irfft``);
``conj``
    complex conjugation (the Hermitian transforms are the real ones of the conjugate).

NumPy's n-dimensional transforms loop over their axes one after the other (last axis
first), so repeated axes transform an axis again; SciPy requires distinct axes.
:func:`numpy_steps` and :func:`scipy_steps` give the chain each library runs.

The maths
---------
The pullback of a chain applies the adjoints of its steps in reverse order. Cotangents
follow the project's complex convention: the cotangent of ``z`` is ``dL/dRe z + i dL/dIm z``,
the adjoint of a real-linear map in the real inner product ``<a, b> = Re sum conj(a) b``.

* Padding to ``n`` and truncating to ``n`` are each other's adjoints.
* ``c2c``: the DFT matrix ``F`` (``F_kj = exp(-2 pi i jk/n)``) has ``F^H = n ifft``, so the
  adjoint of ``fft`` with ``norm`` is ``ifft`` with the *swapped* norm (``"backward"`` and
  ``"forward"`` exchanged, ``"ortho"`` unchanged): ``fft(norm="backward")^H = n ifft``.
  Autograd's ``fft(g)`` is the conjugate of this (its cotangents are conjugated).
* ``r2c``: ``y_k = sum_j x_j exp(-2 pi i jk/n)`` for ``0 <= k <= n//2``, with real ``x``, so
  ``x_bar_j = Re sum_k y_bar_k exp(2 pi i jk/n)``. ``irfft`` of length ``n`` reads its input
  as the half of a Hermitian spectrum: every bin ``1 <= k <= (n-1)//2`` stands for two (``k``
  and ``n - k``), DC and (``n`` even) Nyquist for one, and the imaginary parts of those two
  are ignored. Hence ``x_bar = irfft(w * y_bar, n, norm=swapped)`` with ``w = 1/2`` on the
  bins that stand for two and ``1`` on DC and Nyquist (AbstractFFTs.jl's ``rfft`` rule
  halves the same bins). Odd ``n`` has no Nyquist bin; nothing else changes.
* ``c2r``: differentiating ``y_j = (1/n)(Re z_0 + 2 sum_k Re(z_k e^{2 pi i jk/n}) + Re z_{n/2} (-1)^j)``
  with respect to ``Re z_k`` and ``Im z_k`` gives
  ``z_bar = v * rfft(y_bar, norm=swapped)`` with ``v = 2`` on the bins that stand for two
  and ``1`` on DC and Nyquist; for real ``y_bar`` those two come out real: the imaginary
  parts ``irfft`` ignores get a zero cotangent. Bins beyond ``n//2`` (truncated) get zero.
* ``conj``: ``z -> conj(z)`` is its own adjoint in the real inner product.

Several ``c2c`` steps on distinct axes in a row are adjoined by one n-dimensional call.
Each adjoint costs one transform of the output's size: the pullback of ``fft`` is one
``ifft``.
"""

from __future__ import annotations

import dataclasses
import inspect
import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules_core import (
    NoTangent,
    NotImplementedTangent,
    Varargs,
    ZeroTangent,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    reject_keywords,
    rrule,
)

ARRAY = (np.ndarray, list, tuple)
"""Types of the array argument of a transform (anything else: no rule)."""

SWAPPED_NORM = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
"""The norm of the adjoint (and of the inverse) of a transform with a given norm."""

NO = NoTangent()


def norm_name(norm: str | None) -> str:
    """``norm`` with ``None`` read as ``"backward"`` (both libraries' default).

    Examples
    --------
    >>> norm_name(None), norm_name("ortho")
    ('backward', 'ortho')
    """
    return "backward" if norm is None else str(norm)


def public_name(f: Any) -> str:
    """``numpy.fft.rfft``, ``scipy.fft.dct``, ``scipy.signal.lfilter``: where users find ``f``.

    Examples
    --------
    >>> import numpy as np, scipy.fft
    >>> public_name(np.fft.rfft), public_name(scipy.fft.rfft)
    ('numpy.fft.rfft', 'scipy.fft.rfft')
    """
    module = getattr(f, "__module__", "") or ""
    name = getattr(f, "__name__", repr(f))
    for public in ("numpy.fft", "scipy.fft", "scipy.signal.windows", "scipy.signal"):
        if module == public or module.startswith(public + "."):
            return f"{public}.{name}"
    return f"{module}.{name}" if module else name


def resize(a: np.ndarray, axis: int, length: int) -> np.ndarray:
    """``a`` truncated or zero-padded at the end of ``axis`` to ``length`` entries.

    Examples
    --------
    >>> resize(np.arange(3.0), 0, 5), resize(np.arange(3.0), 0, 2)
    (array([0., 1., 2., 0., 0.]), array([0., 1.]))
    """
    have = a.shape[axis]
    if have == length:
        return a
    if have > length:
        index = [slice(None)] * a.ndim
        index[axis] = slice(0, length)
        return a[tuple(index)]
    shape = list(a.shape)
    shape[axis] = length
    out = np.zeros(shape, dtype=a.dtype)
    index = [slice(None)] * a.ndim
    index[axis] = slice(0, have)
    out[tuple(index)] = a
    return out


def along(weights: np.ndarray, axis: int, ndim: int) -> np.ndarray:
    """``weights`` (1-d) shaped to broadcast along ``axis`` of an ``ndim``-dimensional array.

    Examples
    --------
    >>> along(np.arange(3.0), 0, 2).shape
    (3, 1)
    """
    shape = [1] * ndim
    shape[axis] = weights.size
    return weights.reshape(shape)


def paired_bins(n: int, dtype: Any, paired: float, single: float = 1.0) -> np.ndarray:
    """Weights of the ``n//2 + 1`` bins of a real transform of length ``n``: ``paired`` on the
    bins that stand for two (``1 <= k <= (n-1)//2``), ``single`` on DC and (even ``n``) Nyquist.

    Examples
    --------
    >>> paired_bins(4, np.float64, 2.0), paired_bins(5, np.float64, 2.0)
    (array([1., 2., 1.]), array([1., 2., 2.]))
    """
    w = np.full(n // 2 + 1, paired, dtype=dtype)
    w[0] = single
    if n % 2 == 0:
        w[-1] = single
    return w


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a transform chain (see the module docstring).

    Attributes
    ----------
    kind : str
        ``"c2c"``, ``"r2c"``, ``"c2r"`` or ``"conj"``.
    axis : int
        The (non-negative) axis.
    n_in : int
        The length of the axis before the step.
    n : int
        The transform length (the output length for ``c2c`` and ``c2r``; ``n//2 + 1``
        outputs for ``r2c``).
    forward : bool
        The sign of the exponent of a ``c2c`` step (``True``: ``exp(-...)``).
    norm : str
        ``"backward"``, ``"ortho"`` or ``"forward"``, as passed to the one-axis transform.
    """

    kind: str
    axis: int = 0
    n_in: int = 0
    n: int = 0
    forward: bool = True
    norm: str = "backward"


class ChainBuilder:
    """Builds the chain of steps of a transform while tracking the shape of the array.

    Examples
    --------
    >>> chain = ChainBuilder((4, 6))
    >>> chain.r2c(-1, None, "backward").c2c(0, 3, True, "backward").shape
    [3, 4]
    """

    def __init__(self, shape: Sequence[int]) -> None:
        self.shape = list(shape)
        self.steps: list[Step] = []

    def _axis(self, axis: int) -> int:
        ndim = len(self.shape)
        axis = int(axis)
        return axis + ndim if axis < 0 else axis

    def c2c(self, axis: int, n: int | None, forward: bool, norm: str) -> ChainBuilder:
        axis = self._axis(axis)
        n_in = self.shape[axis]
        n = n_in if n is None else int(n)
        self.steps.append(Step("c2c", axis, n_in, n, forward, norm))
        self.shape[axis] = n
        return self

    def r2c(self, axis: int, n: int | None, norm: str) -> ChainBuilder:
        axis = self._axis(axis)
        n_in = self.shape[axis]
        n = n_in if n is None else int(n)
        self.steps.append(Step("r2c", axis, n_in, n, True, norm))
        self.shape[axis] = n // 2 + 1
        return self

    def c2r(self, axis: int, n: int | None, norm: str) -> ChainBuilder:
        axis = self._axis(axis)
        n_in = self.shape[axis]
        n = 2 * (n_in - 1) if n is None else int(n)
        self.steps.append(Step("c2r", axis, n_in, n, False, norm))
        self.shape[axis] = n
        return self

    def conj(self) -> ChainBuilder:
        self.steps.append(Step("conj"))
        return self


# ---- the adjoint of a chain ------------------------------------------------------------------------------
def chain_adjoint(steps: Sequence[Step], g: Any, workers: Any = None) -> np.ndarray:
    """Apply the adjoints of ``steps`` to the output cotangent ``g``, last step first.

    Examples
    --------
    >>> steps = ChainBuilder((4,)).c2c(0, None, True, "backward").steps
    >>> chain_adjoint(steps, np.array([1.0, 0, 0, 0]))        # F^H e_0: all ones
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    g = np.asarray(g)
    owned = False  # whether g is a temporary of ours (it may then be overwritten)
    i = len(steps) - 1
    while i >= 0:
        step = steps[i]
        if step.kind == "conj":
            g = np.conj(g)
            owned = True
            i -= 1
            continue
        if step.kind == "c2c":
            run = [step]
            j = i - 1
            while (j >= 0 and steps[j].kind == "c2c" and steps[j].forward == step.forward
                   and steps[j].norm == step.norm and all(steps[j].axis != r.axis for r in run)):
                run.append(steps[j])
                j -= 1
            inverse = scipy.fft.ifftn if step.forward else scipy.fft.fftn
            g = inverse(g, axes=[r.axis for r in run], norm=SWAPPED_NORM[step.norm], workers=workers,
                        overwrite_x=owned)
            for r in run:
                g = resize(g, r.axis, r.n_in)
            owned = True
            i = j
            continue
        if step.kind == "r2c":
            real = g.real.dtype if g.dtype.kind == "c" else np.result_type(g.dtype, np.float64)
            g = g * along(paired_bins(step.n, real, 0.5), step.axis, g.ndim)
            g = scipy.fft.irfft(g, step.n, axis=step.axis, norm=SWAPPED_NORM[step.norm], workers=workers,
                                overwrite_x=True)
        else:  # c2r: a real output, whose cotangent is real (the real part of anything else)
            if g.dtype.kind == "c":
                g = g.real
            g = scipy.fft.rfft(g, axis=step.axis, norm=SWAPPED_NORM[step.norm], workers=workers)
            g *= along(paired_bins(step.n, g.real.dtype, 2.0), step.axis, g.ndim)
        g = resize(g, step.axis, step.n_in)
        owned = True
        i -= 1
    return g


# ---- the chains of each library ----------------------------------------------------------------------------
def numpy_nd_arguments(shape: Sequence[int], s: Any, axes: Any,
                       inverse_real: bool = False) -> tuple[list[Any], list[int]]:
    """``(s, axes)`` of a NumPy n-dimensional transform as NumPy reads them (``_cook_nd_args``).

    ``s`` entries may be ``None`` (deprecated: the default of the one-axis transform).

    Examples
    --------
    >>> numpy_nd_arguments((3, 4, 5), None, None)
    ([3, 4, 5], [0, 1, 2])
    >>> numpy_nd_arguments((3, 4), None, (0, 0), inverse_real=True)
    ([3, 4], [0, 0])
    """
    ndim = len(shape)
    if s is None:
        axes_list = list(range(ndim)) if axes is None else [int(a) for a in np.atleast_1d(axes)]
        s_list: list[Any] = [shape[a] for a in axes_list]
        if inverse_real:
            s_list[-1] = 2 * (shape[axes_list[-1]] - 1)
    else:
        s_list = [None if v is None else int(v) for v in np.atleast_1d(np.asarray(s, dtype=object))]
        axes_list = list(range(-len(s_list), 0)) if axes is None else [int(a) for a in np.atleast_1d(axes)]
    axes_list = [a + ndim if a < 0 else a for a in axes_list]
    s_list = [shape[a] if v == -1 else v for v, a in zip(s_list, axes_list)]
    return s_list, axes_list


def scipy_nd_arguments(shape: Sequence[int], s: Any, axes: Any,
                       inverse_real: bool = False) -> tuple[list[int], list[int]]:
    """``(s, axes)`` of a SciPy n-dimensional transform as SciPy reads them (axes distinct).

    Examples
    --------
    >>> scipy_nd_arguments((3, 4, 5), (6, -1), None)
    ([6, 5], [1, 2])
    """
    ndim = len(shape)
    if axes is not None:
        axes_list = [int(a) for a in np.atleast_1d(axes)]
        axes_list = [a + ndim if a < 0 else a for a in axes_list]
    if s is not None:
        s_list = [int(v) for v in np.atleast_1d(s)]
        if axes is None:
            axes_list = list(range(ndim - len(s_list), ndim))
        s_list = [shape[a] if v == -1 else v for v, a in zip(s_list, axes_list)]
    else:
        if axes is None:
            axes_list = list(range(ndim))
        s_list = [shape[a] for a in axes_list]
        if inverse_real:
            s_list[-1] = 2 * (shape[axes_list[-1]] - 1)
    return s_list, axes_list


def complex_chain(shape: Sequence[int], s: Sequence[Any], axes: Sequence[int], forward: bool, norm: str,
                  order: Sequence[int]) -> list[Step]:
    """The chain of an n-dimensional complex transform, the axes taken in ``order``."""
    chain = ChainBuilder(shape)
    for i in order:
        chain.c2c(axes[i], s[i], forward, norm)
    return chain.steps


def real_forward_chain(shape: Sequence[int], s: Sequence[Any], axes: Sequence[int], norm: str,
                       conjugate: bool = False) -> list[Step]:
    """``rfftn``: ``r2c`` on the last axis, then ``c2c`` on the others, last to first (as NumPy).

    With ``conjugate``, the output is conjugated (``ihfftn``).
    """
    chain = ChainBuilder(shape).r2c(axes[-1], s[-1], norm)
    for i in range(len(axes) - 2, -1, -1):
        chain.c2c(axes[i], s[i], True, norm)
    if conjugate:
        chain.conj()
    return chain.steps


def real_inverse_chain(shape: Sequence[int], s: Sequence[Any], axes: Sequence[int], norm: str,
                       conjugate: bool = False) -> list[Step]:
    """``irfftn``: ``c2c`` (backward) on every axis but the last, first to last, then ``c2r``.

    With ``conjugate``, the input is conjugated first (``hfftn``).
    """
    chain = ChainBuilder(shape)
    if conjugate:
        chain.conj()
    for i in range(len(axes) - 1):
        chain.c2c(axes[i], s[i], False, norm)
    chain.c2r(axes[-1], s[-1], norm)
    return chain.steps


# ---- the rule factory ------------------------------------------------------------------------------------
ChainOf = Callable[[tuple[int, ...], dict[str, Any]], list[Step]]
"""``chain_of(shape of x, bound arguments) -> steps``."""


def bind_call(f: Any, signature: inspect.Signature, x: Any, args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> tuple[dict[str, Any], tuple[Any, ...], dict[str, Any]]:
    """The arguments of ``f(x, *args, **kwargs)`` by name (defaults filled in), and the call to
    make instead: ``overwrite_x``/``overwrite_data`` forced to ``False`` (the rules never let
    the primal write into the input); ``out=`` is refused.
    """
    bound = signature.bind(x, *args, **kwargs)
    reject_keywords(f, {"out": bound.arguments.get("out")}, ("out",))
    for flag in ("overwrite_x", "overwrite_data"):
        if bound.arguments.get(flag):
            bound.arguments[flag] = False
    call_args, call_kwargs = bound.args, bound.kwargs
    bound.apply_defaults()
    return dict(bound.arguments), call_args, call_kwargs


def linear_transform_rules(f: Any, chain_of: ChainOf, *, workers: bool = False) -> None:
    """Register the frule and the rrule of a transform ``f(x, ...)`` linear in ``x``, given by its chain.

    The frule applies ``f`` to the tangent; the pullback applies :func:`chain_adjoint`.
    Every argument but ``x`` is not differentiated (``NoTangent()``).

    Parameters
    ----------
    f : callable
        The transform (``numpy.fft.rfft``, ``scipy.fft.fftn``...).
    chain_of : callable
        ``chain_of(shape of x, arguments by name) -> list of Step``.
    workers : bool
        Whether ``f`` takes SciPy's ``workers`` (passed on to the transforms of the pullback).
    """
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]
    signature = inspect.signature(f)

    def transform_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        params, call_args, call_kwargs = bind_call(f, signature, x, args, kwargs)
        y = f(*call_args, **call_kwargs)
        project_x = cotangent_projector(x)
        rest = (NO,) * len(args)
        if not differentiable(x):
            def no_tangent_pullback(dy: Any) -> tuple[Any, ...]:
                read_cotangent(dy, y, name)
                return (NO, NO, *rest)

            no_tangent_pullback.__name__ = no_tangent_pullback.__qualname__ = f"{short}_pullback"
            return y, no_tangent_pullback
        steps = chain_of(np.shape(x), params)
        pool = params.get("workers") if workers else None

        def transform_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy):
                return (NO, project_x(dy), *rest)
            dx = chain_adjoint(steps, dy, pool)
            if isinstance(dy, np.ndarray) and np.shares_memory(dx, dy):
                dx = dx.copy()
            return (NO, project_x(dx), *rest)

        transform_pullback.__name__ = transform_pullback.__qualname__ = f"{short}_pullback"
        return y, transform_pullback

    def transform_frule(tangents: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind_call(f, signature, x, args, kwargs)
        y = f(*call_args, **call_kwargs)
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        if not np.iscomplexobj(x) and np.iscomplexobj(dx):
            dx = dx.real
        return y, output_tangent(f(dx, *call_args[1:], **call_kwargs), y)

    transform_rrule.__name__ = transform_rrule.__qualname__ = f"{short}_rrule"
    transform_frule.__name__ = transform_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(transform_rrule)
    frule.register(f, ARRAY, Varargs(object))(transform_frule)


def is_integer(v: Any) -> bool:
    """Whether ``v`` is an integer (Python or NumPy), not a bool."""
    return isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, (bool, np.bool_))


ZERO = ZeroTangent()
