"""Partials in the parameters of an elementwise special function, computed once per rule call.

The rules of the hypergeometric functions, the orthogonal polynomials of real degree, the
Legendre functions of real order and the Lamé functions get their parameter derivatives
here. A *jet function* (``jet_fn(*flat_args) -> Jet``: values, derivatives in every
parameter, error bounds; see :mod:`chainrules.rulesets.special._jet`) is evaluated at most
once per call of a rule (``scalar_rule(..., shared=...)``), and only when a parameter's
cotangent is asked for. Then, for each parameter:

1. the jet's derivative is taken where its error bound is at most
   :data:`~chainrules.rulesets.special._hypergeometric_jets.TOLERANCE` (``1e-9``) times
   ``max(|derivative|, |value|)``;
2. elsewhere (or everywhere, for a function without a jet), Richardson-extrapolated
   central differences of SciPy's own function in that parameter
   (:func:`chainrules.rulesets.special._numerical.parameter_derivative`), kept where their
   error estimate meets the same tolerance, and only where SciPy's function is accurate
   to near double precision (the differences would differentiate its errors too);
3. if an element is still left, the whole cotangent of that parameter is
   ``not_implemented`` with the reason and the first such point (a tangent cannot be
   partly implemented; never a loose number).

Elements where the primal is ``inf`` or ``NaN`` get ``NaN`` (the limit is not a number there).

Examples
--------
>>> import numpy as np
>>> import scipy.special as sc
>>> from chainrules.rulesets.special._parameter_rules import ParameterPartials
>>> from chainrules.rulesets.special._hypergeometric_jets import hyp1f1_jet
>>> args = (np.array([0.5, 1.0]), 1.5, np.array([2.0, -3.0]))
>>> s = ParameterPartials(sc.hyp1f1, hyp1f1_jet, args, (0, 1), ("a", "b"), sc.hyp1f1(*args))
>>> s.partial(0).shape
(2,)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from chainrules.rulesets.special._hypergeometric_jets import TOLERANCE, relative_bound
from chainrules.rulesets.special._numerical import parameter_derivative
from chainrules_core import not_implemented
from chainrules_core.rules import _callable_name

__all__ = ["ParameterPartials", "float64", "parameter", "shared_partials"]


def float64(x: Any) -> np.ndarray:
    """``x`` as a float64 (or complex128) array: the partials are computed in double precision."""
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


class ParameterPartials:
    """The derivatives of ``f(*args)`` in the arguments at ``positions``, on demand.

    Parameters
    ----------
    f : callable
        The function (SciPy's), for the extrapolated differences.
    jet_fn : callable or None
        ``jet_fn(*flat_args)`` with the arguments broadcast, flattened and in double
        precision; returns a :class:`~chainrules.rulesets.special._jet.Jet` whose ``d[i]``
        is the derivative in ``args[positions[i]]``. ``None``: extrapolated differences only.
    args : tuple
        The primal arguments.
    positions : tuple of int
        Which arguments are differentiated here.
    names : tuple of str
        Their names (for the not-implemented reasons).
    y : array_like
        The primal output.
    fallback : bool or callable
        Whether to use extrapolated differences of ``f`` (step 2); a callable
        ``fallback(*flat_args)`` returns the mask of the elements where SciPy is accurate
        enough for them.
    steps : callable, optional
        ``steps(*flat_args)`` returns, per position, the first step of the differences
        (default ``0.1 max(1, |p|)``): small enough to stay inside the domain.
    why : str, optional
        What to say when a derivative is not implemented.
    """

    def __init__(self, f: Callable[..., Any], jet_fn: Callable[..., Any] | None, args: Sequence[Any],
                 positions: Sequence[int], names: Sequence[str], y: Any,
                 fallback: bool | Callable[..., Any] = True, steps: Callable[..., Any] | None = None,
                 why: str | None = None) -> None:
        self.f, self.jet_fn, self.args = f, jet_fn, tuple(args)
        self.positions, self.names, self.y = tuple(positions), tuple(names), y
        self.fallback, self.steps, self.why = fallback, steps, why
        self._jet: Any = None
        self._evaluated = False
        self._done: dict[int, Any] = {}

    def _evaluate(self) -> None:
        # integer arguments (degrees, orders: indices) stay integers, so a jet function can
        # tell an integer degree from a real one
        flat = np.broadcast_arrays(*(a if a.dtype.kind in "iu" else float64(a) for a in map(np.asarray, self.args)),
                                   float64(self.y))
        self.shape = flat[0].shape
        self.flat = [x.ravel() for x in flat[:-1]]
        self.y_flat = flat[-1].ravel()
        self.index = np.flatnonzero(np.isfinite(self.y_flat))
        if self.jet_fn is not None and self.index.size:
            with np.errstate(all="ignore"):
                self._jet = self.jet_fn(*(x[self.index] for x in self.flat))
        self._evaluated = True

    def partial(self, i: int) -> Any:
        """The derivative in parameter ``i`` (of ``positions``), shaped like the broadcast output."""
        if i in self._done:
            return self._done[i]
        if not self._evaluated:
            self._evaluate()
        n = self.y_flat.shape[0]
        complex_out = self.y_flat.dtype.kind == "c"
        out = np.full(n, np.nan, dtype=np.complex128 if complex_out else np.float64)
        bad = self.index
        if self._jet is not None:
            rel = relative_bound(self._jet)[i]
            d = self._jet.d[i] if complex_out else self._jet.d[i].real
            ok = rel <= TOLERANCE
            out[self.index[ok]] = d[ok]
            bad = self.index[~ok]
        if bad.size and self.fallback is not False:
            allowed = np.ones(bad.size, dtype=bool)
            if callable(self.fallback):
                allowed = np.asarray(self.fallback(*(x[bad] for x in self.flat)), dtype=bool)
            left = self._extrapolate(i, bad[allowed], out) if np.any(allowed) else bad[:0]
            bad = np.sort(np.concatenate([left, bad[~allowed]]))
        result = self._not_implemented(i, bad) if bad.size else out.reshape(self.shape)[()]
        self._done[i] = result
        return result

    def _extrapolate(self, i: int, bad: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Richardson-extrapolated differences of SciPy's function at the elements ``bad``; what is left."""
        pos = self.positions[i]
        fixed = [x[bad] for x in self.flat]
        step = None
        if self.steps is not None:
            step = np.asarray(self.steps(*fixed)[i], dtype=np.float64)

        def along(p: np.ndarray) -> np.ndarray:
            call = list(fixed)
            call[pos] = p
            return np.asarray(self.f(*call))

        with np.errstate(all="ignore"):
            d, err = parameter_derivative(along, fixed[pos], step=step)
        scale = np.maximum(np.abs(d), np.abs(self.y_flat[bad]))
        ok = np.isfinite(d) & (err <= TOLERANCE * scale)
        out[bad[ok]] = d[ok] if out.dtype.kind == "c" else np.real(d[ok])
        return bad[~ok]

    def _not_implemented(self, i: int, bad: np.ndarray) -> Any:
        first = bad[0]
        point = ", ".join(f"{x[first]:.6g}" for x in self.flat)
        why = self.why or ("the series, the connection formulas and the extrapolated differences all cancel "
                           "there, or SciPy's own values are not accurate enough to difference")
        return not_implemented(
            f"{_callable_name(self.f)}: the derivative in {self.names[i]} could not be computed to a relative "
            f"error of 1e-8 at {bad.size} of {self.y_flat.size} points (the first: ({point})): {why}. Hold "
            f"{self.names[i]} fixed (PrimalAndTangent(x, NoTangent())) or differentiate elsewhere")


def shared_partials(f: Callable[..., Any], jet_fn: Callable[..., Any] | None, positions: Sequence[int],
                    names: Sequence[str], fallback: bool | Callable[..., Any] = True,
                    steps: Callable[..., Any] | None = None, why: str | None = None,
                    ) -> Callable[..., ParameterPartials]:
    """A ``shared=`` function for :func:`chainrules_core.scalar_rule`: ``shared(*args, y)``."""

    def shared(*args_and_y: Any) -> ParameterPartials:
        return ParameterPartials(f, jet_fn, args_and_y[:-1], positions, names, args_and_y[-1], fallback, steps, why)

    shared.__name__ = f"{getattr(f, '__name__', 'f')}_parameter_partials"
    return shared


def parameter(i: int) -> Callable[..., Any]:
    """The partial in the ``i``-th parameter, read from the call's shared :class:`ParameterPartials`."""

    def partial(*args_and_y_and_shared: Any) -> Any:
        return args_and_y_and_shared[-1].partial(i)

    partial.__name__ = f"parameter_{i}_partial"
    return partial
