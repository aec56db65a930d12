"""The maths of a linear recursive filter (``lfilter``) and of its derivatives (private).

Every array here has time on its last axis. ``b`` and ``a`` are the *normalised*
coefficients (``a[0] == 1``), zero-padded to a common length ``K``; the filter is the
transposed direct form II that ``scipy.signal.lfilter`` runs, whose ``K - 1`` delays start
at ``zi``. Unrolled, it is the difference equation

``sum_j a[j] y[n-j] = sum_j b[j] x[n-j] + v[n]``,  ``v[n] = zi[n]`` for ``n < K - 1``, else 0,

(``x`` and ``y`` zero before ``n = 0``), and the final delays are

``zf[i] = sum_{j>i} (b[j] x[N+i-j] - a[j] y[N+i-j]) + v[N+i]``.

The maths
---------
Write ``L`` for the all-pole filter ``lfilter([1], a, .)``; then ``y = L(b * x + v)``
(``*`` the causal convolution truncated to ``N`` samples). Differentiating the difference
equation,

``dy = L(db * x + b * dx - da * y + dv)``  (``da[0] = 0``),

and ``dzf`` follows from the formula for ``zf``. The pullback of a cotangent ``(y_bar,
zf_bar)`` first adds to ``y_bar`` what ``zf`` owes to ``y``, then runs the adjoint filter:
the same recursion backwards in time with conjugated coefficients,
``u = reverse(L_conj(reverse(y_bar)))``, and

* ``x_bar = reverse(lfilter(conj(b), [1], reverse(u)))`` (+ the part of ``zf_bar``),
* ``b_bar[k] = sum_n u[n] conj(x[n-k])``, ``a_bar[k] = -sum_n u[n] conj(y[n-k])`` for
  ``k >= 1`` (the correlations of the adjoint signal with the input and the output),
* ``zi_bar[i] = u[i]`` (+ ``zf_bar[i - N]`` for signals shorter than the delay line).

This is back-propagation through time of the recursion, written as filters: the adjoint of
a transposed direct form II filter is a direct form II filter run backwards (the
transposition theorem, Oppenheim & Schafer, "Discrete-Time Signal Processing", 3rd ed.,
sec. 6.4.2; the coefficient gradients as in Forgione & Piga 2021, "dynoNet: a neural network
architecture for learning dynamical systems", Int. J. Adapt. Control Signal Process. 35,
eqs. 17-21). Derivatives with respect to the unnormalised coefficients follow from
``b_n = b / a[0]``, ``a_n = a / a[0]`` (:func:`normalise`, :func:`normalised_tangents`,
:func:`unnormalised_cotangents`). Each pullback costs two filter passes and ``2K``
correlations (by FFT for long filters).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.signal

LONG_FILTER = 32
"""From this many coefficients the coefficient correlations are computed by FFT."""


def normalise(b: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray, Any]:
    """``(b / a[0], a / a[0])`` zero-padded to a common length, and ``a[0]``.

    Examples
    --------
    >>> normalise(np.array([2.0]), np.array([2.0, 1.0]))
    (array([1., 0.]), array([1. , 0.5]), np.float64(2.0))
    """
    a0 = a[0]
    K = max(len(a), len(b))
    dtype = np.result_type(b, a, np.float32)
    bn, an = np.zeros(K, dtype), np.zeros(K, dtype)
    bn[:len(b)] = b / a0
    an[:len(a)] = a / a0
    return bn, an, a0


def normalised_tangents(db: Any, da: Any, bn: np.ndarray, an: np.ndarray, a0: Any, nb: int,
                        na: int) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The tangents of ``b / a[0]`` and ``a / a[0]`` (padded) from those of ``b`` and ``a`` (``None``: zero)."""
    K = len(bn)
    dbn = dan = None
    da0 = None if da is None else da[0]
    if db is not None or da0 is not None:
        dbn = np.zeros(K, np.result_type(bn, *(v for v in (db, da0) if v is not None)))
        if db is not None:
            dbn[:nb] += db / a0
        if da0 is not None:
            dbn -= bn * (da0 / a0)
    if da is not None:
        dan = np.zeros(K, np.result_type(an, da))
        dan[:na] = da / a0
        dan -= an * (da0 / a0)
        dan[0] = 0
    return dbn, dan


def unnormalised_cotangents(bn_bar: np.ndarray, an_bar: np.ndarray, bn: np.ndarray, an: np.ndarray, a0: Any,
                            nb: int, na: int) -> tuple[np.ndarray, np.ndarray]:
    """The cotangents of ``b`` and ``a`` from those of the normalised, padded coefficients."""
    c = np.conj(a0)
    b_bar = bn_bar[:nb] / c
    a_bar = np.zeros(na, np.result_type(an_bar, bn_bar, c))
    a_bar[1:] = an_bar[1:na] / c
    a_bar[0] = -(np.sum(np.conj(bn) * bn_bar) + np.sum(np.conj(an[1:]) * an_bar[1:])) / c
    return b_bar, a_bar


def _reverse_filter(b: np.ndarray, a: np.ndarray, g: np.ndarray) -> np.ndarray:
    return scipy.signal.lfilter(b, a, g[..., ::-1], axis=-1)[..., ::-1]


def _causal(h: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``h * x`` truncated to ``x``'s length along the last axis (an FIR filter)."""
    return scipy.signal.lfilter(h, np.ones(1, h.dtype), x, axis=-1)


def lagged_products(u: np.ndarray, x: np.ndarray, K: int) -> np.ndarray:
    """``r[k] = sum u[..., n] conj(x[..., n - k])`` over ``n`` and the leading axes, ``0 <= k < K``.

    Examples
    --------
    >>> lagged_products(np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, 0.0]), 2)
    array([1., 2.])
    """
    N = u.shape[-1]
    dtype = np.result_type(u, x, np.float32)
    out = np.zeros(K, dtype)
    if K <= LONG_FILTER or N <= LONG_FILTER:
        uu, xx = np.broadcast_arrays(u, x)
        uu, xx = uu.reshape(-1, N), xx.reshape(-1, N)
        k = min(K, N)
        for row_u, row_x in zip(uu, xx):  # r[j] = sum_n x[n + j] conj(u[n]) over the zero-padded x: K lags in C
            padded = np.concatenate([np.zeros(k - 1, row_x.dtype), row_x])
            out[:k] += np.conj(np.correlate(padded, row_u, "valid")[::-1])
        return out
    import scipy.fft

    length = scipy.fft.next_fast_len(N + K, real=dtype.kind != "c")
    if dtype.kind == "c":
        spectrum = np.sum(scipy.fft.fft(u, length, axis=-1) * np.conj(scipy.fft.fft(x, length, axis=-1)),
                          axis=tuple(range(u.ndim - 1)))
        r = scipy.fft.ifft(spectrum, length)
    else:
        spectrum = np.sum(scipy.fft.rfft(u, length, axis=-1) * np.conj(scipy.fft.rfft(x, length, axis=-1)),
                          axis=tuple(range(u.ndim - 1)))
        r = scipy.fft.irfft(spectrum, length)
    out[:min(K, N)] = r[:min(K, N)]
    return out


def _zf_terms(K: int, N: int) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """For each final delay ``i``: the coefficients ``j > i`` and the samples ``N + i - j >= 0`` it reads."""
    terms = []
    for i in range(K - 1):
        js = np.arange(i + 1, K)
        ms = N + i - js
        keep = ms >= 0
        terms.append((i, js[keep], ms[keep]))
    return terms


def final_delays(bn: np.ndarray, an: np.ndarray, x: np.ndarray, y: np.ndarray, zi: np.ndarray | None) -> np.ndarray:
    """``zf`` of the filter from its input and output (the formula of the module docstring)."""
    K, N = len(bn), x.shape[-1]
    dtype = np.result_type(bn, an, x, y, *(() if zi is None else (zi,)))
    zf = np.zeros((*np.broadcast_shapes(x.shape[:-1], y.shape[:-1]), K - 1), dtype)
    for i, js, ms in _zf_terms(K, N):
        if js.size:
            zf[..., i] = x[..., ms] @ bn[js] - y[..., ms] @ an[js]
        if zi is not None and N + i <= K - 2:
            zf[..., i] += zi[..., N + i]
    return zf


def pushforward(bn: np.ndarray, an: np.ndarray, x: np.ndarray, y: np.ndarray, dbn: np.ndarray | None,
                dan: np.ndarray | None, dx: np.ndarray | None, dzi: np.ndarray | None,
                with_zf: bool) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(dy, dzf)`` for the tangents of the normalised coefficients, the input and the delays
    (``None``: zero; ``(None, None)`` if every tangent is zero)."""
    K, N = len(bn), x.shape[-1]
    r: Any = None

    def add(term: np.ndarray) -> None:
        nonlocal r
        r = term if r is None else r + term

    if dbn is not None:
        add(_causal(dbn, x))
    if dx is not None:
        add(_causal(bn, dx))
    if dan is not None:
        add(-_causal(dan, y))
    if dzi is not None:
        v = np.zeros((*dzi.shape[:-1], N), dzi.dtype)
        n = min(K - 1, N)
        v[..., :n] = dzi[..., :n]
        add(v)
    if r is None:
        return None, None
    dy = scipy.signal.lfilter(np.ones(1, an.dtype), an, r, axis=-1)
    if not with_zf:
        return dy, None
    zeros_b, zeros_a = np.zeros_like(bn), np.zeros_like(an)
    dzf = final_delays(bn, an, np.zeros_like(y) if dx is None else dx, dy, dzi)  # b dx - a dy + dv
    if dbn is not None or dan is not None:  # + db x - da y
        dzf = dzf + final_delays(zeros_b if dbn is None else dbn, zeros_a if dan is None else dan, x, y, None)
    return dy, dzf


def _output_cotangent(an: np.ndarray, y: np.ndarray, y_bar: np.ndarray | None, zf_bar: np.ndarray | None,
                      dtype: Any) -> np.ndarray:
    """``y_bar`` plus what the final delays owe to ``y``."""
    K, N = len(an), y.shape[-1]
    g = np.zeros(y.shape, dtype) if y_bar is None else np.array(np.broadcast_to(y_bar, y.shape), dtype=dtype)
    if zf_bar is not None:
        for i, js, ms in _zf_terms(K, N):
            if js.size:
                g[..., ms] -= np.conj(an[js]) * zf_bar[..., i:i + 1]
    return g


def adjoint_signal(bn: np.ndarray, an: np.ndarray, y: np.ndarray, y_bar: np.ndarray | None,
                   zf_bar: np.ndarray | None, dtype: Any) -> np.ndarray:
    """``u``: the adjoint filter run backwards on ``y_bar`` plus what ``zf`` owes to ``y``."""
    g = _output_cotangent(an, y, y_bar, zf_bar, dtype)
    return _reverse_filter(np.ones(1, an.dtype), np.conj(an), g)


def input_cotangent(bn: np.ndarray, an: np.ndarray, x: np.ndarray, y: np.ndarray, y_bar: np.ndarray | None,
                    zf_bar: np.ndarray | None, dtype: Any) -> np.ndarray:
    """``x_bar`` alone, in one pass: the whole filter run backwards with conjugated coefficients."""
    K, N = len(bn), y.shape[-1]
    x_bar = _reverse_filter(np.conj(bn), np.conj(an), _output_cotangent(an, y, y_bar, zf_bar, dtype))
    if zf_bar is not None:
        for i, js, ms in _zf_terms(K, N):
            if js.size:
                x_bar[..., ms] += np.conj(bn[js]) * zf_bar[..., i:i + 1]
    return x_bar


def cotangents_from(u: np.ndarray, bn: np.ndarray, an: np.ndarray, x: np.ndarray, y: np.ndarray,
                    zf_bar: np.ndarray | None, want: Any, dtype: Any) -> dict[str, Any]:
    """The cotangents named in ``want`` (``"b"``, ``"a"``, ``"x"``, ``"zi"``) from the adjoint signal ``u``."""
    K, N = len(bn), y.shape[-1]
    terms = _zf_terms(K, N) if zf_bar is not None else []
    lead = tuple(range(x.ndim - 1))
    out: dict[str, Any] = {}
    if "x" in want:
        x_bar = _reverse_filter(np.conj(bn), np.ones(1, bn.dtype), u)
        for i, js, ms in terms:
            if js.size:
                x_bar[..., ms] += np.conj(bn[js]) * zf_bar[..., i:i + 1]  # type: ignore[index]
        out["x"] = x_bar
    if "b" in want:
        b_bar = lagged_products(u, x, K)
        for i, js, ms in terms:
            if js.size:
                b_bar[js] += np.sum(zf_bar[..., i:i + 1] * np.conj(x[..., ms]), axis=lead)  # type: ignore[index]
        out["b"] = b_bar
    if "a" in want:
        a_bar = -lagged_products(u, y, K)
        a_bar[0] = 0
        for i, js, ms in terms:
            if js.size:
                a_bar[js] -= np.sum(zf_bar[..., i:i + 1] * np.conj(y[..., ms]), axis=lead)  # type: ignore[index]
        out["a"] = a_bar
    if "zi" in want:
        zi_bar = np.zeros((*u.shape[:-1], K - 1), dtype)
        n = min(K - 1, N)
        zi_bar[..., :n] = u[..., :n]
        for i, _, _ in terms:
            if N + i <= K - 2:
                zi_bar[..., N + i] += zf_bar[..., i]  # type: ignore[index]
        out["zi"] = zi_bar
    return out


def pullback(bn: np.ndarray, an: np.ndarray, x: np.ndarray, y: np.ndarray, y_bar: np.ndarray | None,
             zf_bar: np.ndarray | None, want_zi: bool) -> dict[str, Any]:
    """The cotangents of the normalised coefficients (``"b"``, ``"a"``), the input (``"x"``) and the
    delays (``"zi"``, if ``want_zi``, else ``None``) for the cotangents of ``y`` and ``zf`` (``None``: zero).

    The leading axes of ``x`` and ``y`` are summed over in ``"b"`` and ``"a"``.
    """
    dtype = np.result_type(bn, an, x, y, *(() if y_bar is None else (y_bar,)),
                           *(() if zf_bar is None else (zf_bar,)))
    u = adjoint_signal(bn, an, y, y_bar, zf_bar, dtype)
    out = cotangents_from(u, bn, an, x, y, zf_bar, ("b", "a", "x", "zi") if want_zi else ("b", "a", "x"), dtype)
    out.setdefault("zi", None)
    return out
