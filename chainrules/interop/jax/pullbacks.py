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

import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

__all__ = ["STORE", "Entry", "PullbackStore", "pending_pullbacks", "set_pullback_limit"]


class Entry:
    """A stored pullback, and the batch shape of the forward call that made it (``()`` unless
    a broadcasting rule ran on a whole ``vmap`` batch at once)."""

    __slots__ = ("batch", "pullback")

    def __init__(self, pullback: Callable[[Any], Any], batch: tuple[int, ...]) -> None:
        self.pullback = pullback
        self.batch = batch


class PullbackStore:
    """Pullbacks by token, at most ``limit`` of them (least recently stored evicted first).

    Attributes
    ----------
    limit : int
        The most entries kept.
    evicted, recomputed : int
        How many entries were evicted for the limit, and how many backward passes ran a
        rule again because their entry was missing.
    """

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self.evicted = 0
        self.recomputed = 0
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._counter = itertools.count(1)

    def put(self, pullback: Callable[[Any], Any], batch: tuple[int, ...] = ()) -> int:
        """Keep ``pullback``; return its token (a positive ``int32``)."""
        with self._lock:
            token = next(self._counter) % 0x7FFFFFFF or next(self._counter)
            self._entries[token] = Entry(pullback, batch)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)
                self.evicted += 1
        return token

    def get(self, token: int) -> Entry | None:
        """The entry of ``token``, or ``None`` (it stays in the store)."""
        with self._lock:
            return self._entries.get(int(token))

    def discard(self, token: int) -> None:
        """Remove the entry of ``token`` if it is there."""
        with self._lock:
            self._entries.pop(int(token), None)

    def clear(self) -> None:
        """Remove every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return (f"PullbackStore({len(self)} pending, limit={self.limit}, evicted={self.evicted}, "
                f"recomputed={self.recomputed})")


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
