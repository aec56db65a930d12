"""The host-side store of the pullbacks kept between JAX's forward and backward passes.

A rule's pullback is a Python closure over NumPy arrays (a factorization, say); JAX's
residuals must be JAX arrays. So the forward pass (``custom_vjp``'s ``fwd``) keeps the
pullback here, under an integer *token*, and hands JAX the token (an ``int32`` scalar)
together with the primal inputs as its residuals; the backward pass looks the token up.

No pullback outlives its use, nor the lack of one:

* the backward pass removes every entry it used;
* in eager mode (no ``jit``) the token JAX keeps is a concrete array, and a finalizer on
  it removes the entry when JAX drops its residuals (the function returned by
  ``jax.vjp`` is garbage-collected, a ``value_and_grad`` whose gradient was never formed);
* under ``jit`` the token is a value of the compiled program, with no Python object whose
  life could be watched; there the store keeps at most :attr:`PullbackStore.limit`
  entries, the least recently stored leaving first (a ``jit``-compiled forward pass whose
  backward pass XLA removed as dead code, a ``jax.vjp`` under ``jit`` never pulled back).

An entry that is missing when the backward pass needs it (evicted, or used already by an
earlier call of the same ``jax.vjp`` function) is not an error: the backward pass runs the
rule again from the primal inputs, which are among the residuals. That costs a second
forward computation, never a wrong value; :attr:`PullbackStore.recomputed` counts it.

Examples
--------
>>> from chainrules.interop.jax.pullbacks import PullbackStore
>>> store = PullbackStore(limit=2)
>>> tokens = [store.put(lambda dy: dy) for _ in range(3)]
>>> len(store), store.evicted, store.get(tokens[0]) is None
(2, 1, True)
"""

from __future__ import annotations

from chainrules.interop._pullbacks import Entry, PullbackStore

__all__ = ["STORE", "Entry", "PullbackStore", "pending_pullbacks", "set_pullback_limit"]


STORE = PullbackStore()
"""The store every JAX primitive uses."""


def pending_pullbacks() -> int:
    """How many pullbacks are waiting for a backward pass.

    Examples
    --------
    >>> from chainrules.interop.jax import pending_pullbacks
    >>> isinstance(pending_pullbacks(), int)
    True
    """
    return len(STORE)


def set_pullback_limit(limit: int) -> int:
    """Set the most pullbacks kept for ``jit``-compiled forward passes; return the previous limit.

    Examples
    --------
    >>> from chainrules.interop.jax import set_pullback_limit
    >>> previous = set_pullback_limit(64)
    >>> set_pullback_limit(previous)
    64
    """
    if limit < 1:
        raise ValueError(f"set_pullback_limit: the limit must be at least 1, got {limit}")
    previous, STORE.limit = STORE.limit, int(limit)
    return previous
