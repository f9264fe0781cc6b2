"""The LRU cache of plans behind the functions (like ``torch.backends.cuda.cufft_plan_cache``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


class PlanCache:
    """Plans by key, least recently used dropped first once ``max_size`` is reached.

    >>> cache = PlanCache(max_size=2)
    >>> cache.get("a", lambda: 1), cache.get("b", lambda: 2), cache.get("c", lambda: 3)
    (1, 2, 3)
    >>> cache.size, "a" in cache
    (2, False)
    """

    def __init__(self, max_size: int = 4096) -> None:
        self._plans: "OrderedDict[Hashable, Any]" = OrderedDict()
        self._lock = threading.Lock()
        self._max_size = 0
        self._listeners: list = []
        self.max_size = max_size

    def add_listener(self, callback: Callable[[], None]) -> None:
        """Calls ``callback()`` whenever plans are dropped (``clear``, a smaller ``max_size``)."""
        self._listeners.append(callback)

    def _notify(self) -> None:
        for callback in self._listeners:
            callback()

    @property
    def max_size(self) -> int:
        """Most plans kept (0 disables caching)."""
        return self._max_size

    @max_size.setter
    def max_size(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"max_size must be a non-negative integer, got {value!r}")
        with self._lock:
            self._max_size = value
            self._trim()
        self._notify()

    @property
    def size(self) -> int:
        """Plans held now."""
        return len(self._plans)

    def clear(self) -> None:
        """Drops every plan (their device memory is freed)."""
        with self._lock:
            self._plans.clear()
        self._notify()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._plans

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The plan for ``key``, made by ``make()`` on a miss."""
        with self._lock:
            plan = self._plans.get(key)
            if plan is not None:
                self._plans.move_to_end(key)
                return plan
        plan = make()
        dropped = False
        with self._lock:
            if self._max_size > 0:
                self._plans[key] = plan
                self._plans.move_to_end(key)
                dropped = self._trim()
        if dropped:
            self._notify()
        return plan

    def _trim(self) -> bool:
        dropped = False
        while len(self._plans) > self._max_size:
            self._plans.popitem(last=False)
            dropped = True
        return dropped

    def __repr__(self) -> str:
        return f"PlanCache(size={self.size}, max_size={self.max_size})"


#: The process-wide cache the functions use.
plan_cache = PlanCache()
