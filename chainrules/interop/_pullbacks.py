"""A store of pullbacks by integer token, for bridges whose backward pass cannot hold a Python object.

JAX's residuals and a ``torch.library.custom_op``'s outputs must be arrays; a rule's
pullback is a Python closure. So the forward pass keeps the pullback here and hands the
framework an integer token; the backward pass looks it up and removes it. The store keeps
at most ``limit`` entries (least recently stored evicted first), so forward passes whose
backward pass never comes cannot grow it without bound; a bridge that finds an entry
missing runs the rule again from the primal inputs (never a wrong value).

Examples
--------
>>> from chainrules.interop._pullbacks import PullbackStore
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

__all__ = ["Entry", "PullbackStore"]


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
