"""The four functions of ``docs/why-rules.md``, with their rules, as a user's module would hold them.

ChainRules' documentation lists the functions an AD that cannot do everything needs rules
for; here are the four in Python, each with a chainrules rule registered in this module
(rules live next to the function they differentiate, in the user's own code):

* :func:`mse`: a Python loop over the elements (autograd records every operation of every
  iteration); its rule is vectorised NumPy.
* :func:`sum3`: reads three elements of an array (autograd records three indexing
  operations and accumulates three cotangents); its rule writes one cotangent.
* :func:`addone`: fills an internal NumPy buffer in place (autograd cannot record writes
  into a plain ndarray: ``ValueError``); its rule knows the derivative.
* :func:`safe_log`: ``math.log`` inside ``try``/``except ValueError`` (``math.log`` cannot
  take autograd's boxes; a broader ``except`` would swallow that error and return a
  constant, a silently wrong zero gradient); its rule has the derivative of both branches.

Each has an autograd-traceable rewrite (``*_traceable``) where the original cannot be
traced, for comparison. ``examples/`` is not a package: load this file by path (the tests
and benchmarks do).
"""

from __future__ import annotations

import math
from typing import Any

import autograd.numpy as anp
import numpy as np

from chainrules import NoTangent, ZeroTangent, frule, rrule, unthunk

__all__ = [
    "addone",
    "addone_traceable",
    "mse",
    "safe_log",
    "safe_log_broad",
    "safe_log_traceable",
    "sum3",
]


# ---- loops ------------------------------------------------------------------------------------------
def mse(y: Any, yhat: Any) -> Any:
    """The mean squared error, as a Python loop over the elements.

    Examples
    --------
    >>> import numpy as np
    >>> float(mse(np.array([1.0, 2.0]), np.array([0.0, 0.0])))
    2.5
    """
    n = len(y)
    s = 0.0
    for i in range(n):
        s += (y[i] - yhat[i]) ** 2.0
    return s / n


@rrule.register(mse, np.ndarray, np.ndarray)
def mse_rrule(y: np.ndarray, yhat: np.ndarray) -> Any:
    """Reverse rule of :func:`mse`: vectorised, ``dy = 2 (y - yhat) / n * ds``, ``dyhat = -dy``."""
    r = y - yhat
    n = r.size
    same_dtype = y.dtype is r.dtype is yhat.dtype or y.dtype == r.dtype == yhat.dtype  # else: each input's precision

    def mse_pullback(ds: Any) -> tuple[Any, Any, Any]:
        ds = unthunk(ds)
        if isinstance(ds, ZeroTangent):
            return NoTangent(), ZeroTangent(), ZeroTangent()
        dy = r * ds
        dy *= 2.0 / n
        if same_dtype:
            return NoTangent(), dy, -dy
        return NoTangent(), dy.astype(y.dtype), (-dy).astype(yhat.dtype)

    return r.dot(r) / n, mse_pullback


@frule.register(mse, np.ndarray, np.ndarray)
def mse_frule(tangents: Any, y: np.ndarray, yhat: np.ndarray) -> Any:
    """Forward rule of :func:`mse`: ``ds = 2 <y - yhat, dy - dyhat> / n``."""
    _, dy, dyhat = tangents
    r = y - yhat
    return r.dot(r) / r.size, 2.0 * np.sum(r * (unthunk(dy) - unthunk(dyhat))) / r.size


# ---- in-place accumulation ---------------------------------------------------------------------------
def sum3(a: Any) -> Any:
    """The sum of the first three elements, read one by one.

    Examples
    --------
    >>> import numpy as np
    >>> float(sum3(np.arange(5.0)))
    3.0
    """
    x = a[0]
    y = a[1]
    z = a[2]
    return x + y + z


@rrule.register(sum3, np.ndarray)
def sum3_rrule(a: np.ndarray) -> Any:
    """Reverse rule of :func:`sum3`: one cotangent array, three entries written."""

    def sum3_pullback(ds: Any) -> tuple[Any, Any]:
        ds = unthunk(ds)
        if isinstance(ds, ZeroTangent):
            return NoTangent(), ZeroTangent()
        da = np.zeros_like(a)
        da[:3] = ds
        return NoTangent(), da

    return sum3(a), sum3_pullback


@frule.register(sum3, np.ndarray)
def sum3_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of :func:`sum3`."""
    da = unthunk(tangents[1])
    return sum3(a), (ZeroTangent() if isinstance(da, ZeroTangent) else sum3(da))


# ---- functions that mutate arrays ---------------------------------------------------------------------
def addone(a: Any) -> Any:
    """``sum(a + 1)``, computed in an internal buffer filled in place.

    Examples
    --------
    >>> import numpy as np
    >>> float(addone(np.array([1.0, 2.0])))
    5.0
    """
    b = np.empty(np.shape(a))
    b[...] = a + 1
    return np.sum(b)


def addone_traceable(a: Any) -> Any:
    """:func:`addone` rewritten without the buffer, as autograd needs it."""
    return anp.sum(a + 1)


@rrule.register(addone, np.ndarray)
def addone_rrule(a: np.ndarray) -> Any:
    """Reverse rule of :func:`addone`: ``da = ds`` everywhere."""

    def addone_pullback(ds: Any) -> tuple[Any, Any]:
        ds = unthunk(ds)
        if isinstance(ds, ZeroTangent):
            return NoTangent(), ZeroTangent()
        return NoTangent(), np.full(a.shape, ds, dtype=a.dtype)

    return addone(a), addone_pullback


@frule.register(addone, np.ndarray)
def addone_frule(tangents: Any, a: np.ndarray) -> Any:
    """Forward rule of :func:`addone`: ``ds = sum(da)``."""
    da = unthunk(tangents[1])
    return addone(a), (ZeroTangent() if isinstance(da, ZeroTangent) else np.sum(da))


# ---- exception handling -----------------------------------------------------------------------------------
def safe_log(x: Any) -> Any:
    """``log(x)``, or ``-inf`` where ``math.log`` raises (``x <= 0``).

    Examples
    --------
    >>> safe_log(1.0), safe_log(-1.0)
    (0.0, -inf)
    """
    try:
        return math.log(x)
    except ValueError:
        return -math.inf


def safe_log_broad(x: Any) -> Any:
    """:func:`safe_log` with ``except Exception``: it also swallows autograd's ``TypeError``."""
    try:
        return math.log(x)
    except Exception:
        return -math.inf


def safe_log_traceable(x: Any) -> Any:
    """:func:`safe_log` rewritten for autograd (no ``math``, no exception)."""
    return anp.log(x) if x > 0 else -math.inf


@rrule.register(safe_log, float)
def safe_log_rrule(x: float) -> Any:
    """Reverse rule of :func:`safe_log`: ``dx = ds / x`` for ``x > 0``, zero where the output is constant."""

    def safe_log_pullback(ds: Any) -> tuple[Any, Any]:
        ds = unthunk(ds)
        if isinstance(ds, ZeroTangent) or x <= 0:
            return NoTangent(), ZeroTangent()
        return NoTangent(), float(ds / x)

    return safe_log(x), safe_log_pullback


@frule.register(safe_log, float)
def safe_log_frule(tangents: Any, x: float) -> Any:
    """Forward rule of :func:`safe_log`."""
    dx = unthunk(tangents[1])
    if isinstance(dx, ZeroTangent) or x <= 0:
        return safe_log(x), ZeroTangent()
    return safe_log(x), float(dx / x)
