"""A worker's bounded, thread-safe store of kept values, the least recently used dropped first:
what :mod:`game_cache` and :mod:`record_cache` share (each adds its own rule for when a kept
value may be used again).

>>> store: Lru[str, int] = Lru(2)
>>> store._store("a", 1); store._store("b", 2); store._store("c", 3)
>>> list(store._kept)
['b', 'c']
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most ``size`` values by key; subclasses read and write ``_kept`` under ``_lock``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.enabled = True
        """Off: nothing is kept (the benchmarks' reference)."""
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def _store(self, key: K, value: V) -> None:
        """Keep ``value`` at ``key`` as the most recently used, dropping the least recently
        used beyond ``size``; the caller holds ``_lock``."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
