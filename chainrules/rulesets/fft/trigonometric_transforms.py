"""The discrete cosine and sine transforms of SciPy: ``dct``, ``idct``, ``dst``, ``idst``,
``dctn``, ``idctn``, ``dstn``, ``idstn``, types 1 to 4.

Every ``type``, ``n``/``s`` (zero-padding and truncation), ``axis``/``axes``, ``norm``
(``"backward"``, ``"ortho"``, ``"forward"``), ``orthogonalize`` (``True``, ``False`` or the
default, ``True`` exactly for ``"ortho"``), real and complex inputs (SciPy transforms the
real and imaginary parts separately, and, up to SciPy 1.17 at least, orthogonalizes a complex
input exactly when ``norm="ortho"`` whatever ``orthogonalize`` says: the rules differentiate
what SciPy computes, see :func:`complex_input_ignores_orthogonalize`), float32 and float64.

The maths
---------
Each transform is a real matrix ``T`` applied along the axis (to the real and imaginary
parts alike), so its pullback is ``T^T y_bar`` and its frule ``T dx``. With the
unnormalised matrices of the SciPy documentation (Makhoul 1980, "A fast cosine transform
in one and two dimensions", IEEE Trans. ASSP 28; Britanak, Yip & Rao 2007, "Discrete cosine
and sine transforms", ch. 2), the transposes are transforms again:

* DCT-I: ``M1 = C D`` with ``C_kj = cos(pi kj/(N-1))`` symmetric and ``D = diag(1, 2, ..., 2, 1)``,
  so ``M1^T = D M1 D^-1``;
* DCT-II and DCT-III: ``M3 = M2^T diag(1/2, 1, ..., 1)``, so ``M2^T = M3 diag(2, 1, ..., 1)``
  and ``M3^T = diag(1/2, 1, ..., 1) M2``;
* DST-II and DST-III: the same with the *last* entry: ``M2^T = M3 diag(1, ..., 1, 2)``,
  ``M3^T = diag(1, ..., 1, 1/2) M2``;
* DCT-IV, DST-I and DST-IV are symmetric.

``norm`` scales the matrix by a number (the same for the transform and the type its
transpose uses: ``2N`` for types 2 and 3), so the transposes keep the norm.
``orthogonalize=True`` multiplies the input and output by diagonal matrices (DCT-I: the
first and last input by ``sqrt 2``, output by ``1/sqrt 2``; DCT-II: the first output by
``1/sqrt 2``; DCT-III: the first input by ``sqrt 2``; DST-II/III: the same with the last
entry), which the transpose applies in the other order. ``idct(type t, norm)`` is
``dct(type t', swapped norm)`` (``t' = 1, 3, 2, 4``; ``"backward"`` and ``"forward"``
exchanged), so the inverse transforms use the same adjoints; a test checks this identity
against SciPy. The n-dimensional transforms are products over their (distinct) axes: one
``dctn``/``dstn`` call between diagonal scalings. Zero-padding by ``n`` is adjoined by
truncation, truncation by zero-padding. Each pullback costs one transform.

``overwrite_x`` is accepted and never used (the input is not written), ``workers`` is passed
on to the transform of the pullback.

Examples
--------
>>> import numpy as np, scipy.fft
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.fft.dct, np.array([1.0, 2.0, 3.0]))    # DCT-II
>>> pullback(np.array([1.0, 0.0, 0.0]))[1]          # the first row of DCT-II: all twos
array([2., 2., 2.])
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.fft

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.fft._common import (
    ARRAY,
    NO,
    SWAPPED_NORM,
    along,
    bind_call,
    norm_name,
    public_name,
    resize,
    scipy_nd_arguments,
)
from chainrules_core import (
    NotImplementedTangent,
    Sample,
    Varargs,
    cotangent_projector,
    differentiable,
    frule,
    passes_through,
    read_cotangent,
    rrule,
    sample_inputs,
)

TRANSPOSED_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}
"""The type of the transform that applies the transpose of a type (up to diagonal scalings)."""

INVERSE = {scipy.fft.idct: scipy.fft.dct, scipy.fft.idst: scipy.fft.dst, scipy.fft.idctn: scipy.fft.dctn,
           scipy.fft.idstn: scipy.fft.dstn}
"""The forward transform each inverse transform is (with the transposed type and the swapped norm)."""

COSINE = (scipy.fft.dct, scipy.fft.dctn)


def transpose_weights(cosine: bool, kind: int, n: int, orthogonalize: bool,
                      dtype: Any = np.float64) -> tuple[int, np.ndarray, np.ndarray]:
    """``(t', pre, post)`` with ``T^T g = post * T'(pre * g)`` along one axis of length ``n``.

    ``T`` is the DCT (``cosine``) or DST of type ``kind`` with ``orthogonalize``; ``T'`` is
    the transform of type ``t'`` with the same norm and ``orthogonalize=False``.

    Examples
    --------
    >>> t, pre, post = transpose_weights(True, 2, 3, False)
    >>> t, pre, post
    (3, array([2., 1., 1.]), array([1., 1., 1.]))
    """
    ones = np.ones(n, dtype=dtype)
    d_in, d_out = ones.copy(), ones.copy()
    edge = 0 if cosine else -1
    if orthogonalize:
        root2 = np.sqrt(2.0)
        if cosine and kind == 1:
            d_in[[0, -1]] = root2
            d_out[[0, -1]] = 1 / root2
        elif kind == 2:
            d_out[edge] = 1 / root2
        elif kind == 3:
            d_in[edge] = root2
    pre, post = d_out, d_in
    if cosine and kind == 1:
        d = np.full(n, 2.0, dtype=dtype)
        d[[0, -1]] = 1
        pre, post = pre / d, post * d
    elif kind == 2:
        pre[edge] *= 2
    elif kind == 3:
        post[edge] /= 2
    return TRANSPOSED_TYPE[kind], pre, post


def trigonometric_adjoint(forward: Any, g: np.ndarray, kind: int, shape: Sequence[int], s: Sequence[int],
                          axes: Sequence[int], norm: str, orthogonalize: bool, workers: Any) -> np.ndarray:
    """The transpose of ``forward`` (``dct``/``dst``/``dctn``/``dstn`` of type ``kind``) applied to ``g``,
    resized back to the input's ``shape`` (``s``: the transform lengths along ``axes``)."""
    cosine = forward in COSINE
    real = g.real.dtype if g.dtype.kind == "c" else np.result_type(g.dtype, np.float32)
    pre_all, post_all = None, None
    kind_t = TRANSPOSED_TYPE[kind]
    for axis, n in zip(axes, s):
        kind_t, pre, post = transpose_weights(cosine, kind, n, orthogonalize, real)
        pre_b, post_b = along(pre, axis, g.ndim), along(post, axis, g.ndim)
        pre_all = pre_b if pre_all is None else pre_all * pre_b
        post_all = post_b if post_all is None else post_all * post_b
    g = g * pre_all
    if g.dtype.kind == "c":  # SciPy drops orthogonalize= for complex input: transform each part
        g = _transform(forward, g.real, kind_t, axes, norm, workers) + 1j * _transform(
            forward, g.imag, kind_t, axes, norm, workers)
    else:
        g = _transform(forward, g, kind_t, axes, norm, workers)
    g *= post_all
    for axis in axes:
        g = resize(g, axis, shape[axis])
    return g


def _transform(forward: Any, g: np.ndarray, kind: int, axes: Sequence[int], norm: str, workers: Any) -> np.ndarray:
    """``forward`` of type ``kind`` along ``axes``, not orthogonalized, of a real ``g``."""
    if forward in (scipy.fft.dct, scipy.fft.dst):
        return forward(g, kind, axis=axes[0], norm=norm, workers=workers, orthogonalize=False)
    return forward(g, kind, axes=axes, norm=norm, workers=workers, orthogonalize=False)


@functools.cache
def complex_input_ignores_orthogonalize() -> bool:
    """Whether this SciPy transforms complex input with the default ``orthogonalize`` whatever is passed.

    SciPy (up to 1.17 at least) transforms the real and imaginary parts of a complex input
    separately and does not pass ``orthogonalize`` on, so a complex input is orthogonalized
    exactly when ``norm="ortho"``. The rules differentiate what SciPy computes.

    Examples
    --------
    >>> isinstance(complex_input_ignores_orthogonalize(), bool)
    True
    """
    z = np.array([1.0 + 1.0j, 2.0, 0.5j])
    by_parts = scipy.fft.dct(z.real, norm="ortho", orthogonalize=False) + 1j * scipy.fft.dct(
        z.imag, norm="ortho", orthogonalize=False)
    return not np.allclose(scipy.fft.dct(z, norm="ortho", orthogonalize=False), by_parts)


def _lengths_and_axes(f: Any, shape: tuple[int, ...], p: dict[str, Any]) -> tuple[list[int], list[int]]:
    if "axis" in p:
        axis = int(p["axis"])
        axis = axis + len(shape) if axis < 0 else axis
        return [shape[axis] if p["n"] is None else int(p["n"])], [axis]
    return scipy_nd_arguments(shape, p["s"], p["axes"])


def _register(f: Any) -> None:
    """The frule and rrule of one trigonometric transform."""
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]
    signature = inspect.signature(f)
    forward = INVERSE.get(f, f)

    def trigonometric_rrule(x: Any, *args: Any, **kwargs: Any) -> Any:
        p, call_args, call_kwargs = bind_call(f, signature, x, args, kwargs)
        y = f(*call_args, **call_kwargs)
        project_x = cotangent_projector(x)
        rest = (NO,) * len(args)
        shape = np.shape(x)
        kind, norm = int(p["type"]), norm_name(p["norm"])
        orthogonalize = (norm == "ortho") if p["orthogonalize"] is None else bool(p["orthogonalize"])
        if np.iscomplexobj(x) and complex_input_ignores_orthogonalize():
            orthogonalize = norm == "ortho"
        if forward is not f:  # an inverse transform: the forward one of the transposed type, swapped norm
            kind, norm = TRANSPOSED_TYPE[kind], SWAPPED_NORM[norm]
        s, axes = _lengths_and_axes(f, shape, p)
        live = differentiable(x)

        def trigonometric_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if not live:
                return (NO, NO, *rest)
            if passes_through(dy):
                return (NO, project_x(dy), *rest)
            dx = trigonometric_adjoint(forward, np.asarray(dy), kind, shape, s, axes, norm, orthogonalize,
                                       p["workers"])
            return (NO, project_x(dx), *rest)

        trigonometric_pullback.__name__ = trigonometric_pullback.__qualname__ = f"{short}_pullback"
        return y, trigonometric_pullback

    def trigonometric_frule(tangents: Any, x: Any, *args: Any, **kwargs: Any) -> Any:
        _, call_args, call_kwargs = bind_call(f, signature, x, args, kwargs)
        y = f(*call_args, **call_kwargs)
        dx = tangent_array(tangents[1], x) if differentiable(x) else None
        if dx is None or isinstance(dx, NotImplementedTangent):
            return y, output_tangent(dx, y)
        return y, output_tangent(f(dx, *call_args[1:], **call_kwargs), y)

    trigonometric_rrule.__name__ = trigonometric_rrule.__qualname__ = f"{short}_rrule"
    trigonometric_frule.__name__ = trigonometric_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(trigonometric_rrule)
    frule.register(f, ARRAY, Varargs(object))(trigonometric_frule)


for _f in (scipy.fft.dct, scipy.fft.idct, scipy.fft.dst, scipy.fft.idst, scipy.fft.dctn, scipy.fft.idctn,
           scipy.fft.dstn, scipy.fft.idstn):
    _register(_f)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.fft.dct, scipy.fft.idct, scipy.fft.dst, scipy.fft.idst)
def _one_axis_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((2, 5))
    z = x + 1j * rng.standard_normal((2, 5))
    out = [
        Sample(x, label="type 2 (default), odd length"),
        Sample(x.astype(np.float32), 3, label="float32, type 3"),
        Sample(z, 4, label="complex, type 4"),
        Sample(x, 1, 6, 0, "ortho", label="type 1, n pads, axis 0, ortho (orthogonalized) by position"),
        Sample(x, 2, 4, -1, "ortho", False, None, False, label="type 2, n truncates, ortho not orthogonalized"),
        Sample(x, fkwargs={"type": 3, "norm": "forward", "orthogonalize": True},
               label="type 3, forward, orthogonalized, by keyword"),
        Sample(x, fkwargs={"type": 1, "norm": "backward", "orthogonalize": True},
               label="type 1, backward, orthogonalized"),
        Sample(x, fkwargs={"type": 4, "n": 6, "norm": "ortho"}, label="type 4, even n, ortho"),
        Sample(z, fkwargs={"type": 2, "norm": "ortho", "orthogonalize": False},
               label="complex, ortho, orthogonalize=False (which SciPy ignores for complex input)"),
    ]
    return out


@sample_inputs(scipy.fft.dctn, scipy.fft.idctn, scipy.fft.dstn, scipy.fft.idstn)
def _n_axes_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((3, 4, 2))
    return [
        Sample(x, label="type 2, every axis"),
        Sample(x.astype(np.float32), 3, label="float32, type 3"),
        Sample(x + 1j * rng.standard_normal(x.shape), 1, (5, 3), (1, 0), "ortho",
               label="complex, type 1, s pads and truncates, axes, ortho by position"),
        Sample(x, fkwargs={"type": 2, "s": (4, 3), "axes": (0, 1), "norm": "ortho", "orthogonalize": False},
               label="type 2, ortho not orthogonalized, by keyword"),
        Sample(x, fkwargs={"type": 4, "axes": (2, 0), "norm": "forward"}, label="type 4, forward"),
        Sample(x, fkwargs={"type": 3, "norm": "backward", "orthogonalize": True}, label="type 3, orthogonalized"),
    ]
