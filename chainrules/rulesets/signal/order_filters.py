"""Order filters: ``medfilt``, ``medfilt2d`` and ``order_filter``.

The maths
---------
Each output sample is the ``rank``-th smallest of the input samples in a window around it
(``order_filter``: the samples where ``domain`` is nonzero; ``medfilt``/``medfilt2d``: the
median, rank ``size // 2`` of the ``size`` samples of an odd ``kernel_size``), the input
zero-padded at the borders (``scipy.ndimage.rank_filter`` with ``mode="constant"``). Away
from ties the output is a selection of one input sample, so its derivative is that sample's:
the pullback adds each output cotangent to the selected sample (nothing when a padding zero
is selected), the frule reads the selected samples' tangents. Piecewise: where several
window samples are equal the function has no derivative, and the rules follow one
convention: the window's samples are ordered by value with ties kept in the window's C
order (a stable sort), and the sample at the rank is the selected one.

Examples
--------
>>> import numpy as np, scipy.signal
>>> import chainrules
>>> y, pullback = chainrules.rrule(scipy.signal.medfilt, np.array([3.0, 1.0, 4.0, 1.5, 5.0]))
>>> y
array([1. , 3. , 1.5, 4. , 1.5])
>>> pullback(np.ones(5))[1]                 # how often each sample is the selected median
array([1., 0., 1., 2., 0.])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.signal

from chainrules.rulesets.arrays._linear_maps import output_tangent, tangent_array
from chainrules.rulesets.signal._common import NO, public_name
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

ARRAY = (np.ndarray, list, tuple)
CHUNK = 1 << 22
"""Window samples sorted at once (bounds the memory of the selection)."""


def selected_sources(a: np.ndarray, footprint: np.ndarray, rank: int) -> np.ndarray:
    """For each output sample, the flat index of the input sample the rank filter selects (-1: a padding zero).

    Examples
    --------
    >>> selected_sources(np.array([3.0, 1.0, 4.0]), np.ones(3, bool), 1)
    array([1, 0, 1])
    """
    footprint = np.asarray(footprint, dtype=bool)
    pad = [(k // 2, k // 2) for k in footprint.shape]
    values = np.pad(a, pad)
    index = np.pad(np.arange(a.size).reshape(a.shape), pad, constant_values=-1)
    value_windows = np.lib.stride_tricks.sliding_window_view(values, footprint.shape)
    index_windows = np.lib.stride_tricks.sliding_window_view(index, footprint.shape)
    mask = footprint.ravel()
    k = int(mask.sum())
    out = np.empty(a.shape, dtype=np.intp)
    rows = max(1, CHUNK // max(1, k * int(np.prod(a.shape[1:], dtype=np.int64))))
    for start in range(0, a.shape[0], rows):
        block = slice(start, start + rows)
        v = value_windows[block].reshape(-1, mask.size)[:, mask]
        i = index_windows[block].reshape(-1, mask.size)[:, mask]
        order = np.argsort(v, axis=-1, kind="stable")[:, rank]
        out[block] = i[np.arange(len(order)), order].reshape(out[block].shape)
    return out


def _rules(f: Any, footprint_of: Any) -> None:
    name = public_name(f)
    short = name.rsplit(".", 1)[-1]

    def order_rrule(a: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(a, *args, **kwargs)
        project = cotangent_projector(a)
        rest = [NO] * len(args)
        live = differentiable(a)

        def order_pullback(dy: Any) -> tuple[Any, ...]:
            dy = read_cotangent(dy, y, name)
            if passes_through(dy) or not live:
                return (NO, project(dy) if passes_through(dy) else NO, *rest)
            x = np.atleast_1d(np.asarray(a))
            footprint, rank = footprint_of(x, args, kwargs)
            src = selected_sources(x, footprint, rank).ravel()
            keep = src >= 0
            g = np.ravel(np.asarray(dy))
            flat = np.zeros(x.size, np.result_type(g, np.float32))
            np.add.at(flat, src[keep], g[keep])
            return (NO, project(flat.reshape(np.shape(a))), *rest)

        order_pullback.__name__ = order_pullback.__qualname__ = f"{short}_pullback"
        return y, order_pullback

    def order_frule(tangents: Any, a: Any, *args: Any, **kwargs: Any) -> Any:
        y = f(a, *args, **kwargs)
        da = tangent_array(tangents[1], a) if differentiable(a) else None
        if da is None or isinstance(da, NotImplementedTangent):
            return y, output_tangent(da, y)
        x = np.atleast_1d(np.asarray(a))
        footprint, rank = footprint_of(x, args, kwargs)
        src = selected_sources(x, footprint, rank)
        flat = np.ravel(np.asarray(da))
        dy = np.where(src >= 0, flat[np.maximum(src, 0)], 0)
        return y, output_tangent(dy.reshape(np.shape(y)), y)

    order_rrule.__name__ = order_rrule.__qualname__ = f"{short}_rrule"
    order_frule.__name__ = order_frule.__qualname__ = f"{short}_frule"
    rrule.register(f, ARRAY, Varargs(object))(order_rrule)
    frule.register(f, ARRAY, Varargs(object))(order_frule)


def _kernel(x: np.ndarray, size: Any, ndim: int) -> tuple[np.ndarray, int]:
    sizes = [3] * ndim if size is None else list(np.broadcast_to(np.asarray(size), (ndim,)))
    footprint = np.ones([int(s) for s in sizes], bool)
    return footprint, footprint.size // 2


def _medfilt_footprint(x: np.ndarray, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[np.ndarray, int]:
    return _kernel(x, args[0] if args else kwargs.get("kernel_size"), x.ndim)


def _medfilt2d_footprint(x: np.ndarray, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[np.ndarray, int]:
    return _kernel(x, args[0] if args else kwargs.get("kernel_size", 3), 2)


def _order_footprint(x: np.ndarray, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[np.ndarray, int]:
    domain = args[0] if args else kwargs["domain"]
    rank = args[1] if len(args) > 1 else kwargs["rank"]
    return np.asarray(domain) != 0, int(rank)


_rules(scipy.signal.medfilt, _medfilt_footprint)
_rules(scipy.signal.medfilt2d, _medfilt2d_footprint)
_rules(scipy.signal.order_filter, _order_footprint)


# ---- sample inputs ----------------------------------------------------------------------------------
@sample_inputs(scipy.signal.medfilt)
def _medfilt_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((5, 6))
    return [
        Sample(x[0], label="1-d, kernel 3"),
        Sample(x, [3, 5], label="2-d, kernel by position"),
        Sample(x + 2.0, fkwargs={"kernel_size": 3}, label="positive: the padding zeros are selected at edges"),
        Sample(x.astype(np.float32), 5, label="float32"),
    ]


@sample_inputs(scipy.signal.medfilt2d)
def _medfilt2d_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((5, 6))
    return [Sample(x, label="kernel 3"), Sample(x, [5, 3], label="kernel by position"),
            Sample(x.astype(np.float32), fkwargs={"kernel_size": 3}, label="float32")]


@sample_inputs(scipy.signal.order_filter)
def _order_filter_samples(rng: np.random.Generator) -> list[Sample]:
    x = rng.standard_normal((5, 6))
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
    return [Sample(x, cross, 0, label="minimum over a cross"), Sample(x, np.ones((3, 3)), 8, label="maximum"),
            Sample(x[0], np.ones(5), 2, label="1-d median"),
            Sample(x.astype(np.float32), cross, 3, label="float32")]
