"""Building blocks of the sample inputs the rulesets declare (see :func:`chainrules_core.sample_inputs`).

Samples are small (the checker runs finite differences at every one of them) and stand
for the regimes a rule distinguishes, one point per regime.

Examples
--------
>>> import numpy as np
>>> from chainrules.rulesets._samples import elementwise_samples
>>> [s.describe() for s in elementwise_samples(np.array([0.5, 1.5]), complex_inputs=True)]
['scalar 0.5', 'array of shape (2,) float64', 'array of shape (2,) float32', 'complex']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import Sample

__all__ = ["elementwise_samples", "spd", "well_conditioned"]


def _first(a: Any) -> Any:
    if isinstance(a, np.ndarray):
        return a.ravel()[0].item()
    return a


def _complex(a: Any, rng: np.random.Generator) -> Any:
    if isinstance(a, np.ndarray) and a.dtype.kind == "f":
        return a + 0.25j * (1 + rng.random(a.shape))
    if isinstance(a, float):
        return complex(a, 0.3)
    return a


def elementwise_samples(*args: Any, scalar: bool = True, float32: bool = True, complex_inputs: bool = False,
                        rng: np.random.Generator | None = None, label: str | None = None,
                        **options: Any) -> list[Sample]:
    """Samples of an elementwise function at ``args`` (arrays, broadcastable, or numbers).

    Parameters
    ----------
    *args : ndarray or number
        One point per argument, inside the function's domain.
    scalar : bool
        Also a sample at the first element of each argument, as Python numbers.
    float32 : bool
        Also the float32 version of the arrays.
    complex_inputs : bool
        Also a complex version (a small imaginary part added to each floating argument).
    rng : numpy.random.Generator, optional
        For the imaginary parts (default: seeded).
    label : str, optional
        Prefix of the samples' labels.
    **options
        Tester options for every sample (``rtol``, ``atol``, ``fkwargs`` ...).

    Returns
    -------
    list of Sample
    """
    rng = np.random.default_rng(0) if rng is None else rng
    prefix = f"{label}: " if label else ""
    out = []
    if scalar:
        firsts = tuple(_first(a) for a in args)
        out.append(Sample(*firsts, label=prefix + "scalar " + ", ".join(repr(v) for v in firsts), **options))
    base = Sample(*args, label=label, **options)
    out.append(base)
    if float32 and any(isinstance(a, np.ndarray) and a.dtype == np.float64 for a in args):
        out.append(base.as_dtype(np.float32))
    if complex_inputs:
        out.append(Sample(*(_complex(a, rng) for a in args), label=prefix + "complex", **options))
    return out


def spd(n: int, rng: np.random.Generator, dtype: Any = np.float64) -> np.ndarray:
    """A well-conditioned symmetric (Hermitian) positive definite ``n`` by ``n`` matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets._samples import spd
    >>> bool(np.all(np.linalg.eigvalsh(spd(3, np.random.default_rng(0))) > 0))
    True
    """
    a = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((n, n))
    return (a @ a.conj().T / n + np.eye(n)).astype(dtype)


def well_conditioned(n: int, rng: np.random.Generator, dtype: Any = np.float64, m: int | None = None) -> np.ndarray:
    """A well-conditioned ``n`` by ``m`` matrix (the identity plus a small random part).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules.rulesets._samples import well_conditioned
    >>> bool(np.linalg.cond(well_conditioned(4, np.random.default_rng(0))) < 10)
    True
    """
    m = n if m is None else m
    a = np.eye(n, m) + 0.3 * rng.standard_normal((n, m)) / np.sqrt(max(n, m))
    if np.dtype(dtype).kind == "c":
        a = a + 0.3j * rng.standard_normal((n, m)) / np.sqrt(max(n, m))
    return a.astype(dtype)
