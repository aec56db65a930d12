"""Partials in float64: the special-function rules compute their partial derivatives at float64 (complex128)
and let the projection cast each cotangent back to its argument's precision, so that float32 stays float32
without float32 cancellation inside a partial (``2 x erfcx(x) - 2/sqrt(pi)``, ``y - (y - 1)/x``)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["upcast"]


def upcast(x: Any) -> np.ndarray:
    """``x`` as an ndarray of at least float64 precision (complex stays complex; no copy if it already is).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets.special._precision import upcast
    >>> upcast(np.float32(1.5)).dtype, upcast(2).dtype, upcast(np.complex64(1j)).dtype
    (dtype('float64'), dtype('float64'), dtype('complex128'))
    """
    x = np.asarray(x)
    return x.astype(np.result_type(x.dtype, np.float64), copy=False)
