"""``use_chainrules``: chainrules' rules as the VJPs and JVPs of the functions autograd wraps.

autograd wraps NumPy and SciPy functions as primitives (``autograd.numpy.linalg.cholesky``
is a primitive whose ``.fun`` is ``numpy.linalg.cholesky``) and keeps their derivatives in
two tables, ``primitive_vjps`` and ``primitive_jvps``. Many wrapped functions have no entry
(``autograd.scipy.linalg.expm``, ``autograd.numpy.linalg.qr``, every JVP of
``numpy.linalg``...), and some have one that covers only some arguments
(``autograd.numpy.clip`` differentiates ``x`` but not the bounds).

:func:`use_chainrules` subscribes to chainrules' new-rule hooks (``rrule.on_new_rule``,
``frule.on_new_rule``). Every function with a rule, now or registered later (a user's
module imported afterwards), that autograd wraps gets a VJP and/or JVP maker that calls
the rule (:func:`~chainrules.interop.autograd.vjp_maker`):

* ``replace=False`` (the default) fills the gaps only. Where autograd has no derivative the
  rule is used; where autograd has one it is used, and the rule only answers when
  autograd's maker raises ``NotImplementedError`` (an argument it does not differentiate).
  No gradient autograd computes today changes.
* ``replace=True``: the rule first wherever one applies to the argument types; autograd's
  own derivative when none does, and for every derivative of a derivative (second
  derivatives, a VJP called on traced values), which a rule's NumPy pullback cannot give
  (:mod:`~chainrules.interop.autograd.higher_order`). With it, autograd's own test suite
  passes under ``replace=True``.

The rule is looked up by argument types when autograd differentiates a call, and the
``AutogradConfig`` is passed, so rules that call back into the AD (``rrule_via_ad``) work.
autograd computes the output of its own primitives before asking for the VJP; a rule that
carries ``pullback_given_output`` is pulled back at that output, any other rule computes it
again; :func:`~chainrules.interop.autograd.primitive` avoids that (the rule computes the
output once).

Everything is undone by ``remove()`` on the returned handle (also a context manager).
"""

from __future__ import annotations

import importlib
import threading
import types
from collections.abc import Callable
from typing import Any

from autograd.core import primitive_jvps, primitive_vjps

from chainrules.interop.autograd.primitive import jvp_maker, vjp_maker
from chainrules.interop.errors import NoRuleError
from chainrules_core import RuleHook, RuleSignature, frule, rrule

__all__ = ["AUTOGRAD_MODULES", "AutogradRegistration", "active_registration", "autograd_primitives_of",
           "use_chainrules"]

AUTOGRAD_MODULES = (
    "autograd.numpy.numpy_wrapper",
    "autograd.numpy.linalg",
    "autograd.numpy.fft",
    "autograd.scipy.special",
    "autograd.scipy.linalg",
    "autograd.scipy.signal",
    "autograd.scipy.integrate",
    "autograd.scipy.misc",
    "autograd.scipy.stats.norm",
    "autograd.scipy.stats.t",
    "autograd.scipy.stats.beta",
    "autograd.scipy.stats.gamma",
    "autograd.scipy.stats.chi2",
    "autograd.scipy.stats.poisson",
    "autograd.scipy.stats.dirichlet",
    "autograd.scipy.stats.multivariate_normal",
)
"""The autograd modules whose primitives are searched for the functions they wrap."""

_MISSING: Any = object()
_lock = threading.RLock()
_wrappers: dict[Any, list[Any]] | None = None
_active: AutogradRegistration | None = None


def _scan() -> dict[Any, list[Any]]:
    """function -> the autograd primitives wrapping it, over :data:`AUTOGRAD_MODULES`."""
    found: dict[Any, list[Any]] = {}

    def add(raw: Any, wrapper: Any) -> None:
        try:
            bucket = found.setdefault(raw, [])
        except TypeError:  # an unhashable wrapped object cannot have rules anyway
            return
        if not any(w is wrapper for w in bucket):
            bucket.append(wrapper)

    for name in AUTOGRAD_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # another autograd version
            continue
        for value in list(vars(module).values()):
            if isinstance(value, types.FunctionType) and hasattr(value, "fun") and not getattr(
                    value, "_chainrules_primitive", False):
                add(value.fun, value)
    from autograd import tracer

    for raw, wrapper in list(getattr(tracer, "trace_primitives_map", {}).items()):
        add(raw, wrapper)
    return found


def autograd_primitives_of(f: Any) -> list[Any]:
    """The autograd primitives that wrap ``f`` (``[autograd.numpy.sin]`` for ``numpy.sin``).

    Examples
    --------
    >>> import numpy as np
    >>> import autograd.numpy as anp
    >>> from chainrules.interop.autograd import autograd_primitives_of
    >>> autograd_primitives_of(np.sin) == [anp.sin]
    True
    """
    global _wrappers
    with _lock:
        if _wrappers is None:
            _wrappers = _scan()
        known = list(_wrappers.get(f, ())) if _hashable(f) else []
    from autograd import tracer

    late = getattr(tracer, "trace_primitives_map", {}).get(f) if _hashable(f) else None
    if late is not None and not any(w is late for w in known) and not getattr(late, "_chainrules_primitive", False):
        known.append(late)
    return known


def _hashable(f: Any) -> bool:
    try:
        hash(f)
    except TypeError:
        return False
    return True


def _autograd_first(original: Callable[..., Any], ours: Callable[..., Any]) -> Callable[..., Any]:
    """autograd's maker; the rule's when autograd's raises ``NotImplementedError`` (an argnum it lacks)."""

    def autograd_then_chainrules(*maker_args: Any) -> Any:
        try:
            return original(*maker_args)
        except (NotImplementedError, KeyError) as err:  # KeyError: autograd's defjvp for a missing argnum
            try:
                return ours(*maker_args)
            except NoRuleError:
                raise err from None

    autograd_then_chainrules.chainrules_function = getattr(ours, "chainrules_function", None)  # type: ignore[attr-defined]
    return autograd_then_chainrules


class AutogradRegistration:
    """What :func:`use_chainrules` installed; ``remove()`` (or leaving the ``with`` block) undoes it.

    Attributes
    ----------
    replace : bool
        Whether the rules replace autograd's own derivatives.

    Examples
    --------
    >>> import numpy as np, scipy.linalg
    >>> import autograd.scipy.linalg as asl
    >>> from chainrules.interop.autograd import use_chainrules
    >>> with use_chainrules() as registration:
    ...     asl.expm in registration.vjps()
    True
    """

    def __init__(self, replace: bool, previous: AutogradRegistration | None) -> None:
        self.replace = replace
        self._previous = previous
        self._vjp_saved: dict[Any, Any] = {}  # autograd primitive -> autograd's own maker (or _MISSING)
        self._jvp_saved: dict[Any, Any] = {}
        self._hooks: list[RuleHook] = []
        self._state = "active"  # or "suspended" (a later registration is active), "removed"

    def __repr__(self) -> str:
        state = self._state if self._state != "active" else f"{len(self._vjp_saved)} VJPs, {len(self._jvp_saved)} JVPs"
        return f"AutogradRegistration(replace={self.replace}, {state})"

    # ---- what was installed ---------------------------------------------------------------------------
    def vjps(self) -> list[Any]:
        """The autograd primitives whose VJP maker now calls chainrules' rules."""
        with _lock:
            return list(self._vjp_saved)

    def jvps(self) -> list[Any]:
        """The autograd primitives whose JVP maker now calls chainrules' rules."""
        with _lock:
            return list(self._jvp_saved)

    # ---- installing -----------------------------------------------------------------------------------
    def _install(self, table: dict[Any, Any], saved: dict[Any, Any], f: Any, wrapper: Any,
                 make: Callable[..., Any]) -> None:
        if wrapper in saved:
            return
        original = table.get(wrapper, _MISSING)
        saved[wrapper] = original
        if original is _MISSING:
            table[wrapper] = make(f)
        elif self.replace:
            table[wrapper] = make(f, fallback=original)
        else:
            table[wrapper] = _autograd_first(original, make(f))

    def _on_rrule(self, f: Any, signature: RuleSignature) -> None:
        if signature.opt_out or signature.functor or self._state != "active":
            return
        for wrapper in autograd_primitives_of(f):
            with _lock:
                self._install(primitive_vjps, self._vjp_saved, f, wrapper, vjp_maker)

    def _on_frule(self, f: Any, signature: RuleSignature) -> None:
        if signature.opt_out or signature.functor or self._state != "active":
            return
        for wrapper in autograd_primitives_of(f):
            with _lock:
                self._install(primitive_jvps, self._jvp_saved, f, wrapper, jvp_maker)

    def _start(self) -> None:
        self._hooks = [rrule.on_new_rule(self._on_rrule), frule.on_new_rule(self._on_frule)]

    # ---- undoing --------------------------------------------------------------------------------------
    def _uninstall(self) -> None:
        for hook in self._hooks:
            hook.remove()
        self._hooks = []
        with _lock:
            for table, saved in ((primitive_vjps, self._vjp_saved), (primitive_jvps, self._jvp_saved)):
                for wrapper, original in saved.items():
                    if original is _MISSING:
                        table.pop(wrapper, None)
                    else:
                        table[wrapper] = original
                saved.clear()

    def remove(self) -> None:
        """Restore autograd's own derivatives, or those of the registration active before this one."""
        global _active
        with _lock:
            if self._state == "removed":
                return
            if self._state == "active":
                self._uninstall()
            self._state = "removed"
            if _active is self:
                previous = self._previous
                while previous is not None and previous._state == "removed":
                    previous = previous._previous
                _active = previous
                if previous is not None:
                    previous._resume()

    def _suspend(self) -> None:
        self._uninstall()
        self._state = "suspended"

    def _resume(self) -> None:
        self._state = "active"
        self._start()

    def __enter__(self) -> AutogradRegistration:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()


def active_registration() -> AutogradRegistration | None:
    """The registration :func:`use_chainrules` made last and that is still active, or ``None``.

    Examples
    --------
    >>> from chainrules.interop.autograd import active_registration, use_chainrules
    >>> with use_chainrules(replace=True):
    ...     active_registration().replace
    True
    """
    return _active


def use_chainrules(replace: bool = False) -> AutogradRegistration:
    """Let autograd use chainrules' rules for the NumPy/SciPy functions it wraps.

    Parameters
    ----------
    replace : bool
        ``False``: use a rule only where autograd has no derivative (for the function, or
        for the argument it is asked about). ``True``: use the rule wherever one applies to
        the argument types, autograd's own derivative elsewhere and for derivatives of
        derivatives (where autograd has none, those raise
        :class:`~chainrules.interop.errors.HigherOrderDerivativeError` when needed).

    Returns
    -------
    AutogradRegistration
        ``remove()`` restores autograd's own derivatives (and the registration that was
        active before, if any); it is also a context manager.

    Examples
    --------
    >>> import numpy as np
    >>> import autograd, autograd.numpy as anp, autograd.scipy.linalg as asl
    >>> from chainrules.interop.autograd import use_chainrules
    >>> A = np.array([[0.0, 1.0], [-1.0, 0.0]])
    >>> with use_chainrules():
    ...     round(float(autograd.grad(lambda t: anp.trace(asl.expm(t * A)))(0.3)), 10)
    -0.5910404133
    """
    global _active
    with _lock:
        previous = _active
        if previous is not None:
            previous._suspend()
        registration = AutogradRegistration(replace, previous)
        _active = registration
        registration._start()
    return registration
