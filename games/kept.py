"""A small least-recently-used map, for what a process keeps between requests (the
replay's trees, the reviews' marks), safe to share between the threads of a process."""

from __future__ import annotations

import threading
from collections import OrderedDict


class Kept[K, V]:
    """At most ``size`` values, the least recently read forgotten first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
