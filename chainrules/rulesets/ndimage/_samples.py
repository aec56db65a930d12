"""Building blocks of the ``scipy.ndimage`` sample inputs (private).

The finite differences of the checker perturb every entry of every differentiated
argument, so the images are small (a few dozen pixels), and each boundary mode gets one
sample.

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets.ndimage._samples import modes_samples
>>> [s.label for s in modes_samples(np.ones(3), np.ones(2), 0, None, cval=0.5)][:3]
["mode 'reflect'", "mode 'constant' (cval 0.5)", "mode 'nearest'"]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import Sample

__all__ = ["MODES", "image", "linear_fdm", "modes_samples"]

MODES = ("reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror", "grid-wrap")
"""Every boundary mode of ``scipy.ndimage``, in the order the samples take them."""


def image(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """A small random image (standard normal entries).

    Examples
    --------
    >>> image(np.random.default_rng(0), (2, 3)).shape
    (2, 3)
    """
    return rng.standard_normal(shape)


def modes_samples(*head: Any, cval: float, fkwargs: dict[str, Any] | None = None, **options: Any) -> list[Sample]:
    """One sample per boundary mode: ``f(*head, mode, cval)``, ``cval`` by position.

    ``head`` is every positional argument before ``mode`` (the image, the weights, the axis, ...).
    """
    out = []
    for mode in MODES:
        label = f"mode {mode!r}" + (f" (cval {cval})" if mode.endswith("constant") else "")
        out.append(Sample(*head, mode, cval, fkwargs=fkwargs, label=label, **options))
    return out


def linear_fdm() -> Any:
    """A finite-difference method with a wide, fixed step, for a function linear in what varies.

    A sample whose output is rounded to float32 (``output=np.float32``) leaves the default
    adaptive method a round-off of ``1e-7 / step``; a linear function needs no small step,
    and with a wide one the estimate is exact up to that rounding.
    """
    from chainrules.testing import central_fdm

    return central_fdm(5, 1, adapt=0, max_range=1.0)
