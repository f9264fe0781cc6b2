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
        self.max_size = max_size

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

    @property
    def size(self) -> int:
        """Plans held now."""
        return len(self._plans)

    def clear(self) -> None:
        """Drops every plan (their device memory is freed)."""
        with self._lock:
            self._plans.clear()

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
        with self._lock:
            if self._max_size > 0:
                self._plans[key] = plan
                self._plans.move_to_end(key)
                self._trim()
        return plan

    def _trim(self) -> None:
        while len(self._plans) > self._max_size:
            self._plans.popitem(last=False)

    def __repr__(self) -> str:
        return f"PlanCache(size={self.size}, max_size={self.max_size})"


#: The process-wide cache the functions use.
plan_cache = PlanCache()
