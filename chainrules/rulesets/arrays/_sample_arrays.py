"""Building blocks of the array rules' sample inputs (private; see :func:`chainrules_core.sample_inputs`).

The array functions are linear in their arrays, so one point per regime suffices: the
samples vary what the rules distinguish (index kinds, axes, orders, modes, 0-d and empty
arrays, lists, dtypes), not the values.

Examples
--------
>>> import numpy as np
>>> from chainrules_core import Sample
>>> from chainrules.rulesets.arrays._sample_arrays import normal, with_dtypes
>>> normal(np.random.default_rng(0), 2, 3).shape
(2, 3)
>>> [s.describe() for s in with_dtypes(Sample(np.ones(2), label="vector"))]
['vector', 'vector (float32)', 'vector (complex128)']
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainrules_core import Sample


def normal(rng: np.random.Generator, *shape: int, dtype: Any = np.float64) -> np.ndarray:
    """A standard-normal array of ``shape`` (with an imaginary part for a complex ``dtype``)."""
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return np.asarray(x, dtype=dtype)


def with_dtypes(sample: Sample, float32: bool = True, complex128: bool = True) -> list[Sample]:
    """``sample`` and its float32 and complex128 variants (floating arrays and numbers cast).

    The complex variant has zero imaginary parts in its primal values; its tangents (random)
    are complex, which is what checks a rule's complex directions.
    """
    out = [sample]
    if float32:
        out.append(sample.as_dtype(np.float32))
    if complex128:
        out.append(sample.as_dtype(np.complex128))
    return out


# ---- generators whose draws do not advance them: samples of the numpy.random samplers ----------------------
class _Rewind:
    """The lock NumPy's samplers hold while drawing: it puts the state back when the draw is done.

    ``Generator`` and ``RandomState`` methods draw inside ``with bit_generator.lock:``; this
    context manager saves the generator's state on entering (the outermost time) and restores
    it on leaving, so every call draws the same numbers. A nested use (NumPy's own
    ``get_state``/``set_state`` take the lock) is ignored.
    """

    __slots__ = ("busy", "depth", "owner", "saved")

    def __init__(self) -> None:
        self.depth = 0
        self.busy = False
        self.owner: Any = None
        self.saved: Any = None

    def _state(self) -> Any:
        if isinstance(self.owner, np.random.RandomState):
            return self.owner.get_state(legacy=False)
        return self.owner.state

    def _restore(self, state: Any) -> None:
        if isinstance(self.owner, np.random.RandomState):
            self.owner.set_state(state)
        else:
            self.owner.state = state

    def __enter__(self) -> _Rewind:
        if self.busy or self.owner is None:
            return self
        if self.depth == 0:
            self.busy = True
            try:
                self.saved = self._state()
            finally:
                self.busy = False
        self.depth += 1
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.busy or self.owner is None:
            return
        self.depth -= 1
        if self.depth == 0:
            self.busy = True
            try:
                self._restore(self.saved)
            finally:
                self.busy = False


class PCG64(np.random.PCG64):
    """``np.random.PCG64`` with a rewinding lock (its class name is NumPy's, so its state is NumPy's)."""

    _rewind: _Rewind | None = None

    @property
    def lock(self) -> Any:  # type: ignore[override]
        return self._rewind if self._rewind is not None else super().lock


class MT19937(np.random.MT19937):
    """``np.random.MT19937`` with a rewinding lock (its class name is NumPy's, so its state is NumPy's)."""

    _rewind: _Rewind | None = None

    @property
    def lock(self) -> Any:  # type: ignore[override]
        return self._rewind if self._rewind is not None else super().lock


class FixedStateGenerator(np.random.Generator):
    """A ``Generator`` whose draws do not advance it: every call draws the same numbers.

    The sample inputs of the samplers (``Generator.normal`` ...) pass one as ``self``. The
    testers call the rules on the arguments and compare with calls of the function on deep
    copies (the primal output, the finite differences, the mutation checks): with a
    generator that advanced, each of those calls would draw other numbers. A deep copy is a
    plain ``Generator`` in the same state; two generators are equal when their states are.
    """

    def __init__(self, seed: int) -> None:
        bit_generator = PCG64(seed)
        rewind = _Rewind()
        bit_generator._rewind = rewind
        super().__init__(bit_generator)
        rewind.owner = bit_generator

    def __deepcopy__(self, memo: Any) -> np.random.Generator:
        plain = np.random.PCG64()
        plain.state = self.bit_generator.state  # type: ignore[assignment]  # a PCG64 state, read as a Mapping
        return np.random.Generator(plain)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, np.random.Generator) and _same_state(self.bit_generator.state,
                                                                       other.bit_generator.state)

    __hash__ = np.random.Generator.__hash__

    def __repr__(self) -> str:
        return "FixedStateGenerator(PCG64)"


class FixedStateRandomState(np.random.RandomState):
    """A ``RandomState`` (NumPy's legacy generator) whose draws do not advance it; see :class:`FixedStateGenerator`."""

    def __init__(self, seed: int) -> None:
        bit_generator = MT19937(seed)
        rewind = _Rewind()
        bit_generator._rewind = rewind
        super().__init__(bit_generator)
        rewind.owner = self

    def __deepcopy__(self, memo: Any) -> np.random.RandomState:
        plain = np.random.RandomState()
        plain.set_state(self.get_state())
        return plain

    def __eq__(self, other: object) -> bool:
        return isinstance(other, np.random.RandomState) and _same_state(self.get_state(legacy=False),
                                                                         other.get_state(legacy=False))

    __hash__ = np.random.RandomState.__hash__

    def __repr__(self) -> str:
        return "FixedStateRandomState(MT19937)"


def _same_state(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_state(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


def fixed_state_generators(seed: int = 5) -> tuple[FixedStateGenerator, FixedStateRandomState]:
    """A :class:`FixedStateGenerator` and a :class:`FixedStateRandomState`, seeded.

    Examples
    --------
    >>> import copy
    >>> from chainrules.rulesets.arrays._sample_arrays import fixed_state_generators
    >>> rng, legacy = fixed_state_generators()
    >>> bool((rng.normal(size=3) == rng.normal(size=3)).all()), bool(legacy.normal() == legacy.normal())
    (True, True)
    >>> twin = copy.deepcopy(rng)                # a plain Generator in the same state
    >>> type(twin).__name__, twin == rng
    ('Generator', True)
    >>> bool((twin.normal(size=3) == rng.normal(size=3)).all()), twin == rng    # the twin advanced
    (True, False)
    """
    return FixedStateGenerator(seed), FixedStateRandomState(seed)
