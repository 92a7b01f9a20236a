"""Login rate limits: at most 5 failed logins a minute per (address, username) and 50 per address.

An attempt is counted *before* the (slow, argon2) password check and forgiven only when it
succeeds, so parallel attempts cannot all pass the check while none has failed yet. In one
process the counts live in memory (``LoginLimits``); with ``WEIQI_REDIS_URL`` they live in Redis
(``RedisLoginLimits``), shared by every worker.

>>> t = [0.0]
>>> limits = LoginLimits(clock=lambda: t[0])
>>> for _ in range(5):
...     limits.attempt("10.0.0.1", "li")
>>> limits.attempt("10.0.0.1", "li")
Traceback (most recent call last):
...
weiqi.server.ratelimit.TooManyAttempts: retry in 60 s
>>> limits.attempt("10.0.0.2", "li")  # another address is not affected
>>> t[0] = 60.0
>>> limits.attempt("10.0.0.1", "li")  # a minute later the failures have expired
>>> limits.succeeded("10.0.0.1", "li")  # a success forgives that user's attempts
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Hashable
from typing import Protocol

import redis


class TooManyAttempts(Exception):
    """Too many failed logins; ``retry_after`` is in seconds."""

    def __init__(self, retry_after: int) -> None:
        self.retry_after = retry_after
        super().__init__(f"retry in {retry_after} s")


class Limits(Protocol):
    """What the login route needs: count an attempt (or refuse it), forgive on success."""

    def attempt(self, address: str, username: str) -> None: ...

    def succeeded(self, address: str, username: str) -> None: ...


class _Window:
    """Attempt times per key within a sliding window."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: defaultdict[Hashable, deque[float]] = defaultdict(deque)

    def retry_after(self, key: Hashable, now: float) -> float:
        times = self.times.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if not times:
            del self.times[key]
            return 0.0
        return times[0] + self.seconds - now if len(times) >= self.limit else 0.0


class LoginLimits:
    """The limits of one process (the laptop and single-worker case)."""

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

    def attempt(self, address: str, username: str) -> None:
        """Count an attempt, or raise ``TooManyAttempts`` without counting it."""
        with self._lock:
            now = self._clock()
            wait = max(
                self._user.retry_after((address, username), now),
                self._address.retry_after(address, now),
            )
            if wait <= 0:
                self._user.times[(address, username)].append(now)
                self._address.times[address].append(now)
        if wait > 0:
            raise TooManyAttempts(math.ceil(wait))

    def succeeded(self, address: str, username: str) -> None:
        with self._lock:
            self._user.times.pop((address, username), None)


# One round trip, atomic in Redis, on Redis's clock (the one all workers share): drop expired
# attempts of both keys, refuse if either is full
# (answering the milliseconds until its oldest expires), else record the attempt in both.
_ATTEMPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local window = tonumber(ARGV[1])
local limits = {tonumber(ARGV[2]), tonumber(ARGV[3])}
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= limits[i] then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + window - now)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
end
return 0
"""


class RedisLoginLimits:
    """The same limits shared by every worker through Redis (sorted sets of attempt times)."""

    def __init__(
        self,
        client: redis.Redis,
        per_user: int = 5,
        per_address: int = 50,
        seconds: float = 60.0,
        prefix: str = "weiqi:login",
    ) -> None:
        self._client = client
        self._limits = (per_user, per_address)
        self._window_ms = int(seconds * 1000)
        self._prefix = prefix
        self._script = client.register_script(_ATTEMPT)

    @classmethod
    def from_url(cls, url: str, **kwargs: float | str) -> RedisLoginLimits:
        return cls(redis.Redis.from_url(url), **kwargs)  # type: ignore[arg-type]

    def _keys(self, address: str, username: str) -> list[str]:
        return [f"{self._prefix}:user:{address}:{username}", f"{self._prefix}:addr:{address}"]

    def attempt(self, address: str, username: str) -> None:
        wait = self._script(
            keys=self._keys(address, username),
            args=[self._window_ms, *self._limits, secrets.token_hex(8)],
        )
        if int(wait) > 0:
            raise TooManyAttempts(math.ceil(int(wait) / 1000))

    def succeeded(self, address: str, username: str) -> None:
        self._client.delete(self._keys(address, username)[0])
