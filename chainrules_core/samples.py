"""Sample inputs: the calls at which a function's rules are checked, declared next to the rules.

Every function that has rules declares a few calls at which its rules can be tested:
points inside its domain (a positive definite matrix for ``cholesky``, ``x > 1`` for
``arccosh``, valid indices for ``take``), one per regime the rule distinguishes. The
declaration is cheap: a generator function that builds the inputs only when asked::

    @sample_inputs(np.arccosh)
    def _arccosh_samples(rng):
        yield Sample(1.5)
        yield Sample(1.0 + rng.random(3))
        yield Sample(np.float32(2.5))

``chainrules.testing.check_rules`` (and ``python -m chainrules check``) runs
``test_frule`` and ``test_rrule`` at every sample of every function, so every rule is
checked against finite differences by construction; a test of the suite fails for any
function with rules and no samples.

Options a :class:`Sample` carries besides the arguments are passed to the testers:
``fkwargs`` (keywords of the function), ``rtol``, ``atol``, ``fdm``, ``output_tangent``,
``config``, ``gauge_invariant``, ``check_*`` switches. The rng a generator receives is seeded, so
the samples are the same on every run.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from chainrules_core.lazy import load_all, load_pending

__all__ = ["Sample", "sample_inputs", "samples_of", "functions_with_samples"]

SampleGenerator = Callable[..., Iterable["Sample"]]

_GENERATORS: dict[Any, list[SampleGenerator]] = {}
_lock = threading.Lock()


class Sample:
    """One call of a function at which its rules are checked.

    Parameters
    ----------
    *args : Any
        The positional arguments (wrap one in ``chainrules.testing.PrimalAndTangent`` to
        choose its tangent, or to mark it ``NoTangent()``).
    fkwargs : dict, optional
        Keyword arguments of the function (never differentiated).
    label : str, optional
        Names the regime the sample stands for, in reports (``"x near 0"``).
    **options : Any
        Passed to the testers (each takes the options it knows): ``rtol``, ``atol``,
        ``fdm``, ``output_tangent``, ``config``, ``gauge_invariant``, ``check_thunked_output_tangent``,
        ``check_inplace_add``, ``check_frule_consistency``, ``check_zero_tangents``.

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Sample
    >>> s = Sample(np.ones(3), fkwargs={"axis": 0}, label="vector", rtol=1e-6)
    >>> s
    Sample(array of shape (3,) float64, fkwargs={'axis': 0}, label='vector')
    >>> s.as_dtype(np.float32).args[0].dtype
    dtype('float32')
    """

    __slots__ = ("args", "fkwargs", "label", "options")

    def __init__(self, *args: Any, fkwargs: dict[str, Any] | None = None, label: str | None = None,
                 **options: Any) -> None:
        self.args = args
        self.fkwargs = dict(fkwargs or {})
        self.label = label
        self.options = options

    def __repr__(self) -> str:
        parts = [_describe_value(a) for a in self.args]
        if self.fkwargs:
            parts.append(f"fkwargs={self.fkwargs!r}")
        if self.label:
            parts.append(f"label={self.label!r}")
        return f"Sample({', '.join(parts)})"

    def describe(self) -> str:
        """A short description for reports: the label, or the argument types and shapes."""
        if self.label:
            return self.label
        text = ", ".join(_describe_value(a) for a in self.args)
        if self.fkwargs:
            text += ", " + ", ".join(f"{k}={v!r}" for k, v in self.fkwargs.items())
        return text

    def as_dtype(self, dtype: Any, label: str | None = None) -> Sample:
        """The same sample with every floating (or, for a complex dtype, every inexact) array and number cast.

        Integer and boolean arguments are left alone. Use it to declare a float32 or
        complex variant of a sample.
        """
        dtype = np.dtype(dtype)
        args = tuple(_cast(a, dtype) for a in self.args)
        if label is None and self.label is not None:
            label = f"{self.label} ({dtype})"
        return Sample(*args, fkwargs=self.fkwargs, label=label, **self.options)


def _describe_value(a: Any) -> str:
    if isinstance(a, np.ndarray):
        return f"array of shape {a.shape} {a.dtype}"
    primal = getattr(a, "primal", None)
    if primal is not None and type(a).__name__ == "PrimalAndTangent":
        return _describe_value(primal)
    if isinstance(a, (float, int, complex, np.generic)):
        return repr(a)
    if isinstance(a, (list, tuple)) and len(a) <= 4:
        inner = ", ".join(_describe_value(e) for e in a)
        return f"[{inner}]" if isinstance(a, list) else f"({inner})"
    return type(a).__name__


def _cast(a: Any, dtype: np.dtype) -> Any:
    if isinstance(a, np.ndarray) and a.dtype.kind in ("fc" if dtype.kind == "c" else "f"):
        return a.astype(dtype)
    if isinstance(a, (float, np.floating)) or (dtype.kind == "c" and isinstance(a, (complex, np.complexfloating))):
        return dtype.type(a)
    if isinstance(a, list):
        return [_cast(e, dtype) for e in a]
    if isinstance(a, tuple) and not hasattr(a, "_fields"):
        return tuple(_cast(e, dtype) for e in a)
    return a


def sample_inputs(*functions: Any) -> Callable[[SampleGenerator], SampleGenerator]:
    """Decorator: declare a generator of :class:`Sample` s for each of ``functions``.

    The generator is called as ``generator(rng)`` (a seeded ``numpy.random.Generator``)
    or ``generator()`` if it takes no parameter, and returns (or yields) samples. Several
    generators may be declared for one function; they add up.

    Parameters
    ----------
    *functions : callable
        The functions (as rules are registered on them: ``np.ndarray.sum`` for a method).

    Examples
    --------
    >>> import numpy as np
    >>> from chainrules_core import Sample, sample_inputs, samples_of
    >>> def halve(x):
    ...     return x / 2
    >>> @sample_inputs(halve)
    ... def _halve_samples(rng):
    ...     yield Sample(1.5)
    ...     yield Sample(rng.standard_normal(3), label="vector")
    >>> [s.describe() for s in samples_of(halve)]
    ['1.5', 'vector']
    """
    if not functions:
        raise TypeError("sample_inputs(f, ...): name at least one function")

    def decorator(generator: SampleGenerator) -> SampleGenerator:
        with _lock:
            for f in functions:
                _GENERATORS.setdefault(f, []).append(generator)
        return generator

    return decorator


def _call_generator(generator: SampleGenerator, rng: np.random.Generator) -> list[Sample]:
    try:
        takes_rng = bool(inspect.signature(generator).parameters)
    except (TypeError, ValueError):
        takes_rng = True
    produced = generator(rng) if takes_rng else generator()
    samples = list(produced)
    for s in samples:
        if not isinstance(s, Sample):
            name = getattr(generator, "__qualname__", generator)
            raise TypeError(f"sample generator {name} produced a {type(s).__name__}; expected Sample objects")
    return samples


def samples_of(f: Any, seed: int = 0) -> list[Sample]:
    """The samples declared for ``f`` (the rulesets declaring rules for ``f`` are loaded first).

    Each generator gets its own generator seeded with ``seed``, so adding a generator
    never changes another's samples.

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules_core import samples_of
    >>> len(samples_of(np.sin)) > 0
    True
    """
    load_pending(f)
    with _lock:
        generators = list(_GENERATORS.get(f, ()))
    out: list[Sample] = []
    for generator in generators:
        out.extend(_call_generator(generator, np.random.default_rng(seed)))
    return out


def has_samples(f: Any) -> bool:
    """Whether any samples are declared for ``f`` (without building them).

    Examples
    --------
    >>> from chainrules_core.samples import has_samples
    >>> has_samples(len)
    False
    """
    load_pending(f)
    with _lock:
        return bool(_GENERATORS.get(f))


def functions_with_samples() -> list[Any]:
    """Every function that has samples declared (every declared ruleset is loaded first).

    Examples
    --------
    >>> import numpy as np
    >>> import chainrules
    >>> from chainrules_core import functions_with_samples
    >>> np.sin in functions_with_samples()
    True
    """
    load_all()
    with _lock:
        return list(_GENERATORS)
