"""Login rate limits, in process: at most 5 failed logins a minute per (address, username) and
50 per address. (Several server processes would share these through Redis; one is enough now.)

>>> t = [0.0]
>>> limits = LoginLimits(clock=lambda: t[0])
>>> for _ in range(5):
...     limits.check("10.0.0.1", "li")
...     limits.failed("10.0.0.1", "li")
>>> limits.check("10.0.0.1", "li")
Traceback (most recent call last):
...
weiqi.server.ratelimit.TooManyAttempts: retry in 60 s
>>> limits.check("10.0.0.2", "li")  # another address is not affected
>>> t[0] = 60.0
>>> limits.check("10.0.0.1", "li")  # a minute later the failures have expired
"""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Hashable


class TooManyAttempts(Exception):
    """Too many failed logins; ``retry_after`` is in seconds."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(f"retry in {retry_after} s")


class _Window:
    """Failure times per key within a sliding window."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.failures: defaultdict[Hashable, deque[float]] = defaultdict(deque)

    def retry_after(self, key: Hashable, now: float) -> float:
        times = self.failures.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if not times:
            del self.failures[key]
            return 0.0
        return times[0] + self.seconds - now if len(times) >= self.limit else 0.0


class LoginLimits:
    def __init__(
        self,
        per_user: int = 5,
        per_address: int = 50,
        seconds: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._user = _Window(per_user, seconds)
        self._address = _Window(per_address, seconds)
        self._clock = clock
        self._lock = threading.Lock()

    def check(self, address: str, username: str) -> None:
        """Raise ``TooManyAttempts`` if this address (and username) may not try now."""
        with self._lock:
            now = self._clock()
            wait = max(
                self._user.retry_after((address, username), now),
                self._address.retry_after(address, now),
            )
        if wait > 0:
            raise TooManyAttempts(math.ceil(wait))

    def failed(self, address: str, username: str) -> None:
        with self._lock:
            now = self._clock()
            self._user.failures[(address, username)].append(now)
            self._address.failures[address].append(now)

    def succeeded(self, address: str, username: str) -> None:
        with self._lock:
            self._user.failures.pop((address, username), None)
